// SPDX-License-Identifier: BSD-3-Clause
/*
 * Sending requests, matching replies, timers and retries, synchronous and asynchronous
 * calls.  Replies are matched on the low 32 bits of the TID (the simulator and some
 * switches keep only those) plus class, method and attribute.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/umad.h>

#include "ibmadrpc-private.h"

#define DEFAULT_QKEY 0x80010000u
#define BUSY_BACKOFF_MS 20

uint64_t ibmadrpc_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Where a class puts its attribute data (IBA 13.4 and the class chapters). */
size_t ibmadrpc_data_offset(uint8_t mgmt_class)
{
	switch (mgmt_class) {
	case 0x01:
	case 0x81:
		return 64;
	case 0x03:
		return 56;
	case 0x07: /* CM */
		return 24;
	default:
		if (mgmt_class >= 0x09 && mgmt_class <= 0x0f)
			return 24;
		if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
			return 40;
		return 64;
	}
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static const char *method_text(uint8_t method, char *buf, size_t len)
{
	const char *n = ibstruct_method_name(method);
	size_t i, o = 0;

	/* "GetTable" -> "MAD_METHOD_GET_TABLE" */
	o = (size_t)snprintf(buf, len, "MAD_METHOD_");
	for (i = 0; n && n[i] && o + 2 < len; i++) {
		if (i && n[i] >= 'A' && n[i] <= 'Z')
			buf[o++] = '_';
		buf[o++] = (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 32 : n[i]);
	}
	if (!n)
		o += (size_t)snprintf(buf + o, len - o, "UNKNOWN");
	buf[o < len ? o : len - 1] = 0;
	return buf;
}

/* The name of a class's MAD format struct in libibstruct ("SMPFormat"), NULL if none. */
const char *ibmadrpc_format_name(uint8_t mgmt_class)
{
	static const struct {
		uint8_t cls;
		const char *name;
	} fmts[] = {
		{ 0x01, "SMPFormat" }, { 0x81, "SMPFormatDirected" }, { 0x03, "SAFormat" },
		{ 0x04, "PMFormat" }, { 0x05, "BMFormat" }, { 0x06, "DMFormat" },
		{ 0x07, "CMFormat" }, { 0x08, "SNMPFormat" }, { 0x21, "CCFormat" },
	};
	unsigned i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (fmts[i].cls == mgmt_class)
			return fmts[i].name;
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		return "VendOUIFormat";
	if (mgmt_class >= 0x09 && mgmt_class <= 0x0f)
		return "VendFormat";
	return NULL;
}

/* The method of the response to a request method (Set and Get both get GetResp). */
uint8_t ibmadrpc_response_method(uint8_t method)
{
	if (method == 0x02) /* Set -> GetResp */
		return 0x81;
	if (method == 0x06) /* Report -> ReportResp */
		return 0x86;
	return (uint8_t)(method | 0x80);
}

void ibmadrpc_describe(const uint8_t *mad, char *buf, size_t len)
{
	const char *fmt = ibmadrpc_format_name(mad[1]), *attr;
	char m[64];
	uint16_t aid = be16_at(mad + 16);

	attr = ibstruct_attr_name(mad[1], aid);
	snprintf(buf, len, "RPC %s(%u) %s(%u.%u) %s(%u)", method_text(mad[3] & 0x7f, m, sizeof(m)),
		 mad[3] & 0x7fu, fmt ? fmt : "MADFormat", mad[1], mad[2], attr ? attr : "Attribute", aid);
}

/* ---- TID table and timer list -------------------------------------------------------- */

static void hash_add(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	struct ibmadrpc_call **b = &port->buckets[c->tid % TID_BUCKETS];

	c->hnext = *b;
	*b = c;
}

static void hash_del(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	struct ibmadrpc_call **b = &port->buckets[c->tid % TID_BUCKETS];

	for (; *b; b = &(*b)->hnext)
		if (*b == c) {
			*b = c->hnext;
			break;
		}
	c->hnext = NULL;
}

static void timer_del(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	if (c->tprev)
		c->tprev->tnext = c->tnext;
	else if (port->thead == c)
		port->thead = c->tnext;
	if (c->tnext)
		c->tnext->tprev = c->tprev;
	else if (port->ttail == c)
		port->ttail = c->tprev;
	c->tprev = c->tnext = NULL;
}

/* Deadlines mostly grow, so searching from the tail is O(1) in the common case. */
static void timer_add(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	struct ibmadrpc_call *at = port->ttail;

	while (at && at->deadline_us > c->deadline_us)
		at = at->tprev;
	c->tprev = at;
	c->tnext = at ? at->tnext : port->thead;
	if (c->tnext)
		c->tnext->tprev = c;
	else
		port->ttail = c;
	if (at)
		at->tnext = c;
	else
		port->thead = c;
}

/* ---- sending ------------------------------------------------------------------------- */

static int build(struct ibmadrpc_call *c, const struct ibmadrpc_request *req, struct ibmadrpc_error **err)
{
	const struct ibpath_path *path = c->path;
	uint8_t *mad = c->umad + UMAD_HDR;
	bool dr = ibpath_path_kind(path) == IBPATH_KIND_DR;
	uint8_t cls = req->mgmt_class, ver = req->class_version;
	ib_user_mad_t *um = (ib_user_mad_t *)c->umad;

	if (dr && cls == 0x01)
		cls = 0x81;
	if (dr && cls != 0x81) {
		*err = ibmadrpc_error_new(EINVAL, "a directed route can only carry SMPs (class 0x%02x)", cls);
		return -EINVAL;
	}
	if (!ver) /* SA, CM and CC are at class version 2, the rest at 1 */
		ver = cls == 0x03 || cls == 0x07 || cls == 0x21 ? 2 : 1;
	c->data_offset = ibmadrpc_data_offset(cls);
	if (req->data_len > IBMADRPC_MAD_SIZE - c->data_offset) {
		*err = ibmadrpc_error_new(EMSGSIZE, "%zu bytes of data do not fit a class 0x%02x MAD",
					  req->data_len, cls);
		return -EMSGSIZE;
	}
	memset(c->umad, 0, sizeof(c->umad));
	mad[0] = 1; /* base version */
	mad[1] = cls;
	mad[2] = ver;
	mad[3] = req->method;
	put32(mad + 12, c->tid);
	put16(mad + 16, req->attr_id);
	put32(mad + 20, req->attr_mod);
	if (cls == 0x01 || cls == 0x81 || cls == 0x21 || cls == 0x05)
		put64(mad + 24, req->key); /* M_Key, CC_Key, B_Key */
	if (cls == 0x03) {
		mad[24] = 1; /* RMPPVersion */
		put64(mad + 36, req->key);
		put64(mad + 48, req->comp_mask);
	}
	if (cls >= 0x30 && cls <= 0x4f) {
		mad[24] = 1;
		mad[37] = (uint8_t)(req->oui >> 16);
		mad[38] = (uint8_t)(req->oui >> 8);
		mad[39] = (uint8_t)req->oui;
	}
	if (dr) {
		const uint8_t *ports;
		unsigned n = ibpath_path_dr_ports(path, &ports);

		/* the initial path field holds 64 bytes: element 0 and at most 63 hops */
		if (n < 1 || n > 64) {
			*err = ibmadrpc_error_new(EINVAL, "a directed route has 0 to 63 hops, not %d", (int)n - 1);
			return -EINVAL;
		}
		mad[7] = (uint8_t)(n - 1); /* hop count; hop pointer 0 */
		put16(mad + 32, (uint16_t)ibpath_path_get(path, IBPATH_DR_SLID));
		put16(mad + 34, (uint16_t)ibpath_path_get(path, IBPATH_DR_DLID));
		memcpy(mad + 128, ports, n);
	}
	if (req->data && req->data_len)
		memcpy(mad + c->data_offset, req->data, req->data_len);

	/* address */
	if (dr) {
		uint16_t dlid = (uint16_t)ibpath_path_get(path, IBPATH_DLID);

		umad_set_addr(c->umad, ibpath_path_get(path, IBPATH_DR_SLID) == 0xffff ? 0xffff : dlid, 0, 0, 0);
	} else {
		uint16_t dlid = (uint16_t)ibpath_path_get(path, IBPATH_DLID);
		bool smp = cls == 0x01;
		uint32_t dqpn = smp ? 0 : (uint32_t)ibpath_path_get(path, IBPATH_DQPN);
		uint32_t qkey = smp ? 0 : (uint32_t)ibpath_path_get(path, IBPATH_QKEY);

		if (!dlid) {
			*err = ibmadrpc_error_new(EDESTADDRREQ, "the path has no DLID (resolve it first)");
			return -EDESTADDRREQ;
		}
		if (!smp && !dqpn)
			dqpn = 1;
		if (!smp && !qkey)
			qkey = DEFAULT_QKEY;
		umad_set_addr(c->umad, dlid, (int)dqpn, smp ? 0 : (int)ibpath_path_get(path, IBPATH_SL), (int)qkey);
		if (ibpath_path_has_grh(path)) {
			ibstruct_gid_t g;

			ibpath_path_dgid(path, &g);
			um->addr.grh_present = 1;
			um->addr.gid_index = 0;
			um->addr.hop_limit = (uint8_t)ibpath_path_get(path, IBPATH_HOP_LIMIT);
			um->addr.traffic_class = (uint8_t)ibpath_path_get(path, IBPATH_TRAFFIC_CLASS);
			um->addr.flow_label = htonl((uint32_t)ibpath_path_get(path, IBPATH_FLOW_LABEL));
			memcpy(um->addr.gid, g.raw, 16);
		}
	}
	umad_set_pkey(c->umad, (int)ibpath_path_get(path, IBPATH_PKEY_INDEX));
	c->mgmt_class = cls;
	c->method = req->method;
	c->attr_id = req->attr_id;
	return 0;
}

static void drain_queue(struct ibmadrpc_port *port);

int ibmadrpc_send(struct ibmadrpc_port *port, int agent, void *umad, int len, int timeout_ms)
{
	if (port->send_hook)
		return port->send_hook(port, umad, UMAD_HDR + (size_t)len);
	return umad_send(port->fd, agent, umad, len, timeout_ms, 0);
}

static int transmit(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	/* the kernel tracks the request a little longer than we do; its own time-out
	 * completions are ignored (our timer decides) */
	int rc = ibmadrpc_send(port, c->agent, c->umad, IBMADRPC_MAD_SIZE, (int)c->timeout_ms + 500);

	if (rc < 0)
		return rc;
	port->stats.sent++;
	c->sent_us = ibmadrpc_now_us();
	c->deadline_us = c->sent_us + (uint64_t)c->timeout_ms * 1000u;
	timer_add(port, c);
	return 0;
}

static void queue_del(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	struct ibmadrpc_call **q = &port->qhead, *prev = NULL;

	for (; *q; prev = *q, q = &(*q)->qnext)
		if (*q == c) {
			*q = c->qnext;
			if (port->qtail == c)
				port->qtail = prev;
			break;
		}
	c->qnext = NULL;
	c->queued = false;
}

static void off_wire(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	if (c->on_wire) {
		c->on_wire = false;
		port->nwire--;
	}
	if (c->queued)
		queue_del(port, c);
}

static void complete(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	hash_del(port, c);
	timer_del(port, c);
	off_wire(port, c);
	rmpp_rx_free(&c->rx);
	c->state = CALL_DONE;
	port->npending--;
	c->dnext = NULL;
	if (port->dtail)
		port->dtail->dnext = c;
	else
		port->dhead = c;
	port->dtail = c;
	if (port->trace_level)
		ibmadrpc_trace(port, c);
	drain_queue(port);
}

static void fail_call(struct ibmadrpc_port *port, struct ibmadrpc_call *c, int errnum, const uint8_t *reply,
		      size_t reply_len, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void fail_call(struct ibmadrpc_port *port, struct ibmadrpc_call *c, int errnum, const uint8_t *reply,
		      size_t reply_len, const char *fmt, ...)
{
	char what[256], msg[512], rest[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rest, sizeof(rest), fmt, ap);
	va_end(ap);
	ibmadrpc_describe(c->umad + UMAD_HDR, what, sizeof(what));
	snprintf(msg, sizeof(msg), "%s %s", what, rest);
	c->rc = -errnum;
	c->err = ibmadrpc_error_new(errnum, "%s", msg);
	if (c->err) {
		c->err->mgmt_class = c->mgmt_class;
		c->err->timed_out = errnum == ETIMEDOUT;
		if (reply && reply_len >= 6)
			c->err->status = be16_at(reply + 4);
		ibmadrpc_error_set_packets(c->err, c->umad + UMAD_HDR, reply, reply_len);
	}
	complete(port, c);
}

static int new_call(struct ibmadrpc_port *port, const struct ibmadrpc_request *req, struct ibmadrpc_call **out,
		    struct ibmadrpc_error **err)
{
	struct ibmadrpc_call *c;
	unsigned t, r;
	int rc;

	*err = NULL;
	if (!req || !req->path) {
		*err = ibmadrpc_error_new(EINVAL, "no request or no path");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		*err = ibmadrpc_error_new(ENOMEM, "out of memory");
		return -ENOMEM;
	}
	c->port = port;
	/* paths are reference counted and not changed by us (a redirect makes a copy) */
	c->path = ibpath_path_ref((struct ibpath_path *)(uintptr_t)req->path);
	c->tid = port->next_tid++;
	if (!c->tid)
		c->tid = port->next_tid++;
	c->flags = req->flags;
	rc = build(c, req, err);
	if (rc)
		goto fail;
	c->agent = ibmadrpc_agent(port, c->mgmt_class, c->umad[UMAD_HDR + 2], req->oui, false, 0);
	if (c->agent < 0) {
		rc = c->agent;
		*err = ibmadrpc_error_new(-rc, "cannot register a umad agent for class 0x%02x: %s",
					  c->mgmt_class, strerror(-rc));
		goto fail;
	}
	t = (unsigned)ibpath_path_get(req->path, IBPATH_TIMEOUT_MS);
	r = (unsigned)ibpath_path_get(req->path, IBPATH_RETRIES);
	c->timeout_ms = t ? t : port->default_timeout_ms;
	c->retries_left = r ? r : port->default_retries;
	rmpp_rx_init(&c->rx, c->data_offset);
	if (port->trace_level)
		c->start_us = ibmadrpc_now_us();
	*out = c;
	return 0;
fail:
	ibpath_path_unref(c->path);
	free(c);
	return rc;
}

static int start(struct ibmadrpc_port *port, struct ibmadrpc_call *c, struct ibmadrpc_error **err)
{
	int rc;

	hash_add(port, c);
	port->npending++;
	if (port->nwire >= port->max_wire) {
		/* no room: it goes out when an earlier request completes (a blocking transport
		 * such as the simulator's socket would otherwise deadlock with many in flight) */
		c->queued = true;
		c->qnext = NULL;
		if (port->qtail)
			port->qtail->qnext = c;
		else
			port->qhead = c;
		port->qtail = c;
		return 0;
	}
	rc = transmit(port, c);
	if (rc < 0) {
		hash_del(port, c);
		port->npending--;
		*err = ibmadrpc_error_new(-rc, "umad_send failed: %s", strerror(-rc));
		return rc;
	}
	c->on_wire = true;
	port->nwire++;
	return 0;
}

void ibmadrpc_port_kick(struct ibmadrpc_port *port)
{
	drain_queue(port);
}

static void drain_queue(struct ibmadrpc_port *port)
{
	while (port->qhead && port->nwire < port->max_wire) {
		struct ibmadrpc_call *c = port->qhead;

		queue_del(port, c);
		if (transmit(port, c) < 0) {
			fail_call(port, c, EIO, NULL, 0, "could not be sent");
			continue;
		}
		c->on_wire = true;
		port->nwire++;
	}
}

IBMADRPC_EXPORT int ibmadrpc_submit(struct ibmadrpc_port *port, const struct ibmadrpc_request *req,
				    ibmadrpc_done_fn done, void *user, struct ibmadrpc_call **out)
{
	struct ibmadrpc_error *err = NULL;
	struct ibmadrpc_call *c;
	int rc;

	if (!port)
		return -EINVAL;
	rc = new_call(port, req, &c, &err);
	if (!rc) {
		c->done = done;
		c->user = user;
		rc = start(port, c, &err);
		if (rc) {
			ibpath_path_unref(c->path);
			free(c);
		}
	}
	ibmadrpc_error_free(err);
	if (!rc && out)
		*out = c;
	return rc;
}

IBMADRPC_EXPORT int ibmadrpc_cancel(struct ibmadrpc_port *port, struct ibmadrpc_call *call)
{
	if (!port || !call || call->port != port || call->state != CALL_PENDING)
		return -EINVAL;
	hash_del(port, call);
	timer_del(port, call);
	off_wire(port, call);
	port->npending--;
	rmpp_rx_free(&call->rx);
	ibpath_path_unref(call->path);
	free(call);
	return 0;
}

IBMADRPC_EXPORT unsigned ibmadrpc_pending(const struct ibmadrpc_port *port)
{
	return port ? port->npending : 0;
}

IBMADRPC_EXPORT int ibmadrpc_next_timeout(const struct ibmadrpc_port *port)
{
	uint64_t now;
	int s = -1;

	if (!port)
		return -1;
	now = ibmadrpc_now_us();
	if (port->thead)
		s = port->thead->deadline_us <= now ? 0 : (int)((port->thead->deadline_us - now + 999) / 1000);
	{
		int t = ibmadrpc_server_next_timeout(port, now);

		if (t >= 0 && (s < 0 || t < s))
			s = t;
	}
	return s;
}

/* ---- receiving ------------------------------------------------------------------------ */

static struct ibmadrpc_call *match(struct ibmadrpc_port *port, const uint8_t *mad)
{
	uint32_t tid = be32_at(mad + 12);
	struct ibmadrpc_call *c;

	for (c = port->buckets[tid % TID_BUCKETS]; c; c = c->hnext)
		if (c->tid == tid && c->mgmt_class == mad[1] && ibmadrpc_response_method(c->method) == mad[3] &&
		    c->attr_id == be16_at(mad + 16))
			return c;
	return NULL;
}

static void send_raw(struct ibmadrpc_port *port, struct ibmadrpc_call *c, const uint8_t *mad)
{
	uint8_t buf[UMAD_HDR + IBMADRPC_MAD_SIZE];

	memcpy(buf, c->umad, UMAD_HDR);
	memcpy(buf + UMAD_HDR, mad, IBMADRPC_MAD_SIZE);
	ibmadrpc_send(port, c->agent, buf, IBMADRPC_MAD_SIZE, 0);
}

/* ClassPortInfo redirect: retarget the path and send again. */
static bool follow_redirect(struct ibmadrpc_port *port, struct ibmadrpc_call *c, const uint8_t *mad,
			    size_t len)
{
	struct ibstruct_mad_class_port_info cpi;
	struct ibpath_path *np;
	size_t off = c->data_offset;

	if (c->flags & IBMADRPC_F_NO_REDIRECT || c->mgmt_class == 0x01 || c->mgmt_class == 0x81 ||
	    c->redirects >= MAX_REDIRECTS || len < off + IBSTRUCT_MAD_CLASS_PORT_INFO_SIZE ||
	    ibstruct_mad_class_port_info_unpack(&cpi, mad + off, len - off))
		return false;
	if (ibpath_path_copy(c->path, &np))
		return false;
	if (cpi.redirectLID)
		ibpath_path_set(np, IBPATH_DLID, cpi.redirectLID);
	ibpath_path_set(np, IBPATH_DQPN, cpi.redirectQP);
	ibpath_path_set(np, IBPATH_QKEY, cpi.redirectQKey);
	ibpath_path_set(np, IBPATH_SL, cpi.redirectSL);
	if (ibstruct_gid_prefix(&cpi.redirectGID) || ibstruct_gid_guid(&cpi.redirectGID))
		ibpath_path_set_dgid(np, &cpi.redirectGID);
	ibpath_path_unref(c->path);
	c->path = np;
	c->redirects++;
	umad_set_addr(c->umad, (int)ibpath_path_get(np, IBPATH_DLID), (int)cpi.redirectQP,
		      (int)cpi.redirectSL, (int)cpi.redirectQKey);
	timer_del(port, c);
	return transmit(port, c) == 0;
}

static void handle_reply(struct ibmadrpc_port *port, struct ibmadrpc_call *c, const uint8_t *mad, size_t len)
{
	uint16_t status = be16_at(mad + 4);
	uint16_t st = c->mgmt_class == 0x81 ? status & 0x7fff : status;

	if (st & 0x1 && !(c->flags & IBMADRPC_F_NO_RETRY_BUSY) && c->busy_retries < MAX_BUSY_RETRIES) {
		/* BUSY: try again after a growing pause */
		port->stats.busy++;
		c->busy_retries++;
		timer_del(port, c);
		c->deadline_us = ibmadrpc_now_us() + (uint64_t)BUSY_BACKOFF_MS * 1000u * c->busy_retries;
		c->retries_left++; /* the resend at the deadline is not a loss retry */
		timer_add(port, c);
		return;
	}
	if (st & 0x2 && follow_redirect(port, c, mad, len))
		return;
	/* RMPPType 0 with the Active flag is no RMPP packet: it is what a sender leaves whose
	 * kernel would have segmented the answer but did not (OpenSM's GetTableResp under
	 * umad2sim, cut to one MAD); it is taken as a plain single-MAD reply */
	if (rmpp_class_has_rmpp(c->mgmt_class) && !st && rmpp_is_active(mad, len) &&
	    rmpp_type(mad) != 0 && !port->kernel_rmpp) {
		uint8_t ack[IBMADRPC_MAD_SIZE];
		size_t ack_len = 0;
		enum rmpp_rx_result r;

		if (rmpp_type(mad) != RMPP_TYPE_DATA)
			return; /* ACKs are for senders */
		c->rmpp_active = true;
		r = rmpp_rx_segment(&c->rx, mad, len, ack, &ack_len);
		if (ack_len)
			send_raw(port, c, ack);
		if (r == RMPP_RX_ABORT) {
			fail_call(port, c, EPROTO, mad, len, "RMPP transfer aborted (status %d)", c->rx.error);
			return;
		}
		if (r != RMPP_RX_DONE) {
			/* progress: restart the timer for the next segment */
			timer_del(port, c);
			c->deadline_us = ibmadrpc_now_us() + (uint64_t)c->timeout_ms * 1000u;
			timer_add(port, c);
			return;
		}
		if (ack_len) {
			unsigned k = port->next_done_ack++ % 8;

			port->done_acks[k].tid = c->tid;
			port->done_acks[k].mgmt_class = c->mgmt_class;
			port->done_acks[k].agent = c->agent;
			memcpy(port->done_acks[k].umad, c->umad, UMAD_HDR);
			memcpy(port->done_acks[k].umad + UMAD_HDR, ack, IBMADRPC_MAD_SIZE);
		}
		c->reply = c->rx.buf;
		c->reply_len = c->rx.len;
		c->rx.buf = NULL;
		c->status = status;
		c->rc = 0;
		complete(port, c);
		return;
	}
	if (st) {
		char text[160];
		unsigned code = (st >> 2) & 7, cls = st >> 8;

		if (c->mgmt_class == 0x81)
			cls &= 0x7f;
		if (cls && !(st & 0xff))
			snprintf(text, sizeof(text), "got class specific error %u", cls);
		else {
			char s[128];

			ibstruct_snprint_mad_status(s, sizeof(s), c->mgmt_class, st);
			snprintf(text, sizeof(text), "got error status 0x%04x (%s)", st, s);
		}
		(void)code;
		fail_call(port, c, EREMOTEIO, mad, len, "%s", text);
		return;
	}
	c->reply = malloc(len);
	if (!c->reply) {
		fail_call(port, c, ENOMEM, mad, len, "out of memory for the reply");
		return;
	}
	memcpy(c->reply, mad, len);
	c->reply_len = len;
	c->status = status;
	c->rc = 0;
	complete(port, c);
}

/* The path of a call as it went out: a GMP without a destination QP goes to QP1. */
void ibmadrpc_format_call_path(const struct ibmadrpc_call *c, char *buf, size_t len)
{
	struct ibpath_path *sent;

	if (c->mgmt_class != 0x01 && c->mgmt_class != 0x81 && !ibpath_path_get(c->path, IBPATH_DQPN) &&
	    ibpath_path_copy(c->path, &sent) == 0) {
		ibpath_path_set(sent, IBPATH_DQPN, 1);
		ibpath_path_format(sent, buf, len);
		ibpath_path_unref(sent);
		return;
	}
	ibpath_path_format(c->path, buf, len);
}

/* The current attempt of c is lost (its timer ran out, or the transport returned the send):
 * resend while retries are left, else fail with a time-out. */
static void attempt_lost(struct ibmadrpc_port *port, struct ibmadrpc_call *c)
{
	timer_del(port, c);
	if (c->retries_left) {
		c->retries_left--;
		if (!c->busy_retries)
			port->stats.retries++;
		if (transmit(port, c) < 0)
			fail_call(port, c, EIO, NULL, 0, "could not be resent");
		return;
	}
	port->stats.timeouts++;
	{
		char p[160];

		ibmadrpc_format_call_path(c, p, sizeof(p));
		fail_call(port, c, ETIMEDOUT, NULL, 0, "timed out to '%s'", p);
	}
}

static void handle_timeouts(struct ibmadrpc_port *port)
{
	uint64_t now;

	if (!port->thead && !port->tx_list)
		return; /* nothing timed: spare the clock read */
	now = ibmadrpc_now_us();

	while (port->thead && port->thead->deadline_us <= now)
		attempt_lost(port, port->thead);
	ibmadrpc_server_timeouts(port, now);
}

/* A send the transport handed back with an error status: the simulator does so at once for
 * a MAD it dropped or could not route (status ETIMEDOUT), the kernel for a send that failed.
 * Only a return that comes soon after the current attempt went out counts: the kernel also
 * returns earlier attempts of ours whose (longer) send time-out expired. */
static void send_returned(struct ibmadrpc_port *port, const uint8_t *mad, size_t len)
{
	uint32_t tid;
	struct ibmadrpc_call *c;

	if (len < 24 || (mad[3] & 0x80))
		return;
	tid = be32_at(mad + 12);
	for (c = port->buckets[tid % TID_BUCKETS]; c; c = c->hnext)
		if (c->tid == tid && c->mgmt_class == mad[1] && c->method == mad[3] && c->on_wire)
			break;
	if (!c || c->rmpp_active)
		return;
	if (ibmadrpc_now_us() - c->sent_us > (uint64_t)c->timeout_ms * 500u ||
	    ibmadrpc_now_us() - c->sent_us > 100000u)
		return;
	attempt_lost(port, c);
}

/* One received packet (umad header + len bytes of MAD).  Never trusts its contents. */
static void input(struct ibmadrpc_port *port, uint8_t *buf, size_t len)
{
	const ib_user_mad_t *um = (const ib_user_mad_t *)buf;
	const uint8_t *mad = buf + UMAD_HDR;
	struct ibmadrpc_call *c;

	if (len < 24) {
		port->stats.malformed++;
		return;
	}
	if (um->status) { /* one of our sends handed back */
		send_returned(port, mad, len);
		return;
	}
	port->stats.received++;
	if (mad[0] != 1) {
		port->stats.malformed++;
		return;
	}
	if (!(mad[3] & 0x80)) {
		/* a request, or an RMPP ACK to one of our transfers */
		if (ibmadrpc_server_input(port, buf, len) < 0)
			port->stats.stray++;
		return;
	}
	c = match(port, mad);
	if (!c) {
		port->stats.stray++;
		/* a retransmitted segment of a transfer we completed: ACK it again */
		if (len >= 36 && rmpp_is_active(mad, len) && rmpp_type(mad) == RMPP_TYPE_DATA) {
			uint32_t tid = be32_at(mad + 12);
			unsigned k;

			for (k = 0; k < 8; k++)
				if (port->done_acks[k].tid == tid && tid &&
				    port->done_acks[k].mgmt_class == mad[1]) {
					ibmadrpc_send(port, port->done_acks[k].agent, port->done_acks[k].umad,
						      IBMADRPC_MAD_SIZE, 0);
					break;
				}
		}
		return;
	}
	handle_reply(port, c, mad, len);
}

static int run_done(struct ibmadrpc_port *port, struct ibmadrpc_call *stop_at)
{
	int n = 0;

	while (port->dhead) {
		struct ibmadrpc_call *c = port->dhead;
		struct ibmadrpc_reply r;

		if (c->sync) {
			/* a synchronous call is collected by its caller */
			if (c == stop_at)
				return n;
			port->dhead = c->dnext;
			if (!port->dhead)
				port->dtail = NULL;
			continue;
		}
		port->dhead = c->dnext;
		if (!port->dhead)
			port->dtail = NULL;
		r.mad = c->reply;
		r.len = c->reply_len;
		r.data_offset = c->data_offset;
		r.status = c->status;
		if (c->done)
			c->done(port, c, c->rc ? NULL : &r, c->rc ? c->err : NULL, c->user);
		n++;
		ibpath_path_unref(c->path);
		ibmadrpc_error_free(c->err);
		free(c->reply);
		free(c);
	}
	return n;
}

/* A packet longer than a MAD (len bytes): the kernel keeps it first in line until a buffer
 * big enough reads it.  A reply the kernel reassembled (kernel RMPP) is taken; any other is
 * read and dropped, or every later poll would find it again. */
static int receive_large(struct ibmadrpc_port *port, int len, bool take)
{
	uint8_t *big;
	int rc;

	if (len <= 0 || len > IBMADRPC_KERNEL_RMPP_MAX)
		return -EMSGSIZE;
	/* zeroed: what does not arrive (the simulator hands over one MAD of a multi-MAD
	 * answer) reads as zeros, not as stale heap bytes */
	big = calloc(1, UMAD_HDR + (size_t)len);
	if (!big)
		return -ENOMEM;
	rc = umad_recv(port->fd, big, &len, 0);
	if (rc >= 0 && take)
		input(port, big, len < 0 ? 0 : (size_t)len);
	else if (rc >= 0)
		port->stats.malformed++;
	free(big);
	return rc < 0 ? rc : 0;
}

/* Reads what has arrived, waiting up to timeout_ms for the first MAD, then takes whatever
 * else is already there, unless `until` (a synchronous caller's call) completed: then its
 * caller goes on at once, and one more poll per call is saved. */
static int receive(struct ibmadrpc_port *port, int timeout_ms, const struct ibmadrpc_call *until)
{
	uint8_t buf[UMAD_HDR + IBMADRPC_MAD_SIZE];
	int got = 0;

	for (;;) {
		struct pollfd pfd = { .fd = port->fd, .events = POLLIN };
		int len = IBMADRPC_MAD_SIZE, rc;

		rc = poll(&pfd, 1, got ? 0 : timeout_ms);
		if (rc < 0)
			return errno == EINTR ? got : -errno;
		if (rc == 0)
			return got;
		rc = umad_recv(port->fd, buf, &len, 0);
		if (rc < 0) {
			if (rc == -EWOULDBLOCK || rc == -EAGAIN || rc == -ETIMEDOUT)
				return got;
			if (rc == -ENOSPC) {
				/* larger than a MAD: taken (kernel RMPP) or dropped */
				rc = receive_large(port, len, port->kernel_rmpp);
				if (rc < 0)
					return rc;
				got++;
				continue;
			}
			return rc;
		}
		got++;
		input(port, buf, len < 0 ? 0 : (size_t)(len > IBMADRPC_MAD_SIZE ? IBMADRPC_MAD_SIZE : len));
		if (until && until->state != CALL_PENDING)
			return got;
	}
}

IBMADRPC_EXPORT int ibmadrpc_dispatch(struct ibmadrpc_port *port, int timeout_ms)
{
	int t, rc;

	if (!port)
		return -EINVAL;
	t = ibmadrpc_next_timeout(port);
	if (t >= 0 && (timeout_ms < 0 || t < timeout_ms))
		timeout_ms = t;
	if (port->dhead)
		timeout_ms = 0;
	rc = receive(port, timeout_ms, NULL);
	if (rc < 0)
		return rc;
	handle_timeouts(port);
	return run_done(port, NULL);
}

IBMADRPC_EXPORT int ibmadrpc_call(struct ibmadrpc_port *port, const struct ibmadrpc_request *req,
				  struct ibmadrpc_reply *reply, struct ibmadrpc_error **errp)
{
	struct ibmadrpc_error *err = NULL;
	struct ibmadrpc_call *c;
	int rc;

	if (errp)
		*errp = NULL;
	if (!port)
		return -EINVAL;
	rc = new_call(port, req, &c, &err);
	if (!rc) {
		c->sync = true;
		rc = start(port, c, &err);
		if (rc) {
			ibpath_path_unref(c->path);
			free(c);
		}
	}
	if (rc) {
		if (errp)
			*errp = err;
		else
			ibmadrpc_error_free(err);
		return rc;
	}
	/* run the port until this call completes; other calls' callbacks run meanwhile */
	while (c->state == CALL_PENDING) {
		int t = ibmadrpc_next_timeout(port);

		rc = receive(port, t < 0 ? 1000 : t, c);
		if (rc < 0) {
			ibmadrpc_cancel(port, c);
			if (errp)
				*errp = ibmadrpc_error_new(-rc, "receiving failed: %s", strerror(-rc));
			return rc;
		}
		handle_timeouts(port);
		run_done(port, c);
	}
	/* unlink c from the completed list */
	{
		struct ibmadrpc_call **p = &port->dhead, *prev = NULL;

		for (; *p; prev = *p, p = &(*p)->dnext)
			if (*p == c) {
				*p = c->dnext;
				if (port->dtail == c)
					port->dtail = prev;
				break;
			}
	}
	rc = c->rc;
	free(port->last_reply);
	port->last_reply = c->reply;
	if (!rc && reply) {
		reply->mad = c->reply;
		reply->len = c->reply_len;
		reply->data_offset = c->data_offset;
		reply->status = c->status;
	}
	if (errp)
		*errp = c->err;
	else
		ibmadrpc_error_free(c->err);
	ibpath_path_unref(c->path);
	free(c);
	return rc;
}

IBMADRPC_EXPORT int ibmadrpc_attr(struct ibmadrpc_port *port, const struct ibpath_path *path, uint8_t method,
				  const struct ibstruct_desc *attr, uint32_t attr_mod, const void *in, void *out,
				  struct ibmadrpc_error **err)
{
	struct ibmadrpc_request req;
	struct ibmadrpc_reply rep;
	uint8_t data[IBMADRPC_MAD_SIZE];
	int rc, cls;

	if (err)
		*err = NULL;
	if (!port || !path || !attr)
		return -EINVAL;
	cls = ibstruct_desc_mgmt_class(attr);
	if (cls < 0 || ibstruct_desc_attr_id(attr) < 0) {
		if (err)
			*err = ibmadrpc_error_new(EINVAL, "%s is not an attribute of a class",
						  ibstruct_desc_name(attr));
		return -EINVAL;
	}
	memset(&req, 0, sizeof(req));
	req.path = path;
	req.mgmt_class = (uint8_t)cls;
	req.method = method;
	req.attr_id = (uint16_t)ibstruct_desc_attr_id(attr);
	req.attr_mod = attr_mod;
	if (in) {
		size_t sz = ibstruct_desc_size(attr);

		if (sz > sizeof(data))
			return -EMSGSIZE;
		rc = ibstruct_pack(attr, in, data, sizeof(data));
		if (rc) {
			if (err)
				*err = ibmadrpc_error_new(-rc, "cannot pack %s: %s", ibstruct_desc_name(attr),
							  strerror(-rc));
			return rc;
		}
		req.data = data;
		req.data_len = sz;
	}
	rc = ibmadrpc_call(port, &req, &rep, err);
	if (rc)
		return rc;
	if (out) {
		rc = rep.len < rep.data_offset ? -EMSGSIZE :
		     ibstruct_unpack(attr, out, rep.mad + rep.data_offset, rep.len - rep.data_offset);
		if (rc && err)
			*err = ibmadrpc_error_new(-rc, "the reply is too short for %s", ibstruct_desc_name(attr));
	}
	return rc;
}

/* ---- test support ------------------------------------------------------------------- */

struct ibmadrpc_port *ibmadrpc_test_port_new(int (*hook)(struct ibmadrpc_port *, const uint8_t *, size_t))
{
	struct ibmadrpc_port *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fd = -1;
	p->send_hook = hook;
	p->default_timeout_ms = 1000;
	p->default_retries = 3;
	p->max_wire = 64;
	p->next_tid = 0x10000;
	snprintf(p->name, sizeof(p->name), "test/1");
	return p;
}

int ibmadrpc_test_feed(struct ibmadrpc_port *port, const uint8_t *mad, size_t len, uint16_t slid)
{
	uint8_t *buf;
	ib_user_mad_t *um;

	/* more than a MAD only as the kernel would hand it over (kernel RMPP) */
	if (len > IBMADRPC_MAD_SIZE && !port->kernel_rmpp)
		len = IBMADRPC_MAD_SIZE;
	buf = calloc(1, UMAD_HDR + len);
	if (!buf)
		return -ENOMEM;
	um = (ib_user_mad_t *)buf;
	memcpy(buf + UMAD_HDR, mad, len);
	um->addr.lid = htons(slid);
	um->addr.qpn = htonl(1);
	input(port, buf, len);
	free(buf);
	handle_timeouts(port);
	return run_done(port, NULL);
}
