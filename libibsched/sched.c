// SPDX-License-Identifier: BSD-3-Clause
/*
 * libibsched: the scheduler.
 *
 * Per MAD: a work item from the pool, ibmadrpc_submit() (or a FIFO append when the wire is
 * full), and on completion the callback, the group count, the pool again.  Everything is
 * O(1) except cancelling a group, which walks that group.
 *
 * Callbacks never run from inside an API call other than dispatch: what completes elsewhere
 * (a group emptied by a cancel, a queued request that could not be sent) waits on a list
 * that the next processing step drains.  Completed groups run their callbacks in the order
 * they completed; nested groups complete before their parents by construction (a nested
 * group counts as pending work of its parent until its callback has returned).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibsched-private.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

IBSCHED_EXPORT const char *ibsched_version(void)
{
	return PACKAGE_VERSION;
}

static void process(struct ibsched *s);

/* ---- work pool ------------------------------------------------------------------------ */

static struct ibsched_work *work_get(struct ibsched *s)
{
	struct ibsched_work *w = s->pool;

	if (!w) {
		struct slab *sl = malloc(sizeof(*sl));
		unsigned i;

		if (!sl)
			return NULL;
		sl->next = s->slabs;
		s->slabs = sl;
		for (i = 0; i < WORK_SLAB; i++) {
			sl->items[i].state = WORK_FREE;
			sl->items[i].qnext = i + 1 < WORK_SLAB ? &sl->items[i + 1] : NULL;
		}
		w = &sl->items[0];
	}
	s->pool = w->qnext;
	w->sched = s;
	w->group = NULL;
	w->gprev = w->gnext = w->qprev = w->qnext = NULL;
	w->call = NULL;
	w->err = NULL;
	return w;
}

static void work_put(struct ibsched *s, struct ibsched_work *w)
{
	w->state = WORK_FREE;
	w->qnext = s->pool;
	s->pool = w;
}

/* ---- lists ------------------------------------------------------------------------------ */

static void list_append(struct ibsched_work **head, struct ibsched_work **tail, struct ibsched_work *w)
{
	w->qnext = NULL;
	w->qprev = *tail;
	if (*tail)
		(*tail)->qnext = w;
	else
		*head = w;
	*tail = w;
}

static void list_remove(struct ibsched_work **head, struct ibsched_work **tail, struct ibsched_work *w)
{
	if (w->qprev)
		w->qprev->qnext = w->qnext;
	else
		*head = w->qnext;
	if (w->qnext)
		w->qnext->qprev = w->qprev;
	else
		*tail = w->qprev;
	w->qprev = w->qnext = NULL;
}

static void group_link_work(struct ibsched_group *g, struct ibsched_work *w)
{
	w->group = g;
	w->gprev = NULL;
	w->gnext = g->works;
	if (g->works)
		g->works->gprev = w;
	g->works = w;
	g->count++;
}

static void group_unlink_work(struct ibsched_group *g, struct ibsched_work *w)
{
	if (w->gprev)
		w->gprev->gnext = w->gnext;
	else
		g->works = w->gnext;
	if (w->gnext)
		w->gnext->gprev = w->gprev;
	w->gprev = w->gnext = NULL;
}

/* One pending thing of g is done; when none is left, g's callback becomes due. */
static void group_put(struct ibsched *s, struct ibsched_group *g)
{
	g->count--;
	if (g->count || g == &s->root || g->done)
		return;
	g->done = true;
	g->dnext = NULL;
	if (s->dtail)
		s->dtail->dnext = g;
	else
		s->dhead = g;
	s->dtail = g;
}

/* Releases the creator's hold of every group created since `mark`. */
static void release_held(struct ibsched *s, struct ibsched_group *mark)
{
	while (s->held && s->held != mark) {
		struct ibsched_group *g = s->held;

		s->held = g->fnext;
		g->fnext = NULL;
		g->held = false;
		group_put(s, g);
	}
}

/* ---- errors ------------------------------------------------------------------------------ */

/* Our own copy of an error of libibmadrpc's (it frees its own after the callback): the same
 * errno and messages; packets and status stay behind. */
static struct ibmadrpc_error *error_copy(const struct ibmadrpc_error *err)
{
	int errnum = ibmadrpc_error_errno(err);
	unsigned n = ibmadrpc_error_count(err), i;
	struct ibmadrpc_error *c;

	if (!errnum)
		errnum = EIO;
	c = ibmadrpc_error_new(errnum, "%s", n ? ibmadrpc_error_message(err, n - 1) : strerror(errnum));
	for (i = n > 1 ? n - 1 : 0; c && i-- > 0;)
		ibmadrpc_error_push(c, "%s", ibmadrpc_error_message(err, i));
	return c;
}

static int error_status(const struct ibmadrpc_error *err)
{
	int e = ibmadrpc_error_errno(err);

	return e > 0 ? -e : -EIO;
}

static void cancel_group(struct ibsched *s, struct ibsched_group *g, int status);

/* An unhandled error reaches group g. */
static void group_error(struct ibsched *s, struct ibsched_group *g, const struct ibmadrpc_error *err)
{
	if (g->cancelled || g->done)
		return; /* the group is finishing already; its outcome is settled */
	g->nerrors++;
	if (!g->err) {
		g->err = error_copy(err);
		g->status = error_status(err);
	}
	if (g != &s->root && g->policy == IBSCHED_ABORT_ALL)
		cancel_group(s, g, g->status);
}

/* ---- sending ------------------------------------------------------------------------------ */

static void on_done(struct ibmadrpc_port *port, struct ibmadrpc_call *call, const struct ibmadrpc_reply *reply,
		    const struct ibmadrpc_error *err, void *user);

/* Sends queued work while there is room. */
static void fill(struct ibsched *s)
{
	while (s->qhead && s->outstanding < s->max) {
		struct ibsched_work *w = s->qhead;
		int rc;

		list_remove(&s->qhead, &s->qtail, w);
		s->nqueued--;
		rc = ibmadrpc_submit(s->port, &w->req, on_done, w, &w->call);
		ibpath_path_unref((struct ibpath_path *)(uintptr_t)w->req.path);
		w->req.path = NULL;
		if (rc) {
			w->call = NULL;
			w->err = ibmadrpc_error_new(-rc, "could not send the request: %s", strerror(-rc));
			w->state = WORK_FAILED;
			list_append(&s->fhead, &s->ftail, w);
			continue;
		}
		w->state = WORK_WIRE;
		s->outstanding++;
	}
}

/* Runs w's callback and retires it.  reply or err. */
static void finish_work(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
			const struct ibmadrpc_error *err)
{
	struct ibsched_group *g = w->group, *prev = s->current, *mark = s->held;
	int ret = IBSCHED_UNHANDLED;

	w->state = WORK_RUNNING;
	if (w->fn) {
		s->current = g;
		s->depth++;
		ret = w->fn(s, w, err ? NULL : reply, err, w->user);
		s->depth--;
		s->current = prev;
		release_held(s, mark);
	}
	s->ncallbacks++;
	if (err && ret != IBSCHED_HANDLED)
		group_error(s, g, err);
	group_unlink_work(g, w);
	work_put(s, w);
	group_put(s, g);
}

static void on_done(struct ibmadrpc_port *port, struct ibmadrpc_call *call, const struct ibmadrpc_reply *reply,
		    const struct ibmadrpc_error *err, void *user)
{
	struct ibsched_work *w = user;
	struct ibsched *s = w->sched;

	(void)port;
	(void)call;
	if (w->state == WORK_ZOMBIE) {
		work_put(s, w);
		return;
	}
	w->call = NULL;
	/* the request stays counted while its callback runs: what the callback submits queues
	 * behind what already waits */
	finish_work(s, w, reply, err);
	s->outstanding--;
	process(s);
}

/* ---- completing groups ------------------------------------------------------------------ */

static void group_free(struct ibsched_group *g)
{
	ibmadrpc_error_free(g->err);
	free(g);
}

static void complete_group(struct ibsched *s, struct ibsched_group *g)
{
	struct ibsched_group *parent = g->parent, *prev = s->current, *mark = s->held;
	int ret = IBSCHED_UNHANDLED;

	if (g->fn) {
		s->current = parent;
		s->depth++;
		ret = g->fn(s, g, g->status, g->err, g->user);
		s->depth--;
		s->current = prev;
		release_held(s, mark);
	}
	s->ncallbacks++;
	if (g->err && ret != IBSCHED_HANDLED)
		group_error(s, parent, g->err);
	if (g->cprev)
		g->cprev->cnext = g->cnext;
	else
		parent->children = g->cnext;
	if (g->cnext)
		g->cnext->cprev = g->cprev;
	group_free(g);
	group_put(s, parent);
}

/* Drains what completed outside libibmadrpc's callbacks, refilling the wire as it goes. */
static void process(struct ibsched *s)
{
	if (s->processing)
		return; /* the outer loop picks up what is added meanwhile */
	s->processing = true;
	for (;;) {
		fill(s);
		if (s->fhead) {
			struct ibsched_work *w = s->fhead;
			struct ibmadrpc_error *err = w->err;

			list_remove(&s->fhead, &s->ftail, w);
			w->err = NULL;
			finish_work(s, w, NULL, err);
			ibmadrpc_error_free(err);
			continue;
		}
		if (s->dhead) {
			struct ibsched_group *g = s->dhead;

			s->dhead = g->dnext;
			if (!s->dhead)
				s->dtail = NULL;
			complete_group(s, g);
			continue;
		}
		break;
	}
	s->processing = false;
}

/* ---- cancelling ---------------------------------------------------------------------------- */

/* Takes w out of the scheduler without its callback.  The caller refills the wire. */
static int cancel_work(struct ibsched *s, struct ibsched_work *w)
{
	bool zombie = false;

	switch (w->state) {
	case WORK_QUEUED:
		list_remove(&s->qhead, &s->qtail, w);
		s->nqueued--;
		ibpath_path_unref((struct ibpath_path *)(uintptr_t)w->req.path);
		w->req.path = NULL;
		break;
	case WORK_WIRE:
		/* libibmadrpc refuses a call it completed already (its callback is due in the
		 * same dispatch): that callback then finds a zombie and recycles it */
		if (ibmadrpc_cancel(s->port, w->call))
			zombie = true;
		w->call = NULL;
		s->outstanding--;
		break;
	case WORK_FAILED:
		list_remove(&s->fhead, &s->ftail, w);
		ibmadrpc_error_free(w->err);
		w->err = NULL;
		break;
	case WORK_RUNNING:
		return -EBUSY;
	default:
		return -EINVAL;
	}
	group_unlink_work(w->group, w);
	group_put(s, w->group);
	if (zombie)
		w->state = WORK_ZOMBIE;
	else
		work_put(s, w);
	return 0;
}

static void cancel_group(struct ibsched *s, struct ibsched_group *g, int status)
{
	struct ibsched_work *w, *wn;
	struct ibsched_group *c;

	if (g->done)
		return;
	if (g != &s->root) {
		if (g->cancelled)
			return;
		g->cancelled = true;
		if (!g->status)
			g->status = status;
	}
	/* a running callback's work finishes normally when the callback returns */
	for (w = g->works; w; w = wn) {
		wn = w->gnext;
		if (w->state != WORK_RUNNING)
			cancel_work(s, w);
	}
	for (c = g->children; c; c = c->cnext)
		cancel_group(s, c, -ECANCELED);
}

/* ---- API: the scheduler ---------------------------------------------------------------------- */

IBSCHED_EXPORT int ibsched_new(struct ibsched **out, struct ibmadrpc_port *port)
{
	struct ibsched *s;

	if (!out || !port)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->port = port;
	s->root.sched = s;
	s->root.policy = IBSCHED_COLLECT;
	s->max = IBSCHED_DEFAULT_MAX_OUTSTANDING;
	ibmadrpc_port_set_window(port, s->max);
	*out = s;
	return 0;
}

static void free_groups(struct ibsched_group *g)
{
	while (g) {
		struct ibsched_group *n = g->cnext;

		free_groups(g->children);
		group_free(g);
		g = n;
	}
}

IBSCHED_EXPORT void ibsched_free(struct ibsched *s)
{
	if (!s)
		return;
	/* cancels all work, then drops every group without its callback */
	s->max = 0;
	cancel_group(s, &s->root, -ECANCELED);
	free_groups(s->root.children);
	ibmadrpc_error_free(s->root.err);
	while (s->slabs) {
		struct slab *sl = s->slabs;

		s->slabs = sl->next;
		free(sl);
	}
	free(s);
}

IBSCHED_EXPORT struct ibmadrpc_port *ibsched_port(const struct ibsched *s)
{
	return s ? s->port : NULL;
}

IBSCHED_EXPORT int ibsched_set_max_outstanding(struct ibsched *s, unsigned max)
{
	if (!s || !max)
		return -EINVAL;
	s->max = max;
	ibmadrpc_port_set_window(s->port, max);
	fill(s);
	return 0;
}

IBSCHED_EXPORT unsigned ibsched_max_outstanding(const struct ibsched *s)
{
	return s ? s->max : 0;
}

IBSCHED_EXPORT unsigned ibsched_outstanding(const struct ibsched *s)
{
	return s ? s->outstanding : 0;
}

IBSCHED_EXPORT unsigned ibsched_queued(const struct ibsched *s)
{
	return s ? s->nqueued : 0;
}

IBSCHED_EXPORT bool ibsched_idle(const struct ibsched *s)
{
	return !s || (!s->outstanding && !s->qhead && !s->fhead && !s->dhead && !s->held);
}

IBSCHED_EXPORT unsigned ibsched_errors(const struct ibsched *s)
{
	return s ? s->root.nerrors : 0;
}

IBSCHED_EXPORT const struct ibmadrpc_error *ibsched_first_error(const struct ibsched *s)
{
	return s ? s->root.err : NULL;
}

/* ---- API: work ---------------------------------------------------------------------------------- */

static struct ibsched_group *default_group(struct ibsched *s, struct ibsched_group *g)
{
	if (g)
		return g;
	return s->current ? s->current : &s->root;
}

IBSCHED_EXPORT int ibsched_submit(struct ibsched *s, struct ibsched_group *group,
				  const struct ibmadrpc_request *req, ibsched_work_fn fn, void *user,
				  struct ibsched_work **out)
{
	struct ibsched_work *w;
	struct ibsched_group *g;

	if (!s || !req || !req->path || (req->data_len && !req->data) || (group && group->sched != s))
		return -EINVAL;
	g = default_group(s, group);
	if (g->cancelled || g->done)
		return -ECANCELED;
	if (req->data_len > IBMADRPC_MAD_SIZE)
		return -EMSGSIZE;
	w = work_get(s);
	if (!w)
		return -ENOMEM;
	w->fn = fn;
	w->user = user;
	if (s->outstanding < s->max && !s->qhead) {
		int rc = ibmadrpc_submit(s->port, req, on_done, w, &w->call);

		if (rc) {
			work_put(s, w);
			return rc;
		}
		w->state = WORK_WIRE;
		s->outstanding++;
	} else {
		/* the caller's request may be gone when this is sent: keep what it points to */
		w->req = *req;
		if (req->data_len) {
			memcpy(w->payload, req->data, req->data_len);
			w->req.data = w->payload;
		}
		ibpath_path_ref((struct ibpath_path *)(uintptr_t)req->path);
		w->state = WORK_QUEUED;
		list_append(&s->qhead, &s->qtail, w);
		s->nqueued++;
	}
	group_link_work(g, w);
	if (out)
		*out = w;
	return 0;
}

IBSCHED_EXPORT int ibsched_cancel(struct ibsched *s, struct ibsched_work *w)
{
	int rc;

	if (!s || !w || w->sched != s)
		return -EINVAL;
	rc = cancel_work(s, w);
	if (!rc)
		fill(s);
	return rc;
}

IBSCHED_EXPORT struct ibsched_group *ibsched_work_group(const struct ibsched_work *w)
{
	return w ? w->group : NULL;
}

IBSCHED_EXPORT void *ibsched_work_user(const struct ibsched_work *w)
{
	return w ? w->user : NULL;
}

/* ---- API: groups ------------------------------------------------------------------------------- */

IBSCHED_EXPORT int ibsched_group_new(struct ibsched *s, struct ibsched_group *parent,
				     enum ibsched_policy policy, ibsched_group_fn fn, void *user,
				     struct ibsched_group **out)
{
	struct ibsched_group *g, *p;

	if (!s || !out || (parent && parent->sched != s) ||
	    (policy != IBSCHED_ABORT_ALL && policy != IBSCHED_COLLECT))
		return -EINVAL;
	p = default_group(s, parent);
	if (p->cancelled || p->done)
		return -ECANCELED;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->sched = s;
	g->parent = p;
	g->policy = policy;
	g->fn = fn;
	g->user = user;
	/* held by its creator: it cannot complete before it had the chance to get work */
	g->count = 1;
	g->held = true;
	g->fnext = s->held;
	s->held = g;
	g->cnext = p->children;
	if (p->children)
		p->children->cprev = g;
	p->children = g;
	p->count++;
	*out = g;
	return 0;
}

IBSCHED_EXPORT int ibsched_group_cancel(struct ibsched *s, struct ibsched_group *g)
{
	if (!s || !g || g->sched != s)
		return -EINVAL;
	cancel_group(s, g, -ECANCELED);
	fill(s);
	return 0;
}

IBSCHED_EXPORT unsigned ibsched_group_errors(const struct ibsched_group *g)
{
	return g ? g->nerrors : 0;
}

IBSCHED_EXPORT unsigned ibsched_group_pending(const struct ibsched_group *g)
{
	if (!g)
		return 0;
	return g->count - (g->held ? 1u : 0u);
}

IBSCHED_EXPORT struct ibsched_group *ibsched_group_parent(const struct ibsched_group *g)
{
	return g ? g->parent : NULL;
}

IBSCHED_EXPORT void *ibsched_group_user(const struct ibsched_group *g)
{
	return g ? g->user : NULL;
}

IBSCHED_EXPORT struct ibsched_group *ibsched_root(struct ibsched *s)
{
	return s ? &s->root : NULL;
}

IBSCHED_EXPORT struct ibsched_group *ibsched_current_group(struct ibsched *s)
{
	return s ? default_group(s, NULL) : NULL;
}

/* ---- API: running ---------------------------------------------------------------------------- */

IBSCHED_EXPORT int ibsched_fd(const struct ibsched *s)
{
	return s ? ibmadrpc_port_fd(s->port) : -1;
}

IBSCHED_EXPORT int ibsched_next_timeout(const struct ibsched *s)
{
	if (!s)
		return -1;
	if (s->held || s->fhead || s->dhead || (s->qhead && s->outstanding < s->max))
		return 0;
	return ibmadrpc_next_timeout(s->port);
}

IBSCHED_EXPORT int ibsched_dispatch(struct ibsched *s, int timeout_ms)
{
	uint64_t before;
	int rc;

	if (!s)
		return -EINVAL;
	if (s->depth || s->processing)
		return -EBUSY;
	before = s->ncallbacks;
	/* groups made outside callbacks since the last dispatch have their work now */
	release_held(s, NULL);
	process(s);
	if (s->ncallbacks != before)
		timeout_ms = 0; /* report what ran; do not wait on top of it */
	if (!s->outstanding && timeout_ms < 0)
		return (int)(s->ncallbacks - before);
	rc = ibmadrpc_dispatch(s->port, timeout_ms);
	if (rc < 0)
		return rc;
	process(s);
	return (int)(s->ncallbacks - before);
}

IBSCHED_EXPORT int ibsched_run(struct ibsched *s)
{
	if (!s)
		return -EINVAL;
	if (s->depth || s->processing)
		return -EBUSY;
	while (!ibsched_idle(s)) {
		int rc = ibsched_dispatch(s, -1);

		if (rc < 0)
			return rc;
	}
	return 0;
}
