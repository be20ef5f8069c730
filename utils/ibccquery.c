/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibccquery: Congestion Control (class 0x21) Gets, a drop-in replacement for
 * infiniband-diags' ibccquery.
 *
 *   ibccquery [options] [-c key] <op> <lid|guid> [port]
 *
 * Each operation prints one attribute the way libibmad's mad_dump_cc_* functions do,
 * with the reference's layout around them (blank lines, "SL:", "Port:", "Entry:" lines,
 * which log events and table entries are shown).  Failures end with
 * "operation <op>: <reason>" (status 255).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

#define ATTR_CLASS_PORT_INFO	0x01
#define ATTR_CONGESTION_INFO	0x11
#define ATTR_CONGESTION_KEY	0x12
#define ATTR_CONGESTION_LOG	0x13
#define ATTR_SWITCH_SETTING	0x14
#define ATTR_SWITCH_PORT	0x15
#define ATTR_CA_SETTING		0x16
#define ATTR_CONTROL_TABLE	0x17
#define ATTR_TIMESTAMP		0x18

/* The reference reads 48 port elements (the whole 192 data bytes) per block. */
#define SP_PER_BLOCK	 48
#define SP_ELEMENT_SIZE	 4
#define CT_PER_BLOCK	 64
#define CT_ENTRY_SIZE	 2
#define CA_ENTRY_SIZE	 8
#define CA_SLS		 16
#define LOG_SW_EVENTS	 15
#define LOG_SW_EVENT_OFF 40
#define LOG_SW_EVENT_LEN 12
#define LOG_CA_EVENTS	 13
#define LOG_CA_EVENT_OFF 12
#define LOG_CA_EVENT_LEN 16

static char portid_buf[512];

static const char *portid(const struct ibpath_path *dest)
{
	return ibdiag_portid_str(dest, portid_buf, sizeof(portid_buf));
}

/* The "Name:....value" lines of a structure in wire format (all its displayed fields, or
 * those from `first` to `last`). */
static void print_fields(const struct ibstruct_desc *desc, const uint8_t *wire, size_t len,
			 const char *first, const char *last)
{
	char host[2048] __attribute__((aligned(8)));
	char buf[4096];

	if (ibstruct_desc_host_size(desc) > sizeof(host) ||
	    ibstruct_unpack(desc, host, wire, len) < 0)
		return;
	if (first)
		ibstruct_snprint_diags_range(buf, sizeof(buf), desc, host, first, last);
	else
		ibstruct_snprint_diags(buf, sizeof(buf), desc, host);
	fputs(buf, stdout);
}

static bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* The plain attributes: a header and the fields. */
static const char *dump_simple(const struct ibpath_path *dest, uint16_t attr, const char *title,
			       const struct ibstruct_desc *desc, const char *failed)
{
	uint8_t data[CC_DATA_SIZE];

	if (cc_get(dest, attr, 0, data) < 0)
		return failed;
	printf("# %s: %s\n", title, portid(dest));
	print_fields(desc, data, sizeof(data), NULL, NULL);
	return NULL;
}

static const char *class_port_info(const struct ibpath_path *dest, char **argv, int argc)
{
	(void)argv;
	(void)argc;
	return dump_simple(dest, ATTR_CLASS_PORT_INFO, "ClassPortInfo",
			   ibstruct_mad_class_port_info_desc(), "class port info query failed");
}

static const char *congestion_info(const struct ibpath_path *dest, char **argv, int argc)
{
	(void)argv;
	(void)argc;
	return dump_simple(dest, ATTR_CONGESTION_INFO, "CongestionInfo",
			   ibstruct_cc_congestion_info_desc(), "congestion info query failed");
}

static const char *congestion_key_info(const struct ibpath_path *dest, char **argv, int argc)
{
	(void)argv;
	(void)argc;
	return dump_simple(dest, ATTR_CONGESTION_KEY, "CongestionKeyInfo",
			   ibstruct_cc_congestion_key_info_desc(),
			   "congestion key info query failed");
}

static const char *switch_congestion_setting(const struct ibpath_path *dest, char **argv,
					     int argc)
{
	(void)argv;
	(void)argc;
	return dump_simple(dest, ATTR_SWITCH_SETTING, "SwitchCongestionSetting",
			   ibstruct_cc_switch_congestion_setting_desc(),
			   "switch congestion setting query failed");
}

static const char *timestamp(const struct ibpath_path *dest, char **argv, int argc)
{
	(void)argv;
	(void)argc;
	return dump_simple(dest, ATTR_TIMESTAMP, "Timestamp", ibstruct_cc_timestamp_desc(),
			   "timestamp query failed");
}

/* The log events that are not all zero, each followed by a blank line. */
static void print_events(const struct ibstruct_desc *desc, const uint8_t *ev, size_t len,
			 int count)
{
	for (; count > 0; count--, ev += len) {
		if (all_zero(ev, len))
			continue;
		print_fields(desc, ev, len, NULL, NULL);
		putchar('\n');
	}
}

/* The common part (LogType, CongestionFlags), then the switch or CA part and the events
 * that are not all zero, each followed by a blank line. */
static const char *congestion_log(const struct ibpath_path *dest, char **argv, int argc)
{
	const struct ibstruct_desc *sw = ibstruct_cc_congestion_log_switch_desc();
	const struct ibstruct_desc *ca = ibstruct_cc_congestion_log_ca_desc();
	uint8_t data[CC_LOG_SIZE];

	(void)argv;
	(void)argc;
	if (cc_get(dest, ATTR_CONGESTION_LOG, 0, data) < 0)
		return "congestion log query failed";
	if (data[0] != 1 && data[0] != 2)
		return "unrecognized log type";
	printf("# CongestionLog: %s\n", portid(dest));
	print_fields(sw, data, sizeof(data), "LogType", "CongestionFlags");
	if (data[0] == 1) {
		print_fields(sw, data, sizeof(data), "LogEventsCounter", "PortMap");
		putchar('\n');
		print_events(ibstruct_cc_congestion_log_entry_switch_desc(),
			     data + LOG_SW_EVENT_OFF, LOG_SW_EVENT_LEN, LOG_SW_EVENTS);
	} else {
		print_fields(ca, data, sizeof(data), "ThresholdEventCounter", "CurrentTimeStamp");
		putchar('\n');
		print_events(ibstruct_cc_congestion_log_entry_ca_desc(), data + LOG_CA_EVENT_OFF,
			     LOG_CA_EVENT_LEN, LOG_CA_EVENTS);
	}
	return NULL;
}

/* One port's element, or every port's (0..numports) with "Port:" lines.  As the reference,
 * block b holds ports 48b..48b+47 and the element of port p is at (p % 48) * 4. */
static const char *switch_port_congestion_setting(const struct ibpath_path *dest, char **argv,
						  int argc)
{
	const struct ibstruct_desc *el = ibstruct_cc_switch_port_congestion_setting_element_desc();
	uint8_t data[CC_DATA_SIZE];
	int numports, portnum = 0, blocks, b, j, shown = 0;
	const char *err;

	if (argc > 0)
		portnum = (int)strtol(argv[0], NULL, 0);
	err = cc_switch_ports(dest, "node info query failed", &numports);
	if (err)
		return err;
	printf("# SwitchPortCongestionSetting: %s\n", portid(dest));

	if (portnum) {
		if (portnum > numports)
			return "invalid port number specified";
		if (portnum < 0)
			return "invalid port number specified"; /* the reference reads outside its buffer */
		if (cc_get(dest, ATTR_SWITCH_PORT, (uint32_t)(portnum / SP_PER_BLOCK), data) < 0)
			return "switch port congestion setting query failed";
		print_fields(el, data + (portnum % SP_PER_BLOCK) * SP_ELEMENT_SIZE, SP_ELEMENT_SIZE,
			     NULL, NULL);
		return NULL;
	}

	blocks = numports / SP_PER_BLOCK + 1;
	for (b = 0; b < blocks; b++) {
		if (cc_get(dest, ATTR_SWITCH_PORT, (uint32_t)b, data) < 0)
			return "switch port congestion setting query failed";
		for (j = 0; j < SP_PER_BLOCK && shown <= numports; j++, shown++) {
			printf("Port:............................%u\n", b * SP_PER_BLOCK + j);
			print_fields(el, data + j * SP_ELEMENT_SIZE, SP_ELEMENT_SIZE, NULL, NULL);
			putchar('\n');
		}
	}
	return NULL;
}

static const char *ca_congestion_setting(const struct ibpath_path *dest, char **argv, int argc)
{
	const struct ibstruct_desc *cs = ibstruct_cc_ca_congestion_setting_desc();
	uint8_t data[CC_DATA_SIZE];
	int i;

	(void)argv;
	(void)argc;
	if (cc_get(dest, ATTR_CA_SETTING, 0, data) < 0)
		return "ca congestion setting query failed";
	printf("# CACongestionSetting: %s\n", portid(dest));
	print_fields(cs, data, sizeof(data), "Port_Control", "Control_Map");
	putchar('\n');
	for (i = 0; i < CA_SLS; i++) {
		printf("SL:..............................%u\n", i);
		print_fields(ibstruct_cc_ca_congestion_entry_desc(), data + 4 + i * CA_ENTRY_SIZE,
			     CA_ENTRY_SIZE, NULL, NULL);
		putchar('\n');
	}
	return NULL;
}

/* CCTI_Limit, then entries 0..CCTI_Limit (one more block read per 64 entries). */
static const char *congestion_control_table(const struct ibpath_path *dest, char **argv,
					    int argc)
{
	const struct ibstruct_desc *ct = ibstruct_cc_congestion_control_table_desc();
	uint8_t data[CC_DATA_SIZE];
	int limit, b, j, shown = 0;

	(void)argv;
	(void)argc;
	if (cc_get(dest, ATTR_CONTROL_TABLE, 0, data) < 0)
		return "congestion control table query failed";
	limit = data[0] << 8 | data[1];
	printf("# CongestionControlTable: %s\n", portid(dest));
	print_fields(ct, data, sizeof(data), "CCTI_Limit", "CCTI_Limit");
	putchar('\n');
	if (!limit)
		return NULL;
	for (b = 0; b < limit / CT_PER_BLOCK + 1; b++) {
		if (b && cc_get(dest, ATTR_CONTROL_TABLE, (uint32_t)b, data) < 0)
			return "congestion control table query failed";
		for (j = 0; j < CT_PER_BLOCK && shown <= limit; j++, shown++) {
			printf("Entry:...........................%u\n", b * CT_PER_BLOCK + j);
			print_fields(ibstruct_cc_congestion_control_table_entry_desc(),
				     data + 4 + j * CT_ENTRY_SIZE, CT_ENTRY_SIZE, NULL, NULL);
			putchar('\n');
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct cc_op ops[] = {
		{ "ClassPortInfo", "CP", class_port_info, false, NULL },
		{ "CongestionInfo", "CI", congestion_info, false, NULL },
		{ "CongestionKeyInfo", "CK", congestion_key_info, false, NULL },
		{ "CongestionLog", "CL", congestion_log, false, NULL },
		{ "SwitchCongestionSetting", "SS", switch_congestion_setting, false, NULL },
		{ "SwitchPortCongestionSetting", "SP", switch_port_congestion_setting, true, NULL },
		{ "CACongestionSetting", "CS", ca_congestion_setting, false, NULL },
		{ "CongestionControlTable", "CT", congestion_control_table, false, NULL },
		{ "Timestamp", "TI", timestamp, false, NULL },
		{ NULL, NULL, NULL, false, NULL },
	};
	static const char *const examples[] = {
		"CongestionInfo 3\t\t\t# Congestion Info by lid",
		"SwitchPortCongestionSetting 3\t# Query all Switch Port Congestion Settings",
		"SwitchPortCongestionSetting 3 1\t# Query Switch Port Congestion Setting for port 1",
		NULL,
	};

	cc_main(argc, argv, ops, false, examples);
}
