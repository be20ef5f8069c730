/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibmadrpc: MAD RPC over libibumad.
 *
 * A port handle owns one umad file descriptor and the agents registered on it.  Requests
 * are sent with the library's own timers and retries (it never relies on kernel timeouts)
 * and replies are matched on the low 32 bits of the transaction ID plus class, method and
 * attribute.  Calls are synchronous (ibmadrpc_call) or asynchronous (ibmadrpc_submit +
 * ibmadrpc_dispatch driven by the port's fd).  Failures come back as a negative errno and,
 * when asked for, an error object holding a stack of messages, the decoded status and both
 * packets.  Nothing here prints: tracing and logging go to caller callbacks.
 */
#ifndef IBMGMT_IBMADRPC_H
#define IBMGMT_IBMADRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibmgmt/ibpath.h>
#include <ibmgmt/ibstruct.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IBMADRPC_MAD_SIZE 256

/* ---- Errors ------------------------------------------------------------------------ */

struct ibmadrpc_error;

/* A new error with errno `errnum` (positive) and a first message. */
struct ibmadrpc_error *ibmadrpc_error_new(int errnum, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ibmadrpc_error_free(struct ibmadrpc_error *err);
/* A copy the caller owns (messages, status, packets): e.g. of the error an asynchronous
 * callback is given, which lives only as long as the callback.  NULL when out of memory. */
struct ibmadrpc_error *ibmadrpc_error_dup(const struct ibmadrpc_error *err);
/* Each layer adds its own context on top: "Failed getting path record for ..." */
void ibmadrpc_error_push(struct ibmadrpc_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ibmadrpc_error_errno(const struct ibmadrpc_error *err);
unsigned ibmadrpc_error_count(const struct ibmadrpc_error *err);
/* Message i, 0 = the outermost (last pushed). */
const char *ibmadrpc_error_message(const struct ibmadrpc_error *err, unsigned i);
/* The MAD status of the reply (0 if none) and the class it came from. */
uint16_t ibmadrpc_error_status(const struct ibmadrpc_error *err);
bool ibmadrpc_error_timed_out(const struct ibmadrpc_error *err);
/* The request and reply packets (NULL when absent). */
const uint8_t *ibmadrpc_error_request(const struct ibmadrpc_error *err, size_t *len);
const uint8_t *ibmadrpc_error_reply(const struct ibmadrpc_error *err, size_t *len);
/* Text: level 0 "E: <outermost>", 1 every message ("E: " then "E: +..."), 2 also both
 * packets as libibstruct packet dumps.  snprintf() semantics. */
int ibmadrpc_error_format(const struct ibmadrpc_error *err, int level, char *buf, size_t len);

/* ---- Ports ------------------------------------------------------------------------- */

struct ibmadrpc_port;

/* Opens the umad device of an end port (as ibpath_devlist_select() found it). */
int ibmadrpc_port_open(struct ibmadrpc_port **out, const struct ibpath_port *end_port,
		       struct ibmadrpc_error **err);
/* The same by CA name and port number (libibumad's names; NULL/0: its default). */
int ibmadrpc_port_open_name(struct ibmadrpc_port **out, const char *ca, unsigned port,
			    struct ibmadrpc_error **err);
void ibmadrpc_port_close(struct ibmadrpc_port *port);
/* The fd to poll for POLLIN (asynchronous use). */
int ibmadrpc_port_fd(const struct ibmadrpc_port *port);
/* The local port's LID, SM LID/SL and GID 0 as read when the port was opened. */
uint16_t ibmadrpc_port_lid(const struct ibmadrpc_port *port);
uint16_t ibmadrpc_port_sm_lid(const struct ibmadrpc_port *port);
uint8_t ibmadrpc_port_sm_sl(const struct ibmadrpc_port *port);
void ibmadrpc_port_gid(const struct ibmadrpc_port *port, ibstruct_gid_t *gid);
const char *ibmadrpc_port_name(const struct ibmadrpc_port *port); /* "mlx5_0/1" */

/* Defaults for paths that set neither a timeout nor retries: libibmad's 1000 ms, 3 retries
 * unless changed here.  A path's IBPATH_TIMEOUT_MS / IBPATH_RETRIES override them. */
void ibmadrpc_port_set_default_timeout(struct ibmadrpc_port *port, unsigned timeout_ms,
				       unsigned retries);

/* At most `max` requests of this port on the wire at once (default 64); more submitted
 * calls wait in order and go out as earlier ones complete. */
void ibmadrpc_port_set_window(struct ibmadrpc_port *port, unsigned max);

/* RMPP by the kernel instead of in user space for the replies this port receives (the
 * classes with RMPP: SA, DevMgt, DevAdm, BIS, vendor range 2): client agents of those
 * classes are then registered with rmpp_version 1 and the
 * kernel hands over each transfer reassembled.  Off by default (the simulator and some
 * stacks do not do RMPP); replies we send as a server are always segmented in user space.
 * -EBUSY once a client agent of an RMPP class is registered (choose before the first call). */
int ibmadrpc_port_set_kernel_rmpp(struct ibmadrpc_port *port, bool on);

/* Statistics: replies that matched nothing, malformed packets dropped, retries sent. */
struct ibmadrpc_stats {
	uint64_t sent;
	uint64_t received;
	uint64_t retries;
	uint64_t timeouts;
	uint64_t stray;     /* replies that matched no pending request */
	uint64_t malformed; /* packets too short or otherwise unusable */
	uint64_t busy;      /* BUSY replies that were retried */
};
void ibmadrpc_port_stats(const struct ibmadrpc_port *port, struct ibmadrpc_stats *stats);

/* Trace hook: level 1 gives one summary line per completed RPC, level 2 also the full
 * decoded packets (both as text, ready to print). */
typedef void (*ibmadrpc_trace_fn)(void *user, const char *text);
void ibmadrpc_port_set_trace(struct ibmadrpc_port *port, int level, ibmadrpc_trace_fn fn, void *user);

/* ---- Requests ------------------------------------------------------------------------ */

enum {
	IBMADRPC_F_NO_RETRY_BUSY = 1 << 0, /* return BUSY to the caller */
	IBMADRPC_F_NO_REDIRECT = 1 << 1,   /* do not follow ClassPortInfo redirects */
	IBMADRPC_F_RMPP = 1 << 2,          /* the reply may be a multi-segment RMPP transfer */
};

/* One request.  The payload (an attribute in wire format) is placed where the class puts
 * its data: SMP 64, SA 56, vendor 24 (range 1) or 40 (with OUI), others 64. */
struct ibmadrpc_request {
	const struct ibpath_path *path;
	uint8_t mgmt_class;    /* 0x81 is chosen automatically for DR paths of class 0x01 */
	uint8_t class_version; /* 0: the class's version from libibstruct */
	uint8_t method;
	uint16_t attr_id;
	uint32_t attr_mod;
	const void *data;      /* attribute payload, may be NULL */
	size_t data_len;
	uint64_t key;          /* M_Key (SMP), SM_Key (SA), B_Key, CC_Key */
	uint64_t comp_mask;    /* SA */
	uint32_t oui;          /* vendor range 2 */
	unsigned flags;        /* IBMADRPC_F_* */
};

/* A completed reply: the whole MAD (several segments' data concatenated for RMPP) and the
 * offset of the attribute data in it. */
struct ibmadrpc_reply {
	uint8_t *mad;       /* owned by the library; valid until the next call on the port */
	size_t len;
	size_t data_offset;
	uint16_t status;
};

/* Synchronous call: 0 and the reply, or a negative errno (-ETIMEDOUT, -EREMOTEIO for an
 * error status, -EIO, ...) and *err (if err is not NULL; the caller frees it). */
int ibmadrpc_call(struct ibmadrpc_port *port, const struct ibmadrpc_request *req,
		  struct ibmadrpc_reply *reply, struct ibmadrpc_error **err);

/* Get/Set of an attribute described by libibstruct: builds the request from the
 * descriptor (class, attribute ID), packs `in` (may be NULL for Get), unpacks the reply into
 * `out` (may be NULL).  method: IBSTRUCT_METHOD_GET/SET/... */
int ibmadrpc_attr(struct ibmadrpc_port *port, const struct ibpath_path *path, uint8_t method,
		  const struct ibstruct_desc *attr, uint32_t attr_mod, const void *in, void *out,
		  struct ibmadrpc_error **err);

/* ---- Asynchronous calls ------------------------------------------------------------- */

struct ibmadrpc_call;

/* reply is NULL when err is set; both live until the callback returns. */
typedef void (*ibmadrpc_done_fn)(struct ibmadrpc_port *port, struct ibmadrpc_call *call,
				 const struct ibmadrpc_reply *reply,
				 const struct ibmadrpc_error *err, void *user);

/* Sends now and calls done from ibmadrpc_dispatch() (never from inside submit). */
int ibmadrpc_submit(struct ibmadrpc_port *port, const struct ibmadrpc_request *req,
		    ibmadrpc_done_fn done, void *user, struct ibmadrpc_call **out);
/* Cancels a pending call: its callback is not called. */
int ibmadrpc_cancel(struct ibmadrpc_port *port, struct ibmadrpc_call *call);
unsigned ibmadrpc_pending(const struct ibmadrpc_port *port);
/* Milliseconds until the next retry/timeout is due (-1: nothing pending). */
int ibmadrpc_next_timeout(const struct ibmadrpc_port *port);
/* Receives every packet that is ready, handles due timeouts and runs callbacks; waits up
 * to timeout_ms (0: do not wait, -1: until something happens) when nothing is ready.
 * Returns the number of callbacks run or a negative errno. */
int ibmadrpc_dispatch(struct ibmadrpc_port *port, int timeout_ms);

/* ---- Server side ---------------------------------------------------------------------- */

/* Receive requests of a class: methods is a bit mask (1 << method); oui for range 2. */
int ibmadrpc_port_serve(struct ibmadrpc_port *port, uint8_t mgmt_class, uint8_t class_version,
			uint32_t methods, uint32_t oui);

struct ibmadrpc_request_in {
	uint8_t mad[IBMADRPC_MAD_SIZE]; /* the request MAD */
	size_t len;
	ibstruct_gid_t sgid;            /* when it came with a GRH */
	uint16_t slid;
	uint8_t sl;
	uint32_t sqpn;
	uint32_t qkey;
	uint16_t pkey_index;
	bool grh;
	int agent;
};

typedef void (*ibmadrpc_serve_fn)(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in,
				  void *user);
/* Requests are delivered to fn from ibmadrpc_dispatch(). */
void ibmadrpc_port_set_server(struct ibmadrpc_port *port, ibmadrpc_serve_fn fn, void *user);
/* Reply with data at the class's data offset (status 0 or an error status). */
int ibmadrpc_respond(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in,
		     uint16_t status, const void *data, size_t data_len);
/* Reply with `count` records of `rec_size` bytes each (SA GetTable) as an RMPP transfer. */
int ibmadrpc_respond_table(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in,
			   const void *records, size_t rec_size, size_t count);

/* Library version string. */
const char *ibmadrpc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBMADRPC_H */
