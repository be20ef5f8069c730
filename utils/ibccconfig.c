/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibccconfig: Congestion Control (class 0x21) Sets, a drop-in replacement for
 * infiniband-diags' ibccconfig.
 *
 *   ibccconfig [options] [-c key] <op> <lid|guid> <values...>
 *
 * The operands are read as the reference reads them (strtoul/strtoull base 0, the masks as
 * up to 64 hex digits, CCT entries as shift:multiplier), with its messages and its checks
 * only: values wider than their field are cut to the field's width, as libibmad's
 * mad_encode_field() does.  Nothing is printed on success.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

#define ATTR_CONGESTION_KEY 0x12
#define ATTR_SWITCH_SETTING 0x14
#define ATTR_SWITCH_PORT    0x15
#define ATTR_CA_SETTING	    0x16
#define ATTR_CONTROL_TABLE  0x17

#define MASK(bits) ((1u << (bits)) - 1)

/* ---- Operand parsing (the reference's rules and messages) ---------------------------- */

static const char *parse_u64(const char *arg, uint64_t *val)
{
	char *end = NULL;

	errno = 0;
	*val = strtoull(arg, &end, 0);
	if ((end && *end) || errno)
		return errno == ERANGE ? "value out of range" : "invalid integer input";
	return NULL;
}

/* strtoul into 32 bits: a larger value that strtoul accepts is cut, as the reference's
 * assignment to a uint32_t does. */
static const char *parse_u32(const char *arg, uint32_t *val, int base)
{
	char *end = NULL;

	errno = 0;
	*val = (uint32_t)strtoul(arg, &end, base);
	if ((end && *end) || errno)
		return errno == ERANGE ? "value out of range" : "invalid integer input";
	return NULL;
}

static const char *parse_u32s(char **argv, uint32_t *vals, int n)
{
	const char *err;
	int i;

	for (i = 0; i < n; i++)
		if ((err = parse_u32(argv[i], &vals[i], 0)))
			return err;
	return NULL;
}

/* A 256-bit mask given as up to 64 hex digits ("0x" optional), right-aligned in 32 bytes
 * (big-endian). */
static const char *parse_mask256(const char *arg, uint8_t out[32])
{
	size_t digits, i;
	int pos;

	if (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2))
		arg += 2;
	digits = strlen(arg);
	for (i = 0; i < digits; i++)
		if (!isxdigit((unsigned char)arg[i]))
			return "invalid hex digit read";
	if (digits > 64)
		return "hex code too long";
	memset(out, 0, 32);
	/* from the last digit backwards, two digits per byte */
	for (i = 0, pos = 31; i < digits; i++) {
		char c = arg[digits - 1 - i];
		unsigned v = (unsigned)(isdigit((unsigned char)c) ? c - '0' :
								   tolower((unsigned char)c) - 'a' + 10);

		out[pos] |= (uint8_t)(i % 2 ? v << 4 : v);
		if (i % 2)
			pos--;
	}
	return NULL;
}

/* "shift:multiplier" */
static const char *parse_cct(const char *arg, uint32_t *shift, uint32_t *mult)
{
	const char *colon = strchr(arg, ':');
	char head[1024];
	const char *err;
	size_t n;

	if (!colon)
		return "ccts are formatted shift:multiplier";
	n = (size_t)(colon - arg);
	if (n >= sizeof(head))
		n = sizeof(head) - 1;
	memcpy(head, arg, n);
	head[n] = '\0';
	if ((err = parse_u32(head, shift, 0)))
		return err;
	return parse_u32(colon + 1, mult, 0);
}

static const char *set_attr(const struct ibpath_path *dest, uint16_t attr, uint32_t mod,
			    const struct ibstruct_desc *desc, const void *host, const char *failed)
{
	uint8_t payload[CC_DATA_SIZE] = { 0 };

	if (ibstruct_pack(desc, host, payload, sizeof(payload)) < 0)
		return failed;
	return cc_set(dest, attr, mod, payload, NULL) < 0 ? failed : NULL;
}

/* ---- Operations ------------------------------------------------------------------------- */

static const char *congestion_key_info(const struct ibpath_path *dest, char **argv, int argc)
{
	struct ibstruct_cc_congestion_key_info ck = { 0 };
	uint32_t v[3];
	uint64_t key;
	const char *err;

	if (argc != 4)
		return "invalid number of parameters for CongestionKeyInfo";
	if ((err = parse_u64(argv[0], &key)) || (err = parse_u32s(argv + 1, v, 3)))
		return err;
	if (v[0] != 0 && v[0] != 1)
		return "invalid cc_keyprotectbit value";
	if (v[1] > 0xffff)
		return "invalid cc_keyleaseperiod value";
	if (v[2] > 0xffff)
		return "invalid cc_keyviolations value";
	ck.CCKey = key;
	ck.CCKeyProtectBit = (uint8_t)v[0];
	ck.CCKeyLeasePeriod = (uint16_t)v[1];
	/* a non-zero value leaves the node's counter unchanged, 0 clears it (IBA A10) */
	ck.CCKeyViolations = (uint16_t)v[2];
	return set_attr(dest, ATTR_CONGESTION_KEY, 0, ibstruct_cc_congestion_key_info_desc(), &ck,
			"congestion key info config failed");
}

static const char *switch_congestion_setting(const struct ibpath_path *dest, char **argv,
					     int argc)
{
	struct ibstruct_cc_switch_congestion_setting ss = { 0 };
	uint32_t control_map, threshold, packet_size, cs_threshold, shift, mult, marking_rate;
	const char *err;

	if (argc != 8)
		return "invalid number of parameters for SwitchCongestionSetting";
	if ((err = parse_u32(argv[0], &control_map, 0)) ||
	    (err = parse_mask256(argv[1], ss.victimMask)) ||
	    (err = parse_mask256(argv[2], ss.creditMask)) ||
	    (err = parse_u32(argv[3], &threshold, 0)) ||
	    (err = parse_u32(argv[4], &packet_size, 0)) ||
	    (err = parse_u32(argv[5], &cs_threshold, 0)) ||
	    (err = parse_cct(argv[6], &shift, &mult)) ||
	    (err = parse_u32(argv[7], &marking_rate, 0)))
		return err;
	ss.controlMap = control_map;
	ss.threshold = (uint8_t)(threshold & MASK(4));
	ss.packetSize = (uint8_t)(packet_size & MASK(8));
	ss.CSThreshold = (uint8_t)(cs_threshold & MASK(4));
	/* a CCT entry: shift in the top 2 bits, the multiplier below (not masked first) */
	ss.CSReturnDelay = (uint16_t)((mult | shift << 14) & MASK(16));
	ss.markingRate = (uint16_t)(marking_rate & MASK(16));
	return set_attr(dest, ATTR_SWITCH_SETTING, 0, ibstruct_cc_switch_congestion_setting_desc(),
			&ss, "switch congestion setting config failed");
}

/* Reads the block holding the port (32 ports per block), changes the port's element and
 * writes the block back -- to block port/48, as the reference does. */
static const char *switch_port_congestion_setting(const struct ibpath_path *dest, char **argv,
						  int argc)
{
	const struct ibstruct_desc *el = ibstruct_cc_switch_port_congestion_setting_element_desc();
	struct ibstruct_cc_switch_port_congestion_setting_element e;
	uint8_t payload[CC_DATA_SIZE];
	uint32_t v[6];
	int numports;
	uint8_t *p;
	const char *err;

	if (argc != 6)
		return "invalid number of parameters for SwitchPortCongestion";
	if ((err = parse_u32s(argv, v, 6)))
		return err;
	err = cc_switch_ports(dest, "node info config failed", &numports);
	if (err)
		return err;
	if (v[0] > (uint32_t)numports)
		return "invalid port number specified";
	if (cc_get(dest, ATTR_SWITCH_PORT, v[0] / 32, payload) < 0)
		return "switch port congestion setting query failed";
	p = payload + (v[0] % 32) * 4;
	if (ibstruct_unpack(el, &e, p, 4) < 0)
		return "switch port congestion setting query failed";
	e.valid = (uint8_t)(v[1] & MASK(1));
	e.controlType = (uint8_t)(v[2] & MASK(1));
	e.threshold = (uint8_t)(v[3] & MASK(4));
	e.packetSize = (uint8_t)(v[4] & MASK(8));
	e.congParmMarkingRate = (uint16_t)(v[5] & MASK(16));
	if (ibstruct_pack(el, &e, p, 4) < 0 ||
	    cc_set(dest, ATTR_SWITCH_PORT, v[0] / 48, payload, NULL) < 0)
		return "switch port congestion setting config failed";
	return NULL;
}

/* The same entry for every SL whose bit is set in the control map. */
static const char *ca_congestion_setting(const struct ibpath_path *dest, char **argv, int argc)
{
	struct ibstruct_cc_ca_congestion_setting cs = { 0 };
	uint32_t v[6];
	const char *err;
	int i;

	if (argc != 6)
		return "invalid number of parameters for CACongestionSetting";
	if ((err = parse_u32s(argv, v, 6)))
		return err;
	cs.portControl = (uint16_t)(v[0] & MASK(16));
	cs.controlMap = (uint16_t)(v[1] & MASK(16));
	for (i = 0; i < 16; i++) {
		struct ibstruct_cc_ca_congestion_entry *e = &cs.CACongestionEntryList[i];

		if (!(v[1] & (1u << i)))
			continue;
		e->CCTITimer = (uint16_t)(v[2] & MASK(16));
		e->CCTIIncrease = (uint8_t)(v[3] & MASK(8));
		e->triggerThreshold = (uint8_t)(v[4] & MASK(8));
		e->CCTIMin = (uint8_t)(v[5] & MASK(8));
	}
	return set_attr(dest, ATTR_CA_SETTING, 0, ibstruct_cc_ca_congestion_setting_desc(), &cs,
			"ca congestion setting config failed");
}

/* CCTI_Limit, the block index and that block's entries (all of the table's remaining
 * entries when CCTI_Limit is not 0). */
static const char *congestion_control_table(const struct ibpath_path *dest, char **argv,
					    int argc)
{
	struct ibstruct_cc_congestion_control_table ct = { 0 };
	uint32_t limit, index, shift, mult;
	const char *err;
	int i, n = argc - 2;

	if (argc < 2 || argc > 66)
		return "invalid number of parameters for CongestionControlTable";
	if ((err = parse_u32(argv[0], &limit, 0)) || (err = parse_u32(argv[1], &index, 0)))
		return err;
	if (limit && limit + 1 != index * 64 + (uint32_t)n)
		return "invalid number of cct entries input given ccti_limit and index";
	for (i = 0; i < n; i++) {
		if ((err = parse_cct(argv[i + 2], &shift, &mult)))
			return err;
		ct.CCTIEntryList[i].CCTShift = (uint8_t)(shift & MASK(2));
		ct.CCTIEntryList[i].CCTMultiplier = (uint16_t)(mult & MASK(14));
	}
	ct.CCTILimit = (uint16_t)(limit & MASK(16));
	return set_attr(dest, ATTR_CONTROL_TABLE, index,
			ibstruct_cc_congestion_control_table_desc(), &ct,
			"congestion control table config failed");
}

int main(int argc, char **argv)
{
	static const struct cc_op ops[] = {
		{ "CongestionKeyInfo", "CK", congestion_key_info, false,
		  "<cckey> <cckeyprotectbit> <cckeyleaseperiod> <cckeyviolations>" },
		{ "SwitchCongestionSetting", "SS", switch_congestion_setting, false,
		  "<controlmap> <victimmask> <creditmask> <threshold> <packetsize> "
		  "<csthreshold> <csreturndelay> <markingrate>" },
		{ "SwitchPortCongestionSetting", "SP", switch_port_congestion_setting, true,
		  "<valid> <control_type> <threshold> <packet_size> <cong_parm_marking_rate>" },
		{ "CACongestionSetting", "CS", ca_congestion_setting, false,
		  "<port_control> <control_map> <ccti_timer> <ccti_increase> "
		  "<trigger_threshold> <ccti_min>" },
		{ "CongestionControlTable", "CT", congestion_control_table, false,
		  "<cctilimit> <index> <cctentry> <cctentry> ..." },
		{ NULL, NULL, NULL, false, NULL },
	};
	static const char *const examples[] = {
		"SwitchCongestionSetting 2 0x1F 0x1FFFFFFFFF 0x0 0xF 8 0 0:0 1\t# Configure Switch "
		"Congestion Settings",
		"CACongestionSetting 1 0 0x3 150 1 0 0\t\t# Configure CA Congestion Settings to SL 0 "
		"and SL 1",
		"CACongestionSetting 1 0 0x4 200 1 0 0\t\t# Configure CA Congestion Settings to SL 2",
		"CongestionControlTable 1 63 0 0:0 0:1 ...\t# Configure first block of Congestion "
		"Control Table",
		"CongestionControlTable 1 127 0 0:64 0:65 ...\t# Configure second block of Congestion "
		"Control Table",
		NULL,
	};

	cc_main(argc, argv, ops, true, examples);
}
