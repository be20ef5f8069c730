// SPDX-License-Identifier: BSD-3-Clause
/*
 * Switch forwarding tables on the fake fabric: LFT and MFT loads (whole tables, explicit
 * tops, capacity limits, several MFT positions, any window and answer order), failures (an
 * error status, a switch that stopped answering, a call from inside a scheduler callback,
 * bad arguments), and route tracing over the loaded LFTs (LMC ranges, switch destinations,
 * loops, holes, a wrong destination, tables not loaded, a short hop array).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-ibtopo.h"
#include "fakefab.h"
#include "ibtopo-private.h"

/* h0 (LID 1), sw-a (2), sw-b (3), h1..h6 (4..9; h6's port 2 is LID 10) */
enum { H0 = 0, SA = 1, SB = 2, H1 = 3, H4 = 6, H6 = 8 };

static void fabric(unsigned sb_ports)
{
	ff_reset();
	ff_add(1, 2, "h0");
	ff_add(2, 12, "sw-a");
	ff_add(2, sb_ports, "sw-b");
	for (int i = 1; i < 7; i++) {
		char name[8];

		snprintf(name, sizeof(name), "h%d", i);
		ff_add(1, 2, name);
	}
	ff_link(H0, 1, SA, 1);
	ff_link(H1, 1, SA, 2);
	ff_link(H1 + 1, 1, SA, 3);
	ff_link(H1 + 2, 1, SB, 1);
	ff_link(H1 + 3, 1, SB, 2);
	ff_link(H1 + 4, 1, SB, 3);
	ff_link(H6, 1, SB, 4);
	ff_link(H6, 2, SA, 4);
	ff_link(SA, 7, SB, 7);
	ff_link(SA, 8, SB, 8);
}

/* OpenSM-like routes: every LID of the fabric reachable from both switches */
static void program_routes(void)
{
	static const uint8_t sa[11] = { 0xff, 1, 0, 7, 2, 3, 7, 7, 7, 8, 4 };
	static const uint8_t sb[11] = { 0xff, 7, 7, 0, 7, 8, 1, 2, 3, 4, 8 };

	memcpy(ff.node[SA].lft, sa, sizeof(sa));
	memcpy(ff.node[SB].lft, sb, sizeof(sb));
}

struct env {
	struct ibmadrpc_port *port;
	struct ibsched *sched;
	struct ibtopo *topo;
	struct ibtopo_node *sa, *sb, *h0;
};

static void env_open(struct env *e, unsigned window)
{
	struct ibtopo_discovery *d;

	memset(e, 0, sizeof(*e));
	e->port = ff_open();
	ck_assert_int_eq(ibsched_new(&e->sched, e->port), 0);
	ck_assert_int_eq(ibtopo_discovery_new(&d, e->sched), 0);
	ck_assert_int_eq(ibtopo_discovery_set_outstanding(d, window), 0);
	ck_assert_int_eq(ibtopo_discover(d, &e->topo), 0);
	ibtopo_discovery_free(d);
	e->sa = ibtopo_find_node_guid(e->topo, ff.node[SA].guid);
	e->sb = ibtopo_find_node_guid(e->topo, ff.node[SB].guid);
	e->h0 = ibtopo_find_node_guid(e->topo, ff.node[H0].guid);
	ck_assert_ptr_nonnull(e->sa);
	ck_assert_ptr_nonnull(e->sb);
	ck_assert_ptr_nonnull(e->h0);
}

static void env_close(struct env *e)
{
	ck_assert(ibsched_idle(e->sched));
	ibtopo_unref(e->topo);
	ibsched_free(e->sched);
	ff_close(e->port);
}

/* ---- LFT ------------------------------------------------------------------------------------ */

START_TEST(test_lft_whole_table)
{
	struct env e;
	const uint8_t *lft;
	unsigned len = 99, before;

	fabric(12);
	program_routes();
	env_open(&e, 16);
	ck_assert_ptr_null(ibtopo_node_lft(e.sa, &len));
	ck_assert_uint_eq(len, 0);
	before = ff.smps;
	/* top 0: SwitchInfo.LinearFDBTop, which the fake switch sets to the node count (9) */
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 0, NULL), 0);
	ck_assert_uint_eq(ff.smps - before, 1);
	lft = ibtopo_node_lft(e.sa, &len);
	ck_assert_ptr_nonnull(lft);
	ck_assert_uint_eq(len, 10);
	ck_assert_mem_eq(lft, ff.node[SA].lft, 10);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sb, 0, NULL), 0);
	lft = ibtopo_node_lft(e.sb, &len);
	ck_assert_uint_eq(len, 10);
	ck_assert_mem_eq(lft, ff.node[SB].lft, 10);
	env_close(&e);
}
END_TEST

/* Many blocks, every window, answers in any order: the same table, one SMP per block. */
START_TEST(test_lft_many_blocks)
{
	static const unsigned windows[] = { 1, 3, 16, 128 };

	for (unsigned w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
		for (int reorder = 0; reorder < 2; reorder++) {
			struct env e;
			const uint8_t *lft;
			unsigned len, before;

			fabric(12);
			for (unsigned lid = 0; lid < 1024; lid++)
				ff.node[SA].lft[lid] = (uint8_t)(lid * 7 % 13);
			ff.reorder = reorder;
			ff.seed = windows[w] * 31 + (unsigned)reorder;
			env_open(&e, 16);
			ck_assert_int_eq(ibsched_set_max_outstanding(e.sched, windows[w]), 0);
			before = ff.smps;
			ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 1023, NULL), 0);
			ck_assert_uint_eq(ff.smps - before, 16);
			lft = ibtopo_node_lft(e.sa, &len);
			ck_assert_uint_eq(len, 1024);
			ck_assert_mem_eq(lft, ff.node[SA].lft, 1024);
			/* a top inside a block: only that many entries, the block read whole */
			before = ff.smps;
			ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 130, NULL), 0);
			ck_assert_uint_eq(ff.smps - before, 3);
			lft = ibtopo_node_lft(e.sa, &len);
			ck_assert_uint_eq(len, 131);
			ck_assert_mem_eq(lft, ff.node[SA].lft, 131);
			env_close(&e);
		}
	}
}
END_TEST

START_TEST(test_lft_error_status)
{
	struct env e;
	struct ibmadrpc_error *err = NULL;
	unsigned len = 1;
	const char *msg;

	fabric(12);
	program_routes();
	env_open(&e, 16);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 0, NULL), 0);
	/* the fake switch has 16 blocks: block 16 gets an error status */
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 1100, &err), -EREMOTEIO);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(ibmadrpc_error_status(err) & 0x7fff, 0x001c);
	msg = ibmadrpc_error_message(err, 0);
	ck_assert_ptr_nonnull(msg);
	ck_assert_msg(strstr(msg, "LinearForwardingTable block 16 of switch 0x0000000000002000 (DR path 0,1)"),
		      "message: %s", msg);
	ck_assert_uint_ge(ibmadrpc_error_count(err), 2);
	ibmadrpc_error_free(err);
	/* the table (the old one too) is gone */
	ck_assert_ptr_null(ibtopo_node_lft(e.sa, &len));
	ck_assert_uint_eq(len, 0);
	/* without an error object */
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 1100, NULL), -EREMOTEIO);
	/* and then a good load works again */
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 0, NULL), 0);
	ck_assert_ptr_nonnull(ibtopo_node_lft(e.sa, &len));
	env_close(&e);
}
END_TEST

START_TEST(test_lft_timeout)
{
	struct env e;
	struct ibmadrpc_error *err = NULL;
	const char *msg;

	fabric(12);
	env_open(&e, 16);
	ff.node[SB].dead = true;
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sb, 200, &err), -ETIMEDOUT);
	ck_assert_ptr_nonnull(err);
	ck_assert(ibmadrpc_error_timed_out(err));
	msg = ibmadrpc_error_message(err, 0);
	ck_assert_msg(strstr(msg, "switch 0x0000000000003000 (DR path 0,1,7)"), "message: %s", msg);
	ibmadrpc_error_free(err);
	ck_assert_ptr_null(ibtopo_node_lft(e.sb, NULL));
	/* sw-a still answers */
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 200, NULL), 0);
	env_close(&e);
}
END_TEST

struct busy {
	struct ibsched *sched;
	int rc;
	bool tried;
};

static void busy_progress(struct ibtopo_discovery *d, unsigned nodes, unsigned outstanding, void *user)
{
	struct busy *b = user;
	struct ibtopo *t = ibtopo_discovery_topology(d);
	struct ibmadrpc_error *err = NULL;

	(void)nodes;
	(void)outstanding;
	if (!b->tried && ibtopo_node_count(t, IBTOPO_NODE_SWITCH)) {
		b->rc = ibtopo_load_lft(t, b->sched, ibtopo_node_get(t, IBTOPO_NODE_SWITCH, 0), 10, &err);
		b->tried = true;
		ck_assert_ptr_null(err);
	}
	ibtopo_unref(t);
}

/* From inside a scheduler callback the load cannot wait for its answers: -EBUSY, nothing sent. */
START_TEST(test_lft_from_callback)
{
	struct ibmadrpc_port *port;
	struct ibsched *sched;
	struct ibtopo_discovery *d;
	struct ibtopo *t;
	struct busy b = { 0 };

	fabric(12);
	port = ff_open();
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	b.sched = sched;
	ck_assert_int_eq(ibtopo_discovery_new(&d, sched), 0);
	ibtopo_discovery_set_progress(d, busy_progress, &b);
	ck_assert_int_eq(ibtopo_discover(d, &t), 0);
	ck_assert(b.tried);
	ck_assert_int_eq(b.rc, -EBUSY);
	ck_assert_uint_eq(ibtopo_node_count(t, IBTOPO_NODE_ANY), 9);
	ck_assert(ibsched_idle(sched));
	ibtopo_unref(t);
	ibtopo_discovery_free(d);
	ibsched_free(sched);
	ff_close(port);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct env e;
	struct ibtopo *other;
	struct ibtopo_node *n;
	struct ibmadrpc_error *err = (struct ibmadrpc_error *)1;
	uint8_t info[IBTOPO_SMP_DATA_SIZE] = { 0 };
	unsigned len = 5;

	fabric(12);
	env_open(&e, 16);
	ck_assert_int_eq(ibtopo_load_lft(NULL, e.sched, e.sa, 0, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, NULL, e.sa, 0, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, NULL, 0, &err), -EINVAL);
	ck_assert_ptr_null(err); /* *err is always set */
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.h0, 0, NULL), -ENOTSUP);
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.h0, 0, NULL), -ENOTSUP);
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.sa, 0x1234, NULL), -EINVAL);
	ck_assert_ptr_null(ibtopo_node_lft(NULL, &len));
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_null(ibtopo_node_mft(NULL, 0, &len));
	ck_assert_uint_eq(len, 0);

	/* a node of another topology; a switch with no route and no LID; one without SwitchInfo */
	ck_assert_int_eq(ibtopo_new(&other), 0);
	info[2] = IBTOPO_NODE_SWITCH;
	info[3] = 4;
	info[19] = 0x77;
	other->from_node = topo_node_create(other, info, NULL);
	ck_assert_ptr_nonnull(other->from_node);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, other->from_node, 0, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_load_lft(other, e.sched, other->from_node, 0, NULL), -ENODATA);
	ck_assert_int_eq(ibtopo_load_mft(other, e.sched, other->from_node, 0, NULL), -ENODATA);
	info[19] = 0x78;
	n = topo_node_create(other, info, NULL);
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(ibtopo_load_lft(other, e.sched, n, 10, &err), -EHOSTUNREACH);
	ck_assert_ptr_null(err);
	ibtopo_unref(other);
	env_close(&e);
}
END_TEST

/* ---- MFT ------------------------------------------------------------------------------------ */

static uint16_t mft_pattern(unsigned node, unsigned index, unsigned pos)
{
	return (uint16_t)(index * 16 + pos + ff.node[node].guid);
}

START_TEST(test_mft_positions)
{
	struct env e;
	const uint16_t *m;
	unsigned entries = 0, before;

	fabric(40); /* sw-b: 41 ports -> positions 0, 1, 2 */
	env_open(&e, 16);
	/* top 0: SwitchInfo.MulticastFDBTop (0xc003) -> 4 MLIDs, one block */
	before = ff.smps;
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.sa, 0, NULL), 0);
	ck_assert_uint_eq(ff.smps - before, 1);
	m = ibtopo_node_mft(e.sa, 3, &entries);
	ck_assert_uint_eq(entries, 4);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m[0], mft_pattern(SA, 3, 0));
	for (unsigned w = 1; w < 16; w++)
		ck_assert_uint_eq(m[w], 0);
	ck_assert_ptr_null(ibtopo_node_mft(e.sa, 4, NULL));

	before = ff.smps;
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.sb, 0xc03f, NULL), 0);
	ck_assert_uint_eq(ff.smps - before, 2 * 3);
	for (unsigned i = 0; i < 64; i++) {
		m = ibtopo_node_mft(e.sb, i, &entries);
		ck_assert_uint_eq(entries, 64);
		ck_assert_ptr_nonnull(m);
		for (unsigned w = 0; w < 16; w++)
			ck_assert_uint_eq(m[w], w < 3 ? mft_pattern(SB, i, w) : 0);
	}
	env_close(&e);
}
END_TEST

START_TEST(test_mft_limits)
{
	struct env e;
	struct ibmadrpc_error *err = NULL;
	unsigned entries = 9, before;

	fabric(12);
	ff.reorder = true;
	env_open(&e, 16);
	/* beyond MulticastFDBCap (64): the capacity */
	before = ff.smps;
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.sa, 0xc100, NULL), 0);
	ck_assert_uint_eq(ff.smps - before, 2);
	ck_assert_ptr_nonnull(ibtopo_node_mft(e.sa, 63, &entries));
	ck_assert_uint_eq(entries, 64);
	ck_assert_uint_eq(ibtopo_node_mft(e.sa, 63, NULL)[0], mft_pattern(SA, 63, 0));
	/* 0xbfff: an empty table, loaded without a query */
	before = ff.smps;
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.sa, 0xbfff, NULL), 0);
	ck_assert_uint_eq(ff.smps, before);
	ck_assert_ptr_null(ibtopo_node_mft(e.sa, 0, &entries));
	ck_assert_uint_eq(entries, 0);
	/* a switch that stopped answering: no table, the error says where */
	ff.node[SB].dead = true;
	ck_assert_int_eq(ibtopo_load_mft(e.topo, e.sched, e.sb, 0, &err), -ETIMEDOUT);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(ibmadrpc_error_message(err, 0), "MulticastForwardingTable block 0 position 0"),
		      "message: %s", ibmadrpc_error_message(err, 0));
	ibmadrpc_error_free(err);
	ck_assert_ptr_null(ibtopo_node_mft(e.sb, 0, &entries));
	ck_assert_uint_eq(entries, 0);
	env_close(&e);
}
END_TEST

/* ---- Routes --------------------------------------------------------------------------------- */

static struct ibtopo_port *lid_port(struct env *e, uint16_t lid)
{
	struct ibtopo_port *p = ibtopo_find_port_lid(e->topo, lid);

	ck_assert_ptr_nonnull(p);
	return p;
}

static void check_hop(const struct ibtopo_hop *h, unsigned node, unsigned in, unsigned out)
{
	ck_assert_uint_eq(ibtopo_node_guid(h->node), ff.node[node].guid);
	ck_assert_uint_eq(h->in_port, in);
	ck_assert_uint_eq(h->out_port, out);
}

START_TEST(test_route)
{
	struct env e;
	struct ibtopo_hop hops[8];
	struct ibtopo_node *stuck = (struct ibtopo_node *)1;
	struct ibtopo_port *h0 = NULL;

	fabric(12);
	program_routes();
	/* h4 on LIDs 20-23 (LMC 2) */
	ff.node[H4].lid = 20;
	ff.node[H4].lmc = 2;
	for (unsigned lid = 20; lid < 24; lid++) {
		ff.node[SA].lft[lid] = (uint8_t)(7 + lid % 2);
		ff.node[SB].lft[lid] = 2;
	}
	env_open(&e, 16);
	h0 = ibtopo_node_port(e.h0, 1);
	ck_assert_ptr_nonnull(h0);

	/* nothing loaded yet: stuck at the first switch */
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 7, hops, 8, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.sa);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 63, NULL), 0);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 8, hops, 8, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.sb);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sb, 63, NULL), 0);

	/* CA to CA across both switches */
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 8, hops, 8, &stuck), 4);
	ck_assert_ptr_null(stuck);
	check_hop(&hops[0], H0, 0, 1);
	check_hop(&hops[1], SA, 1, 7);
	check_hop(&hops[2], SB, 7, 3);
	check_hop(&hops[3], H1 + 4, 1, 0);
	/* every LID of an LMC range ends at its port, whichever link it takes */
	for (uint16_t lid = 20; lid < 24; lid++) {
		ck_assert_int_eq(ibtopo_route(e.topo, h0, lid, hops, 8, NULL), 4);
		check_hop(&hops[1], SA, 1, 7 + lid % 2);
		check_hop(&hops[2], SB, 7 + lid % 2, 2);
		check_hop(&hops[3], H4, 1, 0);
	}
	/* to a switch: ends at its port 0 */
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 3, hops, 8, NULL), 3);
	check_hop(&hops[2], SB, 7, 0);
	/* to itself, from a switch, to the dual-homed CA's second port */
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 1, hops, 8, NULL), 1);
	check_hop(&hops[0], H0, 0, 0);
	ck_assert_int_eq(ibtopo_route(e.topo, lid_port(&e, 3), 4, hops, 8, NULL), 3);
	check_hop(&hops[0], SB, 0, 7);
	check_hop(&hops[1], SA, 7, 2);
	check_hop(&hops[2], H1, 1, 0);
	ck_assert_int_eq(ibtopo_route(e.topo, lid_port(&e, 6), 10, hops, 8, NULL), 4);
	check_hop(&hops[1], SB, 1, 8);
	check_hop(&hops[2], SA, 8, 4);
	check_hop(&hops[3], H6, 2, 0);
	/* counting only; a hop array too short */
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 8, NULL, 0, NULL), 4);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 8, hops, 3, NULL), -ENOSPC);
	/* no route, beyond the loaded table, bad arguments */
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 30, hops, 8, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.sa);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 900, hops, 8, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.sa);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 0, hops, 8, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 0xc000, hops, 8, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_route(e.topo, NULL, 3, hops, 8, NULL), -EINVAL);
	ck_assert_int_eq(ibtopo_route(NULL, h0, 3, hops, 8, NULL), -EINVAL);
	env_close(&e);
}
END_TEST

START_TEST(test_route_faults)
{
	struct env e;
	struct ibtopo_hop hops[64];
	struct ibtopo_node *stuck = NULL;
	struct ibtopo_port *h0;

	fabric(12);
	program_routes();
	ff.node[SA].lft[6] = 8; /* LID 6 bounces between the switches */
	ff.node[SB].lft[6] = 8;
	ff.node[SA].lft[5] = 2; /* LID 5 (h2) delivered to h1 */
	ff.node[SA].lft[9] = 11; /* a port with nothing on it */
	ff.node[SA].lft[10] = 13; /* a port beyond the switch's */
	env_open(&e, 16);
	h0 = ibtopo_node_port(e.h0, 1);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sa, 63, NULL), 0);
	ck_assert_int_eq(ibtopo_load_lft(e.topo, e.sched, e.sb, 63, NULL), 0);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 6, hops, 64, &stuck), -ELOOP);
	ck_assert_ptr_nonnull(stuck);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 5, hops, 64, &stuck), -ENOENT);
	ck_assert_uint_eq(ibtopo_node_guid(stuck), ff.node[H1].guid);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 9, hops, 64, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.sa);
	ck_assert_int_eq(ibtopo_route(e.topo, h0, 10, hops, 64, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.sa);
	/* a CA port with no link */
	ck_assert_int_eq(ibtopo_route(e.topo, topo_port_get(e.h0, 2), 3, hops, 64, &stuck), -ENOENT);
	ck_assert_ptr_eq(stuck, e.h0);
	env_close(&e);
}
END_TEST

Suite *make_lft_suite(void)
{
	Suite *s = suite_create("lft");
	TCase *tc = tcase_create("tables");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lft_whole_table);
	tcase_add_test(tc, test_lft_many_blocks);
	tcase_add_test(tc, test_lft_error_status);
	tcase_add_test(tc, test_lft_timeout);
	tcase_add_test(tc, test_lft_from_callback);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_mft_positions);
	tcase_add_test(tc, test_mft_limits);
	tcase_add_test(tc, test_route);
	tcase_add_test(tc, test_route_faults);
	suite_add_tcase(s, tc);
	return s;
}
