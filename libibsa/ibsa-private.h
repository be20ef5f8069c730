/* SPDX-License-Identifier: BSD-3-Clause */
/* libibsa internals.  Not installed. */
#ifndef IBSA_PRIVATE_H
#define IBSA_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <ibmgmt/ibsa.h>

#define IBSA_EXPORT __attribute__((visibility("default")))

#define SA_DATA_OFFSET 56                 /* SA payload in a MAD */
#define SA_PAYLOAD_MAX (256 - SA_DATA_OFFSET)
#define SA_QKEY 0x80010000u
#define SA_STATUS_NO_RECORDS 0x0300       /* class specific status 3 */
#define LID_UNICAST_MAX 0xbfff
#define CACHE_BUCKETS 256

/* What a DR path or a LID leads to, learned from NodeInfo/PortInfo or a NodeRecord. */
struct node_at {
	uint16_t lid;        /* base LID of the port (0: unknown) */
	uint8_t node_type;   /* 1 CA, 2 switch, 3 router; 0 unknown */
	uint8_t local_port;  /* the port the request entered */
};

struct dr_entry {
	struct dr_entry *next;
	uint16_t dr_slid;
	uint8_t nports;
	uint8_t ports[IBPATH_MAX_HOPS + 1];
	struct node_at at;
};

struct pr_entry {
	struct pr_entry *next;
	uint16_t dlid;                /* key for LID targets, else 0 */
	ibstruct_gid_t dgid;          /* key for GID targets */
	struct ibstruct_sa_path_record rec;
};

struct ibsa {
	struct ibmadrpc_port *port;
	struct ibpath_path *sa_path; /* set by ibsa_set_sa_path(), else NULL */
	struct ibpath_path *default_path;
	uint64_t smkey;
	struct ibsched *sched;
	/* operations handed to the scheduler and not finished: one whose work is cancelled
	 * (with its group) never hears of it again, ibsa_free() frees it */
	struct sa_op *sched_ops;
	/* LID -> node type and port (0: unknown), allocated on first use */
	uint16_t *lid_info;
	struct dr_entry *dr_cache[CACHE_BUCKETS];
	struct pr_entry *pr_cache[CACHE_BUCKETS];
};

/*
 * An operation is a small state machine of one or more MADs, run either synchronously
 * (one ibmadrpc_call() after the other) or on the scheduler (each reply's callback
 * submits the next request).  step() gets the outcome of the request in op->req: the reply,
 * or mad_rc < 0 and the owned error *err.  It returns OP_NEXT after filling op->req again
 * (having consumed *err), OP_DONE (0) when finished, or a negative errno with *err set to
 * the error to report (its own message pushed).
 */
enum { OP_DONE = 0, OP_NEXT = 1 };

struct sa_op {
	struct ibsa *sa;
	struct ibmadrpc_request req;
	struct ibpath_path *req_path; /* our reference to req.path */
	uint8_t payload[SA_PAYLOAD_MAX];
	uint16_t mad_status;          /* the failed MAD's status, for step() */
	int (*step)(struct sa_op *op, const struct ibmadrpc_reply *rep, int mad_rc,
		    struct ibmadrpc_error **err);
	/* scheduled use: report the outcome to the user; returns the ibsched verdict */
	int (*finish)(struct sa_op *op, int rc, const struct ibmadrpc_error *err);
	void (*destroy)(struct sa_op *op);
	struct sa_op *sched_prev, *sched_next; /* on sa->sched_ops while scheduled */
	bool scheduled;
};

/* sa.c */
int ibsa_err(struct ibmadrpc_error **err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* pushes a message onto *err, creating it when NULL; returns -errnum */
int ibsa_err_push(struct ibmadrpc_error **err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const struct ibpath_path *ibsa_path_to_sa(struct ibsa *sa, struct ibmadrpc_error **err);
/* Fills op->req as an SA request of `rec` (the payload packed from tmpl). */
int ibsa_build_request(struct sa_op *op, uint8_t method, const struct ibstruct_desc *rec,
		       const void *tmpl, uint64_t comp_mask, struct ibmadrpc_error **err);
/* Sets op->req.path (taking a reference). */
void ibsa_op_set_path(struct sa_op *op, const struct ibpath_path *path);
/* Splits and decodes an SA answer. */
int ibsa_parse_answer(const struct ibstruct_desc *rec, uint8_t method,
		      const struct ibmadrpc_reply *rep, struct ibsa_result **out,
		      struct ibmadrpc_error **err);
int ibsa_op_run(struct sa_op *op, struct ibmadrpc_error **err);
int ibsa_op_submit(struct sa_op *op, struct ibsched_group *group);
void ibsa_op_free(struct sa_op *op);
const char *ibsa_method_name(uint8_t method);

/* subn.c / pathrec.c */
void ibsa_subn_cache_flush(struct ibsa *sa);
void ibsa_pr_cache_flush(struct ibsa *sa);
uint16_t ibsa_lid_info_get(const struct ibsa *sa, uint16_t lid);
void ibsa_lid_info_set(struct ibsa *sa, uint16_t lid, uint8_t node_type, uint8_t local_port);

#endif /* IBSA_PRIVATE_H */
