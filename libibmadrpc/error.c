// SPDX-License-Identifier: BSD-3-Clause
/*
 * Error objects: a stack of messages (each layer adds its own), the MAD status and the
 * request and reply packets, formatted at three levels of detail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmadrpc-private.h"

struct ibmadrpc_error *ibmadrpc_error_vnew(int errnum, const char *fmt, va_list ap)
{
	struct ibmadrpc_error *err = calloc(1, sizeof(*err));

	if (!err)
		return NULL;
	err->errnum = errnum;
	err->mgmt_class = -1;
	if (fmt && vasprintf(&err->msgs[0], fmt, ap) >= 0)
		err->nmsgs = 1;
	return err;
}

IBMADRPC_EXPORT struct ibmadrpc_error *ibmadrpc_error_new(int errnum, const char *fmt, ...)
{
	struct ibmadrpc_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = ibmadrpc_error_vnew(errnum, fmt, ap);
	va_end(ap);
	return err;
}

IBMADRPC_EXPORT struct ibmadrpc_error *ibmadrpc_error_dup(const struct ibmadrpc_error *err)
{
	struct ibmadrpc_error *c;
	unsigned i;

	if (!err)
		return NULL;
	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	*c = *err;
	for (i = 0; i < err->nmsgs; i++) {
		c->msgs[i] = strdup(err->msgs[i]);
		if (!c->msgs[i]) {
			c->nmsgs = i;
			ibmadrpc_error_free(c);
			return NULL;
		}
	}
	return c;
}

IBMADRPC_EXPORT void ibmadrpc_error_free(struct ibmadrpc_error *err)
{
	unsigned i;

	if (!err)
		return;
	for (i = 0; i < err->nmsgs; i++)
		free(err->msgs[i]);
	free(err);
}

IBMADRPC_EXPORT void ibmadrpc_error_push(struct ibmadrpc_error *err, const char *fmt, ...)
{
	va_list ap;
	char *m;

	if (!err || !fmt)
		return;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	if (!m)
		return;
	if (err->nmsgs == MAX_MSGS) {
		/* keep the innermost (the cause) and the newest context */
		free(err->msgs[1]);
		memmove(&err->msgs[1], &err->msgs[2], (MAX_MSGS - 2) * sizeof(err->msgs[0]));
		err->nmsgs--;
	}
	err->msgs[err->nmsgs++] = m;
}

IBMADRPC_EXPORT int ibmadrpc_error_errno(const struct ibmadrpc_error *err)
{
	return err ? err->errnum : 0;
}

IBMADRPC_EXPORT unsigned ibmadrpc_error_count(const struct ibmadrpc_error *err)
{
	return err ? err->nmsgs : 0;
}

IBMADRPC_EXPORT const char *ibmadrpc_error_message(const struct ibmadrpc_error *err, unsigned i)
{
	if (!err || i >= err->nmsgs)
		return NULL;
	return err->msgs[err->nmsgs - 1 - i];
}

IBMADRPC_EXPORT uint16_t ibmadrpc_error_status(const struct ibmadrpc_error *err)
{
	return err ? err->status : 0;
}

IBMADRPC_EXPORT bool ibmadrpc_error_timed_out(const struct ibmadrpc_error *err)
{
	return err && err->timed_out;
}

IBMADRPC_EXPORT const uint8_t *ibmadrpc_error_request(const struct ibmadrpc_error *err, size_t *len)
{
	if (!err || !err->has_req)
		return NULL;
	if (len)
		*len = IBMADRPC_MAD_SIZE;
	return err->req;
}

IBMADRPC_EXPORT const uint8_t *ibmadrpc_error_reply(const struct ibmadrpc_error *err, size_t *len)
{
	if (!err || !err->has_reply)
		return NULL;
	if (len)
		*len = IBMADRPC_MAD_SIZE;
	return err->reply;
}

void ibmadrpc_error_set_packets(struct ibmadrpc_error *err, const uint8_t *req, const uint8_t *reply,
				size_t reply_len)
{
	if (!err)
		return;
	if (req) {
		memcpy(err->req, req, IBMADRPC_MAD_SIZE);
		err->has_req = true;
	}
	if (reply) {
		memset(err->reply, 0, sizeof(err->reply));
		memcpy(err->reply, reply, reply_len < IBMADRPC_MAD_SIZE ? reply_len : IBMADRPC_MAD_SIZE);
		err->has_reply = true;
	}
}

struct out {
	char *buf;
	size_t len, pos;
};

static void outs(struct out *o, const char *s)
{
	size_t l = strlen(s);

	if (o->pos < o->len) {
		size_t room = o->len - o->pos - 1, c = l < room ? l : room;

		memcpy(o->buf + o->pos, s, c);
		o->buf[o->pos + c] = 0;
	}
	o->pos += l;
}

/* The packet's format struct: the class's *Format descriptor. */
static const struct ibstruct_desc *format_desc(const uint8_t *mad)
{
	const char *name = ibmadrpc_format_name(mad[1]);

	return ibstruct_desc_by_name(name ? name : "MADHeader");
}

static void dump_packet(struct out *o, const char *title, const uint8_t *mad);

int ibmadrpc_format_packet(const uint8_t *mad, char *buf, size_t len)
{
	struct out o = { buf, buf ? len : 0, 0 };

	if (o.len)
		buf[0] = 0;
	dump_packet(&o, "", mad);
	return (int)o.pos;
}

static void dump_packet(struct out *o, const char *title, const uint8_t *mad)
{
	const struct ibstruct_desc *fd = format_desc(mad), *ad;
	size_t off = ibmadrpc_data_offset(mad[1]);
	char *text;
	int n;

	outs(o, title);
	n = ibstruct_snprint_dump(NULL, 0, fd, mad, IBMADRPC_MAD_SIZE, 4);
	if (n < 0)
		return;
	text = malloc((size_t)n + 1);
	if (!text)
		return;
	ibstruct_snprint_dump(text, (size_t)n + 1, fd, mad, IBMADRPC_MAD_SIZE, 4);
	outs(o, text);
	free(text);
	ad = ibstruct_desc_by_attr(mad[1], (uint16_t)(mad[16] << 8 | mad[17]));
	if (ad && off + ibstruct_desc_size(ad) <= IBMADRPC_MAD_SIZE) {
		n = ibstruct_snprint_dump(NULL, 0, ad, mad + off, IBMADRPC_MAD_SIZE - off, 4);
		text = n >= 0 ? malloc((size_t)n + 1) : NULL;
		if (text) {
			ibstruct_snprint_dump(text, (size_t)n + 1, ad, mad + off, IBMADRPC_MAD_SIZE - off, 4);
			outs(o, text);
			free(text);
		}
	}
}

IBMADRPC_EXPORT int ibmadrpc_error_format(const struct ibmadrpc_error *err, int level, char *buf,
					  size_t len)
{
	struct out o = { buf, buf ? len : 0, 0 };
	unsigned i;

	if (!err)
		return -EINVAL;
	if (o.len)
		buf[0] = 0;
	if (!err->nmsgs) {
		char m[64];

		snprintf(m, sizeof(m), "E: %s\n", strerror(err->errnum));
		outs(&o, m);
	}
	for (i = 0; i < err->nmsgs && (level > 0 || i == 0); i++) {
		outs(&o, i ? "E: +" : "E: ");
		outs(&o, err->msgs[err->nmsgs - 1 - i]);
		outs(&o, "\n");
	}
	if (level >= 2) {
		if (err->has_req)
			dump_packet(&o, "Request packet:\n", err->req);
		if (err->has_reply)
			dump_packet(&o, "Reply packet:\n", err->reply);
	}
	return o.pos > INT32_MAX ? -EOVERFLOW : (int)o.pos;
}
