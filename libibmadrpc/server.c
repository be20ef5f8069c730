// SPDX-License-Identifier: BSD-3-Clause
/*
 * Server side: requests received on agents registered with ibmadrpc_port_serve() go to
 * the caller's callback; replies are single MADs or RMPP transfers we segment ourselves.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "ibmadrpc-private.h"

#define TX_TIMEOUT_MS 50
#define TX_RETRIES 10

struct rmpp_tx_state {
	struct rmpp_tx_state *next;
	struct rmpp_tx tx;
	uint8_t umad_hdr[UMAD_HDR];   /* the address to send segments to */
	int agent;
	uint32_t tid;
	uint8_t mgmt_class;
	uint64_t deadline_us;
	uint8_t *payload;             /* owned */
};

static uint32_t tid_of(const uint8_t *mad)
{
	return (uint32_t)mad[12] << 24 | (uint32_t)mad[13] << 16 | (uint32_t)mad[14] << 8 | mad[15];
}

static void tx_free(struct rmpp_tx_state *t)
{
	free(t->payload);
	free(t);
}

static void tx_remove(struct ibmadrpc_port *port, struct rmpp_tx_state *t)
{
	struct rmpp_tx_state **p;

	for (p = &port->tx_list; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	tx_free(t);
}

static void tx_send(struct ibmadrpc_port *port, struct rmpp_tx_state *t)
{
	uint32_t segs[RMPP_WINDOW];
	uint8_t buf[UMAD_HDR + IBMADRPC_MAD_SIZE];
	unsigned n, i;

	n = rmpp_tx_pending(&t->tx, segs, RMPP_WINDOW);
	for (i = 0; i < n; i++) {
		memcpy(buf, t->umad_hdr, UMAD_HDR);
		rmpp_tx_build(&t->tx, segs[i], buf + UMAD_HDR);
		if (ibmadrpc_send(port, t->agent, buf, IBMADRPC_MAD_SIZE, 0) == 0)
			port->stats.sent++;
	}
	t->deadline_us = ibmadrpc_now_us() + TX_TIMEOUT_MS * 1000u;
}

int ibmadrpc_server_input(struct ibmadrpc_port *port, const uint8_t *buf, size_t len)
{
	const ib_user_mad_t *um = (const ib_user_mad_t *)buf;
	const uint8_t *mad = buf + UMAD_HDR;
	struct ibmadrpc_request_in in;
	struct rmpp_tx_state *t;

	/* an ACK/STOP/ABORT for one of our RMPP transfers */
	if (len >= 36 && rmpp_is_active(mad, len) && rmpp_type(mad) != RMPP_TYPE_DATA) {
		for (t = port->tx_list; t; t = t->next)
			if (t->tid == tid_of(mad) && t->mgmt_class == mad[1]) {
				enum rmpp_tx_result r = rmpp_tx_ack(&t->tx, mad, len);

				if (r == RMPP_TX_DONE || r == RMPP_TX_ABORTED)
					tx_remove(port, t);
				else if (r == RMPP_TX_CONTINUE)
					tx_send(port, t);
				return 0;
			}
		return -ENOENT;
	}
	if (!port->serve_fn)
		return -ENOENT;
	memset(&in, 0, sizeof(in));
	memcpy(in.mad, mad, len < sizeof(in.mad) ? len : sizeof(in.mad));
	in.len = len;
	in.slid = ntohs(um->addr.lid);
	in.sl = um->addr.sl;
	in.sqpn = ntohl(um->addr.qpn);
	in.qkey = ntohl(um->addr.qkey);
	in.pkey_index = um->addr.pkey_index;
	in.grh = um->addr.grh_present;
	if (in.grh)
		memcpy(in.sgid.raw, um->addr.gid, 16);
	in.agent = (int)um->agent_id;
	port->serve_fn(port, &in, port->serve_user);
	return 0;
}

/* The send buffer's header: the requester's address, as received. */
static void reply_addr(const struct ibmadrpc_request_in *in, uint8_t *umad)
{
	ib_user_mad_t *um = (ib_user_mad_t *)umad;

	memset(umad, 0, UMAD_HDR);
	umad_set_addr(umad, in->slid, (int)in->sqpn, in->sl, (int)in->qkey);
	umad_set_pkey(umad, in->pkey_index);
	if (in->grh) {
		um->addr.grh_present = 1;
		um->addr.hop_limit = 255;
		memcpy(um->addr.gid, in->sgid.raw, 16);
	}
}

IBMADRPC_EXPORT int ibmadrpc_respond(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in,
				     uint16_t status, const void *data, size_t data_len)
{
	uint8_t buf[UMAD_HDR + IBMADRPC_MAD_SIZE];
	uint8_t *mad = buf + UMAD_HDR;
	size_t off;

	if (!port || !in || in->len < 24)
		return -EINVAL;
	off = ibmadrpc_data_offset(in->mad[1]);
	if (data_len > IBMADRPC_MAD_SIZE - off)
		return -EMSGSIZE;
	reply_addr(in, buf);
	memcpy(mad, in->mad, off < in->len ? off : in->len);
	memset(mad + off, 0, IBMADRPC_MAD_SIZE - off);
	mad[3] = ibmadrpc_response_method(in->mad[3] & 0x7f);
	mad[4] = (uint8_t)(status >> 8);
	mad[5] = (uint8_t)status;
	if (data && data_len)
		memcpy(mad + off, data, data_len);
	if (ibmadrpc_send(port, in->agent, buf, IBMADRPC_MAD_SIZE, 0) < 0)
		return -EIO;
	port->stats.sent++;
	return 0;
}

IBMADRPC_EXPORT int ibmadrpc_respond_table(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in,
					   const void *records, size_t rec_size, size_t count)
{
	struct rmpp_tx_state *t;
	uint8_t header[IBMADRPC_MAD_SIZE];
	size_t off, total;

	if (!port || !in || in->len < 56 || (!records && count) || !rec_size)
		return -EINVAL;
	if (count && rec_size > SIZE_MAX / count)
		return -EOVERFLOW;
	total = rec_size * count;
	if (total > RMPP_MAX_PAYLOAD)
		return -EMSGSIZE;
	off = ibmadrpc_data_offset(in->mad[1]);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->payload = malloc(total ? total : 1);
	if (!t->payload) {
		free(t);
		return -ENOMEM;
	}
	if (total)
		memcpy(t->payload, records, total);
	memcpy(header, in->mad, IBMADRPC_MAD_SIZE);
	header[3] = ibmadrpc_response_method(in->mad[3] & 0x7f);
	header[4] = header[5] = 0;
	/* SA: AttributeOffset in 8-byte words */
	if (in->mad[1] == 0x03) {
		header[44] = (uint8_t)((rec_size / 8) >> 8);
		header[45] = (uint8_t)(rec_size / 8);
	}
	rmpp_tx_init(&t->tx, header, off, t->payload, total);
	if (t->tx.aborted) { /* too large once the per-segment headers are counted */
		tx_free(t);
		return -EMSGSIZE;
	}
	reply_addr(in, t->umad_hdr);
	t->agent = in->agent;
	t->tid = tid_of(in->mad);
	t->mgmt_class = in->mad[1];
	t->next = port->tx_list;
	port->tx_list = t;
	tx_send(port, t);
	return 0;
}

void ibmadrpc_server_timeouts(struct ibmadrpc_port *port, uint64_t now)
{
	struct rmpp_tx_state *t = port->tx_list, *next;

	for (; t; t = next) {
		next = t->next;
		if (t->deadline_us > now)
			continue;
		if (!rmpp_tx_timeout(&t->tx, TX_RETRIES))
			tx_remove(port, t);
		else
			tx_send(port, t);
	}
}

int ibmadrpc_server_next_timeout(const struct ibmadrpc_port *port, uint64_t now)
{
	const struct rmpp_tx_state *t;
	int best = -1;

	for (t = port->tx_list; t; t = t->next) {
		int ms = t->deadline_us <= now ? 0 : (int)((t->deadline_us - now + 999) / 1000);

		if (best < 0 || ms < best)
			best = ms;
	}
	return best;
}

void ibmadrpc_server_free(struct ibmadrpc_port *port)
{
	while (port->tx_list) {
		struct rmpp_tx_state *t = port->tx_list;

		port->tx_list = t->next;
		tx_free(t);
	}
}
