// SPDX-License-Identifier: BSD-3-Clause
/* Path objects: attributes, GRH, DR hops, reverse, timeouts, both text forms, round trips. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibpath.h"

#define LINK_LOCAL 0xfe80000000000000ull

/* indexed by enum ibpath_attr */
static const uint64_t attr_max[IBPATH_ATTR_COUNT_] = {
	[IBPATH_SLID] = 0xffff,
	[IBPATH_DLID] = 0xffff,
	[IBPATH_SL] = 15,
	[IBPATH_TRAFFIC_CLASS] = 0xff,
	[IBPATH_FLOW_LABEL] = 0xfffff,
	[IBPATH_HOP_LIMIT] = 0xff,
	[IBPATH_PKEY] = 0xffff,
	[IBPATH_PKEY_INDEX] = 0xffff,
	[IBPATH_QKEY] = 0xffffffff,
	[IBPATH_SQPN] = 0xffffff,
	[IBPATH_DQPN] = 0xffffff,
	[IBPATH_MTU] = 63,
	[IBPATH_RATE] = 63,
	[IBPATH_PACKET_LIFE_TIME] = 31,
	[IBPATH_RESP_TIME] = 31,
	[IBPATH_RETRIES] = 255,
	[IBPATH_DR_SLID] = 0xffff,
	[IBPATH_DR_DLID] = 0xffff,
	[IBPATH_TIMEOUT_MS] = 0x7fffffff,
};

static const uint64_t attr_default[IBPATH_ATTR_COUNT_] = {
	[IBPATH_PKEY] = 0xffff,
	[IBPATH_PACKET_LIFE_TIME] = 18,
	[IBPATH_RESP_TIME] = 20,
	[IBPATH_DR_SLID] = 0xffff,
	[IBPATH_DR_DLID] = 0xffff,
};

static struct ibpath_path *new_path(enum ibpath_kind kind)
{
	struct ibpath_path *p = NULL;

	ck_assert_int_eq(ibpath_path_new(&p, kind), 0);
	ck_assert_ptr_nonnull(p);
	return p;
}

static void set(struct ibpath_path *p, enum ibpath_attr attr, uint64_t v)
{
	ck_assert_msg(ibpath_path_set(p, attr, v) == 0, "set attribute %d to %llu", (int)attr,
		      (unsigned long long)v);
}

static void assert_format(const struct ibpath_path *p, const char *want)
{
	char buf[2048];
	int n = ibpath_path_format(p, buf, sizeof(buf));

	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(n, (int)strlen(want));
}

static void assert_spec(const struct ibpath_path *p, const char *want)
{
	char buf[2048];
	int n = ibpath_path_format_spec(p, buf, sizeof(buf));

	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(n, (int)strlen(want));
}

START_TEST(test_new_defaults)
{
	static const enum ibpath_kind kinds[] = { IBPATH_KIND_IB, IBPATH_KIND_DR };
	struct ibpath_path *p = (struct ibpath_path *)&p, *keep = p;
	unsigned k, i;

	for (k = 0; k < 2; k++) {
		struct ibpath_path *q = new_path(kinds[k]);
		ibstruct_gid_t g, zero = { { 0 } };
		const uint8_t *hops = NULL;

		ck_assert_int_eq(ibpath_path_kind(q), kinds[k]);
		for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
			ck_assert_msg(ibpath_path_get(q, i) == attr_default[i], "attribute %u", i);
		ck_assert(!ibpath_path_has_grh(q));
		memset(&g, 0xaa, sizeof(g));
		ibpath_path_sgid(q, &g);
		ck_assert(!memcmp(&g, &zero, sizeof(g)));
		memset(&g, 0xaa, sizeof(g));
		ibpath_path_dgid(q, &g);
		ck_assert(!memcmp(&g, &zero, sizeof(g)));
		ck_assert_ptr_null(ibpath_path_end_port(q));
		ck_assert(!ibpath_path_needs_resolution(q));
		if (kinds[k] == IBPATH_KIND_DR) {
			ck_assert_uint_eq(ibpath_path_dr_ports(q, &hops), 1);
			ck_assert_uint_eq(hops[0], 0);
		} else {
			ck_assert_uint_eq(ibpath_path_dr_ports(q, &hops), 0);
			ck_assert_ptr_null(hops);
		}
		ck_assert_uint_eq(ibpath_path_dr_return_ports(q, NULL), 0);
		ibpath_path_unref(q);
	}
	ck_assert_int_eq(ibpath_path_new(&p, (enum ibpath_kind)2), -EINVAL);
	ck_assert_int_eq(ibpath_path_new(&p, (enum ibpath_kind)-1), -EINVAL);
	ck_assert_ptr_eq(p, keep);
	ck_assert_int_eq(ibpath_path_new(NULL, IBPATH_KIND_IB), -EINVAL);
	/* NULL paths */
	ck_assert_int_eq(ibpath_path_kind(NULL), IBPATH_KIND_IB);
	ck_assert_uint_eq(ibpath_path_get(NULL, IBPATH_DLID), 0);
	ck_assert(!ibpath_path_has_grh(NULL));
	ck_assert_ptr_null(ibpath_path_end_port(NULL));
	ck_assert(!ibpath_path_needs_resolution(NULL));
	ck_assert_uint_eq(ibpath_path_dr_ports(NULL, NULL), 0);
	ck_assert_uint_eq(ibpath_path_dr_return_ports(NULL, NULL), 0);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(NULL), 0);
	ibpath_path_sgid(NULL, NULL);
	ibpath_path_set_sgid(NULL, NULL);
	ibpath_path_set_dgid(NULL, NULL);
	ibpath_path_clear_grh(NULL);
}
END_TEST

START_TEST(test_ref_unref_copy)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_DR), *c = NULL, *keep = (struct ibpath_path *)&keep;
	static const uint8_t hops[] = { 0, 1, 4 }, back[] = { 0, 2, 3 };
	ibstruct_gid_t g = gid_from_text("fe80::1");

	set(p, IBPATH_DLID, 7);
	set(p, IBPATH_SL, 3);
	ibpath_path_set_dgid(p, &g);
	ck_assert_int_eq(ibpath_path_set_dr_ports(p, hops, 3), 0);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(p, back, 3), 0);
	ck_assert_int_eq(ibpath_path_set_end_port(p, "mlx5_0/1"), 0);

	/* ref: the same object, alive until the last unref (ASan watches the rest) */
	ck_assert_ptr_eq(ibpath_path_ref(p), p);
	ibpath_path_unref(p);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_DLID), 7);

	ck_assert_int_eq(ibpath_path_copy(p, &c), 0);
	ck_assert_ptr_ne(c, p);
	ck_assert(ibpath_path_equal(p, c));
	/* a copy has its own reference count and values */
	ibpath_path_ref(c);
	ibpath_path_unref(c);
	set(c, IBPATH_SL, 4);
	ck_assert(!ibpath_path_equal(p, c));
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 3);
	ck_assert_int_eq(ibpath_path_set_end_port(c, NULL), 0);
	ck_assert_str_eq(ibpath_path_end_port(p), "mlx5_0/1");
	ibpath_path_unref(p);
	ck_assert_uint_eq(ibpath_path_get(c, IBPATH_DLID), 7);
	ibpath_path_unref(c);

	ck_assert_ptr_null(ibpath_path_ref(NULL));
	ibpath_path_unref(NULL);
	ck_assert_int_eq(ibpath_path_copy(NULL, &keep), -EINVAL);
	ck_assert_ptr_eq(keep, (struct ibpath_path *)&keep);
	p = new_path(IBPATH_KIND_IB);
	ck_assert_int_eq(ibpath_path_copy(p, NULL), -EINVAL);
	ibpath_path_unref(p);
}
END_TEST

/* Each attribute takes 0..max; max+1 is -ERANGE and leaves the value alone. */
START_TEST(test_set_ranges)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB);
	unsigned i;

	for (i = 0; i < IBPATH_ATTR_COUNT_; i++) {
		set(p, i, 1);
		ck_assert_int_eq(ibpath_path_set(p, i, attr_max[i] + 1), -ERANGE);
		ck_assert_int_eq(ibpath_path_set(p, i, UINT64_MAX), -ERANGE);
		ck_assert_uint_eq(ibpath_path_get(p, i), 1);
		set(p, i, attr_max[i]);
		ck_assert_uint_eq(ibpath_path_get(p, i), attr_max[i]);
		set(p, i, 0);
		ck_assert_uint_eq(ibpath_path_get(p, i), 0);
	}
	ck_assert_int_eq(ibpath_path_set(p, IBPATH_ATTR_COUNT_, 0), -EINVAL);
	ck_assert_int_eq(ibpath_path_set(p, (enum ibpath_attr)-1, 0), -EINVAL);
	ck_assert_int_eq(ibpath_path_set(NULL, IBPATH_SL, 0), -EINVAL);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_ATTR_COUNT_), 0);
	ck_assert_uint_eq(ibpath_path_get(p, (enum ibpath_attr)-1), 0);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_grh)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB);
	ibstruct_gid_t a = gid_from_text("fe80::a"), b = gid_from_text("2001:db8::b"), g, zero = { { 0 } };

	/* a hop limit of 0 is no GRH, any other is */
	set(p, IBPATH_HOP_LIMIT, 0);
	ck_assert(!ibpath_path_has_grh(p));
	set(p, IBPATH_HOP_LIMIT, 1);
	ck_assert(ibpath_path_has_grh(p));
	ibpath_path_clear_grh(p);
	ck_assert(!ibpath_path_has_grh(p));

	/* a DGID brings hop limit 255 unless one was set */
	ibpath_path_set_dgid(p, &b);
	ck_assert(ibpath_path_has_grh(p));
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 255);
	ibpath_path_dgid(p, &g);
	ck_assert(!memcmp(&g, &b, sizeof(g)));
	ibpath_path_clear_grh(p);
	set(p, IBPATH_HOP_LIMIT, 64);
	set(p, IBPATH_TRAFFIC_CLASS, 3);
	set(p, IBPATH_FLOW_LABEL, 0x12345);
	ibpath_path_set_dgid(p, &b);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 64);

	/* an SGID alone is a GRH too, with the hop limit it has */
	ibpath_path_set_sgid(p, &a);
	ibpath_path_sgid(p, &g);
	ck_assert(!memcmp(&g, &a, sizeof(g)));
	ibpath_path_dgid(p, NULL);

	/* clearing drops GIDs, traffic class, flow label and hop limit, not the rest */
	set(p, IBPATH_SL, 9);
	ibpath_path_clear_grh(p);
	ck_assert(!ibpath_path_has_grh(p));
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_TRAFFIC_CLASS), 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_FLOW_LABEL), 0);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_SL), 9);
	ibpath_path_sgid(p, &g);
	ck_assert(!memcmp(&g, &zero, sizeof(g)));
	ibpath_path_dgid(p, &g);
	ck_assert(!memcmp(&g, &zero, sizeof(g)));

	ibpath_path_clear_grh(p);
	ibpath_path_set_sgid(p, &a);
	ck_assert(ibpath_path_has_grh(p));
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 0);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_dr_ports)
{
	struct ibpath_path *ib = new_path(IBPATH_KIND_IB), *dr = new_path(IBPATH_KIND_DR);
	uint8_t hops[IBPATH_MAX_HOPS + 2];
	const uint8_t *got;
	unsigned i;

	for (i = 0; i < sizeof(hops); i++)
		hops[i] = (uint8_t)(i ? 200 + i % 50 : 0);
	ck_assert_int_eq(ibpath_path_set_dr_ports(ib, hops, 3), -EINVAL);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(ib, hops, 3), -EINVAL);
	ck_assert_uint_eq(ibpath_path_dr_ports(ib, &got), 0);
	ck_assert_int_eq(ibpath_path_set_dr_ports(dr, hops, 0), -EINVAL);
	ck_assert_int_eq(ibpath_path_set_dr_ports(dr, NULL, 2), -EINVAL);
	ck_assert_int_eq(ibpath_path_set_dr_ports(NULL, hops, 2), -EINVAL);
	ck_assert_int_eq(ibpath_path_set_dr_ports(dr, hops, IBPATH_MAX_HOPS + 2), -ERANGE);
	ck_assert_uint_eq(ibpath_path_dr_ports(dr, NULL), 1);
	ck_assert_int_eq(ibpath_path_set_dr_ports(dr, hops, IBPATH_MAX_HOPS + 1), 0);
	ck_assert_uint_eq(ibpath_path_dr_ports(dr, &got), IBPATH_MAX_HOPS + 1);
	ck_assert(!memcmp(got, hops, IBPATH_MAX_HOPS + 1));
	ck_assert_int_eq(ibpath_path_set_dr_ports(dr, hops, 2), 0);
	ck_assert_uint_eq(ibpath_path_dr_ports(dr, &got), 2);

	ck_assert_int_eq(ibpath_path_set_dr_return_ports(dr, NULL, 1), -EINVAL);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(dr, hops, IBPATH_MAX_HOPS + 2), -ERANGE);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(dr, hops, IBPATH_MAX_HOPS + 1), 0);
	ck_assert_uint_eq(ibpath_path_dr_return_ports(dr, &got), IBPATH_MAX_HOPS + 1);
	ck_assert(!memcmp(got, hops, IBPATH_MAX_HOPS + 1));
	/* 0 forgets the return path */
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(dr, NULL, 0), 0);
	ck_assert_uint_eq(ibpath_path_dr_return_ports(dr, &got), 0);
	ibpath_path_unref(ib);
	ibpath_path_unref(dr);
}
END_TEST

START_TEST(test_end_port)
{
	static const char *const bad[] = { "a,b", "a(b", "a)b", "a=b", "a b", "a\tb", "a\nb", "a'b",
					   "a\"b", "a\rb", "a\vb", "a\fb", "\x01", "a\x7f" };
	struct ibpath_path *p = new_path(IBPATH_KIND_IB);
	char name[128];
	unsigned i;

	ck_assert_int_eq(ibpath_path_set_end_port(p, "mlx5_0/1"), 0);
	ck_assert_str_eq(ibpath_path_end_port(p), "mlx5_0/1");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ibpath_path_set_end_port(p, bad[i]) == -EINVAL, "end port \"%s\"", bad[i]);
		ck_assert_str_eq(ibpath_path_end_port(p), "mlx5_0/1");
	}
	memset(name, 'n', sizeof(name));
	name[96] = 0;
	ck_assert_int_eq(ibpath_path_set_end_port(p, name), -ENAMETOOLONG);
	name[95] = 0;
	ck_assert_int_eq(ibpath_path_set_end_port(p, name), 0);
	ck_assert_str_eq(ibpath_path_end_port(p), name);
	ck_assert_int_eq(ibpath_path_set_end_port(p, "None"), 0);
	ck_assert_str_eq(ibpath_path_end_port(p), "None");
	ck_assert_int_eq(ibpath_path_set_end_port(p, ""), 0);
	ck_assert_ptr_null(ibpath_path_end_port(p));
	ck_assert_int_eq(ibpath_path_set_end_port(p, "x"), 0);
	ck_assert_int_eq(ibpath_path_set_end_port(p, NULL), 0);
	ck_assert_ptr_null(ibpath_path_end_port(p));
	ck_assert_int_eq(ibpath_path_set_end_port(NULL, "x"), -EINVAL);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_needs_resolution)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB);
	ibstruct_gid_t g = gid_from_text("fe80::1");

	ck_assert(!ibpath_path_needs_resolution(p));
	ibpath_path_set_dgid(p, &g);
	ck_assert(ibpath_path_needs_resolution(p));
	set(p, IBPATH_DLID, 4);
	ck_assert(!ibpath_path_needs_resolution(p));
	set(p, IBPATH_DLID, 0);
	ibpath_path_clear_grh(p);
	ck_assert(!ibpath_path_needs_resolution(p));
	ibpath_path_unref(p);
	p = new_path(IBPATH_KIND_DR);
	ibpath_path_set_dgid(p, &g);
	ck_assert(!ibpath_path_needs_resolution(p));
	ibpath_path_unref(p);
}
END_TEST

/* ibpath_path_equal() looks at everything. */
START_TEST(test_equal)
{
	struct ibpath_path *a = new_path(IBPATH_KIND_DR), *b = new_path(IBPATH_KIND_DR);
	struct ibpath_path *ib = new_path(IBPATH_KIND_IB);
	static const uint8_t h1[] = { 0, 1 }, h2[] = { 0, 2 }, h3[] = { 0, 1, 0 };
	ibstruct_gid_t g = gid_from_text("fe80::1");
	unsigned i;

	ck_assert(ibpath_path_equal(a, b));
	ck_assert(ibpath_path_equal(a, a));
	ck_assert(!ibpath_path_equal(a, ib));
	ck_assert(!ibpath_path_equal(a, NULL));
	ck_assert(!ibpath_path_equal(NULL, a));
	ck_assert(ibpath_path_equal(NULL, NULL));
	for (i = 0; i < IBPATH_ATTR_COUNT_; i++) {
		uint64_t old = ibpath_path_get(b, i);

		set(b, i, old ? old - 1 : 1);
		ck_assert_msg(!ibpath_path_equal(a, b), "attribute %u", i);
		if (i == IBPATH_HOP_LIMIT)
			ibpath_path_clear_grh(b);
		else
			set(b, i, old);
		ck_assert_msg(ibpath_path_equal(a, b), "attribute %u", i);
	}
	ibpath_path_set_sgid(b, &(ibstruct_gid_t){ { 0 } });
	ck_assert(!ibpath_path_equal(a, b)); /* GRH present */
	ibpath_path_clear_grh(b);
	ibpath_path_set_dgid(a, &g);
	ibpath_path_set_dgid(b, &g);
	ck_assert(ibpath_path_equal(a, b));
	ibpath_path_set_sgid(b, &g);
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_clear_grh(a);
	ibpath_path_clear_grh(b);
	ibpath_path_set_dr_ports(a, h1, 2);
	ibpath_path_set_dr_ports(b, h2, 2);
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_set_dr_ports(b, h3, 3);
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_set_dr_ports(b, h1, 2);
	ck_assert(ibpath_path_equal(a, b));
	ibpath_path_set_dr_return_ports(a, h1, 2);
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_set_dr_return_ports(b, h2, 2);
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_set_dr_return_ports(b, h1, 2);
	ck_assert(ibpath_path_equal(a, b));
	ibpath_path_set_end_port(a, "mlx5_0/1");
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_set_end_port(b, "mlx5_0/2");
	ck_assert(!ibpath_path_equal(a, b));
	ibpath_path_set_end_port(b, "mlx5_0/1");
	ck_assert(ibpath_path_equal(a, b));
	ibpath_path_unref(a);
	ibpath_path_unref(b);
	ibpath_path_unref(ib);
}
END_TEST

START_TEST(test_reverse_ib)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB), *r = NULL, *rr = NULL, *orig;
	struct ibpath_path *keep = (struct ibpath_path *)&keep;
	unsigned i;

	set(p, IBPATH_SLID, 1);
	set(p, IBPATH_DLID, 2);
	set(p, IBPATH_SQPN, 3);
	set(p, IBPATH_DQPN, 1);
	set(p, IBPATH_SL, 5);
	set(p, IBPATH_PKEY, 0x8001);
	set(p, IBPATH_QKEY, 0x80010000);
	set(p, IBPATH_RETRIES, 2);
	ibpath_path_set_end_port(p, "mlx5_0/1");
	ck_assert_int_eq(ibpath_path_copy(p, &orig), 0);
	ck_assert_int_eq(ibpath_path_reverse(p, &r), 0);
	ck_assert(ibpath_path_equal(p, orig));
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_SLID), 2);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DLID), 1);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_SQPN), 1);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DQPN), 3);
	for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
		if (i != IBPATH_SLID && i != IBPATH_DLID && i != IBPATH_SQPN && i != IBPATH_DQPN)
			ck_assert_msg(ibpath_path_get(r, i) == ibpath_path_get(p, i), "attribute %u", i);
	ck_assert(!ibpath_path_has_grh(r));
	ck_assert_str_eq(ibpath_path_end_port(r), "mlx5_0/1");
	ck_assert_int_eq(ibpath_path_reverse(r, &rr), 0);
	ck_assert(ibpath_path_equal(rr, p));
	assert_format(r, "Path 2 -> 1 SL=5 PKey=0x8001 DQPN=3");
	ibpath_path_unref(rr);
	ibpath_path_unref(r);
	ibpath_path_unref(orig);
	ck_assert_int_eq(ibpath_path_reverse(NULL, &keep), -EINVAL);
	ck_assert_int_eq(ibpath_path_reverse(p, NULL), -EINVAL);
	ck_assert_ptr_eq(keep, (struct ibpath_path *)&keep);
	ibpath_path_unref(p);
}
END_TEST

/* With a GRH the GIDs swap and the hop limit becomes 255; TC and flow label stay. */
START_TEST(test_reverse_grh)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB), *r, *rr;
	ibstruct_gid_t a = gid_from_text("fe80::a"), b = gid_from_text("2001:db8::b"), g;

	set(p, IBPATH_SLID, 10);
	set(p, IBPATH_DLID, 20);
	set(p, IBPATH_HOP_LIMIT, 64);
	set(p, IBPATH_TRAFFIC_CLASS, 3);
	set(p, IBPATH_FLOW_LABEL, 0x12345);
	ibpath_path_set_sgid(p, &a);
	ibpath_path_set_dgid(p, &b);
	ck_assert_int_eq(ibpath_path_reverse(p, &r), 0);
	ck_assert(ibpath_path_has_grh(r));
	ibpath_path_sgid(r, &g);
	ck_assert(!memcmp(&g, &b, sizeof(g)));
	ibpath_path_dgid(r, &g);
	ck_assert(!memcmp(&g, &a, sizeof(g)));
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_HOP_LIMIT), 255);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_TRAFFIC_CLASS), 3);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_FLOW_LABEL), 0x12345);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_SLID), 20);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 64);
	assert_format(r, "Path 2001:db8::b 20 -> fe80::a 10 TC=3 FL=0x12345 HL=255 SL=0 PKey=0xffff DQPN=0");
	/* twice: back where we started, except the hop limit */
	ck_assert_int_eq(ibpath_path_reverse(r, &rr), 0);
	ck_assert(!ibpath_path_equal(rr, p));
	set(p, IBPATH_HOP_LIMIT, 255);
	ck_assert(ibpath_path_equal(rr, p));
	ibpath_path_unref(rr);
	ibpath_path_unref(r);
	ibpath_path_unref(p);
}
END_TEST

/* A DR path needs its return path (as long as the path itself) to be reversed. */
START_TEST(test_reverse_dr)
{
	struct ibpath_path *p, *r = (struct ibpath_path *)&r, *keep = r, *rr;
	static const uint8_t hops[] = { 0, 1, 4 }, back[] = { 0, 2, 3 };
	const uint8_t *got;

	ck_assert_int_eq(ibpath_parse("0,1,4", 0, &p, NULL, 0), 0);
	ck_assert_int_eq(ibpath_path_reverse(p, &r), -EINVAL);
	ck_assert_ptr_eq(r, keep);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(p, back, 2), 0);
	ck_assert_int_eq(ibpath_path_reverse(p, &r), -EINVAL);
	ck_assert_ptr_eq(r, keep);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(p, back, 3), 0);
	set(p, IBPATH_DR_SLID, 5);
	set(p, IBPATH_SLID, 5);
	set(p, IBPATH_DLID, 9);
	ck_assert_int_eq(ibpath_path_reverse(p, &r), 0);
	ck_assert_int_eq(ibpath_path_kind(r), IBPATH_KIND_DR);
	ck_assert_uint_eq(ibpath_path_dr_ports(r, &got), 3);
	ck_assert(!memcmp(got, back, 3));
	ck_assert_uint_eq(ibpath_path_dr_return_ports(r, &got), 3);
	ck_assert(!memcmp(got, hops, 3));
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DR_SLID), 0xffff);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DR_DLID), 5);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_SLID), 9);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DLID), 5);
	ck_assert(!ibpath_path_has_grh(r));
	assert_spec(r, "IBDRPath(DLID=5,SLID=9,drDLID=5,drPath=0:2:3,drReturnPath=0:1:4)");
	ck_assert_int_eq(ibpath_path_reverse(r, &rr), 0);
	ck_assert(ibpath_path_equal(rr, p));
	ibpath_path_unref(rr);
	ibpath_path_unref(r);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_time_value)
{
	/* 4.096 us * 2^x, rounded up to whole microseconds */
	ck_assert_uint_eq(ibpath_time_value_us(0), 5);
	ck_assert_uint_eq(ibpath_time_value_us(1), 9);
	ck_assert_uint_eq(ibpath_time_value_us(8), 1049);
	ck_assert_uint_eq(ibpath_time_value_us(18), 1073742);
	ck_assert_uint_eq(ibpath_time_value_us(20), 4294968);
	ck_assert_uint_eq(ibpath_time_value_us(31), 8796093023ull);
	/* 5-bit values: larger ones act as 31 */
	ck_assert_uint_eq(ibpath_time_value_us(32), 8796093023ull);
	ck_assert_uint_eq(ibpath_time_value_us(~0u), 8796093023ull);
}
END_TEST

START_TEST(test_mad_timeout)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB);

	/* 4.096 us * (2^19 + 2^20) = 6442.45 ms */
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 6443);
	set(p, IBPATH_PACKET_LIFE_TIME, 0);
	set(p, IBPATH_RESP_TIME, 0);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 1);
	set(p, IBPATH_PACKET_LIFE_TIME, 10);
	set(p, IBPATH_RESP_TIME, 12);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 26);
	set(p, IBPATH_PACKET_LIFE_TIME, 31);
	set(p, IBPATH_RESP_TIME, 0);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 17592187);
	set(p, IBPATH_RESP_TIME, 31);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 26388280);
	/* an explicit timeout wins */
	set(p, IBPATH_TIMEOUT_MS, 250);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 250);
	set(p, IBPATH_TIMEOUT_MS, 1);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 1);
	set(p, IBPATH_TIMEOUT_MS, 0x7fffffff);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 0x7fffffff);
	set(p, IBPATH_TIMEOUT_MS, 0);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 26388280);
	ibpath_path_unref(p);
	p = new_path(IBPATH_KIND_DR);
	ck_assert_uint_eq(ibpath_path_mad_timeout_ms(p), 6443);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_format)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_IB);
	ibstruct_gid_t a = gid_from_text("fe80::1"), b = gid_from_text("fe80::2");
	static const uint8_t hops[] = { 0, 1, 4 };
	char buf[16];

	set(p, IBPATH_SLID, 8);
	set(p, IBPATH_DLID, 8);
	set(p, IBPATH_DQPN, 1);
	assert_format(p, "Path 8 -> 8 SL=0 PKey=0xffff DQPN=1");
	/* snprintf semantics */
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ibpath_path_format(p, buf, sizeof(buf)), 35);
	ck_assert_str_eq(buf, "Path 8 -> 8 SL=");
	ck_assert_int_eq(ibpath_path_format(p, NULL, 0), 35);
	ck_assert_int_eq(ibpath_path_format(p, buf, 1), 35);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(ibpath_path_format(NULL, buf, sizeof(buf)), -EINVAL);

	set(p, IBPATH_SLID, 3);
	set(p, IBPATH_DLID, 4);
	set(p, IBPATH_SL, 2);
	set(p, IBPATH_PKEY, 0x8001);
	set(p, IBPATH_TRAFFIC_CLASS, 1);
	set(p, IBPATH_FLOW_LABEL, 0xabc);
	set(p, IBPATH_HOP_LIMIT, 64);
	ibpath_path_set_sgid(p, &a);
	ibpath_path_set_dgid(p, &b);
	assert_format(p, "Path fe80::1 3 -> fe80::2 4 TC=1 FL=0xabc HL=64 SL=2 PKey=0x8001 DQPN=1");
	set(p, IBPATH_PKEY, 0x7);
	ibpath_path_clear_grh(p);
	assert_format(p, "Path 3 -> 4 SL=2 PKey=0x0007 DQPN=1");
	ibpath_path_unref(p);

	p = new_path(IBPATH_KIND_DR);
	assert_format(p, "DR Path (0)");
	ibpath_path_set_dr_ports(p, hops, 3);
	assert_format(p, "DR Path (0, 1, 4)");
	set(p, IBPATH_DLID, 5);
	assert_format(p, "DR Path 5 -> (0, 1, 4)");
	set(p, IBPATH_DR_DLID, 7);
	assert_format(p, "DR Path 5 -> (0, 1, 4) -> 7");
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ibpath_path_format(p, buf, sizeof(buf)), 27);
	ck_assert_str_eq(buf, "DR Path 5 -> (0");
	ibpath_path_unref(p);

	ck_assert_int_eq(ibpath_parse("0x0002c90300001492", 0, &p, NULL, 0), 0);
	assert_format(p, "Path :: 0 -> fe80::2:c903:0:1492 0 TC=0 FL=0x0 HL=255 SL=0 PKey=0xffff DQPN=0");
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_format_spec)
{
	struct ibpath_path *p;
	char buf[8];

	ck_assert_int_eq(ibpath_parse("IBPath(DLID=2,SL=2)", 0, &p, NULL, 0), 0);
	assert_spec(p, "IBPath(DLID=2,SL=2)");
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ibpath_path_format_spec(p, buf, sizeof(buf)), 19);
	ck_assert_str_eq(buf, "IBPath(");
	ck_assert_int_eq(ibpath_path_format_spec(p, NULL, 0), 19);
	ck_assert_int_eq(ibpath_path_format_spec(NULL, buf, sizeof(buf)), -EINVAL);
	ibpath_path_unref(p);

	ck_assert_int_eq(ibpath_parse("0,1,4", 0, &p, NULL, 0), 0);
	assert_spec(p, "IBDRPath(drPath=0:1:4)");
	ibpath_path_unref(p);

	p = new_path(IBPATH_KIND_IB);
	assert_spec(p, "IBPath()");
	ibpath_path_unref(p);
	p = new_path(IBPATH_KIND_DR);
	assert_spec(p, "IBDRPath(drPath=0)");
	ibpath_path_unref(p);

	/* a GRH path always states its hop limit and both GIDs */
	ck_assert_int_eq(ibpath_parse("0x0002c90300001492", 0, &p, NULL, 0), 0);
	assert_spec(p, "IBPath(DGID=fe80::2:c903:0:1492,SGID=::,hop_limit=255)");
	ibpath_path_unref(p);
	ck_assert_int_eq(ibpath_parse("fe80::1%mlx5_0/1", 0, &p, NULL, 0), 0);
	assert_spec(p, "IBPath(DGID=fe80::1,SGID=::,end_port=mlx5_0/1,hop_limit=255)");
	ibpath_path_unref(p);

	/* every attribute: non-defaults only, sorted by name, hex where IBA uses hex */
	ck_assert_int_eq(ibpath_parse("IBPath(SLID=1,DLID=2,SL=3,traffic_class=4,flow_label=5,hop_limit=6,"
				      "pkey=32767,pkey_index=8,qkey=2147549184,sqpn=9,dqpn=10,mtu=4,rate=7,"
				      "packet_life_time=11,resp_time=12,retries=13,drSLID=14,drDLID=15,"
				      "timeout_ms=16,DGID=fe80::1,SGID=fe80::2,end_port=mlx5_0/1)",
				      0, &p, NULL, 0),
			 0);
	assert_spec(p, "IBPath(DGID=fe80::1,DLID=2,SGID=fe80::2,SL=3,SLID=1,dqpn=10,drDLID=15,drSLID=14,"
		       "end_port=mlx5_0/1,flow_label=0x5,hop_limit=6,mtu=4,packet_life_time=11,"
		       "pkey=0x7fff,pkey_index=8,qkey=0x80010000,rate=7,resp_time=12,retries=13,sqpn=9,"
		       "timeout_ms=16,traffic_class=4)");
	ibpath_path_unref(p);
	ck_assert_int_eq(ibpath_parse("IBDRPath(end_port=mlx5_0/2,drReturnPath=0:2:3,drPath=0:1:4,"
				      "drSLID=6,DLID=5,pkey=0xffff,packet_life_time=18)",
				      0, &p, NULL, 0),
			 0);
	assert_spec(p, "IBDRPath(DLID=5,drPath=0:1:4,drReturnPath=0:2:3,drSLID=6,end_port=mlx5_0/2)");
	ibpath_path_unref(p);
}
END_TEST

/* ---- round trips -------------------------------------------------------------------------- */

static uint64_t rand_value(uint64_t *s, uint64_t max)
{
	switch (test_rand_below(s, 4)) {
	case 0:
		return 0;
	case 1:
		return max;
	default:
		return test_rand(s) % (max + 1);
	}
}

static void rand_gid(uint64_t *s, ibstruct_gid_t *g)
{
	uint64_t hi = test_rand(s), lo = test_rand(s);

	switch (test_rand_below(s, 5)) {
	case 0:
		memset(g, 0, sizeof(*g));
		break;
	case 1:
		ibstruct_gid_make(g, LINK_LOCAL, lo);
		break;
	case 2: /* IPv4-mapped, printed as ::ffff:a.b.c.d */
		ibstruct_gid_make(g, 0, 0x0000ffff00000000ull | (lo & 0xffffffff));
		break;
	case 3: /* IPv4-compatible */
		ibstruct_gid_make(g, 0, lo & 0xffffffff);
		break;
	default:
		ibstruct_gid_make(g, hi, lo);
	}
}

static void rand_end_port(uint64_t *s, char *name)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "_-./:%@+#[]!?*&^~$;<>{}|\\`\xc3\xa9";
	unsigned i, n;

	if (test_rand_below(s, 8) == 0) {
		strcpy(name, test_rand_below(s, 2) ? "None" : "mlx5_0/1");
		return;
	}
	n = 1 + test_rand_below(s, 95);
	for (i = 0; i < n; i++)
		name[i] = set[test_rand_below(s, sizeof(set) - 1)];
	name[n] = 0;
}

static void rand_hops(uint64_t *s, uint8_t *hops, unsigned n)
{
	unsigned i;

	hops[0] = 0;
	for (i = 1; i < n; i++)
		hops[i] = (uint8_t)rand_value(s, 255);
}

static struct ibpath_path *rand_path(uint64_t *s)
{
	enum ibpath_kind kind = test_rand_below(s, 2) ? IBPATH_KIND_DR : IBPATH_KIND_IB;
	struct ibpath_path *p = new_path(kind);
	uint8_t hops[IBPATH_MAX_HOPS + 1];
	char name[128];
	unsigned i;

	for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
		if (test_rand_below(s, 3) == 0)
			set(p, i, rand_value(s, attr_max[i]));
	if (test_rand_below(s, 2)) {
		ibstruct_gid_t g;

		if (test_rand_below(s, 2)) {
			rand_gid(s, &g);
			ibpath_path_set_sgid(p, &g);
		}
		if (test_rand_below(s, 3)) {
			rand_gid(s, &g);
			ibpath_path_set_dgid(p, &g);
		}
		if (test_rand_below(s, 3) == 0)
			set(p, IBPATH_HOP_LIMIT, rand_value(s, 255));
	}
	if (kind == IBPATH_KIND_DR) {
		unsigned n = 1 + (unsigned)rand_value(s, IBPATH_MAX_HOPS);

		rand_hops(s, hops, n);
		ck_assert_int_eq(ibpath_path_set_dr_ports(p, hops, n), 0);
		if (test_rand_below(s, 2)) {
			/* mostly as long as the path, so that it can be reversed */
			if (test_rand_below(s, 4))
				n = 1 + (unsigned)rand_value(s, IBPATH_MAX_HOPS);
			rand_hops(s, hops, n);
			ck_assert_int_eq(ibpath_path_set_dr_return_ports(p, hops, n), 0);
		}
	}
	if (test_rand_below(s, 3) == 0) {
		rand_end_port(s, name);
		ck_assert_int_eq(ibpath_path_set_end_port(p, name), 0);
	}
	return p;
}

/* format_spec -> parse gives an equal path, whose spec is the same text. */
static void check_round_trip(const struct ibpath_path *p)
{
	char text[2048], again[2048], err[256] = "";
	struct ibpath_path *q = NULL;
	int n = ibpath_path_format_spec(p, text, sizeof(text));

	ck_assert_int_gt(n, 0);
	ck_assert_uint_eq((unsigned)n, strlen(text));
	ck_assert_msg(ibpath_parse(text, 0, &q, err, sizeof(err)) == 0, "parse \"%s\": %s", text, err);
	ck_assert_msg(ibpath_path_equal(p, q), "\"%s\" parses to a different path", text);
	ibpath_path_format_spec(q, again, sizeof(again));
	ck_assert_str_eq(again, text);
	ibpath_path_unref(q);
}

START_TEST(test_round_trip_random)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned i, reversed = 0;

	for (i = 0; i < 20000; i++) {
		struct ibpath_path *p = rand_path(&seed), *r = NULL, *c = NULL;
		char text[2048];

		check_round_trip(p);
		ck_assert_int_eq(ibpath_path_copy(p, &c), 0);
		ck_assert(ibpath_path_equal(p, c));
		check_round_trip(c);
		if (ibpath_path_reverse(p, &r) == 0) {
			check_round_trip(r);
			reversed++;
			ibpath_path_unref(r);
		} else {
			ck_assert_int_eq(ibpath_path_kind(p), IBPATH_KIND_DR);
			ck_assert_uint_ne(ibpath_path_dr_return_ports(p, NULL), ibpath_path_dr_ports(p, NULL));
		}
		/* the human form never fails either */
		ck_assert_int_gt(ibpath_path_format(p, text, sizeof(text)), 0);
		ck_assert_uint_lt(strlen(text), sizeof(text) - 1);
		ibpath_path_unref(c);
		ibpath_path_unref(p);
	}
	ck_assert_uint_gt(reversed, 10000);
}
END_TEST

/* The corners: the longest values of everything at once, names and GIDs that look special. */
START_TEST(test_round_trip_edges)
{
	struct ibpath_path *p = new_path(IBPATH_KIND_DR);
	uint8_t hops[IBPATH_MAX_HOPS + 1];
	ibstruct_gid_t g;
	char name[96], text[2048];
	unsigned i;
	int n;

	/* every attribute at its longest text, 64 hops of 255 both ways, a 95-character end port */
	for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
		set(p, i, attr_max[i] == attr_default[i] ? attr_max[i] - 1 : attr_max[i]);
	memset(hops, 255, sizeof(hops));
	hops[0] = 0;
	ck_assert_int_eq(ibpath_path_set_dr_ports(p, hops, IBPATH_MAX_HOPS + 1), 0);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(p, hops, IBPATH_MAX_HOPS + 1), 0);
	memset(&g, 0xff, sizeof(g));
	ibpath_path_set_sgid(p, &g);
	ibpath_path_set_dgid(p, &g);
	memset(name, 'z', sizeof(name));
	name[95] = 0;
	ck_assert_int_eq(ibpath_path_set_end_port(p, name), 0);
	n = ibpath_path_format_spec(p, text, sizeof(text));
	ck_assert_int_le(n, 1024); /* what ibpath_parse() accepts */
	check_round_trip(p);
	ibpath_path_unref(p);

	/* an end port called None */
	p = new_path(IBPATH_KIND_IB);
	ck_assert_int_eq(ibpath_path_set_end_port(p, "None"), 0);
	check_round_trip(p);
	ibpath_path_unref(p);

	/* a GRH with hop limit 0 (SGID only), and with zero GIDs */
	p = new_path(IBPATH_KIND_IB);
	g = gid_from_text("fe80::1");
	ibpath_path_set_sgid(p, &g);
	ck_assert_uint_eq(ibpath_path_get(p, IBPATH_HOP_LIMIT), 0);
	check_round_trip(p);
	ibpath_path_clear_grh(p);
	ibpath_path_set_dgid(p, &(ibstruct_gid_t){ { 0 } });
	check_round_trip(p);
	set(p, IBPATH_HOP_LIMIT, 0);
	check_round_trip(p);
	ibpath_path_unref(p);

	/* GIDs printed in dotted IPv4 forms */
	p = new_path(IBPATH_KIND_IB);
	g = gid_from_text("::ffff:10.0.0.1");
	ibpath_path_set_dgid(p, &g);
	g = gid_from_text("::10.0.0.2");
	ibpath_path_set_sgid(p, &g);
	check_round_trip(p);
	ibpath_path_unref(p);

	/* GRH fields without a GRH */
	p = new_path(IBPATH_KIND_IB);
	set(p, IBPATH_TRAFFIC_CLASS, 7);
	set(p, IBPATH_FLOW_LABEL, 0xfffff);
	check_round_trip(p);
	ibpath_path_unref(p);

	/* a return path longer than the path */
	p = new_path(IBPATH_KIND_DR);
	ck_assert_int_eq(ibpath_path_set_dr_return_ports(p, hops, 9), 0);
	check_round_trip(p);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_version)
{
	ck_assert_ptr_nonnull(ibpath_version());
	ck_assert_str_eq(ibpath_version(), PACKAGE_VERSION);
}
END_TEST

Suite *make_path_suite(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_new_defaults);
	tcase_add_test(tc, test_ref_unref_copy);
	tcase_add_test(tc, test_set_ranges);
	tcase_add_test(tc, test_grh);
	tcase_add_test(tc, test_dr_ports);
	tcase_add_test(tc, test_end_port);
	tcase_add_test(tc, test_needs_resolution);
	tcase_add_test(tc, test_equal);
	tcase_add_test(tc, test_reverse_ib);
	tcase_add_test(tc, test_reverse_grh);
	tcase_add_test(tc, test_reverse_dr);
	tcase_add_test(tc, test_time_value);
	tcase_add_test(tc, test_mad_timeout);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_format_spec);
	tcase_add_test(tc, test_round_trip_random);
	tcase_add_test(tc, test_round_trip_edges);
	tcase_add_test(tc, test_version);
	suite_add_tcase(s, tc);
	return s;
}
