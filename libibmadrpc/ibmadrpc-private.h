/* SPDX-License-Identifier: BSD-3-Clause */
/* libibmadrpc internals.  Not installed. */
#ifndef IBMADRPC_PRIVATE_H
#define IBMADRPC_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <ibmgmt/ibmadrpc.h>

#include "rmpp.h"

#define IBMADRPC_EXPORT __attribute__((visibility("default")))

#define UMAD_HDR 64              /* sizeof(struct ib_user_mad) */
#define MAX_AGENTS 32
#define TID_BUCKETS 1024
#define MAX_MSGS 16
#define MAX_BUSY_RETRIES 8
#define MAX_REDIRECTS 3

struct ibmadrpc_error {
	int errnum;
	unsigned nmsgs;
	char *msgs[MAX_MSGS];  /* msgs[0] is the innermost (first) message */
	uint16_t status;
	int mgmt_class;
	bool timed_out;
	bool has_req, has_reply;
	uint8_t req[IBMADRPC_MAD_SIZE];
	uint8_t reply[IBMADRPC_MAD_SIZE];
};

struct agent {
	uint8_t mgmt_class;
	uint8_t version;
	uint32_t oui;
	bool server;
	int id;
};

enum call_state {
	CALL_PENDING = 0,
	CALL_DONE,
};

struct ibmadrpc_call {
	struct ibmadrpc_port *port;
	struct ibmadrpc_call *hnext;          /* TID hash chain */
	struct ibmadrpc_call *tprev, *tnext;  /* timeout list, by deadline */
	struct ibmadrpc_call *dnext;          /* completed list */
	struct ibmadrpc_call *qnext;          /* waiting for room on the wire */
	bool on_wire;
	bool queued;
	enum call_state state;
	uint32_t tid;
	uint8_t mgmt_class;                   /* as sent (0x81 for DR) */
	uint8_t method;
	uint16_t attr_id;
	int agent;
	unsigned flags;
	unsigned timeout_ms;
	unsigned retries_left;
	unsigned busy_retries;
	unsigned redirects;
	uint64_t deadline_us;
	uint64_t sent_us;     /* when the current attempt went out */
	uint64_t start_us;
	size_t data_offset;
	struct ibpath_path *path;             /* our reference (redirects replace it) */
	uint8_t umad[UMAD_HDR + IBMADRPC_MAD_SIZE];
	/* result */
	int rc;
	struct ibmadrpc_error *err;
	uint8_t *reply;                       /* malloc()ed reply (RMPP: reassembled) */
	size_t reply_len;
	uint16_t status;
	struct rmpp_rx rx;
	bool rmpp_active;
	ibmadrpc_done_fn done;
	void *user;
	bool sync;
};

struct ibmadrpc_port {
	int fd;
	char ca[64];
	unsigned portnum;
	char name[96];
	uint16_t lid;
	uint16_t sm_lid;
	uint8_t sm_sl;
	ibstruct_gid_t gid;
	struct agent agents[MAX_AGENTS];
	unsigned nagents;
	uint32_t next_tid;
	struct ibmadrpc_call *buckets[TID_BUCKETS];
	struct ibmadrpc_call *thead, *ttail;
	struct ibmadrpc_call *dhead, *dtail;
	unsigned npending;
	unsigned nwire;                       /* requests sent and not completed */
	unsigned max_wire;                    /* at most this many on the wire */
	struct ibmadrpc_call *qhead, *qtail;  /* submitted, waiting for room */
	unsigned default_timeout_ms;
	unsigned default_retries;
	struct ibmadrpc_stats stats;
	int trace_level;
	ibmadrpc_trace_fn trace_fn;
	void *trace_user;
	ibmadrpc_serve_fn serve_fn;
	void *serve_user;
	uint8_t *last_reply;                  /* the sync call's reply, freed on the next call */
	struct rmpp_tx_state *tx_list;        /* server RMPP transfers in progress */
	/* the final ACKs of recent RMPP transfers we received, to answer a sender that did not
	 * get ours and retransmits (it would otherwise go on sending into the void) */
	struct {
		uint32_t tid;
		uint8_t mgmt_class;
		int agent;
		uint8_t umad[UMAD_HDR + IBMADRPC_MAD_SIZE];
	} done_acks[8];
	unsigned next_done_ack;
	bool kernel_rmpp;                     /* client agents of RMPP classes use the kernel's */
	/* tests only: replaces umad_send() (returns 0 or a negative errno) */
	int (*send_hook)(struct ibmadrpc_port *port, const uint8_t *umad, size_t len);
};

/* error.c */
struct ibmadrpc_error *ibmadrpc_error_vnew(int errnum, const char *fmt, va_list ap);
/* A packet dump (the class's format struct and the attribute), snprintf() semantics. */
int ibmadrpc_format_packet(const uint8_t *mad, char *buf, size_t len);
void ibmadrpc_error_set_packets(struct ibmadrpc_error *err, const uint8_t *req, const uint8_t *reply,
				size_t reply_len);

/* call.c */
uint64_t ibmadrpc_now_us(void);
/* The path of a call as it went out (GMPs to QP1 when the path names no QP). */
void ibmadrpc_format_call_path(const struct ibmadrpc_call *c, char *buf, size_t len);
/* the largest reply the kernel may hand over reassembled (kernel RMPP) */
#define IBMADRPC_KERNEL_RMPP_MAX (16 << 20)
size_t ibmadrpc_data_offset(uint8_t mgmt_class);
int ibmadrpc_agent(struct ibmadrpc_port *port, uint8_t mgmt_class, uint8_t version, uint32_t oui,
		   bool server, uint32_t methods);
const char *ibmadrpc_format_name(uint8_t mgmt_class);
uint8_t ibmadrpc_response_method(uint8_t method);
/* "RPC MAD_METHOD_GET(1) SMPFormat(1.1) SMPNodeInfo(17)" */
void ibmadrpc_describe(const uint8_t *mad, char *buf, size_t len);

/* sends queued calls that now fit the window */
void ibmadrpc_port_kick(struct ibmadrpc_port *port);

/* Tests only (not exported; linked from the internal convenience library): a port without
 * a umad device whose sends go to `hook`, and feeding it a received MAD. */
struct ibmadrpc_port *ibmadrpc_test_port_new(int (*hook)(struct ibmadrpc_port *, const uint8_t *, size_t));
int ibmadrpc_test_feed(struct ibmadrpc_port *port, const uint8_t *mad, size_t len, uint16_t slid);
/* umad_send() or the test hook */
int ibmadrpc_send(struct ibmadrpc_port *port, int agent, void *umad, int len, int timeout_ms);

/* trace.c */
void ibmadrpc_trace(struct ibmadrpc_port *port, const struct ibmadrpc_call *call);

/* server.c */
int ibmadrpc_server_input(struct ibmadrpc_port *port, const uint8_t *umad, size_t len);
void ibmadrpc_server_timeouts(struct ibmadrpc_port *port, uint64_t now);
int ibmadrpc_server_next_timeout(const struct ibmadrpc_port *port, uint64_t now);
void ibmadrpc_server_free(struct ibmadrpc_port *port);

#endif /* IBMADRPC_PRIVATE_H */
