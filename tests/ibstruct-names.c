// SPDX-License-Identifier: BSD-3-Clause
/* Names, MAD status text, GUID and GID forms. */
#include <errno.h>
#include <string.h>

#include "check-ibstruct.h"

START_TEST(test_class_method_attr_names)
{
	ck_assert_str_eq(ibstruct_class_name(0x01), "SMP");
	ck_assert_str_eq(ibstruct_class_name(0x81), "SMPDirected");
	ck_assert_str_eq(ibstruct_class_name(0x03), "SA");
	ck_assert_str_eq(ibstruct_class_name(0x04), "PerfMgt");
	ck_assert_ptr_null(ibstruct_class_name(0x7f));
	ck_assert_str_eq(ibstruct_method_name(0x01), "Get");
	ck_assert_str_eq(ibstruct_method_name(0x92), "GetTableResp");
	ck_assert_ptr_null(ibstruct_method_name(0x7e));
	ck_assert_str_eq(ibstruct_attr_name(0x01, 0x15), "SMPPortInfo");
	ck_assert_str_eq(ibstruct_attr_name(0x03, 0x35), "SAPathRecord");
	ck_assert_str_eq(ibstruct_attr_name(0x04, 0x12), "PMPortCounters");
	ck_assert_ptr_null(ibstruct_attr_name(0x01, 0x7777));
	ck_assert_str_eq(ibstruct_rpc_name(0x01, 0x01), "SubnGet");
	ck_assert_str_eq(ibstruct_rpc_name(0x81, 0x02), "SubnSet");
	ck_assert_str_eq(ibstruct_rpc_name(0x03, 0x12), "SubnAdmGetTable");
	ck_assert_str_eq(ibstruct_rpc_name(0x04, 0x01), "PerformanceGet");
}
END_TEST

START_TEST(test_enums)
{
	uint64_t v;

	ck_assert_str_eq(ibstruct_enum_name(IBSTRUCT_ENUM_PORT_STATE, 4), "Active");
	ck_assert_str_eq(ibstruct_enum_name(IBSTRUCT_ENUM_NODE_TYPE, 2), "Switch");
	ck_assert_str_eq(ibstruct_enum_name(IBSTRUCT_ENUM_LINK_WIDTH, 16), "2X");
	ck_assert_str_eq(ibstruct_enum_name(IBSTRUCT_ENUM_LINK_SPEED_EXT, 8), "106.25 Gbps");
	ck_assert_str_eq(ibstruct_enum_name(IBSTRUCT_ENUM_LINK_SPEED_EXT2, 1), "212.5 Gbps");
	ck_assert_str_eq(ibstruct_enum_name(IBSTRUCT_ENUM_MTU, 5), "4096");
	ck_assert_ptr_null(ibstruct_enum_name(IBSTRUCT_ENUM_MTU, 9));
	ck_assert_ptr_null(ibstruct_enum_name(-1, 0));
	ck_assert_ptr_null(ibstruct_enum_name(IBSTRUCT_ENUM_COUNT_, 0));
	ck_assert_int_eq(ibstruct_enum_value(IBSTRUCT_ENUM_PHYS_PORT_STATE, "linkup", &v), 0);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(ibstruct_enum_value(IBSTRUCT_ENUM_PHYS_PORT_STATE, "up", &v), -ENOENT);
}
END_TEST

START_TEST(test_mad_status)
{
	char buf[128];

	ibstruct_snprint_mad_status(buf, sizeof(buf), 0x01, 0);
	ck_assert_str_eq(buf, "success");
	ibstruct_snprint_mad_status(buf, sizeof(buf), 0x01, 0x0c);
	ck_assert_str_eq(buf, "method/attribute combination not supported");
	ibstruct_snprint_mad_status(buf, sizeof(buf), 0x01, 0x1d);
	ck_assert_str_eq(buf, "busy, invalid attribute or attribute modifier value");
	ibstruct_snprint_mad_status(buf, sizeof(buf), 0x03, 0x0300);
	ck_assert_str_eq(buf, "SA ERR_NO_RECORDS");
	ibstruct_snprint_mad_status(buf, sizeof(buf), 0x04, 0x0500);
	ck_assert_str_eq(buf, "class specific error 5");
	/* the D bit of a directed-route SMP is no error */
	ibstruct_snprint_mad_status(buf, sizeof(buf), 0x81, 0x8000);
	ck_assert_str_eq(buf, "success");
	ck_assert_ptr_null(ibstruct_mad_status_code_str(0));
	ck_assert_str_eq(ibstruct_mad_status_code_str(2), "method not supported");
}
END_TEST

START_TEST(test_guid)
{
	uint64_t g;
	char buf[32];

	ck_assert_int_eq(ibstruct_guid_parse("0x0002c90300001492", &g), 0);
	ck_assert_uint_eq(g, 0x0002c90300001492ull);
	ck_assert_int_eq(ibstruct_guid_parse("0002:c903:0000:1492", &g), 0);
	ck_assert_uint_eq(g, 0x0002c90300001492ull);
	ck_assert_int_eq(ibstruct_guid_parse("0x2c90300001492", &g), 0);
	ck_assert_uint_eq(g, 0x0002c90300001492ull);
	ck_assert_int_eq(ibstruct_guid_parse("0x", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("0x10000000000000000", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("2:c903:0:1492", &g), 0);
	ck_assert_uint_eq(g, 0x0002c90300001492ull);
	ck_assert_int_eq(ibstruct_guid_parse("0002:c903:0000", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("0002:c903::1492", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("0002:c903:0000:1492:", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("0002:c903:0000:14922", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("0002-c903-0000-1492", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_parse("", &g), -EINVAL);
	ck_assert_int_eq(ibstruct_guid_format(buf, sizeof(buf), 0x0002c90300001492ull, IBSTRUCT_GUID_HEX), 18);
	ck_assert_str_eq(buf, "0x0002c90300001492");
	ck_assert_int_eq(ibstruct_guid_format(buf, sizeof(buf), 0x0002c90300001492ull, IBSTRUCT_GUID_COLON), 19);
	ck_assert_str_eq(buf, "0002:c903:0000:1492");
}
END_TEST

START_TEST(test_gid)
{
	ibstruct_gid_t gid;
	char buf[64];

	ck_assert_int_eq(ibstruct_gid_parse("fe80::2:c903:0:1492", &gid), 0);
	ck_assert_uint_eq(ibstruct_gid_prefix(&gid), 0xfe80000000000000ull);
	ck_assert_uint_eq(ibstruct_gid_guid(&gid), 0x0002c90300001492ull);
	ibstruct_gid_make(&gid, 0xfe80000000000000ull, 0x100001);
	ck_assert_int_gt(ibstruct_gid_format(buf, sizeof(buf), &gid), 0);
	ck_assert_str_eq(buf, "fe80::10:1");
	ck_assert_int_eq(ibstruct_gid_parse("fe80::1::2", &gid), -EINVAL);
	ck_assert_int_eq(ibstruct_gid_parse("", &gid), -EINVAL);
}
END_TEST

Suite *make_names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_class_method_attr_names);
	tcase_add_test(tc, test_enums);
	tcase_add_test(tc, test_mad_status);
	tcase_add_test(tc, test_guid);
	tcase_add_test(tc, test_gid);
	suite_add_tcase(s, tc);
	return s;
}
