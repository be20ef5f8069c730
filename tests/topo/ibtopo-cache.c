// SPDX-License-Identifier: BSD-3-Clause
/*
 * The cache file (libibtopo/cache.c): round trips of topologies built with the internal
 * builders, the byte layout and record order libibnetdisc uses, byte-exact re-saves of cache
 * files libibnetdisc wrote (tests/data/topo/cache-corpus), every class of hostile input with
 * its error, and the atomic save (a failed save leaves neither the file nor a temporary, nor
 * does a killed one where the file system has O_TMPFILE).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check-ibtopo.h"
#include "ibtopo-private.h"

/* ---- Building topologies the way discovery does ------------------------------------------- */

static void be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void be64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static struct ibtopo_node *add_node(struct ibtopo *t, unsigned type, unsigned ports, uint64_t guid,
				    uint64_t port_guid, unsigned local_port, const char *desc)
{
	uint8_t ni[IBTOPO_SMP_DATA_SIZE] = { 1, 1 }, nd[IBTOPO_SMP_DATA_SIZE] = { 0 };
	struct ibtopo_node *n;

	ni[2] = (uint8_t)type;
	ni[3] = (uint8_t)ports;
	be64(ni + 4, guid | 0xf000); /* system image GUID */
	be64(ni + 12, guid);
	be64(ni + 20, port_guid);
	be16(ni + 28, 64);            /* partition cap */
	be16(ni + 30, 0x1003);        /* device id */
	ni[36] = (uint8_t)local_port; /* local port, then vendor id 0x0002c9 */
	ni[38] = 0x02;
	ni[39] = 0xc9;
	n = topo_node_create(t, ni, NULL);
	ck_assert_ptr_nonnull(n);
	memcpy(nd, desc, strnlen(desc, sizeof(nd)));
	topo_node_set_desc(n, nd);
	return n;
}

/* A PortInfo answered by the port: LID, LMC, state Active/LinkUp, a pattern elsewhere. */
static struct ibtopo_port *add_port(struct ibtopo_node *n, unsigned num, uint16_t lid, unsigned lmc)
{
	uint8_t pi[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo_port *p = topo_port_get(n, num);

	ck_assert_ptr_nonnull(p);
	for (unsigned i = 0; i < sizeof(pi); i++)
		pi[i] = (uint8_t)(i * 7 + num + n->guid);
	be16(pi + 16, lid);
	pi[28] = (uint8_t)num;
	pi[32] = (uint8_t)((pi[32] & 0xf0) | 4);
	pi[33] = (uint8_t)((PHYS_STATE_LINKUP << 4) | (pi[33] & 0x0f));
	pi[34] = (uint8_t)((pi[34] & 0xf8) | lmc);
	if (n->type != IBTOPO_NODE_SWITCH)
		p->guid = NI_PORT_GUID(n->info) + num - NI_LOCAL_PORT(n->info);
	ck_assert_int_eq(topo_port_set_info(p, pi), 0);
	return p;
}

static void add_switch_info(struct ibtopo_node *n, bool enh)
{
	uint8_t si[IBTOPO_SMP_DATA_SIZE];

	for (unsigned i = 0; i < sizeof(si); i++)
		si[i] = (uint8_t)(0x31 * i + 5);
	si[16] = (uint8_t)((si[16] & ~8) | (enh ? 8 : 0));
	topo_node_set_switch_info(n, si);
}

enum { G_H1 = 0x0002c90300001000, G_S1 = 0x0002c90300002000, G_S2 = 0x0002c90300003000,
       G_H2 = 0x0002c90300004000, G_R1 = 0x0002c90300005000, G_H3 = 0x0002c90300006000 };

/* Discovery from h1 port 1: h1 - s1 (enhanced port 0, 8 ports) = s2 (36 ports, two links
 * to s1) - h2 (LMC 2), r1 (a router), h3 (reached, but its PortInfo never came: a shell
 * port, which has no record).  Created and indexed in the order a DR walk would. */
static struct ibtopo *sample(void)
{
	struct ibtopo *t;
	struct ibtopo_node *h1, *s1, *s2, *h2, *r1, *h3;
	struct ibtopo_port *p;

	ck_assert_int_eq(ibtopo_new(&t), 0);
	h1 = add_node(t, IBTOPO_NODE_CA, 2, G_H1, G_H1 + 1, 1, "h1 HCA-1");
	t->from_node = h1;
	t->from_port = 1;
	add_port(h1, 1, 7, 0);
	s1 = add_node(t, IBTOPO_NODE_SWITCH, 8, G_S1, G_S1, 3, "s1");
	add_switch_info(s1, true);
	add_port(s1, 0, 1, 0);
	for (unsigned i = 1; i <= 8; i++)
		add_port(s1, i, 0, 0);
	topo_link(h1->ports[1], s1->ports[3]);
	s2 = add_node(t, IBTOPO_NODE_SWITCH, 36, G_S2, G_S2, 7, "s2");
	add_switch_info(s2, false);
	add_port(s2, 0, 2, 0);
	for (unsigned i = 1; i <= 36; i++)
		add_port(s2, i, 0, 0);
	topo_link(s1->ports[7], s2->ports[7]);
	topo_link(s1->ports[8], s2->ports[8]);
	h2 = add_node(t, IBTOPO_NODE_CA, 1, G_H2, G_H2 + 1, 1, "h2");
	add_port(h2, 1, 8, 2);
	topo_link(s2->ports[1], h2->ports[1]);
	r1 = add_node(t, IBTOPO_NODE_ROUTER, 2, G_R1, G_R1 + 2, 2, "r1 router");
	add_port(r1, 2, 12, 0);
	topo_link(s2->ports[2], r1->ports[2]);
	h3 = add_node(t, IBTOPO_NODE_CA, 2, G_H3, G_H3 + 1, 1, "h3");
	p = topo_port_get(h3, 1);
	ck_assert_ptr_nonnull(p);
	p->guid = G_H3 + 1;
	topo_link(s2->ports[3], p);
	t->max_hops = 3;
	ck_assert_int_eq(ibtopo_group_chassis(t), 0); /* as discovery ends */
	s2->ports[5]->ext_num = 17; /* as chassis grouping sets it for some vendors */
	return t;
}

static void serialize(const struct ibtopo *t, uint8_t **buf, size_t *len)
{
	ck_assert_int_eq(topo_cache_serialize(t, buf, len), 0);
}

static struct ibtopo *load_ok(const uint8_t *buf, size_t len)
{
	struct ibtopo *t = NULL;
	char why[256];
	int rc = ibtopo_cache_load_mem(buf, len, &t, why, sizeof(why));

	ck_assert_msg(rc == 0, "load failed: %d %s", rc, why);
	ck_assert_ptr_nonnull(t);
	return t;
}

/* ---- Comparing two topologies through the public API ---------------------------------------- */

static void same_port_ref(const struct ibtopo_port *a, const struct ibtopo_port *b, const char *what)
{
	if (!a || !b) {
		ck_assert_msg(!a && !b, "%s: %p vs %p", what, (const void *)a, (const void *)b);
		return;
	}
	ck_assert_msg(ibtopo_node_guid(ibtopo_port_node(a)) == ibtopo_node_guid(ibtopo_port_node(b)) &&
			      ibtopo_port_num(a) == ibtopo_port_num(b),
		      "%s: %" PRIx64 ":%u vs %" PRIx64 ":%u", what, ibtopo_node_guid(ibtopo_port_node(a)),
		      ibtopo_port_num(a), ibtopo_node_guid(ibtopo_port_node(b)), ibtopo_port_num(b));
}

/* A port as the cache file keeps it: one that answered PortInfo; its link only when the
 * other end answered too. */
static const struct ibtopo_port *cached_port(const struct ibtopo_port *p)
{
	return p && ibtopo_port_info(p) ? p : NULL;
}

/* b was loaded from a's cache file: everything the file holds must be equal. */
static void same_topology(const struct ibtopo *a, const struct ibtopo *b)
{
	static const enum ibtopo_node_type types[] = { IBTOPO_NODE_ANY, IBTOPO_NODE_CA, IBTOPO_NODE_SWITCH,
						       IBTOPO_NODE_ROUTER };

	for (unsigned ty = 0; ty < 4; ty++) {
		ck_assert_uint_eq(ibtopo_node_count(a, types[ty]), ibtopo_node_count(b, types[ty]));
		for (unsigned i = 0; i < ibtopo_node_count(a, types[ty]); i++)
			ck_assert_uint_eq(ibtopo_node_guid(ibtopo_node_get(a, types[ty], i)),
					  ibtopo_node_guid(ibtopo_node_get(b, types[ty], i)));
	}
	for (unsigned i = 0; i < ibtopo_node_count(a, IBTOPO_NODE_ANY); i++) {
		const struct ibtopo_node *na = ibtopo_node_get(a, IBTOPO_NODE_ANY, i);
		const struct ibtopo_node *nb = ibtopo_node_get(b, IBTOPO_NODE_ANY, i);
		static const uint8_t zero[IBTOPO_SMP_DATA_SIZE];
		const uint8_t *sa = ibtopo_node_switch_info(na), *sb = ibtopo_node_switch_info(nb);

		ck_assert_ptr_eq(ibtopo_find_node_guid(b, ibtopo_node_guid(na)), nb);
		ck_assert_ptr_eq(ibtopo_node_topo(nb), b);
		ck_assert_int_eq(ibtopo_node_type(na), ibtopo_node_type(nb));
		ck_assert_uint_eq(ibtopo_node_num_ports(na), ibtopo_node_num_ports(nb));
		ck_assert_mem_eq(ibtopo_node_info(na), ibtopo_node_info(nb), IBTOPO_SMP_DATA_SIZE);
		ck_assert_ptr_nonnull(ibtopo_node_desc_raw(nb));
		ck_assert_mem_eq(ibtopo_node_desc_raw(na), ibtopo_node_desc_raw(nb), IBTOPO_SMP_DATA_SIZE);
		ck_assert_str_eq(ibtopo_node_desc(na), ibtopo_node_desc(nb));
		ck_assert_mem_eq(sa ? sa : zero, sb ? sb : zero, IBTOPO_SMP_DATA_SIZE);
		if (ibtopo_node_type(na) == IBTOPO_NODE_SWITCH)
			ck_assert_ptr_nonnull(sb);
		ck_assert_uint_eq(ibtopo_node_sma_lid(na), ibtopo_node_sma_lid(nb));
		ck_assert_uint_eq(ibtopo_node_sma_lmc(na), ibtopo_node_sma_lmc(nb));
		ck_assert_int_eq(ibtopo_node_enhanced_port0(na), ibtopo_node_enhanced_port0(nb));
		ck_assert_int_eq(ibtopo_node_chassis(na) != NULL, ibtopo_node_chassis(nb) != NULL);
		if (ibtopo_node_chassis(na))
			ck_assert_uint_eq(ibtopo_chassis_guid(ibtopo_node_chassis(na)),
					  ibtopo_chassis_guid(ibtopo_node_chassis(nb)));
		ck_assert_uint_eq(ibtopo_node_chassis_type(na), ibtopo_node_chassis_type(nb));
		ck_assert_uint_eq(ibtopo_node_chassis_slot(na), ibtopo_node_chassis_slot(nb));
		ck_assert_uint_eq(ibtopo_node_chassis_slotnum(na), ibtopo_node_chassis_slotnum(nb));
		ck_assert_uint_eq(ibtopo_node_chassis_anafanum(na), ibtopo_node_chassis_anafanum(nb));
		for (unsigned k = 0; k <= ibtopo_node_num_ports(na); k++) {
			const struct ibtopo_port *pa = cached_port(ibtopo_node_port(na, k));
			const struct ibtopo_port *pb = ibtopo_node_port(nb, k);

			same_port_ref(pa, pb, "port");
			if (!pa)
				continue;
			ck_assert_ptr_eq(ibtopo_port_node(pb), nb);
			ck_assert_uint_eq(ibtopo_port_guid(pa), ibtopo_port_guid(pb));
			ck_assert_uint_eq(ibtopo_port_base_lid(pa), ibtopo_port_base_lid(pb));
			ck_assert_uint_eq(ibtopo_port_lmc(pa), ibtopo_port_lmc(pb));
			ck_assert_uint_eq(ibtopo_port_ext_num(pa), ibtopo_port_ext_num(pb));
			ck_assert_ptr_nonnull(ibtopo_port_info(pb));
			ck_assert_mem_eq(ibtopo_port_info(pa), ibtopo_port_info(pb), IBTOPO_SMP_DATA_SIZE);
			ck_assert_ptr_null(ibtopo_port_ext_info(pb)); /* not in the format */
			same_port_ref(cached_port(ibtopo_port_remote(pa)), ibtopo_port_remote(pb), "remote");
			same_port_ref(ibtopo_find_port_guid(a, ibtopo_port_guid(pa)),
				      ibtopo_find_port_guid(b, ibtopo_port_guid(pb)), "by port GUID");
		}
	}
	for (unsigned lid = 0; lid < LID_TAB_SIZE; lid++)
		same_port_ref(ibtopo_find_port_lid(a, (uint16_t)lid), ibtopo_find_port_lid(b, (uint16_t)lid),
			      "by LID");
	ck_assert_uint_eq(ibtopo_chassis_count(a), ibtopo_chassis_count(b));
	for (unsigned i = 0; i < ibtopo_chassis_count(a); i++) {
		ck_assert_uint_eq(ibtopo_chassis_num(ibtopo_chassis_get(a, i)), ibtopo_chassis_num(ibtopo_chassis_get(b, i)));
		ck_assert_uint_eq(ibtopo_chassis_guid(ibtopo_chassis_get(a, i)), ibtopo_chassis_guid(ibtopo_chassis_get(b, i)));
	}
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_from_node(a)), ibtopo_node_guid(ibtopo_from_node(b)));
	ck_assert_uint_eq(ibtopo_from_port(b), 0); /* not in the format */
	ck_assert_uint_eq(ibtopo_max_hops_discovered(a), ibtopo_max_hops_discovered(b));
	ck_assert_uint_eq(ibtopo_error_count(b), 0);
}

/* ---- Round trips and layout ---------------------------------------------------------------- */

START_TEST(test_round_trip)
{
	struct ibtopo *a = sample(), *b;
	uint8_t *f1, *f2;
	size_t l1, l2;
	struct ibtopo_dr_path path;

	serialize(a, &f1, &l1);
	b = load_ok(f1, l1);
	same_topology(a, b);
	/* the loaded topology is walked like a discovered one */
	ck_assert_int_eq(ibtopo_dr_path_parse("0,1,7,1", &path), 0);
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_find_node_dr(b, &path)), G_H2);
	ck_assert_uint_eq(ibtopo_port_base_lid(ibtopo_find_port_lid(b, 10)), 8); /* h2's LMC range */
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_port_node(ibtopo_find_port_lid(b, 11))), G_H2);
	ck_assert_ptr_null(ibtopo_find_port_lid(b, 12 + 1));
	ck_assert_uint_eq(ibtopo_port_num(ibtopo_find_port_lid(b, 2)), 0); /* a switch: port 0 */
	ck_assert_uint_eq(ibtopo_port_num(ibtopo_find_port_guid(b, G_S2)), 0);
	ck_assert_uint_eq(ibtopo_port_ext_num(ibtopo_node_port(ibtopo_find_node_guid(b, G_S2), 5)), 17);
	/* h3 is known, its shell port is not (no record), and s2 port 3 is unlinked */
	ck_assert_ptr_nonnull(ibtopo_find_node_guid(b, G_H3));
	ck_assert_ptr_null(ibtopo_node_port(ibtopo_find_node_guid(b, G_H3), 1));
	ck_assert_ptr_null(ibtopo_port_remote(ibtopo_node_port(ibtopo_find_node_guid(b, G_S2), 3)));
	/* written again: the same bytes */
	serialize(b, &f2, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert_mem_eq(f1, f2, l1);
	free(f1);
	free(f2);
	ibtopo_unref(a);
	ibtopo_unref(b);
}
END_TEST

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | ((uint64_t)rd32(p + 4) << 32);
}

/* Record offsets of a well-formed file */
struct layout {
	unsigned nn, np;
	size_t node[64], port[256];
};

static void layout_of(const uint8_t *f, size_t len, struct layout *l)
{
	size_t off = 28;

	l->nn = rd32(f + 8);
	l->np = rd32(f + 12);
	ck_assert_uint_le(l->nn, 64);
	ck_assert_uint_le(l->np, 256);
	for (unsigned i = 0; i < l->nn; i++) {
		l->node[i] = off;
		off += 207 + 9u * f[off + 206];
	}
	for (unsigned i = 0; i < l->np; i++) {
		l->port[i] = off;
		off += 95;
	}
	ck_assert_uint_eq(off, len);
}

/* The bytes libibnetdisc writes: little-endian header, nodes newest first, port records by
 * GUID hash bucket and, within a bucket, the port entered last first. */
START_TEST(test_layout)
{
	struct ibtopo *a = sample();
	uint8_t *f;
	size_t len;
	struct layout l;
	static const uint8_t head[] = { 0x2b, 0x83, 0xe7, 0x8f, 1, 0, 0, 0, 6, 0, 0, 0 };

	serialize(a, &f, &len);
	ck_assert_mem_eq(f, head, sizeof(head));
	/* ports with records: h1 1, s1 0-8, s2 0-36, h2 1, r1 2 (h3's shell has none) */
	ck_assert_uint_eq(rd32(f + 12), 1 + 9 + 37 + 1 + 1);
	ck_assert_uint_eq(rd64(f + 16), G_H1);
	ck_assert_uint_eq(rd32(f + 24), 3);
	layout_of(f, len, &l);
	ck_assert_uint_eq(len, 28 + 6 * 207 + 9 * (0 + 1 + 1 + 37 + 9 + 1) + 49 * 95);
	/* node records: h3 r1 h2 s2 s1 h1 */
	{
		static const uint64_t order[] = { G_H3, G_R1, G_H2, G_S2, G_S1, G_H1 };

		for (unsigned i = 0; i < 6; i++)
			ck_assert_uint_eq(rd64(f + l.node[i] + 68), order[i]);
	}
	/* s1's record: SMA LID 1, LMC 0, enhanced port 0, type, ports, then keys 0..8 */
	{
		const uint8_t *r = f + l.node[4];

		ck_assert_uint_eq(r[0] | (r[1] << 8), 1);
		ck_assert_uint_eq(r[2], 0);
		ck_assert_uint_eq(r[3], 1);
		ck_assert_uint_eq(r[76], 2);
		ck_assert_uint_eq(r[77], 8);
		ck_assert_str_eq((const char *)r + 142, "s1");
		ck_assert_uint_eq(r[206], 9);
		for (unsigned k = 0; k < 9; k++) {
			ck_assert_uint_eq(rd64(r + 207 + 9 * k), G_S1);
			ck_assert_uint_eq(r[207 + 9 * k + 8], k);
		}
	}
	ck_assert_uint_eq(f[l.node[0] + 206], 0); /* h3: its only port is a shell */
	for (unsigned i = 1; i < l.np; i++) {
		uint64_t g0 = rd64(f + l.port[i - 1]), g1 = rd64(f + l.port[i]);

		ck_assert_uint_le(ibnd_hash_bucket(g0), ibnd_hash_bucket(g1));
		/* a switch's ports share a bucket: port N was entered last, so comes first */
		if (g0 == g1)
			ck_assert_uint_eq(f[l.port[i - 1] + 8], f[l.port[i] + 8] + 1);
	}
	/* h2's port record: LID 8, LMC 2, owner, linked to s2 port 1 */
	for (unsigned i = 0; i < l.np; i++) {
		const uint8_t *r = f + l.port[i];

		if (rd64(r) != G_H2 + 1)
			continue;
		ck_assert_uint_eq(r[8], 1);
		ck_assert_uint_eq(r[10] | (r[11] << 8), 8);
		ck_assert_uint_eq(r[12], 2);
		ck_assert_uint_eq(rd64(r + 77), G_H2);
		ck_assert_uint_eq(r[85], 1);
		ck_assert_uint_eq(rd64(r + 86), G_S2);
		ck_assert_uint_eq(r[94], 1);
	}
	/* s2 port 3 leads to h3's shell: written as not linked */
	for (unsigned i = 0; i < l.np; i++) {
		const uint8_t *r = f + l.port[i];
		static const uint8_t unlinked[10];

		if (rd64(r) == G_S2 && r[8] == 3)
			ck_assert_mem_eq(r + 85, unlinked, 10);
	}
	free(f);
	ibtopo_unref(a);
}
END_TEST

/* Edge cases of the model: a lone node, LMC 7 at the top of the unicast range, type 0, a
 * port cabled to itself, a 255-port node with 255 records. */
START_TEST(test_round_trip_edges)
{
	struct ibtopo *a, *b;
	struct ibtopo_node *n, *odd, *big;
	uint8_t *f1, *f2;
	size_t l1, l2;

	ck_assert_int_eq(ibtopo_new(&a), 0);
	n = add_node(a, IBTOPO_NODE_CA, 1, 0x10, 0x11, 1, "lonely");
	a->from_node = n;
	ck_assert_int_eq(ibtopo_group_chassis(a), 0);
	serialize(a, &f1, &l1);
	ck_assert_uint_eq(l1, 28 + 207);
	b = load_ok(f1, l1);
	same_topology(a, b);
	ibtopo_unref(b);
	free(f1);

	add_port(n, 1, 0xbf80, 7); /* 0xbf80..0xbfff */
	odd = add_node(a, 0, 3, 0x20, 0x21, 1, "type 0");
	add_port(odd, 1, 5, 0);
	add_port(odd, 3, 6, 0);
	topo_link(odd->ports[3], odd->ports[3]);
	big = add_node(a, IBTOPO_NODE_SWITCH, 255, 0x30, 0x30, 1, "big");
	for (unsigned k = 0; k < 255; k++)
		add_port(big, k, k ? 0 : 9, 0);
	topo_link(big->ports[254], n->ports[1]);
	a->max_hops = 63;
	ck_assert_int_eq(ibtopo_group_chassis(a), 0);
	serialize(a, &f1, &l1);
	b = load_ok(f1, l1);
	same_topology(a, b);
	ck_assert_uint_eq(ibtopo_node_count(b, IBTOPO_NODE_ANY), 3);
	ck_assert_uint_eq(ibtopo_node_count(b, IBTOPO_NODE_CA) + ibtopo_node_count(b, IBTOPO_NODE_SWITCH), 2);
	ck_assert_ptr_eq(ibtopo_port_remote(ibtopo_node_port(ibtopo_find_node_guid(b, 0x20), 3)),
			 ibtopo_node_port(ibtopo_find_node_guid(b, 0x20), 3));
	ck_assert_uint_eq(ibtopo_port_num(ibtopo_find_port_lid(b, 0xbfff)), 1);
	serialize(b, &f2, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert_mem_eq(f1, f2, l1);
	free(f1);
	free(f2);
	ibtopo_unref(b);

	/* port 255 makes 256 records on one node: the key count is one byte */
	add_port(big, 255, 0, 0);
	ck_assert_int_eq(topo_cache_serialize(a, &f1, &l1), -EOVERFLOW);
	/* no start node: nothing to put in the header */
	a->from_node = NULL;
	ck_assert_int_eq(topo_cache_serialize(a, &f1, &l1), -EINVAL);
	ibtopo_unref(a);
}
END_TEST

/* ---- Files libibnetdisc wrote ---------------------------------------------------------------- */

static char *corpus_path(const char *name)
{
	const char *top = getenv("top_srcdir");
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s/tests/data/topo/cache-corpus/%s", top ? top : ".", name), 0);
	return p;
}

static uint8_t *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s (is top_srcdir set?)", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	buf = malloc((size_t)n);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static const char *const corpus[] = {
	"tiny.cache", "two-switch.cache", "two-switch-from-switch.cache", "two-switch-no-sm.cache",
	"mixed.cache",
};

/* Loading a reference file and writing it again gives the same bytes; the topology has
 * what the file says (node counts, the start node, LIDs of the simulator). */
START_TEST(test_reference_files)
{
	char *path = corpus_path(corpus[_i]);
	struct ibtopo *t = NULL;
	uint8_t *ref, *ours;
	size_t rlen, olen;
	char why[256];

	ref = read_whole(path, &rlen);
	ck_assert_msg(ibtopo_cache_load(path, &t, why, sizeof(why)) == 0, "%s: %s", path, why);
	ck_assert_uint_eq(ibtopo_node_count(t, IBTOPO_NODE_ANY), rd32(ref + 8));
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_from_node(t)), rd64(ref + 16));
	ck_assert_uint_eq(ibtopo_max_hops_discovered(t), rd32(ref + 24));
	/* the first node record is the last node discovered */
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_node_get(t, IBTOPO_NODE_ANY, 0)), rd64(ref + 28 + 68));
	/* libibnetdisc makes a chassis of each system image GUID here (ibsim's nodes have no
	 * vendor chassis), and so does the loaded topology */
	ck_assert_uint_eq(ibtopo_chassis_count(t), ibtopo_node_count(t, IBTOPO_NODE_ANY));
	serialize(t, &ours, &olen);
	ck_assert_uint_eq(olen, rlen);
	ck_assert_msg(memcmp(ours, ref, rlen) == 0, "%s: re-saved bytes differ", corpus[_i]);
	if (strstr(corpus[_i], "no-sm")) {
		ck_assert_ptr_null(ibtopo_find_port_lid(t, 1));
	} else {
		/* OpenSM's switch has LID 1: port 0 of a switch */
		ck_assert_uint_eq(ibtopo_node_type(ibtopo_port_node(ibtopo_find_port_lid(t, 1))), IBTOPO_NODE_SWITCH);
		ck_assert_uint_eq(ibtopo_port_num(ibtopo_find_port_lid(t, 1)), 0);
	}
	free(ref);
	free(ours);
	free(path);
	ibtopo_unref(t);
}
END_TEST

/* rdma-core 44 lists ports that never answered PortInfo in its node records, without records
 * for them, and then refuses its own file; so do we, saying which port. */
START_TEST(test_reference_file_refused)
{
	char *path = corpus_path("two-switch-portinfo-lost.cache");
	struct ibtopo *t = NULL;
	char why[256];

	ck_assert_int_eq(ibtopo_cache_load(path, &t, why, sizeof(why)), -EPROTO);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(why, "node 0x0000000000200001 lists port 0x0000000000200001:7, which has no port record");
	free(path);
}
END_TEST

/* ---- Hostile input ---------------------------------------------------------------------------- */

/* load must fail with rc and a one-line reason containing `want` */
static void load_fails(const uint8_t *buf, size_t len, int rc, const char *want)
{
	struct ibtopo *t = (struct ibtopo *)1;
	char why[256];
	int got;

	memset(why, 'x', sizeof(why));
	got = ibtopo_cache_load_mem(buf, len, &t, why, sizeof(why));
	ck_assert_msg(got == rc, "want %d (%s), got %d (%s)", rc, want, got, got ? why : "loaded");
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(why, want) != NULL, "reason \"%s\" lacks \"%s\"", why, want);
	ck_assert_ptr_null(strchr(why, '\n'));
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void wr64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A copy of the sample's file to spoil, with room for insertions */
struct spoil {
	uint8_t *f;
	size_t len;
	struct layout l;
};

static void spoil_init(struct spoil *s)
{
	struct ibtopo *a = sample();
	uint8_t *f;

	serialize(a, &f, &s->len);
	ibtopo_unref(a);
	s->f = malloc(s->len + 256);
	ck_assert_ptr_nonnull(s->f);
	memcpy(s->f, f, s->len);
	free(f);
	layout_of(s->f, s->len, &s->l);
}

/* The record of the port with this GUID and number */
static uint8_t *port_rec(struct spoil *s, uint64_t guid, unsigned num)
{
	for (unsigned i = 0; i < s->l.np; i++)
		if (rd64(s->f + s->l.port[i]) == guid && s->f[s->l.port[i] + 8] == num)
			return s->f + s->l.port[i];
	ck_abort_msg("no port record %" PRIx64 ":%u", guid, num);
	return NULL;
}

static uint8_t *node_rec(struct spoil *s, uint64_t guid)
{
	for (unsigned i = 0; i < s->l.nn; i++)
		if (rd64(s->f + s->l.node[i] + 68) == guid)
			return s->f + s->l.node[i];
	ck_abort_msg("no node record %" PRIx64, guid);
	return NULL;
}

/* Inserts (n > 0) or removes (n < 0) bytes at p; the counts must make sense afterwards (the
 * record offsets are found again). */
static void edit_bytes(struct spoil *s, uint8_t *p, long n, const void *bytes)
{
	size_t off = (size_t)(p - s->f);

	if (n >= 0) {
		memmove(p + n, p, s->len - off);
		memcpy(p, bytes, (size_t)n);
	} else {
		memmove(p, p - n, s->len - off + (size_t)n);
	}
	s->len = (size_t)((long)s->len + n);
	layout_of(s->f, s->len, &s->l);
}

START_TEST(test_bad_header)
{
	struct spoil s;
	uint8_t *f;

	spoil_init(&s);
	f = s.f;
	f[0] ^= 1;
	load_fails(f, s.len, -EINVAL, "not a libibnetdisc cache file");
	f[0] ^= 1;
	wr32(f + 4, 2);
	load_fails(f, s.len, -EPROTONOSUPPORT, "version 2");
	wr32(f + 4, 0);
	load_fails(f, s.len, -EPROTONOSUPPORT, "version 0");
	wr32(f + 4, 1);
	wr32(f + 8, 0);
	load_fails(f, s.len, -EPROTO, "no node records");
	/* absurd counts are refused before anything is allocated for them */
	wr32(f + 8, UINT32_MAX);
	load_fails(f, s.len, -EPROTO, "announces 4294967295 nodes");
	wr32(f + 8, 6);
	wr32(f + 12, UINT32_MAX);
	load_fails(f, s.len, -EPROTO, "truncated");
	wr32(f + 12, 0x7fffffff);
	load_fails(f, s.len, -EPROTO, "truncated");
	/* one node more than there are: port records are read as a node, which makes no sense */
	wr32(f + 12, 49);
	wr32(f + 8, 7);
	load_fails(f, s.len, -EPROTO, "differs from its NodeInfo");
	/* one port fewer: 95 bytes left over */
	wr32(f + 8, 6);
	wr32(f + 12, 48);
	load_fails(f, s.len, -EPROTO, "95 bytes of unknown data after the last port record");
	wr32(f + 12, 49);
	f[s.len] = 0;
	load_fails(f, s.len + 1, -EPROTO, "1 bytes of unknown data");
	/* the start node is not in the file */
	wr64(f + 16, 0x1234);
	load_fails(f, s.len, -EPROTO, "the node discovery started from (0x0000000000001234) has no node record");
	wr64(f + 16, G_H1);
	ibtopo_unref(load_ok(f, s.len));
	free(s.f);
}
END_TEST

/* A file cut anywhere fails, with a reason; no length reads past the end (ASan). */
START_TEST(test_truncated_everywhere)
{
	struct spoil s;

	spoil_init(&s);
	for (size_t n = 0; n < s.len; n++) {
		uint8_t *cut = malloc(n ? n : 1);
		struct ibtopo *t = NULL;
		char why[256] = "";
		int rc;

		ck_assert_ptr_nonnull(cut);
		memcpy(cut, s.f, n);
		rc = ibtopo_cache_load_mem(cut, n, &t, why, sizeof(why));
		ck_assert_msg(rc < 0, "a file cut at %zu loaded", n);
		ck_assert_ptr_null(t);
		ck_assert_msg(why[0] != '\0', "no reason at %zu", n);
		if (n >= 28)
			ck_assert_msg(rc == -EPROTO && strstr(why, "truncated"), "at %zu: %d %s", n, rc, why);
		free(cut);
	}
	load_fails(s.f, 0, -EPROTO, "truncated: 0 bytes");
	load_fails(NULL, 0, -EPROTO, "truncated");
	free(s.f);
}
END_TEST

/* ibcacheedit --caguid changes a node record's GUID (and the node GUID of its port
 * records), not the NodeInfo inside: the record's GUID is the node's, NodeInfo is kept, and
 * the file is written again as it was. */
START_TEST(test_edited_guid)
{
	struct ibtopo *t = NULL;
	struct spoil s;
	uint8_t *r, *again;
	size_t len;
	char why[256] = "";

	spoil_init(&s);
	r = node_rec(&s, G_H2);
	wr64(r + 68, G_H2 + 5);
	for (unsigned i = 0; i < s.l.np; i++)
		if (rd64(s.f + s.l.port[i] + 77) == G_H2)
			wr64(s.f + s.l.port[i] + 77, G_H2 + 5);
	ck_assert_msg(ibtopo_cache_load_mem(s.f, s.len, &t, why, sizeof(why)) == 0, "%s", why);
	ck_assert_ptr_null(ibtopo_find_node_guid(t, G_H2));
	ck_assert_ptr_nonnull(ibtopo_find_node_guid(t, G_H2 + 5));
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_find_node_guid(t, G_H2 + 5)), G_H2 + 5);
	ck_assert_uint_eq(get_be64(ibtopo_node_info(ibtopo_find_node_guid(t, G_H2 + 5)) + 12), G_H2);
	serialize(t, &again, &len);
	ck_assert_uint_eq(len, s.len);
	ck_assert_mem_eq(again, s.f, len);
	free(again);
	ibtopo_unref(t);
	free(s.f);
}
END_TEST

START_TEST(test_bad_nodes)
{
	struct spoil s;
	uint8_t *r;

	spoil_init(&s);
	r = node_rec(&s, G_H2);
	r[76] = 2;
	load_fails(s.f, s.len, -EPROTO, "type 2 differs");
	r[76] = 1;
	r[77] = 4;
	load_fails(s.f, s.len, -EPROTO, "port count 4 differs");
	r[77] = 1;
	/* h2 becomes a second s1 (its NodeInfo too) */
	wr64(r + 68, G_S1);
	be64(r + 78 + 12, G_S1);
	load_fails(s.f, s.len, -EPROTO, "node GUID 0x0002c90300002000 has two node records");
	free(s.f);

	/* more keys than ports: h2 has 1 port (keys for 0 and 1 at most) */
	spoil_init(&s);
	r = node_rec(&s, G_H2);
	r[206] = 3;
	{
		uint8_t keys[18];

		memcpy(keys, r + 207, 9);
		memcpy(keys + 9, r + 207, 9);
		edit_bytes(&s, r + 207 + 9, 18, keys);
	}
	load_fails(s.f, s.len, -EPROTO, "lists 3 ports but has only 2");
	free(s.f);

	/* a key twice */
	spoil_init(&s);
	r = node_rec(&s, G_H2);
	r[206] = 2;
	edit_bytes(&s, r + 207 + 9, 9, r + 207);
	load_fails(s.f, s.len, -EPROTO, "lists port 0x0002c90300004001:1 twice");
	free(s.f);

	/* a key without a record */
	spoil_init(&s);
	r = node_rec(&s, G_H2);
	r[207 + 8] = 0;
	load_fails(s.f, s.len, -EPROTO, "lists port 0x0002c90300004001:0, which has no port record");
	free(s.f);

	/* a record its node does not list */
	spoil_init(&s);
	r = node_rec(&s, G_H2);
	r[206] = 0;
	edit_bytes(&s, r + 207, -9, NULL);
	load_fails(s.f, s.len, -EPROTO, "port 0x0002c90300004001:1 is not listed by its node 0x0002c90300004000");
	free(s.f);
}
END_TEST

START_TEST(test_bad_ports)
{
	struct spoil s;
	uint8_t *r, *r2;

	spoil_init(&s);
	/* a port number beyond the node's ports (it would index past the port array) */
	r = port_rec(&s, G_H2 + 1, 1);
	r[8] = 200;
	load_fails(s.f, s.len, -EPROTO, "port 0x0002c90300004001:200 is beyond the 1 ports of node 0x0002c90300004000");
	r[8] = 1;
	r[12] = 8;
	load_fails(s.f, s.len, -EPROTO, "LMC 8 is beyond 7");
	r[12] = 2;
	/* a record naming another node than the one listing it */
	wr64(r + 77, G_R1);
	load_fails(s.f, s.len, -EPROTO, "node 0x0002c90300004000 lists port 0x0002c90300004001:1, whose record names node 0x0002c90300005000");
	wr64(r + 77, 0x99);
	load_fails(s.f, s.len, -EPROTO, "belongs to node 0x0000000000000099, which has no node record");
	wr64(r + 77, G_H2);
	/* a dangling remote GUID (s2 port 1, h2's peer, unlinked so that only h2 is wrong) */
	r2 = port_rec(&s, G_S2, 1);
	r2[85] = 0;
	wr64(r + 86, 0x77);
	load_fails(s.f, s.len, -EPROTO, "port 0x0002c90300004001:1 links to port 0x0000000000000077:1, which has no port record");
	/* a link to a port that is not linked at all */
	wr64(r + 86, G_S2);
	load_fails(s.f, s.len, -EPROTO, "port 0x0002c90300004001:1 links to port 0x0002c90300003000:1, which does not link back");
	r2[85] = 1;
	/* a link the other end does not return: h2 -> s2 port 2 (which leads to r1) */
	r[94] = 2;
	load_fails(s.f, s.len, -EPROTO, "which does not link back");
	r[94] = 1;
	ibtopo_unref(load_ok(s.f, s.len));
	/* two records for one port */
	r2 = port_rec(&s, G_R1 + 2, 2);
	memcpy(r2, r, 13);
	load_fails(s.f, s.len, -EPROTO, "port 0x0002c90300004001:1 has two port records");
	free(s.f);

	/* two ports numbered 1 on h2: r1's port record becomes h2's second port 1 */
	spoil_init(&s);
	r = port_rec(&s, G_R1 + 2, 2);
	r[8] = 1;
	wr64(r + 77, G_H2);
	r2 = node_rec(&s, G_R1);
	r2[206] = 0;
	edit_bytes(&s, r2 + 207, -9, NULL);
	r2 = node_rec(&s, G_H2);
	{
		uint8_t key[9];

		wr64(key, G_R1 + 2);
		key[8] = 1;
		r2[206] = 2;
		edit_bytes(&s, r2 + 207 + 9, 9, key);
	}
	load_fails(s.f, s.len, -EPROTO, "node 0x0002c90300004000 lists two ports numbered 1");
	free(s.f);
}
END_TEST

/* A small PRNG for the mutation test: the same sequence on every run */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	uint64_t x = rnd_state += 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Random damage: whatever loads writes and loads again to the same bytes; whatever fails
 * says why on one line.  (Under ASan, any read past the buffer would abort.) */
START_TEST(test_mutations)
{
	struct spoil s;
	unsigned loaded = 0, refused = 0;

	spoil_init(&s);
	for (unsigned iter = 0; iter < 20000; iter++) {
		uint8_t *m = malloc(s.len);
		size_t len = s.len;
		unsigned flips = 1 + (unsigned)(rnd() % 4);
		struct ibtopo *t = NULL;
		char why[128] = "";
		int rc;

		ck_assert_ptr_nonnull(m);
		memcpy(m, s.f, s.len);
		for (unsigned k = 0; k < flips; k++) {
			size_t at = (size_t)(rnd() % len);

			/* mostly the fields that matter: counts, GUIDs, numbers, flags */
			m[at] = (rnd() & 1) ? (uint8_t)rnd() : (uint8_t)(m[at] ^ (1u << (rnd() % 8)));
		}
		if (rnd() % 8 == 0)
			len -= (size_t)(rnd() % len);
		rc = ibtopo_cache_load_mem(m, len, &t, why, sizeof(why));
		if (rc == 0) {
			uint8_t *f1, *f2;
			size_t l1, l2;
			struct ibtopo *t2;

			loaded++;
			serialize(t, &f1, &l1);
			t2 = load_ok(f1, l1);
			serialize(t2, &f2, &l2);
			ck_assert_uint_eq(l1, l2);
			ck_assert_mem_eq(f1, f2, l1);
			free(f1);
			free(f2);
			ibtopo_unref(t2);
			ibtopo_unref(t);
		} else {
			refused++;
			ck_assert_ptr_null(t);
			ck_assert_msg(why[0] && !strchr(why, '\n'), "rc %d without a one-line reason", rc);
		}
		free(m);
	}
	/* both outcomes happen: damage to PortInfo/descriptions is harmless */
	ck_assert_uint_gt(loaded, 1000);
	ck_assert_uint_gt(refused, 1000);
	free(s.f);
}
END_TEST

START_TEST(test_errbuf_and_args)
{
	struct spoil s;
	struct ibtopo *t = NULL;
	char small[8];

	spoil_init(&s);
	s.f[0] = 0;
	ck_assert_int_eq(ibtopo_cache_load_mem(s.f, s.len, &t, NULL, 0), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_load_mem(s.f, s.len, &t, small, sizeof(small)), -EINVAL);
	ck_assert_str_eq(small, "not a l"); /* cut, terminated */
	ck_assert_int_eq(ibtopo_cache_load_mem(s.f, s.len, NULL, small, sizeof(small)), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_load_mem(NULL, 5, &t, small, sizeof(small)), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_load(NULL, &t, small, sizeof(small)), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_save(NULL, "x"), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_save_mem(NULL, 5, "x"), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_save_mem(s.f, s.len, ""), -EINVAL);
	ck_assert_int_eq(ibtopo_cache_save_mem(s.f, s.len, NULL), -EINVAL);
	free(s.f);
}
END_TEST

/* ---- Files: atomic save, reading, failures ------------------------------------------------- */

static char *tmpdir_new(void)
{
	char *d = strdup("/tmp/ibtopo-cache-test.XXXXXX");

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

/* Names in the directory, "." and ".." aside */
static unsigned dir_entries(const char *dir, char *first, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!n && first)
			snprintf(first, len, "%s", e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

static void tmpdir_free(char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char *p;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ck_assert_int_ge(asprintf(&p, "%s/%s", dir, e->d_name), 0);
		unlink(p);
		free(p);
	}
	closedir(d);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}

/* A file holding `text` (the old contents of a cache), and the check that it still does */
static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void same_text(const char *path, const char *text)
{
	size_t len;
	uint8_t *got = read_whole(path, &len);

	ck_assert_uint_eq(len, strlen(text));
	ck_assert_mem_eq(got, text, len);
	free(got);
}

START_TEST(test_save_load_file)
{
	char *dir = tmpdir_new(), *path, name[256];
	struct ibtopo *a = sample(), *b = NULL;
	uint8_t *want, *got;
	size_t wlen, glen;
	struct stat st;
	char why[256];
	mode_t mask = umask(022);

	ck_assert_int_ge(asprintf(&path, "%s/fabric.cache", dir), 0);
	/* an old file of the same name is replaced */
	write_text(path, "old");
	chmod(path, 0600);
	ck_assert_int_eq(ibtopo_cache_save(a, path), 0);
	ck_assert_uint_eq(dir_entries(dir, name, sizeof(name)), 1);
	ck_assert_str_eq(name, "fabric.cache");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0644); /* libibnetdisc's mode, less the umask */
	serialize(a, &want, &wlen);
	got = read_whole(path, &glen);
	ck_assert_uint_eq(glen, wlen);
	ck_assert_mem_eq(got, want, wlen);
	ck_assert_msg(ibtopo_cache_load(path, &b, why, sizeof(why)) == 0, "%s", why);
	same_topology(a, b);
	ibtopo_unref(b);
	/* a relative name is saved in the current directory */
	{
		char cwd[4096];

		ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
		ck_assert_int_eq(chdir(dir), 0);
		ck_assert_int_eq(ibtopo_cache_save(a, "relative.cache"), 0);
		ck_assert_int_eq(chdir(cwd), 0);
		ck_assert_uint_eq(dir_entries(dir, NULL, 0), 2);
	}
	umask(mask);
	free(want);
	free(got);
	free(path);
	tmpdir_free(dir);
	ibtopo_unref(a);
}
END_TEST

/* A failed write (the file size limit, as a full disk would) leaves no file, no temporary,
 * and the old file as it was. */
START_TEST(test_save_failure_leaves_nothing)
{
	char *dir = tmpdir_new(), *path, name[256];
	struct ibtopo *a = sample();
	struct rlimit rl, saved;

	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved), 0);
	rl = saved;
	rl.rlim_cur = 4096; /* the file is 6375 bytes */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	ck_assert_int_ge(asprintf(&path, "%s/fabric.cache", dir), 0);
	ck_assert_int_eq(ibtopo_cache_save(a, path), -EFBIG);
	ck_assert_uint_eq(dir_entries(dir, NULL, 0), 0);
	write_text(path, "old contents");
	ck_assert_int_eq(ibtopo_cache_save(a, path), -EFBIG);
	ck_assert_uint_eq(dir_entries(dir, name, sizeof(name)), 1);
	ck_assert_str_eq(name, "fabric.cache");
	same_text(path, "old contents");
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &saved), 0);
	signal(SIGXFSZ, SIG_DFL);
	free(path);
	tmpdir_free(dir);
	ibtopo_unref(a);
}
END_TEST

/* A save killed while it writes (SIGXFSZ at the file size limit, whose default action ends
 * the process as SIGKILL would, in a child) leaves nothing but the old file: the bytes were
 * in an unnamed file.  The named temporary file of systems without O_TMPFILE
 * (TOPO_WRITE_NAMED) stays in that case: it is the fallback's limit. */
static void killed_save(const char *path, unsigned flags)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = 4096, .rlim_max = 4096 };
		struct ibtopo *a = sample();
		uint8_t *buf;
		size_t len;

		prctl(PR_SET_DUMPABLE, 0); /* no core file */
		signal(SIGXFSZ, SIG_DFL);
		serialize(a, &buf, &len);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(3);
		topo_cache_write(path, buf, len, flags);
		_exit(2); /* not killed */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ, "status %#x", status);
}

START_TEST(test_save_killed_leaves_nothing)
{
	char *dir = tmpdir_new(), *path, name[256];
	struct ibtopo *a = sample();
	bool unnamed;
	int fd;

	ck_assert_int_ge(asprintf(&path, "%s/fabric.cache", dir), 0);
	write_text(path, "old contents");
	fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
	unnamed = fd >= 0;
	if (fd >= 0)
		close(fd);
	killed_save(path, 0);
	ck_assert_uint_eq(dir_entries(dir, name, sizeof(name)), unnamed ? 1 : 2);
	if (unnamed)
		ck_assert_str_eq(name, "fabric.cache");
	same_text(path, "old contents");
	/* the fallback: the named temporary file stays, the old file as it was */
	tmpdir_free(dir);
	dir = tmpdir_new();
	free(path);
	ck_assert_int_ge(asprintf(&path, "%s/fabric.cache", dir), 0);
	killed_save(path, TOPO_WRITE_NAMED);
	ck_assert_uint_eq(dir_entries(dir, name, sizeof(name)), 1);
	ck_assert_msg(!strncmp(name, ".ibtopo-cache.", 14) && strlen(name) == 24, "%s", name);
	/* and it works when not killed, leaving the file alone (ibtopo_cache_save_mem(): the
	 * unnamed way) */
	tmpdir_free(dir);
	dir = tmpdir_new();
	free(path);
	ck_assert_int_ge(asprintf(&path, "%s/fabric.cache", dir), 0);
	{
		uint8_t *want, *got;
		size_t wlen, glen;

		serialize(a, &want, &wlen);
		ck_assert_int_eq(topo_cache_write(path, want, wlen, TOPO_WRITE_NAMED), 0);
		ck_assert_int_eq(topo_cache_write(path, want, wlen, TOPO_WRITE_NAMED), 0);
		ck_assert_int_eq(ibtopo_cache_save_mem(want, wlen, path), 0);
		ck_assert_uint_eq(dir_entries(dir, name, sizeof(name)), 1);
		ck_assert_str_eq(name, "fabric.cache");
		got = read_whole(path, &glen);
		ck_assert_uint_eq(glen, wlen);
		ck_assert_mem_eq(got, want, wlen);
		free(want);
		free(got);
	}
	free(path);
	tmpdir_free(dir);
	ibtopo_unref(a);
}
END_TEST

START_TEST(test_save_errors)
{
	char *dir = tmpdir_new(), *path;
	struct ibtopo *a = sample();
	struct stat st;

	/* no such directory; a file as directory; a directory as the target */
	ck_assert_int_ge(asprintf(&path, "%s/missing/fabric.cache", dir), 0);
	ck_assert_int_eq(ibtopo_cache_save(a, path), -ENOENT);
	free(path);
	ck_assert_int_ge(asprintf(&path, "%s/file", dir), 0);
	ck_assert_int_eq(ibtopo_cache_save(a, path), 0);
	free(path);
	ck_assert_int_ge(asprintf(&path, "%s/file/fabric.cache", dir), 0);
	ck_assert_int_eq(ibtopo_cache_save(a, path), -ENOTDIR);
	ck_assert_int_eq(ibtopo_cache_save(a, dir), -EISDIR);
	ck_assert_uint_eq(dir_entries(dir, NULL, 0), 1);
	free(path);
	/* an unwritable directory (root may write anyway) */
	if (geteuid() != 0) {
		ck_assert_int_eq(chmod(dir, 0500), 0);
		ck_assert_int_ge(asprintf(&path, "%s/fabric.cache", dir), 0);
		ck_assert_int_eq(ibtopo_cache_save(a, path), -EACCES);
		ck_assert_int_eq(chmod(dir, 0700), 0);
		ck_assert_uint_eq(dir_entries(dir, NULL, 0), 1);
		free(path);
	}
	/* devices are written in place, never replaced: /dev/full fails, /dev/null works */
	ck_assert_int_eq(ibtopo_cache_save(a, "/dev/full"), -ENOSPC);
	ck_assert_int_eq(stat("/dev/full", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	ck_assert_int_eq(ibtopo_cache_save(a, "/dev/null"), 0);
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	/* nothing to write without a start node */
	a->from_node = NULL;
	ck_assert_int_ge(asprintf(&path, "%s/nofrom.cache", dir), 0);
	ck_assert_int_eq(ibtopo_cache_save(a, path), -EINVAL);
	ck_assert_uint_eq(dir_entries(dir, NULL, 0), 1);
	free(path);
	tmpdir_free(dir);
	ibtopo_unref(a);
}
END_TEST

START_TEST(test_load_errors)
{
	char *dir = tmpdir_new(), *path;
	struct ibtopo *t = NULL;
	char why[256];
	int fds[2];

	ck_assert_int_ge(asprintf(&path, "%s/missing.cache", dir), 0);
	ck_assert_int_eq(ibtopo_cache_load(path, &t, why, sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "cannot open: No such file or directory");
	ck_assert_ptr_null(t);
	ck_assert_int_eq(ibtopo_cache_load(dir, &t, why, sizeof(why)), -EISDIR);
	ck_assert_str_eq(why, "is a directory");
	/* an endless stream stops at its first bytes */
	ck_assert_int_eq(ibtopo_cache_load("/dev/zero", &t, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "magic 0x00000000"));
	ck_assert_int_eq(ibtopo_cache_load("/dev/null", &t, why, sizeof(why)), -EPROTO);
	ck_assert_ptr_null(t);
	/* a FIFO nobody writes to: empty, not a hang */
	{
		char *fifo;

		ck_assert_int_ge(asprintf(&fifo, "%s/fifo", dir), 0);
		ck_assert_int_eq(mkfifo(fifo, 0600), 0);
		ck_assert_int_eq(ibtopo_cache_load(fifo, &t, why, sizeof(why)), -EPROTO);
		ck_assert_str_eq(why, "truncated: 0 bytes, the header alone has 28");
		free(fifo);
	}
	/* a pipe carrying a cache file loads */
	{
		struct ibtopo *a = sample();
		uint8_t *f;
		size_t len;
		char fdpath[64];

		serialize(a, &f, &len);
		ck_assert_uint_lt(len, 60000);
		ck_assert_int_eq(pipe(fds), 0);
		ck_assert_int_eq(write(fds[1], f, len), (ssize_t)len);
		close(fds[1]);
		snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", fds[0]);
		ck_assert_msg(ibtopo_cache_load(fdpath, &t, why, sizeof(why)) == 0, "%s", why);
		close(fds[0]);
		same_topology(a, t);
		ibtopo_unref(t);
		/* ... one with bytes after the last record is refused */
		ck_assert_int_eq(pipe(fds), 0);
		ck_assert_int_eq(write(fds[1], f, len), (ssize_t)len);
		ck_assert_int_eq(write(fds[1], f, 200), 200);
		close(fds[1]);
		t = NULL;
		ck_assert_int_eq(ibtopo_cache_load(fdpath, &t, why, sizeof(why)), -EPROTO);
		ck_assert_ptr_nonnull(strstr(why, "200 bytes of unknown data"));
		close(fds[0]);
		/* ... and one that never ends is read no further than the header's counts allow */
		ck_assert_int_eq(pipe(fds), 0);
		{
			pid_t child = fork();
			int status;

			ck_assert_int_ge(child, 0);
			if (child == 0) {
				static const uint8_t junk[4096];

				close(fds[0]);
				if (write(fds[1], f, len) != (ssize_t)len)
					_exit(1);
				while (write(fds[1], junk, sizeof(junk)) > 0)
					;
				_exit(0);
			}
			close(fds[1]);
			ck_assert_int_eq(ibtopo_cache_load(fdpath, &t, why, sizeof(why)), -EPROTO);
			ck_assert_ptr_nonnull(strstr(why, "bytes of unknown data after the last port record"));
			close(fds[0]);
			ck_assert_int_eq(waitpid(child, &status, 0), child);
			/* the writer was stopped by our close (SIGPIPE, or EPIPE where it is ignored) */
			ck_assert(WIFSIGNALED(status) ? WTERMSIG(status) == SIGPIPE : WEXITSTATUS(status) == 0);
		}
		free(f);
		ibtopo_unref(a);
	}
	free(path);
	tmpdir_free(dir);
}
END_TEST

Suite *make_cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("cache");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_round_trip_edges);
	tcase_add_loop_test(tc, test_reference_files, 0, (int)(sizeof(corpus) / sizeof(corpus[0])));
	tcase_add_test(tc, test_reference_file_refused);
	tcase_add_test(tc, test_bad_header);
	tcase_add_test(tc, test_truncated_everywhere);
	tcase_add_test(tc, test_bad_nodes);
	tcase_add_test(tc, test_edited_guid);
	tcase_add_test(tc, test_bad_ports);
	tcase_add_test(tc, test_mutations);
	tcase_add_test(tc, test_errbuf_and_args);
	tcase_add_test(tc, test_save_load_file);
	tcase_add_test(tc, test_save_failure_leaves_nothing);
	tcase_add_test(tc, test_save_killed_leaves_nothing);
	tcase_add_test(tc, test_save_errors);
	tcase_add_test(tc, test_load_errors);
	suite_add_tcase(s, tc);
	return s;
}
