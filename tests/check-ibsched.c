// SPDX-License-Identifier: BSD-3-Clause
/*
 * libibsched unit tests on libibmadrpc's test port: the send hook records every MAD and
 * counts distinct requests on the wire; a responder answers recorded MADs in order (OK, an
 * error status, or not at all) and feeds the replies back.  The bound, groups and nested
 * groups, errors under both policies, cancel, timeouts and retries, determinism with
 * max_outstanding = 1, and a poll()-style event loop.
 */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmadrpc-private.h"
#include "ibsched-private.h"

/* ---- the fake fabric -------------------------------------------------------------------- */

#define MAXSENT 4096
#define MAXWIRE 256

static uint8_t sent[MAXSENT][IBMADRPC_MAD_SIZE];
static unsigned nsent;        /* every send, retries included */
static unsigned next_answer;  /* the responder's position in sent[] */
static uint32_t wire[MAXWIRE]; /* TIDs sent and not answered */
static unsigned nwire, max_wire, bound;
static bool bound_violated;

/* what the responder does with a request, by its attribute modifier */
static uint32_t fail_mod = UINT32_MAX;  /* answered with an error status */
static uint32_t drop_from = UINT32_MAX; /* mods >= this are never answered */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t sent_mod(unsigned i)
{
	return be32(sent[i] + 20);
}

static int hook(struct ibmadrpc_port *port, const uint8_t *umad, size_t len)
{
	uint32_t tid;
	unsigned i;

	(void)port;
	ck_assert_uint_ge(len, UMAD_HDR + 24);
	ck_assert_uint_lt(nsent, MAXSENT);
	memcpy(sent[nsent], umad + UMAD_HDR, len - UMAD_HDR);
	tid = be32(sent[nsent] + 12);
	nsent++;
	for (i = 0; i < nwire; i++)
		if (wire[i] == tid)
			return 0; /* a retry */
	ck_assert_uint_lt(nwire, MAXWIRE);
	wire[nwire++] = tid;
	if (nwire > max_wire)
		max_wire = nwire;
	if (bound && nwire > bound)
		bound_violated = true;
	return 0;
}

static void wire_del(uint32_t tid)
{
	unsigned i;

	for (i = 0; i < nwire; i++)
		if (wire[i] == tid) {
			wire[i] = wire[--nwire];
			return;
		}
}

/* Answers recorded MADs (not yet answered) in order; returns how many were handled. */
static unsigned answer(struct ibmadrpc_port *port, unsigned limit)
{
	unsigned n = 0;

	while (next_answer < nsent && n < limit) {
		uint8_t mad[IBMADRPC_MAD_SIZE];
		unsigned i = next_answer++;
		uint32_t mod = sent_mod(i);
		uint16_t status = mod == fail_mod ? 0x001c : 0;

		n++;
		if (mod >= drop_from)
			continue;
		memcpy(mad, sent[i], sizeof(mad));
		mad[3] = (uint8_t)(mad[3] == 0x02 ? 0x81 : mad[3] | 0x80);
		mad[4] = (uint8_t)(status >> 8);
		mad[5] = (uint8_t)status;
		memset(mad + 64, (int)(mod & 0xff), 64);
		/* leaves the wire before its callback may send more */
		wire_del(be32(mad + 12));
		ibmadrpc_test_feed(port, mad, sizeof(mad), 1);
	}
	return n;
}

/* Timed-out requests leave the wire without an answer. */
static void forget_timed_out(struct ibsched *s)
{
	if (!ibsched_outstanding(s))
		nwire = 0;
}

/* The caller's event loop: answer, dispatch without waiting, sleep until the next timer. */
static void pump(struct ibsched *s, unsigned per_round)
{
	struct ibmadrpc_port *port = ibsched_port(s);
	unsigned rounds = 0;

	while (!ibsched_idle(s)) {
		unsigned n = answer(port, per_round);
		int rc = ibsched_dispatch(s, 0);

		ck_assert_int_ge(rc, 0);
		if (!n && !rc) {
			int t = ibsched_next_timeout(s);

			ck_assert_int_ge(t, 0); /* not idle: something is due at some point */
			poll(NULL, 0, t);
		}
		forget_timed_out(s);
		ck_assert_uint_lt(++rounds, 100000);
	}
}

static struct ibpath_path *path;
static struct ibmadrpc_port *port;
static struct ibsched *sched;

static void setup(void)
{
	nsent = next_answer = nwire = max_wire = bound = 0;
	bound_violated = false;
	fail_mod = UINT32_MAX;
	drop_from = UINT32_MAX;
	port = ibmadrpc_test_port_new(hook);
	ck_assert_ptr_nonnull(port);
	ck_assert_int_eq(ibpath_path_new(&path, IBPATH_KIND_IB), 0);
	ibpath_path_set(path, IBPATH_DLID, 4);
	ibpath_path_set(path, IBPATH_TIMEOUT_MS, 20);
	ibpath_path_set(path, IBPATH_RETRIES, 1);
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
}

static void teardown(void)
{
	ibsched_free(sched);
	ibmadrpc_port_close(port);
	ibpath_path_unref(path);
}

static struct ibmadrpc_request request(uint32_t mod)
{
	struct ibmadrpc_request req;

	memset(&req, 0, sizeof(req));
	req.path = path;
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x11;
	req.attr_mod = mod;
	return req;
}

/* ---- callbacks ------------------------------------------------------------------------- */

struct log {
	unsigned ok, failed, timed_out;
	unsigned order[1024]; /* attribute modifiers in completion order */
	unsigned n;
	int handle;           /* what the callback returns for errors */
	unsigned spawn_depth; /* spawn two children per completed work below this depth */
	struct ibsched_group *spawn_group; /* NULL: the default */
};

static struct log L;

static void log_reset(void)
{
	memset(&L, 0, sizeof(L));
	L.handle = IBSCHED_UNHANDLED;
}

/* mod encodes a binary tree: node n has children 2n+1 and 2n+2; depth from the value */
static unsigned depth_of(uint32_t mod)
{
	unsigned d = 0;

	for (mod++; mod > 1; mod >>= 1)
		d++;
	return d;
}

static int work_cb(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		   const struct ibmadrpc_error *err, void *user)
{
	uint32_t mod = (uint32_t)(uintptr_t)user;

	ck_assert_ptr_eq(ibsched_work_user(w), user);
	ck_assert_ptr_eq(ibsched_current_group(s), ibsched_work_group(w));
	if (L.n < 1024)
		L.order[L.n++] = mod;
	if (err) {
		ck_assert_ptr_null(reply);
		L.failed++;
		if (ibmadrpc_error_timed_out(err))
			L.timed_out++;
		return L.handle;
	}
	ck_assert_uint_eq(reply->mad[reply->data_offset], mod & 0xff);
	L.ok++;
	if (depth_of(mod) < L.spawn_depth) {
		struct ibmadrpc_request req = request(2 * mod + 1);

		ck_assert_int_eq(ibsched_submit(s, L.spawn_group, &req, work_cb, (void *)(uintptr_t)(2 * mod + 1), NULL), 0);
		req = request(2 * mod + 2);
		ck_assert_int_eq(ibsched_submit(s, L.spawn_group, &req, work_cb, (void *)(uintptr_t)(2 * mod + 2), NULL), 0);
	}
	return IBSCHED_HANDLED;
}

static int submit(struct ibsched_group *g, uint32_t mod, struct ibsched_work **out)
{
	struct ibmadrpc_request req = request(mod);

	return ibsched_submit(sched, g, &req, work_cb, (void *)(uintptr_t)mod, out);
}

struct gres {
	unsigned calls;
	int status;
	unsigned errors;
	unsigned works_done_at_call; /* L.ok + L.failed when the callback ran */
	unsigned order;              /* global completion order of groups */
	int ret;
	char msg[256];
};

static unsigned group_seq;

static int group_cb(struct ibsched *s, struct ibsched_group *g, int status, const struct ibmadrpc_error *err,
		    void *user)
{
	struct gres *r = user;

	(void)s;
	ck_assert_ptr_eq(ibsched_group_user(g), r);
	ck_assert_uint_eq(ibsched_group_pending(g), 0);
	r->calls++;
	r->status = status;
	r->errors = ibsched_group_errors(g);
	r->works_done_at_call = L.ok + L.failed;
	r->order = ++group_seq;
	if (err)
		snprintf(r->msg, sizeof(r->msg), "%s", ibmadrpc_error_message(err, 0));
	ck_assert_int_eq(!!err, status != 0 && status != -ECANCELED);
	return r->ret;
}

/* ---- tests ------------------------------------------------------------------------------ */

START_TEST(test_basics)
{
	struct ibmadrpc_request req = request(1);
	struct ibsched *s2;

	ck_assert_uint_eq(ibsched_max_outstanding(sched), IBSCHED_DEFAULT_MAX_OUTSTANDING);
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 0), -EINVAL);
	ck_assert(ibsched_idle(sched));
	ck_assert_int_eq(ibsched_next_timeout(sched), -1);
	ck_assert_int_eq(ibsched_dispatch(sched, -1), 0); /* idle: returns at once */
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_int_eq(ibsched_fd(sched), -1);
	ck_assert_ptr_eq(ibsched_port(sched), port);
	ck_assert_ptr_eq(ibsched_current_group(sched), ibsched_root(sched));
	ck_assert_int_eq(ibsched_new(&s2, NULL), -EINVAL);
	req.path = NULL;
	ck_assert_int_eq(ibsched_submit(sched, NULL, &req, NULL, NULL, NULL), -EINVAL);
	req = request(1);
	req.data_len = IBMADRPC_MAD_SIZE + 1;
	req.data = sent;
	ck_assert_int_eq(ibsched_submit(sched, NULL, &req, NULL, NULL, NULL), -EMSGSIZE);
	ck_assert_ptr_nonnull(ibsched_version());
	ck_assert_uint_eq(nsent, 0);
}
END_TEST

START_TEST(test_bound)
{
	unsigned i;

	log_reset();
	L.spawn_depth = 3;
	bound = 4;
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 4), 0);
	for (i = 0; i < 20; i++)
		ck_assert_int_eq(submit(NULL, 1000 + i, NULL), 0); /* deep mods: no spawning */
	ck_assert_int_eq(submit(NULL, 0, NULL), 0);             /* a tree of 15 */
	ck_assert_uint_eq(ibsched_outstanding(sched), 4);
	ck_assert_uint_eq(ibsched_queued(sched), 17);
	ck_assert_uint_eq(nsent, 4);
	/* answer one at a time so the window refills under the bound at every step */
	pump(sched, 1);
	ck_assert(!bound_violated);
	ck_assert_uint_eq(max_wire, 4);
	ck_assert_uint_eq(L.ok, 20 + 15);
	ck_assert_uint_eq(nsent, 35);
	ck_assert_uint_eq(ibmadrpc_pending(port), 0);

	/* a larger window, answered in batches */
	log_reset();
	nwire = max_wire = 0;
	bound = 32;
	L.spawn_depth = 5;
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 32), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(submit(NULL, 0, NULL), 0);
	pump(sched, 7);
	ck_assert(!bound_violated);
	ck_assert_uint_eq(max_wire, 32);
	ck_assert_uint_eq(L.ok, 3 * 63);
}
END_TEST

START_TEST(test_groups)
{
	struct gres outer = { 0 }, inner = { 0 }, empty = { 0 };
	struct ibsched_group *g, *n, *e;
	unsigned i;

	log_reset();
	L.spawn_depth = 2; /* each tree: 1 + 2 + 4 */
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 3), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &outer, &g), 0);
	ck_assert_int_eq(ibsched_group_new(sched, g, IBSCHED_COLLECT, group_cb, &inner, &n), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &empty, &e), 0);
	ck_assert_ptr_eq(ibsched_group_parent(n), g);
	ck_assert_ptr_eq(ibsched_group_parent(g), ibsched_root(sched));
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(submit(g, 0, NULL), 0);
	ck_assert_int_eq(submit(n, 0, NULL), 0);
	ck_assert_uint_eq(ibsched_group_pending(g), 4); /* three works and the nested group */
	/* nothing completes before a dispatch */
	ck_assert_uint_eq(outer.calls + inner.calls + empty.calls, 0);
	ck_assert_int_eq(ibsched_next_timeout(sched), 0);
	/* the first dispatch releases the groups: the empty one completes */
	ck_assert_int_eq(ibsched_dispatch(sched, 0), 1);
	ck_assert_uint_eq(empty.calls, 1);
	pump(sched, 2);
	ck_assert_uint_eq(outer.calls, 1);
	ck_assert_uint_eq(inner.calls, 1);
	ck_assert_uint_eq(empty.calls, 1);
	ck_assert_int_eq(outer.status, 0);
	ck_assert_uint_eq(L.ok, 4 * 7);
	/* the outer group ran after everything, spawned work and the nested group included */
	ck_assert_uint_eq(outer.works_done_at_call, 28);
	ck_assert_uint_gt(outer.order, inner.order);
	ck_assert_uint_eq(empty.works_done_at_call, 0);
	ck_assert_uint_eq(ibsched_errors(sched), 0);
}
END_TEST

/* A group made inside a callback (parent by default: the work's group) that gets work from
 * its own callback too; the enclosing group waits for all of it. */
static struct gres sub[8];
static unsigned nsub;
static struct gres top;

static int subgroup_cb(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		       const struct ibmadrpc_error *err, void *user)
{
	struct ibsched_group *g;
	uint32_t mod = (uint32_t)(uintptr_t)user;

	ck_assert_ptr_null(err);
	(void)reply;
	(void)w;
	L.ok++;
	if (mod < 2) {
		ck_assert_uint_lt(nsub, 8);
		ck_assert_int_eq(ibsched_group_new(s, NULL, IBSCHED_ABORT_ALL, group_cb, &sub[nsub++], &g), 0);
		ck_assert_ptr_eq(ibsched_group_parent(g), ibsched_work_group(w));
		for (uint32_t k = 0; k < 3; k++) {
			struct ibmadrpc_request req = request(10 + mod * 10 + k);

			ck_assert_int_eq(ibsched_submit(s, g, &req, subgroup_cb, (void *)(uintptr_t)(10 + mod * 10 + k),
							NULL), 0);
		}
	}
	return IBSCHED_HANDLED;
}

START_TEST(test_nested_from_callbacks)
{
	struct ibsched_group *g;

	log_reset();
	nsub = 0;
	memset(sub, 0, sizeof(sub));
	memset(&top, 0, sizeof(top));
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_ABORT_ALL, group_cb, &top, &g), 0);
	for (uint32_t k = 0; k < 2; k++) {
		struct ibmadrpc_request req = request(k);

		ck_assert_int_eq(ibsched_submit(sched, g, &req, subgroup_cb, (void *)(uintptr_t)k, NULL), 0);
	}
	pump(sched, 1);
	ck_assert_uint_eq(nsub, 2);
	ck_assert_uint_eq(sub[0].calls, 1);
	ck_assert_uint_eq(sub[1].calls, 1);
	ck_assert_uint_eq(top.calls, 1);
	ck_assert_uint_eq(L.ok, 2 + 6);
	ck_assert_uint_eq(top.works_done_at_call, 8);
	ck_assert_uint_gt(top.order, sub[0].order);
	ck_assert_uint_gt(top.order, sub[1].order);
}
END_TEST

START_TEST(test_abort_all)
{
	struct gres r = { 0 };
	struct ibsched_group *g;
	uint32_t i;

	log_reset();
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 1), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_ABORT_ALL, group_cb, &r, &g), 0);
	r.ret = IBSCHED_UNHANDLED;
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(submit(g, i, NULL), 0);
	fail_mod = 3;
	pump(sched, 1);
	/* 0..2 fine, 3 failed and was not handled, the rest never went out */
	ck_assert_uint_eq(L.ok, 3);
	ck_assert_uint_eq(L.failed, 1);
	ck_assert_uint_eq(nsent, 4);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_int_eq(r.status, -EREMOTEIO);
	ck_assert_uint_eq(r.errors, 1);
	ck_assert_ptr_nonnull(strstr(r.msg, "SMPNodeInfo"));
	/* the group had no parent but the top level: the error went on there */
	ck_assert_uint_eq(ibsched_errors(sched), 1);
	ck_assert_int_eq(ibmadrpc_error_errno(ibsched_first_error(sched)), EREMOTEIO);
	ck_assert_uint_eq(ibmadrpc_pending(port), 0);
}
END_TEST

START_TEST(test_abort_in_flight)
{
	struct gres r = { 0 }, other = { 0 };
	struct ibsched_group *g, *o;
	uint32_t i;

	/* several on the wire when the error comes: they are cancelled in libibmadrpc */
	log_reset();
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 8), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_ABORT_ALL, group_cb, &r, &g), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_ABORT_ALL, group_cb, &other, &o), 0);
	r.ret = IBSCHED_HANDLED;
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(submit(g, i, NULL), 0);
	for (i = 100; i < 104; i++)
		ck_assert_int_eq(submit(o, i, NULL), 0);
	fail_mod = 0;
	ck_assert_uint_eq(answer(port, 1), 1); /* callbacks run from the feed */
	ck_assert_int_ge(ibsched_dispatch(sched, 0), 0);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_int_eq(r.status, -EREMOTEIO);
	ck_assert_uint_eq(ibsched_outstanding(sched), 4); /* only the other group's */
	ck_assert_uint_eq(ibmadrpc_pending(port), 4);
	next_answer = 6; /* the aborted group's requests get no answer */
	pump(sched, 8);
	ck_assert_uint_eq(other.calls, 1);
	ck_assert_int_eq(other.status, 0);
	ck_assert_uint_eq(L.ok, 4);
	ck_assert_uint_eq(L.failed, 1);
	ck_assert_uint_eq(ibsched_errors(sched), 0); /* handled by the group's callback */
}
END_TEST

START_TEST(test_collect)
{
	struct gres r = { 0 }, inner = { 0 }, handled = { 0 };
	struct ibsched_group *g, *n, *h;
	uint32_t i;

	log_reset();
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &r, &g), 0);
	r.ret = IBSCHED_HANDLED;
	/* a nested aborting group whose error is passed up (no handling by its callback) */
	ck_assert_int_eq(ibsched_group_new(sched, g, IBSCHED_ABORT_ALL, group_cb, &inner, &n), 0);
	inner.ret = IBSCHED_UNHANDLED;
	/* a nested group whose callback handles its error */
	ck_assert_int_eq(ibsched_group_new(sched, g, IBSCHED_COLLECT, group_cb, &handled, &h), 0);
	handled.ret = IBSCHED_HANDLED;
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(submit(g, i, NULL), 0);
	ck_assert_int_eq(submit(n, 5, NULL), 0);
	ck_assert_int_eq(submit(n, 20, NULL), 0);
	ck_assert_int_eq(submit(h, 5, NULL), 0);
	fail_mod = 5;
	pump(sched, 3);
	/* n's second work was cancelled by the abort */
	ck_assert_uint_eq(L.ok + L.failed, 12);
	ck_assert_uint_eq(L.failed, 3);
	ck_assert_uint_eq(inner.calls, 1);
	ck_assert_int_eq(inner.status, -EREMOTEIO);
	ck_assert_uint_eq(handled.calls, 1);
	ck_assert_uint_eq(handled.errors, 1);
	ck_assert_uint_eq(r.calls, 1);
	/* its own failing work, and the nested aborting group; not the handled one */
	ck_assert_uint_eq(r.errors, 2);
	ck_assert_int_eq(r.status, -EREMOTEIO);
	ck_assert_uint_eq(ibsched_errors(sched), 0);

	/* work that handles its own errors leaves the group clean */
	log_reset();
	memset(&r, 0, sizeof(r));
	L.handle = IBSCHED_HANDLED;
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_ABORT_ALL, group_cb, &r, &g), 0);
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(submit(g, i, NULL), 0);
	pump(sched, 3);
	ck_assert_uint_eq(L.failed, 1);
	ck_assert_uint_eq(L.ok, 9);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_int_eq(r.status, 0);
	ck_assert_uint_eq(r.errors, 0);

	/* top-level work without a group: unhandled errors are counted there */
	log_reset();
	ck_assert_int_eq(submit(NULL, 5, NULL), 0);
	ck_assert_int_eq(submit(NULL, 6, NULL), 0);
	pump(sched, 3);
	ck_assert_uint_eq(ibsched_errors(sched), 1);
}
END_TEST

START_TEST(test_cancel_work)
{
	struct gres r = { 0 };
	struct ibsched_group *g;
	struct ibsched_work *w[4];
	uint32_t i;

	log_reset();
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 2), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_ABORT_ALL, group_cb, &r, &g), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(submit(g, i, &w[i]), 0);
	ck_assert_uint_eq(nsent, 2);
	/* one on the wire, one queued */
	ck_assert_int_eq(ibsched_cancel(sched, w[0]), 0);
	ck_assert_int_eq(ibsched_cancel(sched, w[3]), 0);
	ck_assert_uint_eq(ibmadrpc_pending(port), 2); /* the freed slot went to w[2] */
	ck_assert_uint_eq(nsent, 3);
	next_answer = 1; /* w[0] was cancelled: no answer for it */
	nwire = 0;
	pump(sched, 1);
	ck_assert_uint_eq(L.ok, 2);
	ck_assert_uint_eq(L.order[0], 1);
	ck_assert_uint_eq(L.order[1], 2);
	ck_assert_uint_eq(nsent, 3);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_int_eq(r.status, 0);

	/* cancelling every work of a group completes the group */
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &r, &g), 0);
	ck_assert_int_eq(submit(g, 7, &w[0]), 0);
	ck_assert_int_eq(ibsched_cancel(sched, w[0]), 0);
	ck_assert_int_eq(ibsched_dispatch(sched, 0), 1);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_int_eq(r.status, 0);
	ck_assert(ibsched_idle(sched));
	ck_assert_uint_eq(ibmadrpc_pending(port), 0);
}
END_TEST

/* Cancelling a sibling from inside a callback, also when libibmadrpc has completed it in
 * the same dispatch already (its callback still due): it never runs. */
static struct ibsched_work *victim;

static int cancelling_cb(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
			 const struct ibmadrpc_error *err, void *user)
{
	(void)reply;
	(void)err;
	(void)user;
	L.ok++;
	ck_assert_int_eq(ibsched_cancel(s, w), -EBUSY);
	if (victim) {
		ck_assert_int_eq(ibsched_cancel(s, victim), 0);
		victim = NULL;
	}
	return IBSCHED_HANDLED;
}

static int victim_cb(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user)
{
	(void)s;
	(void)w;
	(void)reply;
	(void)err;
	(void)user;
	ck_abort_msg("a cancelled work's callback ran");
	return IBSCHED_HANDLED;
}

START_TEST(test_cancel_completed_in_same_dispatch)
{
	struct ibmadrpc_request req = request(1);
	struct ibsched_work *v;

	log_reset();
	/* both time out in the same dispatch; the first one's callback cancels the second */
	ck_assert_int_eq(ibsched_submit(sched, NULL, &req, cancelling_cb, NULL, NULL), 0);
	req.attr_mod = 2;
	ck_assert_int_eq(ibsched_submit(sched, NULL, &req, victim_cb, NULL, &v), 0);
	victim = v;
	drop_from = 0;
	pump(sched, 8);
	ck_assert_uint_eq(L.ok, 1);
	ck_assert_ptr_null(victim);
	/* the zombie went back to the pool: the next work reuses it fine */
	drop_from = UINT32_MAX;
	ck_assert_int_eq(submit(NULL, 3, NULL), 0);
	pump(sched, 8);
	ck_assert_uint_eq(L.ok, 2);
}
END_TEST

START_TEST(test_cancel_group)
{
	struct gres outer = { 0 }, inner = { 0 }, other = { 0 };
	struct ibsched_group *g, *n, *o;
	uint32_t i;

	log_reset();
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 4), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &outer, &g), 0);
	ck_assert_int_eq(ibsched_group_new(sched, g, IBSCHED_COLLECT, group_cb, &inner, &n), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &other, &o), 0);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(submit(g, i, NULL), 0);
		ck_assert_int_eq(submit(n, 10 + i, NULL), 0);
	}
	ck_assert_int_eq(submit(o, 99, NULL), 0);
	ck_assert_int_eq(ibsched_dispatch(sched, 0), 0);
	ck_assert_uint_eq(answer(port, 2), 2); /* 0 and 10 */
	ck_assert_uint_eq(L.ok, 2);
	ck_assert_int_eq(ibsched_group_cancel(sched, g), 0);
	/* no callbacks from inside the cancel; the group takes no more work */
	ck_assert_uint_eq(outer.calls + inner.calls, 0);
	ck_assert_int_eq(submit(g, 50, NULL), -ECANCELED);
	ck_assert_int_eq(submit(n, 50, NULL), -ECANCELED);
	ck_assert_int_eq(ibsched_next_timeout(sched), 0);
	/* the requests already sent that belonged to the cancelled groups get no answer; the
	 * last one sent is the other group's, sent in the room the cancel made */
	ck_assert_uint_eq(sent_mod(nsent - 1), 99);
	next_answer = nsent - 1;
	nwire = 0;
	pump(sched, 8);
	ck_assert_uint_eq(outer.calls, 1);
	ck_assert_uint_eq(inner.calls, 1);
	ck_assert_int_eq(outer.status, -ECANCELED);
	ck_assert_int_eq(inner.status, -ECANCELED);
	ck_assert_uint_gt(outer.order, inner.order);
	ck_assert_uint_eq(other.calls, 1);
	ck_assert_int_eq(other.status, 0);
	ck_assert_uint_eq(L.ok, 3);
	ck_assert_uint_eq(L.failed, 0);
	ck_assert_uint_eq(ibmadrpc_pending(port), 0);
	ck_assert_uint_eq(ibsched_errors(sched), 0);

	/* the top level: everything goes, the scheduler stays usable */
	memset(&outer, 0, sizeof(outer));
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &outer, &g), 0);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(submit(i & 1 ? g : NULL, i, NULL), 0);
	ck_assert_int_eq(ibsched_group_cancel(sched, ibsched_root(sched)), 0);
	ck_assert_uint_eq(ibmadrpc_pending(port), 0);
	ck_assert_int_eq(ibsched_dispatch(sched, 0), 1);
	ck_assert_uint_eq(outer.calls, 1);
	ck_assert(ibsched_idle(sched));
	next_answer = nsent;
	nwire = 0;
	ck_assert_int_eq(submit(NULL, 77, NULL), 0);
	pump(sched, 1);
	ck_assert_uint_eq(L.ok, 4);
}
END_TEST

START_TEST(test_timeouts_and_retries)
{
	struct gres r = { 0 };
	struct ibsched_group *g;
	uint32_t i;

	log_reset();
	L.handle = IBSCHED_UNHANDLED;
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &r, &g), 0);
	r.ret = IBSCHED_HANDLED;
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(submit(g, i, NULL), 0);
	drop_from = 3; /* 3, 4, 5 never answered: sent once and retried once (path: 20 ms, 1) */
	pump(sched, 64);
	ck_assert_uint_eq(L.ok, 3);
	ck_assert_uint_eq(L.failed, 3);
	ck_assert_uint_eq(L.timed_out, 3);
	ck_assert_uint_eq(nsent, 3 + 3 * 2);
	ck_assert_uint_eq(r.calls, 1);
	ck_assert_uint_eq(r.errors, 3);
	ck_assert_int_eq(r.status, -ETIMEDOUT);

	/* the retry is answered: success */
	log_reset();
	nsent = next_answer = 0;
	drop_from = UINT32_MAX;
	ck_assert_int_eq(submit(NULL, 9, NULL), 0);
	ck_assert_uint_eq(nsent, 1);
	next_answer = 1; /* lose the first */
	while (nsent < 2) {
		ck_assert_int_ge(ibsched_dispatch(sched, ibsched_next_timeout(sched)), 0);
	}
	pump(sched, 8);
	ck_assert_uint_eq(L.ok, 1);
	ck_assert_uint_eq(L.failed, 0);
	ck_assert_uint_eq(ibsched_errors(sched), 0);
}
END_TEST

START_TEST(test_run_alone)
{
	uint32_t i;

	/* the test port never receives: ibsched_run waits out the timers itself */
	log_reset();
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(submit(NULL, i, NULL), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert(ibsched_idle(sched));
	ck_assert_uint_eq(L.timed_out, 5);
	ck_assert_uint_eq(nsent, 10);
	ck_assert_uint_eq(ibsched_errors(sched), 5);
	ck_assert(ibmadrpc_error_timed_out(ibsched_first_error(sched)) == false); /* a copy: text only */
	ck_assert_int_eq(ibmadrpc_error_errno(ibsched_first_error(sched)), ETIMEDOUT);
}
END_TEST

static void deterministic_run(uint32_t *mods, unsigned *n)
{
	unsigned i;

	log_reset();
	L.spawn_depth = 4;
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 1), 0);
	ck_assert_int_eq(submit(NULL, 0, NULL), 0);
	ck_assert_int_eq(submit(NULL, 1000, NULL), 0);
	pump(sched, 5);
	ck_assert_uint_le(max_wire, 1);
	*n = nsent;
	for (i = 0; i < nsent; i++)
		mods[i] = sent_mod(i);
}

START_TEST(test_deterministic)
{
	static uint32_t a[MAXSENT], b[MAXSENT];
	unsigned na, nb, i;

	deterministic_run(a, &na);
	teardown();
	setup();
	deterministic_run(b, &nb);
	ck_assert_uint_eq(na, 32);
	ck_assert_uint_eq(na, nb);
	ck_assert_mem_eq(a, b, na * sizeof(a[0]));
	/* FIFO: the root, the independent work, then the tree level by level */
	ck_assert_uint_eq(a[0], 0);
	ck_assert_uint_eq(a[1], 1000);
	for (i = 2; i < na; i++)
		ck_assert_uint_eq(a[i], i - 1);
}
END_TEST

START_TEST(test_event_loop)
{
	struct gres r = { 0 };
	struct ibsched_group *g;
	unsigned loops = 0;
	uint32_t i;

	log_reset();
	L.spawn_depth = 2;
	ck_assert_int_eq(ibsched_set_max_outstanding(sched, 5), 0);
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, group_cb, &r, &g), 0);
	r.ret = IBSCHED_HANDLED;
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(submit(g, i == 3 ? 500 : 0, NULL), 0);
	drop_from = 500;
	while (!r.calls) {
		struct pollfd pfd = { .fd = ibsched_fd(sched), .events = POLLIN };
		int t = ibsched_next_timeout(sched);

		ck_assert_int_eq(pfd.fd, -1); /* the test port has no fd: poll() ignores it */
		if (next_answer < nsent)
			t = 0; /* "input" is ready */
		ck_assert_int_ge(poll(&pfd, 1, t), 0);
		answer(port, 3);
		ck_assert_int_ge(ibsched_dispatch(sched, 0), 0);
		forget_timed_out(sched);
		ck_assert_uint_lt(++loops, 10000);
	}
	ck_assert(ibsched_idle(sched));
	ck_assert_uint_eq(L.ok, 3 * 7);
	ck_assert_uint_eq(L.timed_out, 1);
	ck_assert_uint_eq(r.errors, 1);
}
END_TEST

static Suite *make_sched_suite(void)
{
	Suite *s = suite_create("ibsched");
	TCase *tc = tcase_create("sched");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_basics);
	tcase_add_test(tc, test_bound);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_nested_from_callbacks);
	tcase_add_test(tc, test_abort_all);
	tcase_add_test(tc, test_abort_in_flight);
	tcase_add_test(tc, test_collect);
	tcase_add_test(tc, test_cancel_work);
	tcase_add_test(tc, test_cancel_completed_in_same_dispatch);
	tcase_add_test(tc, test_cancel_group);
	tcase_add_test(tc, test_timeouts_and_retries);
	tcase_add_test(tc, test_run_alone);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_event_loop);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_sched_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
