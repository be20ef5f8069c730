/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibsched: parallel MAD scheduling with callbacks, no coroutines.
 *
 * Work is one MAD request (struct ibmadrpc_request) plus a completion callback.  At most
 * max_outstanding requests are on the wire; the rest wait in FIFO order.  Callbacks may
 * submit more work.  A group collects work and the work it spawns (work submitted from a
 * callback of work in the group joins that group unless told otherwise) and runs its own
 * callback exactly once when everything in it, nested groups included, is done.  An error
 * the work's callback does not handle goes to its group, which either aborts (cancels the
 * rest and completes with the error) or collects errors and carries on.
 *
 * The scheduler runs on its own (ibsched_run) or inside the caller's event loop
 * (ibsched_fd + ibsched_next_timeout + ibsched_dispatch).  Timeouts and retries come from
 * each request's path.  With max_outstanding = 1 the order of MADs is deterministic.
 * Callbacks only ever run from ibsched_dispatch()/ibsched_run() (or from libibmadrpc's own
 * dispatching of the same port), never from inside any other ibsched_* call.
 */
#ifndef IBMGMT_IBSCHED_H
#define IBMGMT_IBSCHED_H

#include <stdbool.h>

#include <ibmgmt/ibmadrpc.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibsched;
struct ibsched_work;
struct ibsched_group;

#define IBSCHED_DEFAULT_MAX_OUTSTANDING 16

/* What a callback returns about the error it was given. */
enum {
	IBSCHED_HANDLED = 0,   /* the error stops here */
	IBSCHED_UNHANDLED = 1, /* the error goes on to the group (the parent group for a group) */
};

/* What a group does with an error that reaches it. */
enum ibsched_policy {
	IBSCHED_ABORT_ALL = 0, /* cancel the rest of the group; it completes with the error */
	IBSCHED_COLLECT = 1,   /* count the error, keep the first, let the rest run */
};

/* Completion of one request: exactly one of reply and err is set; both live until the
 * callback returns.  The work handle is valid until then too.  The return value matters
 * only when err is set.  A work without a callback leaves every error unhandled. */
typedef int (*ibsched_work_fn)(struct ibsched *sched, struct ibsched_work *work,
			       const struct ibmadrpc_reply *reply, const struct ibmadrpc_error *err,
			       void *user);

/* Completion of a group, exactly once: status 0, the negative errno of the first error
 * (err set), or -ECANCELED after ibsched_group_cancel() or an abort of an enclosing group.
 * The group handle is freed when the callback returns.  Returning IBSCHED_UNHANDLED with
 * err set passes the error to the parent group (the default without a callback). */
typedef int (*ibsched_group_fn)(struct ibsched *sched, struct ibsched_group *group, int status,
				const struct ibmadrpc_error *err, void *user);

/* ---- The scheduler ------------------------------------------------------------------- */

/* A scheduler over an open port (the port stays the caller's; close it after freeing). */
int ibsched_new(struct ibsched **out, struct ibmadrpc_port *port);
/* Cancels everything still pending (no callbacks run) and frees the scheduler.  Not from
 * inside a callback. */
void ibsched_free(struct ibsched *sched);
struct ibmadrpc_port *ibsched_port(const struct ibsched *sched);

/* At most `max` (>= 1) requests on the wire; also sets the port's window to `max`. */
int ibsched_set_max_outstanding(struct ibsched *sched, unsigned max);
unsigned ibsched_max_outstanding(const struct ibsched *sched);
/* Requests on the wire now, and requests waiting for room. */
unsigned ibsched_outstanding(const struct ibsched *sched);
unsigned ibsched_queued(const struct ibsched *sched);
/* Nothing on the wire, queued, or waiting to be completed. */
bool ibsched_idle(const struct ibsched *sched);
/* Errors that reached the top level unhandled (work and groups outside any group), and the
 * first of them (NULL if none; valid until ibsched_free). */
unsigned ibsched_errors(const struct ibsched *sched);
const struct ibmadrpc_error *ibsched_first_error(const struct ibsched *sched);

/* ---- Work ------------------------------------------------------------------------------ */

/* Submits a request.  group NULL: inside a callback, the group of the work (or the parent of
 * the group) whose callback runs; elsewhere the top level.  ibsched_root() names the top
 * level explicitly.  The request (path and payload) is copied as needed: the caller may
 * reuse it at once.  Sends at once when there is room and nothing waits, else queues.
 * Returns 0, -EINVAL, -ECANCELED (the group is cancelled or completing), -EMSGSIZE, -ENOMEM,
 * or libibmadrpc's error when sending at once failed (nothing was queued then).  A queued
 * request that cannot be sent later completes through its callback with an error. */
int ibsched_submit(struct ibsched *sched, struct ibsched_group *group,
		   const struct ibmadrpc_request *req, ibsched_work_fn fn, void *user,
		   struct ibsched_work **out);
/* Cancels submitted work whose callback has not run: it is never called.  -EBUSY from the
 * work's own callback, -EINVAL for a bad handle. */
int ibsched_cancel(struct ibsched *sched, struct ibsched_work *work);
struct ibsched_group *ibsched_work_group(const struct ibsched_work *work);
void *ibsched_work_user(const struct ibsched_work *work);

/* ---- Groups ---------------------------------------------------------------------------- */

/* A new group in `parent` (NULL: as for ibsched_submit).  The group completes when all
 * its work and nested groups are done, and not before the callback that created it has
 * returned (or, when created outside callbacks, before the next ibsched_dispatch()): an
 * empty group completes then. */
int ibsched_group_new(struct ibsched *sched, struct ibsched_group *parent,
		      enum ibsched_policy policy, ibsched_group_fn fn, void *user,
		      struct ibsched_group **out);
/* Cancels all work of the group and of its nested groups; every group's callback then runs
 * once with -ECANCELED (from the next dispatch).  On ibsched_root(): cancels everything,
 * the top level itself stays usable. */
int ibsched_group_cancel(struct ibsched *sched, struct ibsched_group *group);
/* Errors that reached the group (handled ones are not counted). */
unsigned ibsched_group_errors(const struct ibsched_group *group);
/* Work and nested groups not yet complete. */
unsigned ibsched_group_pending(const struct ibsched_group *group);
struct ibsched_group *ibsched_group_parent(const struct ibsched_group *group);
void *ibsched_group_user(const struct ibsched_group *group);
/* The top level (never completes; its errors are ibsched_errors()). */
struct ibsched_group *ibsched_root(struct ibsched *sched);
/* The group work submitted now with group NULL would join. */
struct ibsched_group *ibsched_current_group(struct ibsched *sched);

/* ---- Running ----------------------------------------------------------------------------- */

/* The fd to poll for POLLIN (the port's). */
int ibsched_fd(const struct ibsched *sched);
/* Milliseconds until ibsched_dispatch() has something to do without input (0: now, -1:
 * nothing pending). */
int ibsched_next_timeout(const struct ibsched *sched);
/* Receives what is ready, handles timeouts, runs callbacks; waits up to timeout_ms (0: not
 * at all, -1: until something happens; returns at once when idle).  Returns the number of
 * callbacks run or a negative errno (-EBUSY from inside a callback). */
int ibsched_dispatch(struct ibsched *sched, int timeout_ms);
/* Dispatches until idle.  0 or a negative errno. */
int ibsched_run(struct ibsched *sched);

const char *ibsched_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBSCHED_H */
