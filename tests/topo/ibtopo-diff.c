// SPDX-License-Identifier: BSD-3-Clause
/* ibtopo_diff(): the node walk (ibnetdiscover/iblinkinfo --diff) and the sets (python-rdma's
 * subnet_diff) on topologies built with the internal builders. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-ibtopo.h"
#include "topo-build.h"

/* ---- Recording the items -------------------------------------------------------------------- */

struct rec {
	enum ibtopo_diff_what what;
	unsigned changes, port, lid;
	uint64_t a, b; /* node GUIDs (port GUIDs for END_PORT/LINK/LID_MAP), 0 when NULL */
	unsigned a_pnum, b_pnum;
	struct { unsigned which, a_count, b_count, a_only, b_only, changed; } set;
};

struct log {
	struct rec r[256];
	unsigned n;
	unsigned stop_at; /* return -42 at this call (1-based), 0: never */
};

static int record(const struct ibtopo_diff_item *it, void *user)
{
	struct log *l = user;
	struct rec *r;

	ck_assert_uint_lt(l->n, 256);
	r = &l->r[l->n++];
	memset(r, 0, sizeof(*r));
	r->what = it->what;
	r->changes = it->changes;
	r->port = it->port;
	r->lid = it->lid;
	if (it->what == IBTOPO_DIFF_END_PORT || it->what == IBTOPO_DIFF_LINK ||
	    it->what == IBTOPO_DIFF_LID_MAP || it->what == IBTOPO_DIFF_LINK_RATE) {
		r->a = it->a_port ? ibtopo_port_guid(it->a_port) : 0;
		r->b = it->b_port ? ibtopo_port_guid(it->b_port) : 0;
	} else {
		r->a = it->a_node ? ibtopo_node_guid(it->a_node) : 0;
		r->b = it->b_node ? ibtopo_node_guid(it->b_node) : 0;
	}
	r->a_pnum = it->a_port ? ibtopo_port_num(it->a_port) : 0;
	r->b_pnum = it->b_port ? ibtopo_port_num(it->b_port) : 0;
	if (it->what == IBTOPO_DIFF_SET) {
		r->set.which = it->set.which;
		r->set.a_count = it->set.a_count;
		r->set.b_count = it->set.b_count;
		r->set.a_only = it->set.a_only;
		r->set.b_only = it->set.b_only;
		r->set.changed = it->set.changed;
	}
	/* the port items' ports are the nodes' ports */
	if (it->what == IBTOPO_DIFF_PORT) {
		ck_assert_ptr_eq(it->a_port, it->a_node ? ibtopo_node_port(it->a_node, it->port) : NULL);
		ck_assert_ptr_eq(it->b_port, it->b_node ? ibtopo_node_port(it->b_node, it->port) : NULL);
	}
	return l->stop_at && l->n == l->stop_at ? -42 : 0;
}

static void check_item(const struct log *l, unsigned i, enum ibtopo_diff_what what, uint64_t a,
		       uint64_t b, unsigned port, unsigned changes)
{
	ck_assert_msg(i < l->n, "item %u missing (%u items)", i, l->n);
	ck_assert_msg(l->r[i].what == what, "item %u: what %d, want %d", i, l->r[i].what, what);
	ck_assert_msg(l->r[i].a == a && l->r[i].b == b,
		      "item %u: a 0x%" PRIx64 " b 0x%" PRIx64 ", want 0x%" PRIx64 " 0x%" PRIx64, i,
		      l->r[i].a, l->r[i].b, a, b);
	ck_assert_msg(l->r[i].port == port, "item %u: port %u, want %u", i, l->r[i].port, port);
	ck_assert_msg(l->r[i].changes == changes, "item %u: changes 0x%x, want 0x%x", i,
		      l->r[i].changes, changes);
}

static struct tb_fabric fa, fb;

static void setup(void)
{
	ck_assert_int_eq(tb_2sw4hca(&fa, false), 0);
	ck_assert_int_eq(tb_2sw4hca(&fb, false), 0);
}

static void teardown(void)
{
	ibtopo_unref(fa.t);
	ibtopo_unref(fb.t);
}

/* ---- An ibnetdiscover --diff printer over the items (a 4x SDR fabric, no node-name-map) ---- */

struct ndprint {
	char buf[8192];
	size_t len;
	const struct ibtopo_node *header_of; /* the node whose header was printed */
};

static void __attribute__((format(printf, 2, 3))) pr(struct ndprint *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	p->len += (size_t)vsnprintf(p->buf + p->len, sizeof(p->buf) - p->len, fmt, ap);
	va_end(ap);
	ck_assert_uint_lt(p->len, sizeof(p->buf));
}

static void nd_name(char *buf, const struct ibtopo_node *n)
{
	sprintf(buf, "\"%s-%016" PRIx64 "\"", ibtopo_node_type(n) == IBTOPO_NODE_SWITCH ? "S" : "H",
		ibtopo_node_guid(n));
}

static void nd_detail(struct ndprint *p, const struct ibtopo_node *n, const char *prefix)
{
	char name[64];

	nd_name(name, n);
	if (ibtopo_node_type(n) == IBTOPO_NODE_SWITCH)
		pr(p, "%sSwitch\t%u %s\t\t# \"%s\" %s port 0 lid %u lmc %u", prefix,
		   ibtopo_node_num_ports(n), name, ibtopo_node_desc(n),
		   ibtopo_node_enhanced_port0(n) ? "enhanced" : "base", ibtopo_node_sma_lid(n),
		   ibtopo_node_sma_lmc(n));
	else
		pr(p, "%sCa\t%u %s\t\t# \"%s\"", prefix, ibtopo_node_num_ports(n), name,
		   ibtopo_node_desc(n));
}

static void nd_header(struct ndprint *p, const struct ibtopo_node *n, const char *id_prefix,
		      const char *prefix)
{
	const uint8_t *ni = ibtopo_node_info(n);

	pr(p, "\n%svendid=0x%x\n%sdevid=0x%x\n", id_prefix, NI_VENDOR_ID(ni), id_prefix,
	   NI_DEVICE_ID(ni));
	if (NI_SYS_GUID(ni))
		pr(p, "%ssysimgguid=0x%" PRIx64 "\n", id_prefix, NI_SYS_GUID(ni));
	if (ibtopo_node_type(n) == IBTOPO_NODE_SWITCH)
		pr(p, "%sswitchguid=0x%" PRIx64 "(%" PRIx64 ")\n", id_prefix, ibtopo_node_guid(n),
		   NI_PORT_GUID(ni));
	else
		pr(p, "%scaguid=0x%" PRIx64 "\n", id_prefix, ibtopo_node_guid(n));
	nd_detail(p, n, prefix);
	pr(p, "\n");
	p->header_of = n;
}

static void nd_port(struct ndprint *p, const struct ibtopo_port *port, const char *prefix)
{
	const struct ibtopo_port *r = ibtopo_port_remote(port);
	const struct ibtopo_node *rn = ibtopo_port_node(r);
	bool rsw = ibtopo_node_type(rn) == IBTOPO_NODE_SWITCH;
	char name[64];

	nd_name(name, rn);
	if (ibtopo_node_type(ibtopo_port_node(port)) == IBTOPO_NODE_SWITCH) {
		pr(p, "%s[%u]\t%s[%u]", prefix, ibtopo_port_num(port), name, ibtopo_port_num(r));
		if (!rsw)
			pr(p, "(%" PRIx64 ") ", ibtopo_port_guid(r));
		pr(p, "\t\t# \"%s\" lid %u 4xSDR\n", ibtopo_node_desc(rn),
		   rsw ? ibtopo_node_sma_lid(rn) : ibtopo_port_base_lid(r));
	} else {
		pr(p, "%s[%u](%" PRIx64 ") \t%s[%u]", prefix, ibtopo_port_num(port),
		   ibtopo_port_guid(port), name, ibtopo_port_num(r));
		if (!rsw)
			pr(p, " (%" PRIx64 ") ", ibtopo_port_guid(r));
		pr(p, "\t\t# lid %u lmc %u \"%s\" lid %u 4xSDR\n", ibtopo_port_base_lid(port),
		   ibtopo_port_lmc(port), ibtopo_node_desc(rn),
		   rsw ? ibtopo_node_sma_lid(rn) : ibtopo_port_base_lid(r));
	}
}

static void nd_ports_of(struct ndprint *p, const struct ibtopo_node *n, const char *prefix)
{
	for (unsigned i = 1; i <= ibtopo_node_num_ports(n); i++) {
		const struct ibtopo_port *port = ibtopo_node_port(n, i);

		if (port && ibtopo_port_remote(port))
			nd_port(p, port, prefix);
	}
}

static int nd_item(const struct ibtopo_diff_item *it, void *user)
{
	struct ndprint *p = user;
	const unsigned both = IBTOPO_DIFF_C_LID | IBTOPO_DIFF_C_REMOTE_LID | IBTOPO_DIFF_C_REMOTE_DESC;
	bool a_out = false, b_out = false;

	switch (it->what) {
	case IBTOPO_DIFF_NODE_REMOVED:
		nd_header(p, it->a_node, "< ", "< ");
		nd_ports_of(p, it->a_node, "< ");
		return 0;
	case IBTOPO_DIFF_NODE_ADDED:
		nd_header(p, it->b_node, "> ", "> ");
		nd_ports_of(p, it->b_node, "> ");
		return 0;
	case IBTOPO_DIFF_NODE_CHANGED:
		nd_header(p, it->a_node, "", "< ");
		nd_detail(p, it->b_node, "> ");
		pr(p, "\n");
		return 0;
	case IBTOPO_DIFF_NUM_PORTS:
		if (p->header_of != it->a_node)
			nd_header(p, it->a_node, "", "");
		pr(p, "< numports = %u\n> numports = %u\n", ibtopo_node_num_ports(it->a_node),
		   ibtopo_node_num_ports(it->b_node));
		return 0;
	case IBTOPO_DIFF_PORT:
		if (it->changes & (IBTOPO_DIFF_C_PORT_A_ONLY | IBTOPO_DIFF_C_LINK_A_ONLY))
			a_out = true;
		else if (it->changes & (IBTOPO_DIFF_C_PORT_B_ONLY | IBTOPO_DIFF_C_LINK_B_ONLY))
			b_out = true;
		else if (it->changes & (IBTOPO_DIFF_C_PORT_GUID | IBTOPO_DIFF_C_REMOTE_GUID))
			a_out = b_out = true;
		if (it->changes & both)
			a_out = b_out = true;
		if (!a_out && !b_out)
			return 0;
		if (p->header_of != it->a_node)
			nd_header(p, it->a_node, "", "");
		if (a_out)
			nd_port(p, it->a_port, "< ");
		if (b_out)
			nd_port(p, it->b_port, "> ");
		return 0;
	default:
		ck_abort_msg("unexpected item %d", it->what);
	}
	return 0;
}

/* What ibnetdiscover --diff prints: per type selected, switches, CAs, routers */
static void nd_diff(struct ndprint *p, const struct ibtopo *a, const struct ibtopo *b,
		    unsigned flags)
{
	static const enum ibtopo_node_type types[] = { IBTOPO_NODE_SWITCH, IBTOPO_NODE_CA,
						       IBTOPO_NODE_ROUTER };

	memset(p, 0, sizeof(*p));
	for (unsigned i = 0; i < 3; i++)
		ck_assert_int_ge(ibtopo_diff(a, b, types[i], flags, nd_item, p), 0);
}

/* ---- The node walk -------------------------------------------------------------------------- */

START_TEST(identical)
{
	struct log l = { 0 };

	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 0, record, &l), 0);
	ck_assert_int_eq(ibtopo_diff(fb.t, fa.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_ALL, record, &l), 0);
	ck_assert_int_eq(ibtopo_diff(fa.t, fa.t, IBTOPO_NODE_SWITCH, 0, record, &l), 0);
	ck_assert_uint_eq(l.n, 0);
	/* the sets: five section headers, all empty */
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_SETS, record, &l), 0);
	ck_assert_uint_eq(l.n, 5);
	for (unsigned i = 0; i < 5; i++) {
		ck_assert_int_eq(l.r[i].what, IBTOPO_DIFF_SET);
		ck_assert_uint_eq(l.r[i].set.which, i + 1);
		ck_assert_uint_eq(l.r[i].set.a_count, l.r[i].set.b_count);
		ck_assert_uint_eq(l.r[i].set.a_only + l.r[i].set.b_only + l.r[i].set.changed, 0);
	}
	ck_assert_uint_eq(l.r[0].set.a_count, 6);  /* 2 switches + 4 CA ports */
	ck_assert_uint_eq(l.r[1].set.a_count, 6);  /* nodes */
	ck_assert_uint_eq(l.r[2].set.a_count, 6);  /* links */
	ck_assert_uint_eq(l.r[3].set.a_count, 6);  /* common links */
	ck_assert_uint_eq(l.r[4].set.a_count, 6);  /* LIDs */
	/* empty topologies */
	{
		struct ibtopo *e1, *e2;

		ck_assert_int_eq(ibtopo_new(&e1), 0);
		ck_assert_int_eq(ibtopo_new(&e2), 0);
		l.n = 0;
		ck_assert_int_eq(ibtopo_diff(e1, e2, IBTOPO_NODE_ANY, 0, record, &l), 0);
		ck_assert_uint_eq(l.n, 0);
		ck_assert_int_eq(ibtopo_diff(e1, fa.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_NODES, NULL, NULL), 6);
		ibtopo_unref(e1);
		ibtopo_unref(e2);
	}
}
END_TEST

/* Hca4 missing from b: Switch2 port 2 lost its link */
START_TEST(node_removed_added)
{
	struct log l = { 0 };
	struct ibtopo *b;
	struct tb_fabric f;

	ck_assert_int_eq(tb_2sw4hca(&f, false), 0);
	ibtopo_unref(f.t);
	/* b: the same fabric without Hca4 */
	ck_assert_int_eq(ibtopo_new(&b), 0);
	{
		struct ibtopo_node *h1 = tb_ca(b, 0x100000, "Hca1", 2, 2);
		struct ibtopo_node *s1 = tb_switch(b, 0x200000, "Switch1", 8, 1, 0x2e);
		struct ibtopo_node *h3 = tb_ca(b, 0x100006, "Hca3", 2, 5);
		struct ibtopo_node *s2 = tb_switch(b, 0x200001, "Switch2", 8, 3, 0x2e);
		struct ibtopo_node *h2 = tb_ca(b, 0x100003, "Hca2", 2, 4);

		tb_link(s1, 1, h1, 1);
		tb_link(s1, 2, h3, 1);
		tb_link(s1, 3, s2, 3);
		tb_link(s1, 5, s2, 5);
		tb_link(s2, 1, h2, 1);
	}
	/* a -> b: pass 1 in a's order (Hca4, Hca2, Switch2, Hca3, Switch1, Hca1) */
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_ANY, 0, record, &l), 2);
	check_item(&l, 0, IBTOPO_DIFF_NODE_REMOVED, 0x100009, 0, 0, 0);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 2,
		   IBTOPO_DIFF_C_LINK_A_ONLY);
	ck_assert_uint_eq(l.r[1].a_pnum, 2);
	ck_assert_uint_eq(l.r[1].b_pnum, 2);
	/* b -> a: the other direction */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(b, fa.t, IBTOPO_NODE_ANY, 0, record, &l), 2);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 2, IBTOPO_DIFF_C_LINK_B_ONLY);
	check_item(&l, 1, IBTOPO_DIFF_NODE_ADDED, 0, 0x100009, 0, 0);
	/* without F_LINKS, only the node */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(b, fa.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_NODES, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_NODE_ADDED, 0, 0x100009, 0, 0);
	/* without F_NODES, only the port */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(b, fa.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_LINKS, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 2, IBTOPO_DIFF_C_LINK_B_ONLY);
	/* one type: CAs only (the switch's port is not looked at) */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_CA, 0, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_NODE_REMOVED, 0x100009, 0, 0, 0);
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_SWITCH, 0, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 2, IBTOPO_DIFF_C_LINK_A_ONLY);
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_ROUTER, 0, record, &l), 0);
	ibtopo_unref(b);
}
END_TEST

START_TEST(desc_changed)
{
	struct log l = { 0 };
	uint8_t nd[IBTOPO_SMP_DATA_SIZE] = "Hca2 renamed";

	topo_node_set_desc(fb.hca2, nd);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 0, record, &l), 2);
	/* a's order: Hca4, Hca2 (its own description), Switch2 (its port 1's remote) */
	check_item(&l, 0, IBTOPO_DIFF_NODE_CHANGED, 0x100003, 0x100003, 0, IBTOPO_DIFF_C_DESC);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 1, IBTOPO_DIFF_C_REMOTE_DESC);
	/* --diffcheck nodedesc alone: no link comparison, so no remote description */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_DESC, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_NODE_CHANGED, 0x100003, 0x100003, 0, IBTOPO_DIFF_C_DESC);
	/* links without descriptions: nothing */
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY,
				     IBTOPO_DIFF_F_LINKS | IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LIDS |
					     IBTOPO_DIFF_F_STATE,
				     record, &l),
			 0);
	/* a byte after the NUL counts too (libibnetdisc compares all 64 bytes) */
	memset(nd, 0, sizeof(nd));
	memcpy(nd, "Hca2\0x", 6);
	topo_node_set_desc(fb.hca2, nd);
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_CA, IBTOPO_DIFF_F_DESC, record, &l), 1);
	ck_assert_str_eq(ibtopo_node_desc(fb.hca2), "Hca2");
}
END_TEST

START_TEST(lid_changed)
{
	struct log l = { 0 };
	uint8_t pi[IBTOPO_SMP_DATA_SIZE];

	/* Hca3 moves from LID 5 to LID 9 */
	memcpy(pi, ibtopo_port_info(ibtopo_node_port(fb.hca3, 1)), sizeof(pi));
	tb_be16(pi + 16, 9);
	ck_assert_int_eq(topo_port_set_info(ibtopo_node_port(fb.hca3, 1), pi), 0);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 0, record, &l), 2);
	/* a's order: ..., Hca3 (own LID), Switch1 port 2 (remote LID) */
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x100006, 0x100006, 1, IBTOPO_DIFF_C_LID);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 2, IBTOPO_DIFF_C_REMOTE_LID);
	/* lid without port: the port's own LID only */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_LIDS, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x100006, 0x100006, 1, IBTOPO_DIFF_C_LID);
	/* LMC */
	pi[34] = 2;
	ck_assert_int_eq(topo_port_set_info(ibtopo_node_port(fb.hca3, 1), pi), 0);
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_CA, IBTOPO_DIFF_F_LIDS, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x100006, 0x100006, 1,
		   IBTOPO_DIFF_C_LID | IBTOPO_DIFF_C_LMC);
}
END_TEST

/* A switch's LID: its SMA LID and, as libibnetdisc gives every switch port port 0's LID,
 * each of its ports that was answered after */
START_TEST(switch_lid_changed)
{
	struct log l = { 0 };
	struct tb_fabric f;

	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(ibtopo_new(&f.t), 0);
	f.hca1 = tb_ca(f.t, 0x100000, "Hca1", 2, 2);
	f.sw1 = tb_switch(f.t, 0x200000, "Switch1", 2, 7, 0x2);
	tb_link(f.sw1, 1, f.hca1, 1);
	ibtopo_unref(fb.t);
	fb.t = f.t;
	ibtopo_unref(fa.t);
	ck_assert_int_eq(ibtopo_new(&fa.t), 0);
	fa.hca1 = tb_ca(fa.t, 0x100000, "Hca1", 2, 2);
	fa.sw1 = tb_switch(fa.t, 0x200000, "Switch1", 2, 1, 0x2);
	tb_link(fa.sw1, 1, fa.hca1, 1);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 0, record, &l), 4);
	check_item(&l, 0, IBTOPO_DIFF_NODE_CHANGED, 0x200000, 0x200000, 0, IBTOPO_DIFF_C_SMA_LID);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 1, IBTOPO_DIFF_C_LID);
	check_item(&l, 2, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 2, IBTOPO_DIFF_C_LID);
	check_item(&l, 3, IBTOPO_DIFF_PORT, 0x100000, 0x100000, 1, IBTOPO_DIFF_C_REMOTE_LID);
}
END_TEST

/* Links moved: Switch1[3]-Switch2[3] becomes Switch1[4]-Switch2[4]; Hca1 moves from
 * Switch1 port 1 to port 6 */
START_TEST(links_moved)
{
	struct log l = { 0 };
	uint8_t pi[IBTOPO_SMP_DATA_SIZE];

	ibtopo_unref(fb.t);
	ck_assert_int_eq(tb_2sw4hca(&fb, true), 0);
	memcpy(pi, ibtopo_port_info(ibtopo_node_port(fb.sw1, 1)), sizeof(pi));
	pi[28] = 4;
	ck_assert_int_eq(topo_port_set_info(ibtopo_node_port(fb.sw1, 4), pi), 0);
	ck_assert_int_eq(topo_port_set_info(ibtopo_node_port(fb.sw2, 4), pi), 0);
	ck_assert_int_eq(topo_port_set_info(ibtopo_node_port(fb.sw1, 6), pi), 0);
	tb_link(fb.sw1, 4, fb.sw2, 4);
	tb_link(fb.sw1, 6, fb.hca1, 1);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_LINKS, record, &l), 7);
	/* Switch2 (ports 3, 4), Switch1 (1, 3, 4, 6), Hca1 (the remote's port number only) */
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 3, IBTOPO_DIFF_C_LINK_A_ONLY);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 4, IBTOPO_DIFF_C_LINK_B_ONLY);
	check_item(&l, 2, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 1, IBTOPO_DIFF_C_LINK_A_ONLY);
	check_item(&l, 3, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 3, IBTOPO_DIFF_C_LINK_A_ONLY);
	check_item(&l, 4, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 4, IBTOPO_DIFF_C_LINK_B_ONLY);
	check_item(&l, 5, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 6, IBTOPO_DIFF_C_LINK_B_ONLY);
	check_item(&l, 6, IBTOPO_DIFF_PORT, 0x100000, 0x100000, 1, IBTOPO_DIFF_C_REMOTE_PORT);
	/* with states: the ports that went up or down say so too */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_SWITCH, IBTOPO_DIFF_F_STATE, record, &l), 5);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 3,
		   IBTOPO_DIFF_C_STATE | IBTOPO_DIFF_C_PHYS_STATE);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 4,
		   IBTOPO_DIFF_C_STATE | IBTOPO_DIFF_C_PHYS_STATE);
	check_item(&l, 2, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 3,
		   IBTOPO_DIFF_C_STATE | IBTOPO_DIFF_C_PHYS_STATE);
	check_item(&l, 3, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 4,
		   IBTOPO_DIFF_C_STATE | IBTOPO_DIFF_C_PHYS_STATE);
	check_item(&l, 4, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 6,
		   IBTOPO_DIFF_C_STATE | IBTOPO_DIFF_C_PHYS_STATE);
}
END_TEST

START_TEST(port_guid_remote_guid)
{
	struct log l = { 0 };
	struct ibtopo_node *h5;

	/* Hca3's port gets another GUID; Hca4 stays, unlinked, and Hca5 takes its switch port */
	ibtopo_node_port(fb.hca3, 1)->guid = 0x1234;
	h5 = tb_ca(fb.t, 0x100100, "Hca5", 2, 6);
	tb_link(fb.sw2, 2, h5, 1);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 0, record, &l), 5);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x100009, 0x100009, 1, IBTOPO_DIFF_C_LINK_A_ONLY);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x200001, 0x200001, 2,
		   IBTOPO_DIFF_C_REMOTE_GUID | IBTOPO_DIFF_C_REMOTE_DESC);
	check_item(&l, 2, IBTOPO_DIFF_PORT, 0x100006, 0x100006, 1, IBTOPO_DIFF_C_PORT_GUID);
	check_item(&l, 3, IBTOPO_DIFF_PORT, 0x200000, 0x200000, 2, IBTOPO_DIFF_C_REMOTE_GUID);
	check_item(&l, 4, IBTOPO_DIFF_NODE_ADDED, 0, 0x100100, 0, 0);
}
END_TEST

START_TEST(num_ports_and_missing_ports)
{
	struct log l = { 0 };
	uint8_t ni[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo *b;
	struct ibtopo_node *n;

	/* a: a 2-port CA with both ports seen, b: the same with port 2 never seen */
	ck_assert_int_eq(ibtopo_new(&b), 0);
	n = tb_ca(b, 0x300000, "X", 2, 10);
	ck_assert_ptr_nonnull(tb_port(fa.hca1, 2, 20, 0, TB_DOWN, TB_POLLING, TB_4X, TB_SDR));
	n = tb_ca(b, 0x100000, "Hca1", 2, 2);
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_CA, IBTOPO_DIFF_F_LINKS, record, &l), 2);
	/* Hca1: port 1 had a link, port 2 is in a only */
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x100000, 0x100000, 1, IBTOPO_DIFF_C_LINK_A_ONLY);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x100000, 0x100000, 2, IBTOPO_DIFF_C_PORT_A_ONLY);
	ck_assert_uint_eq(l.r[1].b_pnum, 0);
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(b, fa.t, IBTOPO_NODE_CA, IBTOPO_DIFF_F_LINKS, record, &l), 2);
	check_item(&l, 1, IBTOPO_DIFF_PORT, 0x100000, 0x100000, 2, IBTOPO_DIFF_C_PORT_B_ONLY);
	/* a port only one side has is not compared for LIDs or state */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(b, fa.t, IBTOPO_NODE_CA,
				     IBTOPO_DIFF_F_LIDS | IBTOPO_DIFF_F_STATE, record, &l), 0);
	/* NumPorts: a 4-port CA with the GUID of Hca1 */
	memcpy(ni, ibtopo_node_info(fa.hca1), sizeof(ni));
	ni[3] = 4;
	ibtopo_unref(b);
	ck_assert_int_eq(ibtopo_new(&b), 0);
	n = topo_node_create(b, ni, NULL);
	ck_assert_ptr_nonnull(n);
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_CA, 0, record, &l), 5);
	check_item(&l, 0, IBTOPO_DIFF_NODE_REMOVED, 0x100009, 0, 0, 0);
	check_item(&l, 1, IBTOPO_DIFF_NODE_REMOVED, 0x100003, 0, 0, 0);
	check_item(&l, 2, IBTOPO_DIFF_NODE_REMOVED, 0x100006, 0, 0, 0);
	/* b's node has no description: the header change comes first, then NumPorts */
	check_item(&l, 3, IBTOPO_DIFF_NODE_CHANGED, 0x100000, 0x100000, 0, IBTOPO_DIFF_C_DESC);
	check_item(&l, 4, IBTOPO_DIFF_NUM_PORTS, 0x100000, 0x100000, 0, 0);
	/* without descriptions: NumPorts alone, no port compared */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_CA, IBTOPO_DIFF_F_LINKS, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_NUM_PORTS, 0x100000, 0x100000, 0, 0);
	/* with only the node check, numbers of ports are not compared */
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_CA, IBTOPO_DIFF_F_NODES, NULL, NULL), 3);
	ibtopo_unref(b);
}
END_TEST

START_TEST(matched_across_types)
{
	struct log l = { 0 };
	struct ibtopo *b;

	/* b has a switch with Hca2's GUID: found by GUID, so not "removed", its ports compared */
	ck_assert_int_eq(ibtopo_new(&b), 0);
	tb_switch(b, 0x100003, "Hca2", 2, 4, 0);
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_CA, IBTOPO_DIFF_F_NODES, record, &l), 3);
	for (unsigned i = 0; i < l.n; i++)
		ck_assert_uint_ne(l.r[i].a, 0x100003);
	l.n = 0;
	/* pass 2 on switches of b: its GUID is in a (as a CA): not added */
	ck_assert_int_eq(ibtopo_diff(fa.t, b, IBTOPO_NODE_SWITCH, IBTOPO_DIFF_F_NODES, record, &l), 2);
	check_item(&l, 0, IBTOPO_DIFF_NODE_REMOVED, 0x200001, 0, 0, 0);
	check_item(&l, 1, IBTOPO_DIFF_NODE_REMOVED, 0x200000, 0, 0, 0);
	ibtopo_unref(b);
}
END_TEST

START_TEST(state_width_speed)
{
	struct log l = { 0 };
	uint8_t pi[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo_port *p = ibtopo_node_port(fb.hca2, 1);

	memcpy(pi, ibtopo_port_info(p), sizeof(pi));
	pi[31] = 1;                          /* 1x */
	pi[35] = (uint8_t)(TB_DDR << 4 | 1); /* DDR */
	pi[62] = 0x10;                       /* extended speed FDR */
	ck_assert_int_eq(topo_port_set_info(p, pi), 0);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_STATE, record, &l), 1);
	check_item(&l, 0, IBTOPO_DIFF_PORT, 0x100003, 0x100003, 1,
		   IBTOPO_DIFF_C_WIDTH | IBTOPO_DIFF_C_SPEED | IBTOPO_DIFF_C_SPEED_EXT);
	/* iblinkinfo's default (port,state): the same one item, no link change */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY,
				     IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS | IBTOPO_DIFF_F_STATE,
				     record, &l), 1);
	/* ibnetdiscover's default (port): nothing */
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY,
				     IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS, record, &l), 1 - 1);
}
END_TEST

START_TEST(early_stop)
{
	struct log l = { .stop_at = 2 };
	struct ibtopo *e;

	ck_assert_int_eq(ibtopo_new(&e), 0);
	/* 6 nodes removed: stops at the second */
	ck_assert_int_eq(ibtopo_diff(fa.t, e, IBTOPO_NODE_ANY, 0, record, &l), -42);
	ck_assert_uint_eq(l.n, 2);
	/* in pass 2 */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(e, fa.t, IBTOPO_NODE_ANY, 0, record, &l), -42);
	ck_assert_uint_eq(l.n, 2);
	/* on a SET item of the sets report */
	l.n = 0;
	l.stop_at = 1;
	ck_assert_int_eq(ibtopo_diff(e, fa.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_SETS, record, &l), -42);
	ck_assert_uint_eq(l.n, 1);
	/* on the third: SET, END_PORT, END_PORT */
	l.n = 0;
	l.stop_at = 3;
	ck_assert_int_eq(ibtopo_diff(e, fa.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_SETS, record, &l), -42);
	ck_assert_uint_eq(l.n, 3);
	/* a positive return is handed back as is too */
	ibtopo_unref(e);
}
END_TEST

static int stop_positive(const struct ibtopo_diff_item *it, void *user)
{
	(void)it;
	++*(int *)user;
	return 7;
}

START_TEST(bad_arguments)
{
	int calls = 0;
	struct ibtopo *e;

	ck_assert_int_eq(ibtopo_diff(NULL, fa.t, IBTOPO_NODE_ANY, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_diff(fa.t, NULL, IBTOPO_NODE_ANY, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, (enum ibtopo_node_type)4, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 1u << 5, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_CA, IBTOPO_DIFF_F_SETS, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(ibtopo_new(&e), 0);
	ck_assert_int_eq(ibtopo_diff(e, fa.t, IBTOPO_NODE_ANY, 0, stop_positive, &calls), 7);
	ck_assert_int_eq(calls, 1);
	ibtopo_unref(e);
}
END_TEST

/* The sample of shared/reference/diags-samples/fault_injection.txt: the cache taken before
 * `Unlink "Switch1"[3]`, the fabric after; `ibnetdiscover --diff before.cache` printed this. */
static const char unlink_expected[] = "\n"
				      "vendid=0x0\n"
				      "devid=0x0\n"
				      "sysimgguid=0x200001\n"
				      "switchguid=0x200001(200001)\n"
				      "Switch\t8 \"S-0000000000200001\"\t\t# \"Switch2\" base port 0 lid 3 lmc 0\n"
				      "< [3]\t\"S-0000000000200000\"[3]\t\t# \"Switch1\" lid 1 4xSDR\n"
				      "\n"
				      "vendid=0x0\n"
				      "devid=0x0\n"
				      "sysimgguid=0x200000\n"
				      "switchguid=0x200000(200000)\n"
				      "Switch\t8 \"S-0000000000200000\"\t\t# \"Switch1\" base port 0 lid 1 lmc 0\n"
				      "< [3]\t\"S-0000000000200001\"[3]\t\t# \"Switch2\" lid 3 4xSDR\n";

START_TEST(ibnetdiscover_unlink_sample)
{
	struct ndprint p;

	ibtopo_unref(fb.t);
	ck_assert_int_eq(tb_2sw4hca(&fb, true), 0);
	nd_diff(&p, fa.t, fb.t, IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS);
	ck_assert_str_eq(p.buf, unlink_expected);
	/* the same fabric: nothing (the "ibnetdiscover --diff fabric.cache" sample) */
	nd_diff(&p, fa.t, fa.t, IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS);
	ck_assert_uint_eq(p.len, 0);
}
END_TEST

/* What ibnetdiscover prints for a removed CA, a changed description and LID */
START_TEST(ibnetdiscover_ca_sample)
{
	static const char expected[] =
		"\n"
		"vendid=0x0\n"
		"devid=0x0\n"
		"sysimgguid=0x200001\n"
		"switchguid=0x200001(200001)\n"
		"Switch\t8 \"S-0000000000200001\"\t\t# \"Switch2\" base port 0 lid 3 lmc 0\n"
		"< [1]\t\"H-0000000000100003\"[1](100004) \t\t# \"Hca2\" lid 4 4xSDR\n"
		"< [2]\t\"H-0000000000100009\"[1](10000a) \t\t# \"Hca4\" lid 6 4xSDR\n"
		"> [2]\t\"H-0000000000100009\"[1](10000a) \t\t# \"Hca4 new\" lid 6 4xSDR\n"
		"\n"
		"vendid=0x0\n"
		"devid=0x0\n"
		"sysimgguid=0x100009\n"
		"caguid=0x100009\n"
		"< Ca\t2 \"H-0000000000100009\"\t\t# \"Hca4\"\n"
		"> Ca\t2 \"H-0000000000100009\"\t\t# \"Hca4 new\"\n"
		"\n"
		"< vendid=0x0\n"
		"< devid=0x0\n"
		"< sysimgguid=0x100003\n"
		"< caguid=0x100003\n"
		"< Ca\t2 \"H-0000000000100003\"\t\t# \"Hca2\"\n"
		"< [1](100004) \t\"S-0000000000200001\"[1]\t\t# lid 4 lmc 0 \"Switch2\" lid 3 4xSDR\n";
	uint8_t nd[IBTOPO_SMP_DATA_SIZE] = "Hca4 new";
	struct ndprint p;
	struct ibtopo *b;

	/* b: Hca2 gone, Hca4 renamed */
	ck_assert_int_eq(ibtopo_new(&b), 0);
	{
		struct ibtopo_node *h1 = tb_ca(b, 0x100000, "Hca1", 2, 2);
		struct ibtopo_node *s1 = tb_switch(b, 0x200000, "Switch1", 8, 1, 0x2e);
		struct ibtopo_node *h3 = tb_ca(b, 0x100006, "Hca3", 2, 5);
		struct ibtopo_node *s2 = tb_switch(b, 0x200001, "Switch2", 8, 3, 0x2e);
		struct ibtopo_node *h4 = tb_ca(b, 0x100009, "Hca4", 2, 6);

		topo_node_set_desc(h4, nd);
		tb_link(s1, 1, h1, 1);
		tb_link(s1, 2, h3, 1);
		tb_link(s1, 3, s2, 3);
		tb_link(s1, 5, s2, 5);
		tb_link(s2, 2, h4, 1);
		/* Switch2 port 1 still answers, without a link */
	}
	nd_diff(&p, fa.t, b, IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS | IBTOPO_DIFF_F_DESC);
	ck_assert_str_eq(p.buf, expected);
	ibtopo_unref(b);
}
END_TEST

/* ---- Against the real ibnetdiscover -------------------------------------------------------------- */

#define IBNETDISCOVER "/usr/sbin/ibnetdiscover"

/* diffcheck keys as ibnetdiscover parses them: types and checks */
static void parse_keys(const char *keys, bool types[3], unsigned *flags)
{
	char buf[128], *save = NULL;

	if (!keys) {
		types[0] = types[1] = types[2] = true;
		*flags = IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS;
		return;
	}
	types[0] = types[1] = types[2] = false;
	*flags = IBTOPO_DIFF_F_NODES;
	snprintf(buf, sizeof(buf), "%s", keys);
	for (char *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		if (!strcmp(k, "sw"))
			types[0] = true;
		else if (!strcmp(k, "ca"))
			types[1] = true;
		else if (!strcmp(k, "router"))
			types[2] = true;
		else if (!strcmp(k, "port"))
			*flags |= IBTOPO_DIFF_F_LINKS;
		else if (!strcmp(k, "lid"))
			*flags |= IBTOPO_DIFF_F_LIDS;
		else if (!strcmp(k, "nodedesc"))
			*flags |= IBTOPO_DIFF_F_DESC;
		else
			ck_abort_msg("key %s", k);
	}
}

/* `ibnetdiscover --load-cache b --diff a [--diffcheck keys]` next to our items printed the
 * same way, both subnets read back from cache files written by ibtopo_cache_save() */
static size_t compare_with_ibnetdiscover(const char *dir, const struct ibtopo *a,
					 const struct ibtopo *b, const char *keys)
{
	static const enum ibtopo_node_type types[] = { IBTOPO_NODE_SWITCH, IBTOPO_NODE_CA,
						       IBTOPO_NODE_ROUTER };
	char apath[256], bpath[256], cmd[1024], ref[8192], err[256];
	struct ibtopo *la = NULL, *lb = NULL;
	struct ndprint p;
	bool want[3];
	unsigned flags;
	size_t n;
	FILE *f;

	snprintf(apath, sizeof(apath), "%s/a.cache", dir);
	snprintf(bpath, sizeof(bpath), "%s/b.cache", dir);
	ck_assert_int_eq(ibtopo_cache_save(a, apath), 0);
	ck_assert_int_eq(ibtopo_cache_save(b, bpath), 0);
	snprintf(cmd, sizeof(cmd), IBNETDISCOVER " --load-cache %s --diff %s%s%s 2>&1", bpath, apath,
		 keys ? " --diffcheck " : "", keys ? keys : "");
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(ref, 1, sizeof(ref) - 1, f);
	ref[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);

	ck_assert_msg(ibtopo_cache_load(apath, &la, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(ibtopo_cache_load(bpath, &lb, err, sizeof(err)) == 0, "%s", err);
	parse_keys(keys, want, &flags);
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < 3; i++)
		if (want[i])
			ck_assert_int_ge(ibtopo_diff(la, lb, types[i], flags, nd_item, &p), 0);
	ck_assert_msg(!strcmp(p.buf, ref), "--diffcheck %s\n--- ibnetdiscover:\n%s--- ours:\n%s",
		      keys ? keys : "(default)", ref, p.buf);
	ibtopo_unref(la);
	ibtopo_unref(lb);
	unlink(apath);
	unlink(bpath);
	return n;
}

START_TEST(ibnetdiscover_reference)
{
	static const char *const keys[] = { NULL, "sw,ca,router,port,lid,nodedesc", "ca,lid",
					    "sw,nodedesc", "port", "sw,ca,port,nodedesc", "ca,port,lid" };
	char dir[] = "/tmp/ibtopo-diff-XXXXXX";
	uint8_t nd[IBTOPO_SMP_DATA_SIZE] = "Hca4 new";
	struct tb_fabric un, sw, ca;
	struct ibtopo *variants[3];
	unsigned compared = 0, shown = 0;

	if (access(IBNETDISCOVER, X_OK)) {
		fprintf(stderr, "ibtopo-diff: no " IBNETDISCOVER ", reference comparison skipped\n");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* the fault injection sample: a link unplugged */
	ck_assert_int_eq(tb_2sw4hca(&un, true), 0);
	/* Hca2 gone (Switch2 port 1 answers, unlinked), Hca4 renamed */
	ck_assert_int_eq(ibtopo_new(&ca.t), 0);
	ca.hca1 = tb_ca(ca.t, 0x100000, "Hca1", 2, 2);
	ca.sw1 = tb_switch(ca.t, 0x200000, "Switch1", 8, 1, 0x2e);
	ca.hca3 = tb_ca(ca.t, 0x100006, "Hca3", 2, 5);
	ca.sw2 = tb_switch(ca.t, 0x200001, "Switch2", 8, 3, 0x2e);
	ca.hca4 = tb_ca(ca.t, 0x100009, "Hca4", 2, 6);
	topo_node_set_desc(ca.hca4, nd);
	tb_link(ca.sw1, 1, ca.hca1, 1);
	tb_link(ca.sw1, 2, ca.hca3, 1);
	tb_link(ca.sw1, 3, ca.sw2, 3);
	tb_link(ca.sw1, 5, ca.sw2, 5);
	tb_link(ca.sw2, 2, ca.hca4, 1);
	ca.t->from_node = ca.hca1;
	ca.t->from_port = 1;
	/* Hca2 and Hca3 swap LIDs; Hca1 moves to Switch1 port 6; a new CA on Switch2 port 4 */
	ck_assert_int_eq(ibtopo_new(&sw.t), 0);
	sw.hca1 = tb_ca(sw.t, 0x100000, "Hca1", 2, 2);
	sw.sw1 = tb_switch(sw.t, 0x200000, "Switch1", 8, 1, 0x6c);
	sw.hca3 = tb_ca(sw.t, 0x100006, "Hca3", 2, 4);
	sw.sw2 = tb_switch(sw.t, 0x200001, "Switch2", 8, 3, 0x3e);
	sw.hca2 = tb_ca(sw.t, 0x100003, "Hca2", 2, 5);
	sw.hca4 = tb_ca(sw.t, 0x100009, "Hca4", 2, 6);
	tb_link(sw.sw1, 6, sw.hca1, 1);
	tb_link(sw.sw1, 2, sw.hca3, 1);
	tb_link(sw.sw1, 3, sw.sw2, 3);
	tb_link(sw.sw1, 5, sw.sw2, 5);
	tb_link(sw.sw2, 1, sw.hca2, 1);
	tb_link(sw.sw2, 2, sw.hca4, 1);
	tb_link(sw.sw2, 4, tb_ca(sw.t, 0x100100, "Hca5", 1, 7), 1);
	sw.t->from_node = sw.hca1;
	sw.t->from_port = 1;
	variants[0] = un.t;
	variants[1] = ca.t;
	variants[2] = sw.t;
	for (unsigned v = 0; v < 3; v++) {
		for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t n1 = compare_with_ibnetdiscover(dir, fa.t, variants[v], keys[k]);
			size_t n2 = compare_with_ibnetdiscover(dir, variants[v], fa.t, keys[k]);

			/* "port" alone selects no node type: nothing */
			if (keys[k] && !strcmp(keys[k], "port"))
				ck_assert_uint_eq(n1 + n2, 0);
			compared++;
			shown += (n1 > 0) + (n2 > 0);
		}
	}
	ck_assert_uint_eq(compared, 21);
	/* what prints something: the unplugged link with the port check (3 key sets), the
	 * others with the port check or a CA check (5 each); both directions */
	ck_assert_uint_eq(shown, 2 * (3 + 5 + 5));
	/* and the printer is not trivially empty: the sample's output */
	{
		struct ndprint p;

		nd_diff(&p, fa.t, un.t, IBTOPO_DIFF_F_NODES | IBTOPO_DIFF_F_LINKS);
		ck_assert_str_eq(p.buf, unlink_expected);
	}
	for (unsigned v = 0; v < 3; v++)
		ibtopo_unref(variants[v]);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* ---- The sets ------------------------------------------------------------------------------- */

START_TEST(sets)
{
	struct log l = { 0 };
	uint8_t pi[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo_node *h5;

	/* b: Hca4 replaced by Hca5 (on Switch2 port 2, LID 6 -> Hca5's port), Switch1[3] link
	 * down, Hca3's link at DDR */
	ibtopo_unref(fb.t);
	ck_assert_int_eq(tb_2sw4hca(&fb, true), 0);
	fb.hca4->ports[1]->remote = NULL;
	fb.sw2->ports[2]->remote = NULL;
	h5 = tb_ca(fb.t, 0x100100, "Hca5", 1, 7);
	tb_link(fb.sw2, 2, h5, 1);
	memcpy(pi, ibtopo_port_info(ibtopo_node_port(fb.sw1, 2)), sizeof(pi));
	pi[35] = (uint8_t)(TB_DDR << 4 | 1);
	ck_assert_int_eq(topo_port_set_info(ibtopo_node_port(fb.sw1, 2), pi), 0);

	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_SETS, record, &l), 9);
	ck_assert_uint_eq(l.n, 14);
	/* end ports: 6 and 6; Hca5's new, Hca4's gone */
	ck_assert_int_eq(l.r[0].what, IBTOPO_DIFF_SET);
	ck_assert_uint_eq(l.r[0].set.which, IBTOPO_DIFF_SET_END_PORTS);
	ck_assert_uint_eq(l.r[0].set.a_count, 6);
	ck_assert_uint_eq(l.r[0].set.b_count, 6);
	ck_assert_uint_eq(l.r[0].set.b_only, 1);
	ck_assert_uint_eq(l.r[0].set.a_only, 1);
	check_item(&l, 1, IBTOPO_DIFF_END_PORT, 0, 0x100101, 0, 0);
	check_item(&l, 2, IBTOPO_DIFF_END_PORT, 0x10000a, 0, 0, 0);
	/* nodes */
	ck_assert_uint_eq(l.r[3].set.which, IBTOPO_DIFF_SET_NODES);
	ck_assert_uint_eq(l.r[3].set.a_count, 6);
	check_item(&l, 4, IBTOPO_DIFF_NODE_ADDED, 0, 0x100100, 0, 0);
	check_item(&l, 5, IBTOPO_DIFF_NODE_REMOVED, 0x100009, 0, 0, 0);
	/* links: b has 5 (Hca5's new), a 6 (Switch1[3] and Hca4's gone); the first end is the
	 * larger (switch GUIDs are larger than the CAs') */
	ck_assert_uint_eq(l.r[6].set.which, IBTOPO_DIFF_SET_LINKS);
	ck_assert_uint_eq(l.r[6].set.a_count, 6);
	ck_assert_uint_eq(l.r[6].set.b_count, 5);
	ck_assert_uint_eq(l.r[6].set.b_only, 1);
	ck_assert_uint_eq(l.r[6].set.a_only, 2);
	check_item(&l, 7, IBTOPO_DIFF_LINK, 0, 0x200001, 0, 0); /* Switch2[2] <=> Hca5 */
	ck_assert_uint_eq(l.r[7].b_pnum, 2);
	check_item(&l, 8, IBTOPO_DIFF_LINK, 0x200001, 0, 0, 0); /* Switch2[2] <=> Hca4 */
	ck_assert_uint_eq(l.r[8].a_pnum, 2);
	check_item(&l, 9, IBTOPO_DIFF_LINK, 0x200001, 0, 0, 0); /* Switch2[3] <=> Switch1[3] */
	ck_assert_uint_eq(l.r[9].a_pnum, 3);
	/* rates: 4 common links, Switch1[2] <=> Hca3 differs in speed */
	ck_assert_uint_eq(l.r[10].set.which, IBTOPO_DIFF_SET_RATES);
	ck_assert_uint_eq(l.r[10].set.a_count, 4);
	ck_assert_uint_eq(l.r[10].set.changed, 1);
	check_item(&l, 11, IBTOPO_DIFF_LINK_RATE, 0x200000, 0x200000, 0, IBTOPO_DIFF_C_SPEED);
	ck_assert_uint_eq(l.r[11].a_pnum, 2);
	/* LIDs: 6 and 7; Hca4 (unlinked) keeps LID 6 in b, LID 7 is new */
	ck_assert_uint_eq(l.r[12].set.which, IBTOPO_DIFF_SET_LIDS);
	ck_assert_uint_eq(l.r[12].set.a_count, 6);
	ck_assert_uint_eq(l.r[12].set.b_count, 7);
	ck_assert_uint_eq(l.r[12].set.changed, 1);
	ck_assert_uint_eq(l.r[12].set.b_only, 1);
	ck_assert_uint_eq(l.r[12].set.a_only, 0);
	ck_assert_uint_eq(l.r[13].what, IBTOPO_DIFF_LID_MAP);
	ck_assert_uint_eq(l.r[13].lid, 7);
	ck_assert_uint_eq(l.r[13].a, 0);
	ck_assert_uint_eq(l.r[13].b, 0x100101);

	/* sections chosen by flags: links only */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY,
				     IBTOPO_DIFF_F_SETS | IBTOPO_DIFF_F_LINKS, record, &l), 3);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_uint_eq(l.r[0].set.which, IBTOPO_DIFF_SET_LINKS);
	/* the other way round: what was b-only is a-only */
	l.n = 0;
	ck_assert_int_eq(ibtopo_diff(fb.t, fa.t, IBTOPO_NODE_ANY,
				     IBTOPO_DIFF_F_SETS | IBTOPO_DIFF_F_NODES, record, &l), 4);
	check_item(&l, 1, IBTOPO_DIFF_END_PORT, 0, 0x10000a, 0, 0);
	check_item(&l, 2, IBTOPO_DIFF_END_PORT, 0x100101, 0, 0, 0);
	check_item(&l, 4, IBTOPO_DIFF_NODE_ADDED, 0, 0x100009, 0, 0);
	check_item(&l, 5, IBTOPO_DIFF_NODE_REMOVED, 0x100100, 0, 0, 0);
}
END_TEST

START_TEST(sets_lid_change)
{
	struct log l = { 0 };

	/* Hca2 and Hca3 swap LIDs 4 and 5 */
	ibtopo_unref(fb.t);
	ck_assert_int_eq(ibtopo_new(&fb.t), 0);
	fb.hca1 = tb_ca(fb.t, 0x100000, "Hca1", 2, 2);
	fb.sw1 = tb_switch(fb.t, 0x200000, "Switch1", 8, 1, 0x2e);
	fb.hca3 = tb_ca(fb.t, 0x100006, "Hca3", 2, 4);
	fb.sw2 = tb_switch(fb.t, 0x200001, "Switch2", 8, 3, 0x2e);
	fb.hca2 = tb_ca(fb.t, 0x100003, "Hca2", 2, 5);
	fb.hca4 = tb_ca(fb.t, 0x100009, "Hca4", 2, 6);
	tb_link(fb.sw1, 1, fb.hca1, 1);
	tb_link(fb.sw1, 2, fb.hca3, 1);
	tb_link(fb.sw1, 3, fb.sw2, 3);
	tb_link(fb.sw1, 5, fb.sw2, 5);
	tb_link(fb.sw2, 1, fb.hca2, 1);
	tb_link(fb.sw2, 2, fb.hca4, 1);
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY,
				     IBTOPO_DIFF_F_SETS | IBTOPO_DIFF_F_LIDS, record, &l), 2);
	ck_assert_uint_eq(l.r[0].set.changed, 2);
	ck_assert_uint_eq(l.r[0].set.a_only + l.r[0].set.b_only, 0);
	ck_assert_uint_eq(l.r[1].lid, 4);
	ck_assert_uint_eq(l.r[1].a, 0x100004);
	ck_assert_uint_eq(l.r[1].b, 0x100007);
	ck_assert_uint_eq(l.r[2].lid, 5);
	ck_assert_uint_eq(l.r[2].a, 0x100007);
	ck_assert_uint_eq(l.r[2].b, 0x100004);
	/* the node walk sees the same as two port LIDs and two remote LIDs */
	ck_assert_int_eq(ibtopo_diff(fa.t, fb.t, IBTOPO_NODE_ANY, 0, NULL, NULL), 4);
}
END_TEST

Suite *make_diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("diff");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, identical);
	tcase_add_test(tc, node_removed_added);
	tcase_add_test(tc, desc_changed);
	tcase_add_test(tc, lid_changed);
	tcase_add_test(tc, switch_lid_changed);
	tcase_add_test(tc, links_moved);
	tcase_add_test(tc, port_guid_remote_guid);
	tcase_add_test(tc, num_ports_and_missing_ports);
	tcase_add_test(tc, matched_across_types);
	tcase_add_test(tc, state_width_speed);
	tcase_add_test(tc, early_stop);
	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, ibnetdiscover_unlink_sample);
	tcase_add_test(tc, ibnetdiscover_ca_sample);
	tcase_add_test(tc, ibnetdiscover_reference);
	tcase_add_test(tc, sets);
	tcase_add_test(tc, sets_lid_change);
	suite_add_tcase(s, tc);
	return s;
}
