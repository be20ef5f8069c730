// SPDX-License-Identifier: BSD-3-Clause
/*
 * The directed-route walk on the fake fabric: the database it builds, independence from the
 * window and from the order answers arrive in, faults (a dead node, drops, a link cut while
 * the walk runs, loops, duplicate GUIDs, a bogus port number), limits (254 ports, 63 hops,
 * max_hops), cancel and free from callbacks, progress, a start that cannot send.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibtopo.h"
#include "fakefab.h"
#include "ibtopo-private.h"

/* The whole database as text: what two walks are compared by. */
static char *dump(const struct ibtopo *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++) {
		const struct ibtopo_node *n = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);
		char path[256];

		ibtopo_dr_path_format(ibtopo_node_dr_path(n), path, sizeof(path));
		fprintf(f, "%d %llx %u [%s] \"%s\" lid %u\n", ibtopo_node_type(n),
			(unsigned long long)ibtopo_node_guid(n), ibtopo_node_num_ports(n), path, ibtopo_node_desc(n),
			ibtopo_node_sma_lid(n));
		for (unsigned p = 0; p <= ibtopo_node_num_ports(n); p++) {
			const struct ibtopo_port *pt = ibtopo_node_port(n, p);
			const struct ibtopo_port *r = ibtopo_port_remote(pt);

			if (!pt)
				continue;
			fprintf(f, "  %u %llx lid %u info %d -> %llx/%u\n", p, (unsigned long long)ibtopo_port_guid(pt),
				ibtopo_port_base_lid(pt), ibtopo_port_info(pt) != NULL,
				r ? (unsigned long long)ibtopo_node_guid(ibtopo_port_node(r)) : 0ull,
				r ? ibtopo_port_num(r) : 0);
		}
	}
	for (int ty = 1; ty <= 3; ty++) {
		fprintf(f, "type %d:", ty);
		for (unsigned i = 0; i < ibtopo_node_count(t, ty); i++)
			fprintf(f, " %llx", (unsigned long long)ibtopo_node_guid(ibtopo_node_get(t, ty, i)));
		fprintf(f, "\n");
	}
	fprintf(f, "maxhops %u from %llx/%u mads %llu\n", ibtopo_max_hops_discovered(t),
		(unsigned long long)ibtopo_node_guid(ibtopo_from_node(t)), ibtopo_from_port(t),
		(unsigned long long)ibtopo_mads_used(t));
	fclose(f);
	return buf;
}

/* two switches joined twice, three CAs on each, a dual-ported CA on both */
static void fabric_two_switch(void)
{
	int h[7], sa, sb;

	ff_reset();
	h[0] = ff_add(1, 2, "h0");
	sa = ff_add(2, 12, "sw-a");
	sb = ff_add(2, 12, "sw-b");
	for (int i = 1; i < 7; i++) {
		char name[8];

		snprintf(name, sizeof(name), "h%d", i);
		h[i] = ff_add(1, 2, name);
	}
	ff_link(h[0], 1, sa, 1);
	ff_link(h[1], 1, sa, 2);
	ff_link(h[2], 1, sa, 3);
	ff_link(h[3], 1, sb, 1);
	ff_link(h[4], 1, sb, 2);
	ff_link(h[5], 1, sb, 3);
	ff_link(h[6], 1, sb, 4);
	ff_link(h[6], 2, sa, 4);
	ff_link(sa, 7, sb, 7);
	ff_link(sa, 8, sb, 8);
}

struct run {
	int rc;
	struct ibtopo *topo;
	unsigned progress_calls;
	unsigned cancel_at;  /* cancel from the progress callback at this many nodes */
	bool free_in_cb;
};

static void on_progress(struct ibtopo_discovery *d, unsigned nodes, unsigned outstanding, void *user)
{
	struct run *r = user;

	(void)outstanding;
	r->progress_calls++;
	if (r->cancel_at && nodes >= r->cancel_at)
		ibtopo_discovery_cancel(d);
}

/* one discovery on the fake fabric with `window` SMPs in flight */
static struct run walk(unsigned window, unsigned timeout_ms, unsigned retries, unsigned max_hops,
		       unsigned cancel_at)
{
	struct ibmadrpc_port *port = ff_open();
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	struct run r = { .cancel_at = cancel_at };

	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ck_assert_int_eq(ibtopo_discovery_set_outstanding(d, window), 0);
	ck_assert_int_eq(ibtopo_discovery_set_timeout(d, timeout_ms, retries), 0);
	ck_assert_int_eq(ibtopo_discovery_set_max_hops(d, max_hops), 0);
	ibtopo_discovery_set_progress(d, on_progress, &r);
	r.rc = ibtopo_discover(d, &r.topo);
	ck_assert(ibsched_idle(sched));
	ibtopo_discovery_free(d);
	ibsched_free(sched);
	ff_close(port);
	return r;
}

START_TEST(test_two_switch)
{
	struct run r;
	const struct ibtopo_node *n;
	const struct ibtopo_port *p;

	fabric_two_switch();
	r = walk(16, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 9);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_SWITCH), 2);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_CA), 7);
	ck_assert_uint_eq(ibtopo_error_count(r.topo), 0);
	/* the start node came first: it is last in the list */
	n = ibtopo_node_get(r.topo, IBTOPO_NODE_ANY, 8);
	ck_assert_ptr_eq(n, ibtopo_from_node(r.topo));
	ck_assert_uint_eq(ibtopo_node_guid(n), 0x1000);
	ck_assert_uint_eq(ibtopo_from_port(r.topo), 1);
	ck_assert_str_eq(ibtopo_node_desc(n), "h0");
	/* sw-a was second: reached by "0,1" */
	n = ibtopo_node_get(r.topo, IBTOPO_NODE_ANY, 7);
	ck_assert_uint_eq(ibtopo_node_guid(n), 0x2000);
	ck_assert_uint_eq(ibtopo_node_dr_path(n)->hops, 1);
	ck_assert_uint_eq(ibtopo_node_dr_path(n)->port[1], 1);
	ck_assert_uint_eq(ibtopo_node_sma_lid(n), 2);
	ck_assert_ptr_nonnull(ibtopo_node_switch_info(n));
	/* links both ways, the dual-homed CA on both switches */
	n = ibtopo_find_node_guid(r.topo, 0x9000);
	ck_assert_ptr_nonnull(n);
	p = ibtopo_node_port(n, 2);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_port_node(ibtopo_port_remote(p))), 0x2000);
	ck_assert_uint_eq(ibtopo_port_num(ibtopo_port_remote(p)), 4);
	ck_assert_ptr_eq(ibtopo_port_remote(ibtopo_port_remote(p)), p);
	/* look-ups: LID of a CA port, a switch's LID finds port 0 */
	p = ibtopo_find_port_lid(r.topo, 3);
	ck_assert_uint_eq(ibtopo_node_guid(ibtopo_port_node(p)), 0x3000);
	ck_assert_uint_eq(ibtopo_port_num(p), 0);
	ck_assert_ptr_eq(ibtopo_find_port_guid(r.topo, 0x3000), p);
	ck_assert_uint_eq(ibtopo_max_hops_discovered(r.topo), 3);
	ck_assert_uint_gt(r.progress_calls, 0);
	ibtopo_unref(r.topo);
}
END_TEST

/* The same database whatever the window and whatever order the answers arrive in. */
START_TEST(test_order_independent)
{
	char *ref, *other;
	struct run r;

	fabric_two_switch();
	r = walk(1, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	ref = dump(r.topo);
	ibtopo_unref(r.topo);
	for (unsigned w = 2; w <= 128; w *= 4) {
		for (int reorder = 0; reorder < 2; reorder++) {
			fabric_two_switch();
			ff.reorder = reorder;
			ff.seed = w * 7 + (unsigned)reorder;
			r = walk(w, 2000, 0, 0, 0);
			ck_assert_int_eq(r.rc, 0);
			other = dump(r.topo);
			ck_assert_str_eq(ref, other);
			free(other);
			ibtopo_unref(r.topo);
		}
	}
	free(ref);
}
END_TEST

START_TEST(test_dead_node)
{
	struct run r;

	fabric_two_switch();
	ff.node[2].dead = true; /* sw-b */
	r = walk(16, 300, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	/* h0, sw-a, h1, h2, and h6 through sw-a port 4 */
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 5);
	ck_assert_ptr_null(ibtopo_find_node_guid(r.topo, 0x3000));
	ck_assert_uint_eq(ibtopo_error_count(r.topo), 2); /* NodeInfo through ports 7 and 8 */
	ck_assert_int_eq(ibtopo_error_get(r.topo, 0)->errnum, -ETIMEDOUT);
	ck_assert_uint_eq(ibtopo_error_get(r.topo, 0)->attr_id, 0x11);
	ck_assert_int_eq(ibtopo_error_get(r.topo, 0)->kind, IBTOPO_ERR_QUERY);
	ck_assert_ptr_nonnull(strstr(ibtopo_error_get(r.topo, 0)->message, "0,1,7 Attr 0x11:0) bad status 110"));
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_drops_with_retries)
{
	char *ref, *other;
	struct run r;

	fabric_two_switch();
	r = walk(16, 2000, 0, 0, 0);
	ref = dump(r.topo);
	ibtopo_unref(r.topo);
	for (unsigned pct = 10; pct <= 50; pct += 20) {
		fabric_two_switch();
		ff.drop_pct = pct;
		r = walk(16, 5, 20, 0, 0);
		ck_assert_int_eq(r.rc, 0);
		ck_assert_uint_eq(ibtopo_error_count(r.topo), 0);
		other = dump(r.topo);
		/* the same database; only the SMP count (retries are not counted) is equal too */
		ck_assert_str_eq(ref, other);
		free(other);
		ibtopo_unref(r.topo);
	}
	/* without retries: a partial result and errors, never a hang */
	fabric_two_switch();
	ff.drop_pct = 50;
	r = walk(16, 5, 0, 0, 0);
	ck_assert_uint_gt(ibtopo_error_count(r.topo), 0);
	ibtopo_unref(r.topo);
	free(ref);
}
END_TEST

START_TEST(test_link_cut_mid_walk)
{
	struct run r;

	fabric_two_switch();
	ff.cut_after = 12;
	ff.cut_node = 1; /* sw-a port 7 goes down while the walk runs */
	ff.cut_port = 7;
	r = walk(4, 300, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	/* everything is still found through port 8 */
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 9);
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_loop)
{
	struct run r;
	int h, s[6];

	ff_reset();
	h = ff_add(1, 1, "h");
	for (int i = 0; i < 6; i++)
		s[i] = ff_add(2, 4, "ring");
	ff_link(h, 1, s[0], 3);
	for (int i = 0; i < 6; i++)
		ff_link(s[i], 1, s[(i + 1) % 6], 2);
	r = walk(8, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 7);
	for (int i = 0; i < 6; i++) {
		const struct ibtopo_node *n = ibtopo_find_node_guid(r.topo, ff.node[s[i]].guid);
		const struct ibtopo_port *p = ibtopo_node_port(n, 1);

		ck_assert_ptr_nonnull(ibtopo_port_remote(p));
		ck_assert_uint_eq(ibtopo_node_guid(ibtopo_port_node(ibtopo_port_remote(p))),
				  ff.node[s[(i + 1) % 6]].guid);
	}
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_duplicate_guid)
{
	struct run r;
	int h, s, c;

	ff_reset();
	h = ff_add(1, 1, "h");
	s = ff_add(2, 4, "sw");
	c = ff_add(2, 8, "twin"); /* a second switch claiming the first one's GUID */
	ff.node[c].guid = ff.node[s].guid;
	ff_link(h, 1, s, 1);
	ff_link(s, 2, c, 1);
	r = walk(8, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 2);
	ck_assert_uint_eq(ibtopo_error_count(r.topo), 1);
	ck_assert_int_eq(ibtopo_error_get(r.topo, 0)->kind, IBTOPO_ERR_DUPLICATE);
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_bogus_port)
{
	struct run r;
	int h, s, c;

	ff_reset();
	h = ff_add(1, 1, "h");
	s = ff_add(2, 4, "sw");
	c = ff_add(1, 2, "liar");
	ff.node[c].bogus_local_port = 200;
	ff_link(h, 1, s, 1);
	ff_link(s, 2, c, 1);
	r = walk(8, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(ibtopo_error_count(r.topo), 1);
	ck_assert_int_eq(ibtopo_error_get(r.topo, 0)->kind, IBTOPO_ERR_INCONSISTENT);
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_254_ports)
{
	struct run r;
	int h, s;

	ff_reset();
	h = ff_add(1, 1, "h");
	s = ff_add(2, 254, "wide");
	ff_link(h, 1, s, 254);
	for (unsigned p = 1; p < 254; p++)
		ff_link(ff_add(1, 1, "leaf"), 1, s, p);
	r = walk(64, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 255);
	ck_assert_ptr_nonnull(ibtopo_node_port(ibtopo_find_node_guid(r.topo, ff.node[s].guid), 254));
	ibtopo_unref(r.topo);
}
END_TEST

/* an HCA on the first of n 3-port switches in a line (port 2 to the next one's port 1) */
static void fabric_chain(int n)
{
	int h, prev;

	ff_reset();
	h = ff_add(1, 1, "h");
	prev = ff_add(2, 3, "chain");
	ff_link(h, 1, prev, 3);
	for (int i = 1; i < n; i++) {
		int s = ff_add(2, 3, "chain");

		ff_link(prev, 2, s, 1);
		prev = s;
	}
}

START_TEST(test_hop_limit)
{
	struct run r;

	fabric_chain(66);
	r = walk(16, 2000, 0, 0, 0);
	ck_assert_int_eq(r.rc, 0);
	/* the 63rd switch is 63 hops away: the walk can go no further */
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_SWITCH), 63);
	ck_assert_uint_eq(ibtopo_error_count(r.topo), 1);
	ck_assert_int_eq(ibtopo_error_get(r.topo, 0)->kind, IBTOPO_ERR_LIMIT);
	ck_assert_uint_eq(ibtopo_max_hops_discovered(r.topo), 63);
	ibtopo_unref(r.topo);

	/* max_hops: libibnetdisc stops extending once more than max_hops were discovered */
	r = walk(16, 2000, 0, 5, 0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(ibtopo_node_count(r.topo, IBTOPO_NODE_SWITCH), 6);
	ck_assert_uint_eq(ibtopo_error_count(r.topo), 0);
	ibtopo_unref(r.topo);
}
END_TEST

START_TEST(test_cancel)
{
	struct run r;

	fabric_chain(30);
	r = walk(8, 2000, 0, 0, 5);
	ck_assert_int_eq(r.rc, -ECANCELED);
	ck_assert_ptr_nonnull(r.topo);
	ck_assert_uint_ge(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 5);
	ck_assert_uint_lt(ibtopo_node_count(r.topo, IBTOPO_NODE_ANY), 31);
	ibtopo_unref(r.topo);
}
END_TEST

static void done_free(struct ibtopo_discovery *d, int status, void *user)
{
	(void)d;
	*(int *)user = status;
}

/* freed while SMPs are on the wire, then the scheduler runs on: no use after free */
START_TEST(test_free_running)
{
	struct ibmadrpc_port *port;
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	int status = 1;

	fabric_two_switch();
	port = ff_open();
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ck_assert_int_eq(ibtopo_discovery_set_timeout(d, 50, 0), 0);
	ck_assert_int_eq(ibtopo_discovery_start(d, done_free, &status), 0);
	ck_assert_int_eq(ibtopo_discovery_start(d, done_free, &status), -EBUSY);
	ck_assert_int_ge(ibsched_dispatch(sched, 100), 0);
	ibtopo_discovery_free(d);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_int_eq(status, 1); /* the freed discovery's callback never ran */
	ibsched_free(sched);
	ff_close(port);
}
END_TEST

START_TEST(test_start_fails)
{
	struct run r;

	fabric_two_switch();
	ff.send_error = -EIO;
	r = walk(8, 20, 0, 0, 0);
	ck_assert_int_eq(r.rc, -EIO);
	ck_assert_ptr_null(r.topo);
	/* nothing answers at all */
	fabric_two_switch();
	ff.node[0].dead = true;
	r = walk(8, 10, 0, 0, 0);
	ck_assert_int_eq(r.rc, -ETIMEDOUT);
	ck_assert_ptr_null(r.topo);
}
END_TEST

START_TEST(test_settings)
{
	struct ibmadrpc_port *port;
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	struct ibtopo_dr_path p;

	fabric_two_switch();
	port = ff_open();
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(NULL, sched), -EINVAL);
	ck_assert_int_eq(ibtopo_discovery_new(&d, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ck_assert_int_eq(ibtopo_discovery_set_outstanding(d, 129), -EINVAL);
	ck_assert_int_eq(ibtopo_discovery_set_mode(d, 7), -EINVAL);
	memset(&p, 0, sizeof(p));
	p.hops = 64;
	ck_assert_int_eq(ibtopo_discovery_set_from(d, &p), -EINVAL);
	ck_assert_int_eq(ibtopo_discover(d, NULL), -EINVAL);
	ck_assert_ptr_null(ibtopo_discovery_topology(NULL));
	ibtopo_discovery_free(d);
	ibtopo_discovery_free(NULL);
	ibsched_free(sched);
	ff_close(port);
}
END_TEST

struct seen {
	unsigned calls, new_nodes, first_hops;
	uint64_t first_guid;
};

static void on_node_seen(struct ibtopo_discovery *d, const struct ibtopo_dr_path *path,
			 struct ibtopo_node *node, struct ibtopo_port *port, bool is_new, void *user)
{
	struct seen *sn = user;

	(void)d;
	ck_assert_ptr_eq(ibtopo_port_node(port), node);
	if (!sn->calls++) {
		sn->first_hops = path->hops;
		sn->first_guid = ibtopo_node_guid(node);
	}
	if (is_new) {
		sn->new_nodes++;
		/* a node seen for the first time has not answered anything else yet */
		ck_assert_str_eq(ibtopo_node_desc(node), "");
	}
}

/* the NodeInfo hook: every answer once, new and known nodes, in libibnetdisc's order */
START_TEST(test_node_seen)
{
	struct ibmadrpc_port *port;
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	struct ibtopo *t = NULL;
	struct seen sn = { 0 };

	fabric_two_switch();
	port = ff_open();
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ibtopo_discovery_set_node_seen(d, on_node_seen, &sn);
	ck_assert_int_eq(ibtopo_discover(d, &t), 0);
	/* 9 nodes; known again: sw-b through sw-a[8], h6 through sw-b[4], sw-a through sw-b[8] */
	ck_assert_uint_eq(sn.new_nodes, 9);
	ck_assert_uint_eq(sn.calls, 12);
	ck_assert_uint_eq(sn.first_hops, 0);
	ck_assert_uint_eq(sn.first_guid, 0x1000);
	ibtopo_unref(t);
	ibtopo_discovery_free(d);
	ibsched_free(sched);
	ff_close(port);
}
END_TEST

Suite *make_walk_suite(void)
{
	Suite *s = suite_create("walk");
	TCase *tc = tcase_create("walk");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_two_switch);
	tcase_add_test(tc, test_order_independent);
	tcase_add_test(tc, test_dead_node);
	tcase_add_test(tc, test_drops_with_retries);
	tcase_add_test(tc, test_link_cut_mid_walk);
	tcase_add_test(tc, test_loop);
	tcase_add_test(tc, test_duplicate_guid);
	tcase_add_test(tc, test_bogus_port);
	tcase_add_test(tc, test_254_ports);
	tcase_add_test(tc, test_hop_limit);
	tcase_add_test(tc, test_cancel);
	tcase_add_test(tc, test_free_running);
	tcase_add_test(tc, test_start_fails);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_node_seen);
	suite_add_tcase(s, tc);
	return s;
}
