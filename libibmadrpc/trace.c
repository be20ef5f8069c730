// SPDX-License-Identifier: BSD-3-Clause
/*
 * Tracing: one summary line per completed RPC (level 1, for -d) and the decoded request
 * and reply packets (level 2, for -dd), handed to the caller's trace callback as text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmadrpc-private.h"

static void dump(struct ibmadrpc_port *port, const char *title, const uint8_t *mad, size_t len)
{
	uint8_t full[IBMADRPC_MAD_SIZE] = { 0 };
	char *text;
	int n;

	memcpy(full, mad, len < sizeof(full) ? len : sizeof(full));
	n = ibmadrpc_format_packet(full, NULL, 0);
	text = n > 0 ? malloc((size_t)n + 1) : NULL;
	if (!text)
		return;
	ibmadrpc_format_packet(full, text, (size_t)n + 1);
	port->trace_fn(port->trace_user, title);
	port->trace_fn(port->trace_user, text);
	free(text);
}

void ibmadrpc_trace(struct ibmadrpc_port *port, const struct ibmadrpc_call *c)
{
	char what[256], path[160], line[640];

	if (!port->trace_fn || port->trace_level <= 0)
		return;
	ibmadrpc_describe(c->umad + UMAD_HDR, what, sizeof(what));
	ibmadrpc_format_call_path(c, path, sizeof(path));
	if (c->rc) {
		const char *m = c->err && c->err->nmsgs ? c->err->msgs[0] : "";

		/* the message starts with the same description */
		if (!strncmp(m, what, strlen(what)))
			m += strlen(what);
		snprintf(line, sizeof(line), "%s to '%s' failed:%s\n", what, path, *m ? m : " error");
	} else {
		snprintf(line, sizeof(line), "%s to '%s' completed, status 0x%04x\n", what, path, c->status);
	}
	port->trace_fn(port->trace_user, line);
	if (port->trace_level >= 2) {
		dump(port, "Request:\n", c->umad + UMAD_HDR, IBMADRPC_MAD_SIZE);
		if (c->reply)
			dump(port, "Reply:\n", c->reply,
			     c->reply_len < IBMADRPC_MAD_SIZE ? c->reply_len : IBMADRPC_MAD_SIZE);
	}
}
