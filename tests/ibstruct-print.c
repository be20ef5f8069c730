// SPDX-License-Identifier: BSD-3-Clause
/* Printers: infiniband-diags style and the packet dump. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibstruct.h"

static const uint8_t nodeinfo_sw[40] = {
	0x01, 0x01, 0x02, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x20, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa1,
	0x01, 0x00, 0x00, 0x00,
};

/* smpquery -D nodeinfo 0,1 on the simulated fabric, after its "# Node info" header */
static const char nodeinfo_sw_text[] =
	"BaseVers:........................1\n"
	"ClassVers:.......................1\n"
	"NodeType:........................Switch\n"
	"NumPorts:........................8\n"
	"SystemGuid:......................0x0000000000200000\n"
	"Guid:............................0x0000000000200000\n"
	"PortGuid:........................0x0000000000200000\n"
	"PartCap:.........................8\n"
	"DevId:...........................0x0000\n"
	"Revision:........................0x000000a1\n"
	"LocalPort:.......................1\n"
	"VendorId:........................0x000000\n";

START_TEST(test_diags_nodeinfo)
{
	struct ibstruct_smp_node_info ni;
	char buf[2048];
	int n;

	ck_assert_int_eq(ibstruct_smp_node_info_unpack(&ni, nodeinfo_sw, sizeof(nodeinfo_sw)), 0);
	n = ibstruct_snprint_diags(buf, sizeof(buf), ibstruct_smp_node_info_desc(), &ni);
	ck_assert_int_eq(n, (int)strlen(nodeinfo_sw_text));
	ck_assert_str_eq(buf, nodeinfo_sw_text);
}
END_TEST

/* snprintf semantics: the full length is returned, the output is cut and terminated. */
START_TEST(test_diags_truncation)
{
	struct ibstruct_smp_node_info ni;
	char buf[40];
	int n;

	ck_assert_int_eq(ibstruct_smp_node_info_unpack(&ni, nodeinfo_sw, sizeof(nodeinfo_sw)), 0);
	memset(buf, 'Z', sizeof(buf));
	n = ibstruct_snprint_diags(buf, 10, ibstruct_smp_node_info_desc(), &ni);
	ck_assert_int_eq(n, (int)strlen(nodeinfo_sw_text));
	ck_assert_str_eq(buf, "BaseVers:");
	ck_assert_int_eq(buf[11], 'Z');
	n = ibstruct_snprint_diags(NULL, 0, ibstruct_smp_node_info_desc(), &ni);
	ck_assert_int_eq(n, (int)strlen(nodeinfo_sw_text));
}
END_TEST

START_TEST(test_diags_range_and_field)
{
	struct ibstruct_smp_node_info ni;
	char buf[512];

	ck_assert_int_eq(ibstruct_smp_node_info_unpack(&ni, nodeinfo_sw, sizeof(nodeinfo_sw)), 0);
	ck_assert_int_gt(ibstruct_snprint_diags_range(buf, sizeof(buf), ibstruct_smp_node_info_desc(),
						      &ni, "NodeType", "NumPorts"), 0);
	ck_assert_str_eq(buf, "NodeType:........................Switch\n"
			      "NumPorts:........................8\n");
	ck_assert_int_eq(ibstruct_snprint_diags_range(buf, sizeof(buf), ibstruct_smp_node_info_desc(),
						      &ni, "NoSuch", NULL), -ENOENT);
	ck_assert_int_gt(ibstruct_snprint_diags_field(buf, sizeof(buf), ibstruct_smp_node_info_desc(),
						      &ni, "deviceID", "Device"), 0);
	ck_assert_str_eq(buf, "Device:..........................0x0000");
	ck_assert_int_gt(ibstruct_snprint_diags_line(buf, sizeof(buf), "Node Description", "x"), 0);
	ck_assert_str_eq(buf, "Node Description:................x");
}
END_TEST

struct fmt_case {
	enum ibstruct_diags_fmt fmt;
	unsigned bits;
	uint64_t val;
	const char *text;
};

/* Values and the text libibmad 44 prints for them. */
static const struct fmt_case fmt_cases[] = {
	{ IBSTRUCT_FMT_UINT, 8, 255, "255" },
	{ IBSTRUCT_FMT_INT, 32, 0xffffffff, "-1" },
	{ IBSTRUCT_FMT_UINT, 64, 0xffffffffffffffffull, "18446744073709551615" },
	{ IBSTRUCT_FMT_HEX, 4, 0, "0x00" },
	{ IBSTRUCT_FMT_HEX, 24, 0x2c9, "0x0002c9" },
	{ IBSTRUCT_FMT_HEX, 64, 0xfe80000000000000ull, "0xfe80000000000000" },
	{ IBSTRUCT_FMT_RHEX, 16, 0xab, "00ab" },
	{ IBSTRUCT_FMT_LINKWIDTH, 8, 2, "4X" },
	{ IBSTRUCT_FMT_LINKWIDTH, 8, 3, "undefined (3)" },
	{ IBSTRUCT_FMT_LINKWIDTHSUP, 8, 31, "1X or 4X or 8X or 12X or 2X" },
	{ IBSTRUCT_FMT_LINKWIDTHSUP, 8, 2, "4X (IBA extension)" },
	{ IBSTRUCT_FMT_LINKWIDTHSUP, 8, 0, "undefined (0) (IBA extension)" },
	{ IBSTRUCT_FMT_LINKWIDTHEN, 8, 0xff, "1X or 4X or 8X or 12X or 2X or undefined (255)" },
	{ IBSTRUCT_FMT_LINKSPEED, 4, 1, "2.5 Gbps" },
	{ IBSTRUCT_FMT_LINKSPEED, 4, 0, "Extended speed" },
	{ IBSTRUCT_FMT_LINKSPEEDSUP, 4, 7, "2.5 Gbps or 5.0 Gbps or 10.0 Gbps" },
	{ IBSTRUCT_FMT_LINKSPEEDEN, 4, 2, "5.0 Gbps (IBA extension)" },
	{ IBSTRUCT_FMT_LINKSPEEDEN, 4, 15, "2.5 Gbps or 5.0 Gbps or 10.0 Gbps or undefined (15)" },
	{ IBSTRUCT_FMT_LINKSPEEDEXT, 4, 0, "No Extended Speed" },
	{ IBSTRUCT_FMT_LINKSPEEDEXT, 4, 8, "106.25 Gbps" },
	{ IBSTRUCT_FMT_LINKSPEEDEXTSUP, 4, 0, "0" },
	{ IBSTRUCT_FMT_LINKSPEEDEXTSUP, 4, 15,
	  "14.0625 Gbps or 25.78125 Gbps or 53.125 Gbps or 106.25 Gbps" },
	{ IBSTRUCT_FMT_LINKSPEEDEXTEN, 5, 30, "Extended link speeds disabled" },
	{ IBSTRUCT_FMT_LINKSPEEDEXTEN, 5, 17, "14.0625 Gbps or undefined (17)" },
	{ IBSTRUCT_FMT_LINKSPEEDEXT2, 2, 1, "212.5 Gbps" },
	{ IBSTRUCT_FMT_PORTSTATE, 4, 4, "Active" },
	{ IBSTRUCT_FMT_PORTSTATE, 4, 9, "?(9)" },
	{ IBSTRUCT_FMT_PHYSPORTSTATE, 4, 5, "LinkUp" },
	{ IBSTRUCT_FMT_LINKDOWNDEFSTATE, 4, 2, "Polling" },
	{ IBSTRUCT_FMT_MTU, 4, 4, "2048" },
	{ IBSTRUCT_FMT_MTU, 4, 0, "?(0)" },
	{ IBSTRUCT_FMT_VLCAP, 4, 4, "VL0-7" },
	{ IBSTRUCT_FMT_VLCAP, 4, 0, "?(0)" },
	{ IBSTRUCT_FMT_OPERVLS, 4, 0, "No change" },
	{ IBSTRUCT_FMT_NODE_TYPE, 8, 3, "Router" },
	{ IBSTRUCT_FMT_NODE_TYPE, 8, 9, "?(9)?" },
	{ IBSTRUCT_FMT_PORTCAPMASK, 32, 0x0050c048,
	  "0x50c048\n\t\t\t\tIsTrapSupported\n\t\t\t\tIsSLMappingSupported\n"
	  "\t\t\t\tIsExtendedSpeedsSupported\n\t\t\t\tIsCapabilityMask2Supported\n"
	  "\t\t\t\tIsVendorClassSupported\n\t\t\t\tIsCapabilityMaskNoticeSupported" },
	{ IBSTRUCT_FMT_PORTCAPMASK2, 16, 0x30,
	  "0x30\n\t\t\t\tIsLinkWidth2xSupported\n\t\t\t\tIsLinkSpeedHDRSupported" },
	{ IBSTRUCT_FMT_PORTCAPMASK, 32, 0, "0x0" },
};

START_TEST(test_formats)
{
	char buf[1024];
	const struct fmt_case *c = &fmt_cases[_i];

	ibstruct_snprint_diags_value(buf, sizeof(buf), c->fmt, c->bits, c->val, NULL);
	ck_assert_str_eq(buf, c->text);
}
END_TEST

START_TEST(test_format_string_and_array)
{
	uint8_t nd[64] = "Switch1";
	uint8_t gid[16] = { 0xfe, 0x80, [15] = 0x01 };
	char buf[256];

	/* libibmad cuts strings at valsz - 1 bytes of "'text'" */
	ibstruct_snprint_diags_value(buf, sizeof(buf), IBSTRUCT_FMT_STRING, 512, 0, nd);
	ck_assert_str_eq(buf, "'Switch1'");
	ibstruct_snprint_diags_value(buf, sizeof(buf), IBSTRUCT_FMT_STRING, 32, 0, nd);
	ck_assert_str_eq(buf, "'Sw");
	ibstruct_snprint_diags_value(buf, sizeof(buf), IBSTRUCT_FMT_ARRAY, 128, 0, gid);
	ck_assert_str_eq(buf, "fe800000000000000000000000000001");
}
END_TEST

START_TEST(test_dump)
{
	char buf[4096];
	int n;

	n = ibstruct_snprint_dump(buf, sizeof(buf), ibstruct_smp_node_info_desc(), nodeinfo_sw,
				  sizeof(nodeinfo_sw), 2);
	ck_assert_int_eq(n, (int)strlen(buf));
	ck_assert_str_eq(buf,
		"  SMPNodeInfo (40 bytes)\n"
		"     0: 01010208  baseVersion=1 classVersion=1 nodeType=2 (Switch) numPorts=8\n"
		"     4: 00000000  systemImageGUID=0000:0000:0020:0000\n"
		"     8: 00200000\n"
		"    12: 00000000  nodeGUID=0000:0000:0020:0000\n"
		"    16: 00200000\n"
		"    20: 00000000  portGUID=0000:0000:0020:0000\n"
		"    24: 00200000\n"
		"    28: 00080000  partitionCap=8 deviceID=0x0\n"
		"    32: 000000a1  revision=0xa1\n"
		"    36: 01000000  localPortNum=1 vendorID=0x0\n");
	/* a short buffer is dumped as far as it goes */
	n = ibstruct_snprint_dump(buf, sizeof(buf), ibstruct_smp_node_info_desc(), nodeinfo_sw, 6, 0);
	ck_assert_ptr_nonnull(strstr(buf, "(short: 6 of 40 bytes)"));
	/* truncation keeps the length */
	ck_assert_int_eq(ibstruct_snprint_dump(buf, 5, ibstruct_smp_node_info_desc(), nodeinfo_sw, 6, 0), n);
	/* two or more zero words without a field start share a line; one alone keeps its own */
	{
		uint8_t smp[256] = { 1, 1, 1, 0x81, [16] = 0, [17] = 0x11, [64] = 1 };

		ibstruct_snprint_dump(buf, sizeof(buf), ibstruct_desc_by_name("SMPFormat"), smp, sizeof(smp), 0);
		ck_assert_ptr_nonnull(strstr(buf, "\n  28: 00000000  (zero up to byte 63)\n  64: 01000000  data="));
		ck_assert_ptr_nonnull(strstr(buf, "\n  68: 00000000  (zero up to byte 255)\n"));
		ck_assert_ptr_null(strstr(buf, "  32: "));
		/* offsets counted from a base: the struct's place in a larger packet */
		ibstruct_snprint_dump_at(buf, sizeof(buf), ibstruct_desc_by_name("SMPFormat"), smp,
					 sizeof(smp), 0, 40);
		ck_assert_ptr_nonnull(strstr(buf, "\n  68: 00000000  (zero up to byte 103)\n 104: 01000000  data="));
		ck_assert_ptr_nonnull(strstr(buf, "\n 108: 00000000  (zero up to byte 295)\n"));
	}
}
END_TEST

/* Every structure dumps and prints on random bytes without error. */
START_TEST(test_print_all)
{
	uint64_t seed = 99;
	unsigned i, n = ibstruct_desc_count();
	static uint8_t wire[4096];
	static char text[1 << 18];

	for (i = 0; i < n; i++) {
		const struct ibstruct_desc *d = ibstruct_desc_at(i);
		size_t sz = ibstruct_desc_size(d);
		void *host = malloc(ibstruct_desc_host_size(d));
		int a, b;

		ck_assert_ptr_nonnull(host);
		test_fill(&seed, wire, sz);
		ck_assert_int_eq(ibstruct_unpack(d, host, wire, sz), 0);
		a = ibstruct_snprint_diags(text, sizeof(text), d, host);
		ck_assert_int_ge(a, 0);
		ck_assert_int_lt(a, (int)sizeof(text));
		ck_assert_uint_eq(strlen(text), (size_t)a);
		b = ibstruct_snprint_dump(text, sizeof(text), d, wire, sz, 0);
		ck_assert_int_gt(b, 0);
		ck_assert_int_lt(b, (int)sizeof(text));
		ck_assert_uint_eq(strlen(text), (size_t)b);
		free(host);
	}
}
END_TEST

/* saquery NR 2 on the simulated fabric (diags-samples/saquery.txt) */
START_TEST(test_saquery_node_record)
{
	uint8_t nr[108] = { 0x00, 0x02, 0x00, 0x00 };
	static const char expect[] =
		"NodeRecord dump:\n"
		"\t\tlid.....................2\n"
		"\t\treserved................0x0\n"
		"\t\tbase_version............0x1\n"
		"\t\tclass_version...........0x1\n"
		"\t\tnode_type...............Channel Adapter\n"
		"\t\tnum_ports...............2\n"
		"\t\tsys_guid................0x0000000000100000\n"
		"\t\tnode_guid...............0x0000000000100000\n"
		"\t\tport_guid...............0x0000000000100001\n"
		"\t\tpartition_cap...........0x40\n"
		"\t\tdevice_id...............0x0\n"
		"\t\trevision................0xA1\n"
		"\t\tport_num................1\n"
		"\t\tvendor_id...............0x0\n"
		"\t\tNodeDescription.........Hca1\n";
	char buf[2048];

	memcpy(nr + 4, nodeinfo_sw, 40);
	nr[4 + 2] = 1;                          /* CA */
	nr[4 + 3] = 2;                          /* two ports */
	memcpy(nr + 4 + 4, "\0\0\0\0\0\x10\0\0", 8);
	memcpy(nr + 4 + 12, "\0\0\0\0\0\x10\0\0", 8);
	memcpy(nr + 4 + 20, "\0\0\0\0\0\x10\0\x01", 8);
	nr[4 + 29] = 0x40;
	memcpy(nr + 44, "Hca1", 4);
	ck_assert_int_eq(ibstruct_snprint_saquery(buf, sizeof(buf), ibstruct_sa_node_record_desc(), nr,
						  sizeof(nr), NULL, 0), (int)strlen(expect));
	ck_assert_str_eq(buf, expect);
	ck_assert_int_eq(ibstruct_snprint_saquery(buf, sizeof(buf), ibstruct_sa_node_record_desc(), nr,
						  10, NULL, 0), -EMSGSIZE);
	ck_assert_int_eq(ibstruct_snprint_saquery(buf, sizeof(buf), ibstruct_smp_node_info_desc(), nr,
						  sizeof(nr), NULL, 0), -EOPNOTSUPP);
}
END_TEST

Suite *make_print_suite(void)
{
	Suite *s = suite_create("print");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_diags_nodeinfo);
	tcase_add_test(tc, test_diags_truncation);
	tcase_add_test(tc, test_diags_range_and_field);
	tcase_add_loop_test(tc, test_formats, 0, sizeof(fmt_cases) / sizeof(fmt_cases[0]));
	tcase_add_test(tc, test_format_string_and_array);
	tcase_add_test(tc, test_dump);
	tcase_add_test(tc, test_print_all);
	tcase_add_test(tc, test_saquery_node_record);
	suite_add_tcase(s, tc);
	return s;
}
