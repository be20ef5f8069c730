// SPDX-License-Identifier: BSD-3-Clause
/* The model: building with the internal builders, look-ups, order, DR path text, NULL safety. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibtopo.h"
#include "ibtopo-private.h"

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static struct ibtopo_node *node(struct ibtopo *t, uint8_t type, uint8_t nports, uint64_t guid)
{
	uint8_t ni[IBTOPO_SMP_DATA_SIZE] = { 1, 1, type, nports };
	struct ibtopo_node *n;

	put64(ni + 4, guid);
	put64(ni + 12, guid);
	put64(ni + 20, type == IBTOPO_NODE_SWITCH ? guid : guid + 1);
	n = topo_node_create(t, ni, NULL);
	ck_assert_ptr_nonnull(n);
	return n;
}

static struct ibtopo_port *port(struct ibtopo_node *n, unsigned num, uint16_t lid, uint8_t lmc)
{
	uint8_t pi[IBTOPO_SMP_DATA_SIZE] = { 0 };
	struct ibtopo_port *p = topo_port_get(n, num);

	ck_assert_ptr_nonnull(p);
	pi[16] = (uint8_t)(lid >> 8);
	pi[17] = (uint8_t)lid;
	pi[28] = (uint8_t)num;
	pi[33] = 0x50;
	pi[34] = lmc;
	ck_assert_int_eq(topo_port_set_info(p, pi), 0);
	return p;
}

START_TEST(test_lookups)
{
	struct ibtopo *t;
	struct ibtopo_node *sw, *ca, *ca2;
	struct ibtopo_port *p0, *p3, *c1, *c2;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	sw = node(t, IBTOPO_NODE_SWITCH, 8, 0x100);
	ca = node(t, IBTOPO_NODE_CA, 2, 0x200);
	ca2 = node(t, IBTOPO_NODE_CA, 1, 0x300);
	p0 = port(sw, 0, 5, 0);
	p3 = port(sw, 3, 77, 0);
	c1 = port(ca, 1, 8, 2);  /* LIDs 8-11 */
	c2 = port(ca2, 1, 0xbffe, 3); /* runs past 0xbfff */
	/* a switch port takes port 0's LID */
	ck_assert_uint_eq(ibtopo_port_base_lid(p3), 5);
	ck_assert_ptr_eq(ibtopo_find_port_lid(t, 5), p0);
	ck_assert_ptr_eq(ibtopo_find_port_guid(t, 0x100), p0);
	for (uint16_t l = 8; l <= 11; l++)
		ck_assert_ptr_eq(ibtopo_find_port_lid(t, l), c1);
	ck_assert_ptr_null(ibtopo_find_port_lid(t, 12));
	ck_assert_ptr_eq(ibtopo_find_port_lid(t, 0xc005), c2);
	ck_assert_ptr_null(ibtopo_find_port_lid(t, 0));
	ck_assert_ptr_eq(ibtopo_find_node_guid(t, 0x200), ca);
	ck_assert_ptr_null(ibtopo_find_node_guid(t, 0x201));
	ck_assert_ptr_eq(ibtopo_find_port_guid(t, 0x201), c1);
	/* order: newest first, per type too */
	ck_assert_ptr_eq(ibtopo_node_get(t, IBTOPO_NODE_ANY, 0), ca2);
	ck_assert_ptr_eq(ibtopo_node_get(t, IBTOPO_NODE_ANY, 2), sw);
	ck_assert_ptr_null(ibtopo_node_get(t, IBTOPO_NODE_ANY, 3));
	ck_assert_ptr_eq(ibtopo_node_get(t, IBTOPO_NODE_CA, 1), ca);
	ck_assert_uint_eq(ibtopo_node_count(t, IBTOPO_NODE_ROUTER), 0);
	ck_assert_uint_eq(ibtopo_node_count(t, 9), 0);
	/* links, relinking drops the old partner's side */
	topo_link(p3, c1);
	ck_assert_ptr_eq(ibtopo_port_remote(c1), p3);
	topo_link(p3, c2);
	ck_assert_ptr_null(ibtopo_port_remote(c1));
	ck_assert_ptr_eq(ibtopo_port_remote(c2), p3);
	/* a port number beyond the node's */
	ck_assert_ptr_null(topo_port_get(ca, 3));
	ck_assert_ptr_null(ibtopo_node_port(ca, 3));
	ck_assert_ptr_eq(ibtopo_node_topo(ca), t);
	ck_assert_ptr_eq(ibtopo_ref(t), t);
	ibtopo_unref(t);
	ibtopo_unref(t);
}
END_TEST

START_TEST(test_many_nodes)
{
	struct ibtopo *t;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	for (uint64_t g = 1; g <= 20000; g++)
		port(node(t, IBTOPO_NODE_CA, 1, g << 8), 1, (uint16_t)g, 0);
	for (uint64_t g = 1; g <= 20000; g++) {
		const struct ibtopo_node *n = ibtopo_find_node_guid(t, g << 8);

		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(ibtopo_node_guid(n), g << 8);
		ck_assert_ptr_eq(ibtopo_port_node(ibtopo_find_port_lid(t, (uint16_t)g)), n);
		ck_assert_ptr_eq(ibtopo_port_node(ibtopo_find_port_guid(t, (g << 8) + 1)), n);
	}
	ibtopo_unref(t);
}
END_TEST

START_TEST(test_dr_path_text)
{
	struct ibtopo_dr_path p;
	char buf[512], longp[512];
	int n = 0;

	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,3", &p), 0);
	ck_assert_uint_eq(p.hops, 2);
	ck_assert_uint_eq(p.port[1], 1);
	ck_assert_uint_eq(p.port[2], 3);
	ck_assert_uint_eq(p.drslid, 0xffff);
	ck_assert_int_eq(ibtopo_dr_path_format(&p, buf, sizeof(buf)), 5);
	ck_assert_str_eq(buf, "0,1,3");
	ck_assert_int_eq(ibtopo_dr_path_parse("1,3", &p), 0);
	ck_assert_uint_eq(p.hops, 2);
	ck_assert_int_eq(ibtopo_dr_path_parse("0", &p), 0);
	ck_assert_uint_eq(p.hops, 0);
	ck_assert_int_eq(ibtopo_dr_path_parse("", &p), -EINVAL);
	ck_assert_int_eq(ibtopo_dr_path_parse("0,,1", &p), -EINVAL);
	ck_assert_int_eq(ibtopo_dr_path_parse("0,256", &p), -ERANGE);
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,0", &p), -EINVAL);
	ck_assert_int_eq(ibtopo_dr_path_parse("0,x", &p), -EINVAL);
	ck_assert_int_eq(ibtopo_dr_path_parse(NULL, &p), -EINVAL);
	/* 63 hops fit, 64 do not */
	n = snprintf(longp, sizeof(longp), "0");
	for (int i = 0; i < 63; i++)
		n += snprintf(longp + n, sizeof(longp) - (size_t)n, ",1");
	ck_assert_int_eq(ibtopo_dr_path_parse(longp, &p), 0);
	ck_assert_uint_eq(p.hops, 63);
	snprintf(longp + n, sizeof(longp) - (size_t)n, ",1");
	ck_assert_int_eq(ibtopo_dr_path_parse(longp, &p), -ERANGE);
	/* truncation: the full length comes back */
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,3", &p), 0);
	ck_assert_int_eq(ibtopo_dr_path_format(&p, buf, 3), 5);
	ck_assert_str_eq(buf, "0,");
}
END_TEST

START_TEST(test_find_dr)
{
	struct ibtopo *t;
	struct ibtopo_node *a, *b, *c;
	struct ibtopo_dr_path p;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	a = node(t, IBTOPO_NODE_CA, 1, 0x10);
	b = node(t, IBTOPO_NODE_SWITCH, 4, 0x20);
	c = node(t, IBTOPO_NODE_CA, 1, 0x30);
	topo_link(port(a, 1, 1, 0), port(b, 2, 2, 0));
	topo_link(port(b, 3, 2, 0), port(c, 1, 3, 0));
	t->from_node = a;
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,3", &p), 0);
	ck_assert_ptr_eq(ibtopo_find_node_dr(t, &p), c);
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1", &p), 0);
	ck_assert_ptr_eq(ibtopo_find_node_dr(t, &p), b);
	ck_assert_int_eq(ibtopo_dr_path_parse("0", &p), 0);
	ck_assert_ptr_eq(ibtopo_find_node_dr(t, &p), a);
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,4", &p), 0);
	ck_assert_ptr_null(ibtopo_find_node_dr(t, &p));
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,200", &p), 0);
	ck_assert_ptr_null(ibtopo_find_node_dr(t, &p));
	ibtopo_unref(t);
}
END_TEST

START_TEST(test_errors_and_null)
{
	struct ibtopo *t;

	ck_assert_int_eq(ibtopo_new(NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_new(&t), 0);
	for (int i = 0; i < 40; i++)
		ck_assert_int_eq(topo_add_error(t, IBTOPO_ERR_QUERY, -ETIMEDOUT, 0x11, (uint32_t)i, 0, NULL, 0,
						"error %d", i), 0);
	ck_assert_uint_eq(ibtopo_error_count(t), 40);
	ck_assert_str_eq(ibtopo_error_get(t, 39)->message, "error 39");
	ck_assert_uint_eq(ibtopo_error_get(t, 39)->attr_mod, 39);
	ck_assert_ptr_null(ibtopo_error_get(t, 40));
	ibtopo_unref(t);
	ibtopo_unref(NULL);
	ck_assert_uint_eq(ibtopo_node_count(NULL, IBTOPO_NODE_ANY), 0);
	ck_assert_ptr_null(ibtopo_find_node_guid(NULL, 1));
	ck_assert_ptr_null(ibtopo_find_port_lid(NULL, 1));
	ck_assert_ptr_null(ibtopo_node_port(NULL, 0));
	ck_assert_str_eq(ibtopo_node_desc(NULL), "");
	ck_assert_ptr_null(ibtopo_port_remote(NULL));
	ck_assert_ptr_null(ibtopo_error_get(NULL, 0));
	ck_assert_ptr_nonnull(ibtopo_version());
}
END_TEST

Suite *make_model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, test_lookups);
	tcase_add_test(tc, test_many_nodes);
	tcase_add_test(tc, test_dr_path_text);
	tcase_add_test(tc, test_find_dr);
	tcase_add_test(tc, test_errors_and_null);
	suite_add_tcase(s, tc);
	return s;
}
