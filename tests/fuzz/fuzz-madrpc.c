// SPDX-License-Identifier: BSD-3-Clause
/*
 * libFuzzer target: arbitrary bytes arriving as received MADs at a libibmadrpc port with
 * calls pending (SMP LID and DR, an SA GetTable that may turn into an RMPP transfer) and a
 * server callback: reply matching, status handling, redirects, RMPP reassembly, request
 * parsing and responses.  Sends go to a hook instead of a umad device.
 * Input: a sequence of records [flags][len][bytes]; flag bit 0 makes the record's TID,
 * class, method and attribute those of a pending call so matching paths are reached.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibmadrpc-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t last_sent[IBMADRPC_MAD_SIZE];

static int hook(struct ibmadrpc_port *port, const uint8_t *umad, size_t len)
{
	(void)port;
	if (len >= UMAD_HDR + 24)
		memcpy(last_sent, umad + UMAD_HDR, len - UMAD_HDR < sizeof(last_sent) ? len - UMAD_HDR : sizeof(last_sent));
	return 0;
}

static void done(struct ibmadrpc_port *port, struct ibmadrpc_call *call, const struct ibmadrpc_reply *reply,
		 const struct ibmadrpc_error *err, void *user)
{
	char buf[8192];

	(void)port;
	(void)call;
	(void)user;
	if (err)
		ibmadrpc_error_format(err, 2, buf, sizeof(buf));
	else if (reply && reply->len > reply->data_offset)
		buf[0] = (char)reply->mad[reply->len - 1];
}

static void serve(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in, void *user)
{
	static const uint8_t recs[3 * 64];

	(void)user;
	if (in->mad[3] & 1)
		ibmadrpc_respond(port, in, 0, in->mad + 24, in->len > 24 ? in->len - 24 : 0);
	else
		ibmadrpc_respond_table(port, in, recs, 64, (size_t)(in->mad[4] % 4));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibmadrpc_port *port = ibmadrpc_test_port_new(hook);
	struct ibpath_path *lid, *dr, *sa;
	struct ibmadrpc_request req;
	uint8_t tids[3][IBMADRPC_MAD_SIZE];
	static const uint8_t drp[3] = { 0, 1, 4 };
	unsigned n = 0;

	if (!port)
		return 0;
	ibmadrpc_port_set_server(port, serve, NULL);
	ibpath_path_new(&lid, IBPATH_KIND_IB);
	ibpath_path_set(lid, IBPATH_DLID, 2);
	ibpath_path_new(&dr, IBPATH_KIND_DR);
	ibpath_path_set_dr_ports(dr, drp, 3);
	ibpath_path_new(&sa, IBPATH_KIND_IB);
	ibpath_path_set(sa, IBPATH_DLID, 1);
	memset(&req, 0, sizeof(req));
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x15;
	req.path = lid;
	if (!ibmadrpc_submit(port, &req, done, NULL, NULL))
		memcpy(tids[n++], last_sent, IBMADRPC_MAD_SIZE);
	req.path = dr;
	if (!ibmadrpc_submit(port, &req, done, NULL, NULL))
		memcpy(tids[n++], last_sent, IBMADRPC_MAD_SIZE);
	req.path = sa;
	req.mgmt_class = 0x03;
	req.method = 0x12;
	req.attr_id = 0x11;
	req.flags = IBMADRPC_F_RMPP;
	if (!ibmadrpc_submit(port, &req, done, NULL, NULL))
		memcpy(tids[n++], last_sent, IBMADRPC_MAD_SIZE);
	while (size >= 2) {
		uint8_t flags = data[0];
		size_t len = data[1];
		uint8_t mad[IBMADRPC_MAD_SIZE];

		data += 2;
		size -= 2;
		if (flags & 0x80)
			len = 256 - (len & 0x1f);
		if (len > size)
			len = size;
		memset(mad, 0, sizeof(mad));
		memcpy(mad, data, len);
		if (flags & 1 && n && len >= 24) {
			const uint8_t *t = tids[(flags >> 1) % n];

			mad[0] = 1;
			mad[1] = t[1];
			mad[3] = (uint8_t)(t[3] == 0x02 ? 0x81 : t[3] | 0x80);
			memcpy(mad + 8, t + 8, 8);
			memcpy(mad + 16, t + 16, 2);
		}
		ibmadrpc_test_feed(port, mad, len, (uint16_t)(flags >> 4));
		data += len;
		size -= len;
	}
	ibmadrpc_port_close(port);
	ibpath_path_unref(lid);
	ibpath_path_unref(dr);
	ibpath_path_unref(sa);
	return 0;
}
