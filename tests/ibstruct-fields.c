// SPDX-License-Identifier: BSD-3-Clause
/* Field access by dotted name, text values, component masks. */
#include <errno.h>
#include <string.h>

#include "check-ibstruct.h"

START_TEST(test_lookup_nested)
{
	const struct ibstruct_desc *d = ibstruct_desc_by_name("SANodeRecord");
	struct ibstruct_sa_node_record nr;
	struct ibstruct_field_ref ref;
	uint64_t v;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_eq(ibstruct_desc_by_name("sa_node_record"), d);
	ck_assert_ptr_eq(ibstruct_desc_by_attr(IBSTRUCT_CLASS_SA, 0x11), d);
	memset(&nr, 0, sizeof(nr));
	ck_assert_int_eq(ibstruct_field_lookup(d, "nodeInfo.portGUID", &ref), 0);
	ck_assert_str_eq(ibstruct_field_name(&ref), "portGUID");
	ck_assert_int_eq(ibstruct_field_type(&ref), IBSTRUCT_TYPE_GUID);
	ck_assert_uint_eq(ref.bit_offset, (4 + 20) * 8);
	ck_assert_int_eq(ibstruct_set_uint(d, &nr, "nodeInfo.portGUID", 0x0002c90300001492ull), 0);
	ck_assert_uint_eq(nr.nodeInfo.portGUID, 0x0002c90300001492ull);
	ck_assert_int_eq(ibstruct_get_uint(d, &nr, "nodeInfo.portGUID", &v), 0);
	ck_assert_uint_eq(v, 0x0002c90300001492ull);
	/* python-rdma style spelling is accepted case-insensitively */
	ck_assert_int_eq(ibstruct_field_lookup(d, "NodeInfo.PortGuid", &ref), 0);
}
END_TEST

START_TEST(test_lookup_errors)
{
	const struct ibstruct_desc *d = ibstruct_desc_by_name("SMPPKeyTable");
	const struct ibstruct_desc *pi = ibstruct_desc_by_name("SMPPortInfo");
	struct ibstruct_field_ref ref;
	struct ibstruct_smp_port_info p;

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(ibstruct_field_lookup(pi, "noSuchField", &ref), -ENOENT);
	ck_assert_int_eq(ibstruct_field_lookup(pi, "", &ref), -EINVAL);
	ck_assert_int_eq(ibstruct_field_lookup(pi, "LID.x", &ref), -EINVAL);
	ck_assert_int_eq(ibstruct_field_lookup(pi, "LID..", &ref), -EINVAL);
	ck_assert_int_eq(ibstruct_field_lookup(pi, "LID[", &ref), -EINVAL);
	ck_assert_int_eq(ibstruct_field_lookup(d, "PKeyBlock[32]", &ref), -ERANGE);
	ck_assert_int_eq(ibstruct_field_lookup(d, "PKeyBlock[31]", &ref), 0);
	ck_assert_int_eq(ibstruct_field_lookup(d, "PKeyBlock[-1]", &ref), -EINVAL);
	ck_assert_int_eq(ibstruct_field_lookup(d, "PKeyBlock[99999999999999999999]", &ref), -EINVAL);
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(ibstruct_set_uint(pi, &p, "LMC", 8), -ERANGE);
	ck_assert_int_eq(ibstruct_set_uint(pi, &p, "LMC", 7), 0);
	ck_assert_uint_eq(p.LMC, 7);
}
END_TEST

START_TEST(test_set_text)
{
	const struct ibstruct_desc *pi = ibstruct_desc_by_name("SMPPortInfo");
	const struct ibstruct_desc *pr = ibstruct_desc_by_name("SAPathRecord");
	const struct ibstruct_desc *nd = ibstruct_desc_by_name("SMPNodeDescription");
	struct ibstruct_smp_port_info p;
	struct ibstruct_sa_path_record r;
	struct ibstruct_smp_node_description n;
	char buf[128];

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", "Active"), 0);
	ck_assert_uint_eq(p.portState, 4);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", "0x3"), 0);
	ck_assert_uint_eq(p.portState, 3);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", "17"), -ERANGE);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", "Bogus"), -EINVAL);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", "4x"), -EINVAL);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", ""), -EINVAL);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "portState", "-1"), -EINVAL);
	ck_assert_int_eq(ibstruct_set_text(pi, &p, "GIDPrefix", "fe80:0000:0000:0000"), 0);
	ck_assert_uint_eq(p.GIDPrefix, 0xfe80000000000000ull);

	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(ibstruct_set_text(pr, &r, "DGID", "fe80::2:c903:0:1492"), 0);
	ck_assert_uint_eq(ibstruct_gid_guid(&r.DGID), 0x0002c90300001492ull);
	ck_assert_int_eq(ibstruct_set_text(pr, &r, "DGID", "fe80::zz"), -EINVAL);
	ck_assert_int_eq(ibstruct_format_value(pr, &r, "DGID", buf, sizeof(buf)), 19);
	ck_assert_str_eq(buf, "fe80::2:c903:0:1492");

	memset(&n, 0, sizeof(n));
	ck_assert_int_eq(ibstruct_set_text(nd, &n, "nodeString", "Hca1"), 0);
	ck_assert_int_eq(memcmp(n.nodeString, "Hca1\0", 5), 0);
	memset(buf, 'x', 65);
	buf[65] = 0;
	ck_assert_int_eq(ibstruct_set_text(nd, &n, "nodeString", buf), -ERANGE);
}
END_TEST

START_TEST(test_comp_mask)
{
	const struct ibstruct_desc *pr = ibstruct_desc_by_name("SAPathRecord");
	const struct ibstruct_desc *nr = ibstruct_desc_by_name("SANodeRecord");
	struct ibstruct_sa_path_record r;
	struct ibstruct_sa_node_record n;
	uint64_t cm = 0, m;

	ck_assert(ibstruct_desc_is_record(pr));
	/* IBA 15.2.5.16: DGID 2, SGID 3, DLID 4, SLID 5, NumbPath 12, PKey 13, SL 15 */
	ck_assert_int_eq(ibstruct_field_comp_mask(pr, "DGID", &m), 0);
	ck_assert_uint_eq(m, 1ull << 2);
	ck_assert_int_eq(ibstruct_field_comp_mask(pr, "SLID", &m), 0);
	ck_assert_uint_eq(m, 1ull << 5);
	ck_assert_int_eq(ibstruct_field_comp_mask(pr, "PKey", &m), 0);
	ck_assert_uint_eq(m, 1ull << 13);
	ck_assert_int_eq(ibstruct_field_comp_mask(pr, "SL", &m), 0);
	ck_assert_uint_eq(m, 1ull << 15);
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(ibstruct_parse_assignment(pr, &r, "DLID=4", &cm), 0);
	ck_assert_int_eq(ibstruct_parse_assignment(pr, &r, "SLID=0x2", &cm), 0);
	ck_assert_uint_eq(cm, (1ull << 4) | (1ull << 5));
	ck_assert_uint_eq(r.DLID, 4);
	ck_assert_int_eq(ibstruct_parse_assignment(pr, &r, "DLID", &cm), -EINVAL);
	ck_assert_int_eq(ibstruct_parse_assignment(pr, &r, "=4", &cm), -EINVAL);
	ck_assert_int_eq(ibstruct_parse_assignment(pr, &r, "nope=4", &cm), -ENOENT);

	/* NodeRecord: LID 0, reserved 1, NodeInfo fields from 2 (PortGUID 8), NodeDescription 14 */
	ck_assert_int_eq(ibstruct_field_comp_mask(nr, "LID", &m), 0);
	ck_assert_uint_eq(m, 1);
	ck_assert_int_eq(ibstruct_field_comp_mask(nr, "nodeInfo.nodeGUID", &m), 0);
	ck_assert_uint_eq(m, 1ull << 7);
	ck_assert_int_eq(ibstruct_field_comp_mask(nr, "nodeInfo.portGUID", &m), 0);
	ck_assert_uint_eq(m, 1ull << 8);
	ck_assert_uint_eq(IBSTRUCT_SA_NODE_RECORD_CM_NODEINFO_PORTGUID, 1ull << 8);
	memset(&n, 0, sizeof(n));
	cm = 0;
	ck_assert_int_eq(ibstruct_parse_assignment(nr, &n, "nodeInfo.nodeGUID=0002:c903:0000:1492", &cm), 0);
	ck_assert_uint_eq(n.nodeInfo.nodeGUID, 0x0002c90300001492ull);
	ck_assert_uint_eq(cm, 1ull << 7);
}
END_TEST

START_TEST(test_methods)
{
	const struct ibstruct_desc *ni = ibstruct_desc_by_name("SMPNodeInfo");
	const struct ibstruct_desc *pi = ibstruct_desc_by_name("SMPPortInfo");
	const struct ibstruct_desc *pr = ibstruct_desc_by_name("SAPathRecord");

	ck_assert(ibstruct_desc_allows_method(ni, IBSTRUCT_METHOD_GET));
	ck_assert(!ibstruct_desc_allows_method(ni, IBSTRUCT_METHOD_SET));
	ck_assert(ibstruct_desc_allows_method(pi, IBSTRUCT_METHOD_SET));
	ck_assert(ibstruct_desc_allows_method(pr, IBSTRUCT_METHOD_GET_TABLE));
	ck_assert_int_eq(ibstruct_desc_mgmt_class(pr), IBSTRUCT_CLASS_SA);
	ck_assert_int_eq(ibstruct_desc_attr_id(pr), 0x35);
	/* the directed-route class shares the SMP attributes */
	ck_assert_ptr_eq(ibstruct_desc_by_attr(IBSTRUCT_CLASS_SMP_DIRECTED, 0x15), pi);
	/* ClassPortInfo is generic */
	ck_assert_str_eq(ibstruct_desc_name(ibstruct_desc_by_attr(IBSTRUCT_CLASS_PERF_MGT, 0x01)),
			 "MADClassPortInfo");
}
END_TEST

Suite *make_fields_suite(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lookup_nested);
	tcase_add_test(tc, test_lookup_errors);
	tcase_add_test(tc, test_set_text);
	tcase_add_test(tc, test_comp_mask);
	tcase_add_test(tc, test_methods);
	suite_add_tcase(s, tc);
	return s;
}
