/* SPDX-License-Identifier: BSD-3-Clause */
/* libibsched internals.  Not installed. */
#ifndef IBSCHED_PRIVATE_H
#define IBSCHED_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <ibmgmt/ibsched.h>

#define IBSCHED_EXPORT __attribute__((visibility("default")))

/* work items are allocated this many at a time and recycled */
#define WORK_SLAB 64

enum work_state {
	WORK_FREE = 0,
	WORK_QUEUED,   /* waiting for room on the wire (owns a path reference and the payload) */
	WORK_WIRE,     /* submitted to libibmadrpc */
	WORK_FAILED,   /* could not be sent; completes with err from the next processing */
	WORK_RUNNING,  /* its callback runs */
	WORK_ZOMBIE,   /* cancelled after libibmadrpc completed it but before its callback:
			* recycled when that callback arrives */
};

struct ibsched_work {
	struct ibsched *sched;
	enum work_state state;
	struct ibsched_group *group;
	struct ibsched_work *gprev, *gnext;   /* the group's work list */
	struct ibsched_work *qprev, *qnext;   /* the wait queue, the failed list or the pool */
	struct ibmadrpc_call *call;
	ibsched_work_fn fn;
	void *user;
	struct ibmadrpc_error *err;           /* WORK_FAILED */
	struct ibmadrpc_request req;          /* WORK_QUEUED: a copy, data points into payload */
	uint8_t payload[IBMADRPC_MAD_SIZE];
};

struct ibsched_group {
	struct ibsched *sched;
	struct ibsched_group *parent;
	struct ibsched_group *cprev, *cnext;  /* siblings in the parent's list */
	struct ibsched_group *children;
	struct ibsched_work *works;
	struct ibsched_group *dnext;          /* list of completed groups */
	struct ibsched_group *fnext;          /* stack of groups still held by their creator */
	unsigned count;                       /* live work + live nested groups + the hold */
	enum ibsched_policy policy;
	ibsched_group_fn fn;
	void *user;
	int status;
	struct ibmadrpc_error *err;           /* the first error (ours) */
	unsigned nerrors;
	bool held, cancelled, done;
};

struct slab {
	struct slab *next;
	struct ibsched_work items[WORK_SLAB];
};

struct ibsched {
	struct ibmadrpc_port *port;
	unsigned max;
	unsigned outstanding;
	unsigned nqueued;
	struct ibsched_work *qhead, *qtail;   /* FIFO of work waiting for room */
	struct ibsched_work *fhead, *ftail;   /* work that failed to be sent */
	struct ibsched_work *pool;            /* free work items */
	struct slab *slabs;
	struct ibsched_group *dhead, *dtail;  /* groups whose callback is due */
	struct ibsched_group *held;           /* groups not yet released by their creator */
	struct ibsched_group root;
	struct ibsched_group *current;        /* group of the callback that runs (NULL: none) */
	unsigned depth;                       /* callbacks running */
	bool processing;
	uint64_t ncallbacks;
};

#endif /* IBSCHED_PRIVATE_H */
