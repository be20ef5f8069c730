// SPDX-License-Identifier: BSD-3-Clause
/*
 * The record dumps of infiniband-diags' saquery, byte for byte.  saquery prints some
 * values as raw wire bytes (e.g. PathRecord "mtu" is the selector and the MTU together),
 * so these printers read the record's wire bytes; the layouts come from the spec.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ibstruct-private.h"

static void gid_text(char *out, size_t len, const uint8_t *raw)
{
	ibstruct_gid_t g;

	memcpy(g.raw, raw, 16);
	ibstruct_gid_format(out, len, &g);
}

/* saquery shows node descriptions through clean_nodedesc(): at most 64 bytes,
 * non-printable characters as spaces. */
static void node_desc_text(char *out, const uint8_t *desc)
{
	unsigned i;

	for (i = 0; i < 64 && desc[i]; i++)
		out[i] = (desc[i] >= 0x20 && desc[i] < 0x7f) ? (char)desc[i] : ' ';
	out[i] = 0;
}

static void node_record(struct ibs_out *o, const uint8_t *p, const char *name)
{
	static const char types[][16] = { "UNKNOWN", "Channel Adapter", "Switch", "Router" };
	const uint8_t *ni = p + 4;
	char desc[65];

	node_desc_text(desc, p + 44);
	ibs_out_printf(o,
		"NodeRecord dump:\n"
		"\t\tlid.....................%u\n"
		"\t\treserved................0x%X\n"
		"\t\tbase_version............0x%X\n"
		"\t\tclass_version...........0x%X\n"
		"\t\tnode_type...............%s\n"
		"\t\tnum_ports...............%u\n"
		"\t\tsys_guid................0x%016" PRIx64 "\n"
		"\t\tnode_guid...............0x%016" PRIx64 "\n"
		"\t\tport_guid...............0x%016" PRIx64 "\n"
		"\t\tpartition_cap...........0x%X\n"
		"\t\tdevice_id...............0x%X\n"
		"\t\trevision................0x%X\n"
		"\t\tport_num................%u\n"
		"\t\tvendor_id...............0x%X\n"
		"\t\tNodeDescription.........%s\n",
		ibs_be16(p), ibs_be16(p + 2), ni[0], ni[1],
		ni[2] <= 3 ? types[ni[2]] : "UNKNOWN", ni[3], ibs_be64(ni + 4), ibs_be64(ni + 12),
		ibs_be64(ni + 20), ibs_be16(ni + 28), ibs_be16(ni + 30), ibs_be32(ni + 32), ni[36],
		ibs_be32(ni + 36) & 0xffffff, name ? name : desc);
}

static void path_record(struct ibs_out *o, const uint8_t *p)
{
	char dgid[64], sgid[64];

	gid_text(dgid, sizeof(dgid), p + 8);
	gid_text(sgid, sizeof(sgid), p + 24);
	ibs_out_printf(o,
		"PathRecord dump:\n"
		"\t\tservice_id..............0x%016" PRIx64 "\n"
		"\t\tdgid....................%s\n"
		"\t\tsgid....................%s\n"
		"\t\tdlid....................%u\n"
		"\t\tslid....................%u\n"
		"\t\thop_flow_raw............0x%X\n"
		"\t\ttclass..................0x%X\n"
		"\t\tnum_path_revers.........0x%X\n"
		"\t\tpkey....................0x%X\n"
		"\t\tqos_class...............0x%X\n"
		"\t\tsl......................0x%X\n"
		"\t\tmtu.....................0x%X\n"
		"\t\trate....................0x%X\n"
		"\t\tpkt_life................0x%X\n"
		"\t\tpreference..............0x%X\n"
		"\t\tresv2...................0x%02X%02X%02X%02X%02X%02X\n",
		ibs_be64(p), dgid, sgid, ibs_be16(p + 40), ibs_be16(p + 42), ibs_be32(p + 44), p[48],
		p[49], ibs_be16(p + 50), ibs_be16(p + 52) >> 4, p[53] & 0xf, p[54], p[55], p[56], p[57],
		p[58], p[59], p[60], p[61], p[62], p[63]);
}

static void class_port_info(struct ibs_out *o, const uint8_t *p)
{
	char rgid[64], tgid[64];

	gid_text(rgid, sizeof(rgid), p + 8);
	gid_text(tgid, sizeof(tgid), p + 40);
	ibs_out_printf(o,
		"SA ClassPortInfo:\n"
		"\t\tBase version.............%d\n"
		"\t\tClass version............%d\n"
		"\t\tCapability mask..........0x%04X\n"
		"\t\tCapability mask 2........0x%08X\n"
		"\t\tResponse time value......0x%02X\n"
		"\t\tRedirect GID.............%s\n"
		"\t\tRedirect TC/SL/FL........0x%08X\n"
		"\t\tRedirect LID.............%u\n"
		"\t\tRedirect PKey............0x%04X\n"
		"\t\tRedirect QP..............0x%08X\n"
		"\t\tRedirect QKey............0x%08X\n"
		"\t\tTrap GID.................%s\n"
		"\t\tTrap TC/SL/FL............0x%08X\n"
		"\t\tTrap LID.................%u\n"
		"\t\tTrap PKey................0x%04X\n"
		"\t\tTrap HL/QP...............0x%08X\n"
		"\t\tTrap QKey................0x%08X\n",
		p[0], p[1], ibs_be16(p + 2), ibs_be32(p + 4) >> 5, p[7] & 0x1f, rgid, ibs_be32(p + 24),
		ibs_be16(p + 28), ibs_be16(p + 30), ibs_be32(p + 32), ibs_be32(p + 36), tgid,
		ibs_be32(p + 56), ibs_be16(p + 60), ibs_be16(p + 62), ibs_be32(p + 64), ibs_be32(p + 68));
}

static void portinfo_record(struct ibs_out *o, const uint8_t *p, unsigned flags)
{
	const struct ibstruct_desc *d = ibstruct_smp_port_info_desc();
	struct ibstruct_smp_port_info pi;
	char line[2048];

	if (flags & IBSTRUCT_SAQ_BRIEF) {
		ibs_out_printf(o,
			"PortInfoRecord dump:\n"
			"\t\tEndPortLid..............%u\n"
			"\t\tPortNum.................%u\n"
			"\t\tbase_lid................%u\n"
			"\t\tmaster_sm_base_lid......%u\n"
			"\t\tcapability_mask.........0x%X\n",
			ibs_be16(p), p[2], ibs_be16(p + 4 + 16), ibs_be16(p + 4 + 18),
			ibs_be32(p + 4 + 20));
		return;
	}
	ibs_out_printf(o,
		"PortInfoRecord dump:\n"
		"\tRID\n"
		"\t\tEndPortLid..............%u\n"
		"\t\tPortNum.................%u\n"
		"\t\tOptions.................0x%x\n"
		"\tPortInfo dump:\n",
		ibs_be16(p), p[2], p[3]);
	ibstruct_smp_port_info_unpack(&pi, p + 4, 64);
	/* ibdiag_common's dump_portinfo(pi, 2): each line behind two tabs */
	if (flags & IBSTRUCT_SAQ_SHOW_KEYS)
		ibstruct_snprint_diags_field(line, sizeof(line), d, &pi, "MKey", NULL);
	else
		ibstruct_snprint_diags_line(line, sizeof(line), "Mkey", "<not displayed>");
	ibs_out_printf(o, "\t\t%s\n", line);
	{
		char body[8192], *s, *nl;

		ibstruct_snprint_diags_range(body, sizeof(body), d, &pi, "GidPrefix", "RoundTrip");
		for (s = body; *s; s = nl + 1) {
			nl = strchr(s, '\n');
			if (!nl)
				break;
			*nl = 0;
			/* capability mask continuation lines carry their own tabs */
			ibs_out_printf(o, "%s%s\n", s[0] == '\t' ? "" : "\t\t", s);
		}
		ibstruct_snprint_diags_range(body, sizeof(body), d, &pi, "CapabilityMask2",
					     "LinkSpeedExtEnabled");
		for (s = body; *s; s = nl + 1) {
			nl = strchr(s, '\n');
			if (!nl)
				break;
			*nl = 0;
			ibs_out_printf(o, "%s%s\n", s[0] == '\t' ? "" : "\t\t", s);
		}
	}
}

/* ProxyJoin as saquery reads it on x86: a one-bit C bit-field, i.e. bit 0 of byte 49 (the IBA
 * puts it in the top bit). */
static void mcmember_record(struct ibs_out *o, const uint8_t *p)
{
	char mgid[64], gid[64];
	uint32_t sfh = ibs_be32(p + 44);

	gid_text(mgid, sizeof(mgid), p);
	gid_text(gid, sizeof(gid), p + 16);
	ibs_out_printf(o,
		"MCMember Record dump:\n"
		"\t\tMGID....................%s\n"
		"\t\tPortGid.................%s\n"
		"\t\tqkey....................0x%x\n"
		"\t\tmlid....................0x%x\n"
		"\t\tmtu.....................0x%x\n"
		"\t\tTClass..................0x%x\n"
		"\t\tpkey....................0x%x\n"
		"\t\trate....................0x%x\n"
		"\t\tpkt_life................0x%x\n"
		"\t\tSL......................0x%x\n"
		"\t\tFlowLabel...............0x%x\n"
		"\t\tHopLimit................0x%x\n"
		"\t\tScope...................0x%x\n"
		"\t\tJoinState...............0x%x\n"
		"\t\tProxyJoin...............0x%x\n",
		mgid, gid, ibs_be32(p + 32), ibs_be16(p + 36), p[38], p[39], ibs_be16(p + 40), p[42],
		p[43], sfh >> 28, (sfh >> 8) & 0xfffff, sfh & 0xff, p[48] >> 4, p[48] & 0xf, p[49] & 1);
}

static void service_record(struct ibs_out *o, const uint8_t *p, unsigned flags)
{
	char gid[64], key[40], name[65];
	unsigned i;

	gid_text(gid, sizeof(gid), p + 8);
	snprintf(key, sizeof(key), "0x");
	for (i = 0; i < 16; i++)
		snprintf(key + 2 + 2 * i, sizeof(key) - 2 - 2 * i, "%02x", p[32 + i]);
	memcpy(name, p + 48, 64);
	name[64] = 0;
	ibs_out_printf(o,
		"ServiceRecord dump:\n"
		"\t\tServiceID...............0x%016" PRIx64 "\n"
		"\t\tServiceGID..............%s\n"
		"\t\tServiceP_Key............0x%X\n"
		"\t\tServiceLease............0x%X\n"
		"\t\tServiceKey..............%s\n"
		"\t\tServiceName.............%s\n",
		ibs_be64(p), gid, ibs_be16(p + 24), ibs_be32(p + 28),
		flags & IBSTRUCT_SAQ_SHOW_KEYS ? key : "<not displayed>", name);
	for (i = 0; i < 16; i++)
		ibs_out_printf(o, "\t\tServiceData8.%u%s0x%X\n", i + 1,
			       i + 1 < 10 ? ".........." : ".........", p[112 + i]);
	for (i = 0; i < 8; i++)
		ibs_out_printf(o, "\t\tServiceData16.%u.........0x%X\n", i + 1, ibs_be16(p + 128 + 2 * i));
	for (i = 0; i < 4; i++)
		ibs_out_printf(o, "\t\tServiceData32.%u.........0x%X\n", i + 1, ibs_be32(p + 144 + 4 * i));
	for (i = 0; i < 2; i++)
		ibs_out_printf(o, "\t\tServiceData64.%u.........0x%016" PRIx64 "\n", i + 1,
			       ibs_be64(p + 160 + 8 * i));
}

static void sm_info_record(struct ibs_out *o, const uint8_t *p)
{
	const uint8_t *s = p + 4;

	ibs_out_printf(o,
		"SMInfoRecord dump:\n"
		"\t\tRID\n"
		"\t\tLID...................%u\n"
		"\t\tSMInfo dump:\n"
		"\t\tGUID..................0x%016" PRIx64 "\n"
		"\t\tSM_Key................0x%016" PRIx64 "\n"
		"\t\tActCount..............%u\n"
		"\t\tPriority..............%u\n"
		"\t\tSMState...............%u\n",
		ibs_be16(p), ibs_be64(s), ibs_be64(s + 8), ibs_be32(s + 16), s[20] >> 4, s[20] & 0xf);
}

static void switch_info_record(struct ibs_out *o, const uint8_t *p, unsigned flags)
{
	const uint8_t *s = p + 4;

	ibs_out_printf(o,
		"SwitchInfoRecord dump:\n"
		"\t\tRID\n"
		"\t\tLID.....................................%u\n"
		"\t\tSwitchInfo dump:\n"
		"\t\tLinearFDBCap............................0x%X\n"
		"\t\tRandomFDBCap............................0x%X\n"
		"\t\tMulticastFDBCap.........................0x%X\n"
		"\t\tLinearFDBTop............................0x%X\n"
		"\t\tDefaultPort.............................%u\n"
		"\t\tDefaultMulticastPrimaryPort.............%u\n"
		"\t\tDefaultMulticastNotPrimaryPort..........%u\n"
		"\t\tLifeTimeValue/PortStateChange/OpSL2VL...0x%X\n"
		"\t\tLIDsPerPort.............................0x%X\n"
		"\t\tPartitionEnforcementCap.................0x%X\n"
		"\t\tflags...................................0x%X\n",
		ibs_be16(p), ibs_be16(s), ibs_be16(s + 2), ibs_be16(s + 4), ibs_be16(s + 6), s[8], s[9],
		s[10], s[11], ibs_be16(s + 12), ibs_be16(s + 14), s[16]);
	if (flags & IBSTRUCT_SAQ_MCAST_TOP)
		ibs_out_printf(o, "\t\tMulticastFDBTop.........................0x%X\n", ibs_be16(s + 18));
}

static void inform_info_record(struct ibs_out *o, const uint8_t *p, unsigned flags)
{
	const uint8_t *ii = p + 24;
	char sgid[64], gid[64];
	bool generic = ii[22] != 0;

	gid_text(sgid, sizeof(sgid), p);
	gid_text(gid, sizeof(gid), ii);
	ibs_out_printf(o,
		"InformInfoRecord dump:\n"
		"\t\tRID\n"
		"\t\tSubscriberGID...........%s\n"
		"\t\tSubscriberEnum..........0x%X\n"
		"\t\tInformInfo dump:\n"
		"\t\tgid.....................%s\n"
		"\t\tlid_range_begin.........%u\n"
		"\t\tlid_range_end...........%u\n"
		"\t\tis_generic..............0x%X\n"
		"\t\tsubscribe...............0x%X\n"
		"\t\ttrap_type...............0x%X\n",
		sgid, ibs_be16(p + 16), gid, ibs_be16(ii + 16), ibs_be16(ii + 18), ii[22], ii[23],
		ibs_be16(ii + 24));
	if (generic)
		ibs_out_printf(o, "\t\ttrap_num................%u\n", ibs_be16(ii + 26));
	else
		ibs_out_printf(o, "\t\tdev_id..................0x%X\n", ibs_be16(ii + 26));
	if (flags & IBSTRUCT_SAQ_SHOW_KEYS)
		ibs_out_printf(o, "\t\tqpn.....................0x%06X\n", ibs_be32(ii + 28) >> 8);
	else
		ibs_out_str(o, "\t\tqpn.....................<not displayed>\n");
	ibs_out_printf(o, "\t\tresp_time_val...........0x%X\n", ii[31] & 0x1f);
	ibs_out_printf(o, "\t\t%s0x%06X\n",
		       generic ? "node_type..............." : "vendor_id...............",
		       ibs_be32(ii + 32) & 0xffffff);
}

static void link_record(struct ibs_out *o, const uint8_t *p)
{
	ibs_out_printf(o,
		"LinkRecord dump:\n"
		"\t\tFromLID....................%u\n"
		"\t\tFromPort...................%u\n"
		"\t\tToPort.....................%u\n"
		"\t\tToLID......................%u\n",
		ibs_be16(p), p[2], p[3], ibs_be16(p + 4));
}

static void sl2vl_record(struct ibs_out *o, const uint8_t *p)
{
	unsigned i;

	ibs_out_printf(o,
		"SL2VLTableRecord dump:\n"
		"\t\tLID........................%u\n"
		"\t\tInPort.....................%u\n"
		"\t\tOutPort....................%u\n"
		"\t\tSL: 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\n"
		"\t\tVL:",
		ibs_be16(p), p[2], p[3]);
	for (i = 0; i < 16; i++)
		ibs_out_printf(o, "%2u|", (p[8 + i / 2] >> (i & 1 ? 0 : 4)) & 0xf);
	ibs_out_str(o, "\n");
}

static void vlarb_record(struct ibs_out *o, const uint8_t *p)
{
	const uint8_t *e = p + 8;
	unsigned i, j;

	ibs_out_printf(o,
		"VLArbTableRecord dump:\n"
		"\t\tLID........................%u\n"
		"\t\tPort.......................%u\n"
		"\t\tBlock......................%u\n",
		ibs_be16(p), p[2], p[3]);
	for (i = 0; i < 32; i += 16) {
		ibs_out_str(o, "\t\tVL    :");
		for (j = i; j < i + 16; j++)
			ibs_out_printf(o, "%2u|", e[2 * j] & 0xf);
		ibs_out_str(o, "\n\t\tWeight:");
		for (j = i; j < i + 16; j++)
			ibs_out_printf(o, "%2u|", e[2 * j + 1]);
		ibs_out_str(o, "\n");
	}
}

/* The Block is printed as saquery prints it on x86: the raw 16-bit field read in host
 * (little-endian) order, because OpenSM fills it in host order. */
static void pkey_record(struct ibs_out *o, const uint8_t *p)
{
	unsigned i;

	ibs_out_printf(o,
		"PKeyTableRecord dump:\n"
		"\t\tLID........................%u\n"
		"\t\tPort.......................%u\n"
		"\t\tBlock......................%u\n"
		"\t\tPKey Table:\n",
		ibs_be16(p), p[4], (unsigned)(p[2] | p[3] << 8));
	for (i = 0; i < 32; i++)
		ibs_out_printf(o, "%s0x%04x%s", i % 8 ? " " : "\t\t", ibs_be16(p + 8 + 2 * i),
			       i % 8 == 7 ? "\n" : "");
	ibs_out_str(o, "\n");
}

static void lft_record(struct ibs_out *o, const uint8_t *p)
{
	unsigned block = ibs_be16(p + 2), i;

	ibs_out_printf(o,
		"LFT Record dump:\n"
		"\t\tLID........................%u\n"
		"\t\tBlock......................%u\n"
		"\t\tLFT:\n\t\tLID\tPort Number\n",
		ibs_be16(p), block);
	for (i = 0; i < 64; i++)
		ibs_out_printf(o, "\t\t%u\t%u\n", block * 64 + i, p[8 + i]);
	ibs_out_str(o, "\n");
}

static void guidinfo_record(struct ibs_out *o, const uint8_t *p)
{
	unsigned i;

	ibs_out_printf(o,
		"GUIDInfo Record dump:\n"
		"\t\tLID........................%u\n"
		"\t\tBlock......................%u\n",
		ibs_be16(p), p[2]);
	for (i = 0; i < 8; i++)
		ibs_out_printf(o, "\t\tGUID %u.....................0x%016" PRIx64 "\n", i,
			       ibs_be64(p + 8 + 8 * i));
}

static void mft_record(struct ibs_out *o, const uint8_t *p)
{
	unsigned pb = ibs_be16(p + 2), block = pb & 0x1ff, i;

	ibs_out_printf(o,
		"MFT Record dump:\n"
		"\t\tLID........................%u\n"
		"\t\tPosition...................%u\n"
		"\t\tBlock......................%u\n"
		"\t\tMFT:\n\t\tMLID\tPort Mask\n",
		ibs_be16(p), pb >> 12, block);
	for (i = 0; i < 32; i++)
		ibs_out_printf(o, "\t\t0x%04x\t0x%04x\n", 0xc000 + block * 32 + i, ibs_be16(p + 8 + 2 * i));
	ibs_out_str(o, "\n");
}

IBSTRUCT_EXPORT int ibstruct_snprint_saquery(char *buf, size_t len, const struct ibstruct_desc *d,
					     const void *wire, size_t wire_len, const char *node_name,
					     unsigned flags)
{
	const uint8_t *p = wire;
	struct ibs_out o = { buf, buf ? len : 0, 0 };

	if (!d || !wire)
		return -EINVAL;
	if (wire_len < d->size)
		return -EMSGSIZE;
	if (o.len)
		buf[0] = 0;
	if (d == ibstruct_sa_node_record_desc())
		node_record(&o, p, node_name);
	else if (d == ibstruct_sa_path_record_desc())
		path_record(&o, p);
	else if (d == ibstruct_mad_class_port_info_desc())
		class_port_info(&o, p);
	else if (d == ibstruct_sa_port_info_record_desc())
		portinfo_record(&o, p, flags);
	else if (d == ibstruct_sa_mcmember_record_desc())
		mcmember_record(&o, p);
	else if (d == ibstruct_sa_service_record_desc())
		service_record(&o, p, flags);
	else if (d == ibstruct_sa_sm_info_record_desc())
		sm_info_record(&o, p);
	else if (d == ibstruct_sa_switch_info_record_desc())
		switch_info_record(&o, p, flags);
	else if (d == ibstruct_sa_inform_info_record_desc())
		inform_info_record(&o, p, flags);
	else if (d == ibstruct_sa_link_record_desc())
		link_record(&o, p);
	else if (d == ibstruct_sa_sl2vl_mapping_table_record_desc())
		sl2vl_record(&o, p);
	else if (d == ibstruct_sa_vlarb_table_record_desc())
		vlarb_record(&o, p);
	else if (d == ibstruct_sa_pkey_table_record_desc())
		pkey_record(&o, p);
	else if (d == ibstruct_sa_linear_forwarding_table_record_desc())
		lft_record(&o, p);
	else if (d == ibstruct_sa_guid_info_record_desc())
		guidinfo_record(&o, p);
	else if (d == ibstruct_sa_multicast_forwarding_table_record_desc())
		mft_record(&o, p);
	else
		return -EOPNOTSUPP;
	return ibs_out_finish(&o);
}
