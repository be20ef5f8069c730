/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exports of a topology: JSON (schema in doc/libibtopo-json.md) and Graphviz dot, and the
 * JSON reader.
 *
 * The JSON writer emits one fixed layout (key order, indentation, lower-case hex, strings
 * as ASCII with \u escapes), so that export -> import -> export gives the same bytes.  The
 * reader is a small strict parser of its own: it builds a tree of the whole text first
 * (depth limited, integers checked for range, UTF-8 and escapes checked, duplicate keys
 * refused), then walks the tree against the schema: every key must be there, no other key
 * may be, and every reference (node index, port number, LID) must hold.  Nothing of the
 * topology is built before the text has parsed; a failure at any later point unrefs the
 * half-built topology.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

/* ---- UTF-8 -------------------------------------------------------------------------------- */

/* Length (1..4) of the valid UTF-8 sequence at s and its code point, 0 when invalid
 * (overlong forms, surrogates and values above U+10FFFF are invalid). */
static unsigned utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned n;
	uint32_t c;
	unsigned char lo = 0x80, hi = 0xbf;

	if (!len)
		return 0;
	c = s[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
		c &= 0x07;
	} else {
		return 0;
	}
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	c = (c << 6) | (s[1] & 0x3f);
	for (unsigned i = 2; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	*cp = c;
	return n;
}

static size_t utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The next character of a C string the way the JSON export sees it: a valid UTF-8 sequence,
 * or else one byte 0xXX (never below 0x80) as the lone surrogate U+DCXX, which the reader
 * turns back into that byte ("surrogateescape"): any bytes at all, a NodeDescription's
 * for instance, make a JSON string and come back unchanged. */
static uint32_t next_char(const unsigned char *s, size_t len, size_t *used)
{
	uint32_t cp;
	unsigned n = utf8_decode(s, len, &cp);

	if (n) {
		*used = n;
		return cp;
	}
	*used = 1;
	return 0xdc00 | s[0];
}

/* ---- Output with error tracking ---------------------------------------------------------- */

struct out {
	FILE *f;
	int err; /* first write error (negative errno) */
};

static void out_fail(struct out *o)
{
	if (!o->err)
		o->err = errno > 0 ? -errno : -EIO;
}

static void put(struct out *o, const char *s)
{
	if (!o->err && fputs(s, o->f) == EOF)
		out_fail(o);
}

static void putc_out(struct out *o, char c)
{
	if (!o->err && putc(c, o->f) == EOF)
		out_fail(o);
}

static void __attribute__((format(printf, 2, 3))) putf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (o->err)
		return;
	va_start(ap, fmt);
	rc = vfprintf(o->f, fmt, ap);
	va_end(ap);
	if (rc < 0)
		out_fail(o);
}

static int out_finish(struct out *o)
{
	errno = 0;
	if (fflush(o->f) == EOF || ferror(o->f))
		out_fail(o);
	return o->err;
}

static int out_begin(struct out *o, FILE *f)
{
	o->f = f;
	o->err = 0;
	errno = 0;
	/* a stream already in error would hide ours */
	if (ferror(f))
		return -EIO;
	return 0;
}

/* ---- JSON writer -------------------------------------------------------------------------- */

/* A JSON string: printable ASCII as is, everything else escaped, so the output is ASCII. */
static void json_string(struct out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);
	char buf[16];

	putc_out(o, '"');
	while (len) {
		size_t used;
		uint32_t c = next_char(s, len, &used);

		s += used;
		len -= used;
		switch (c) {
		case '"':
			put(o, "\\\"");
			continue;
		case '\\':
			put(o, "\\\\");
			continue;
		case '\b':
			put(o, "\\b");
			continue;
		case '\f':
			put(o, "\\f");
			continue;
		case '\n':
			put(o, "\\n");
			continue;
		case '\r':
			put(o, "\\r");
			continue;
		case '\t':
			put(o, "\\t");
			continue;
		}
		if (c >= 0x20 && c < 0x7f) {
			putc_out(o, (char)c);
		} else if (c < 0x10000) {
			snprintf(buf, sizeof(buf), "\\u%04x", (unsigned)c);
			put(o, buf);
		} else {
			c -= 0x10000;
			snprintf(buf, sizeof(buf), "\\u%04x\\u%04x", (unsigned)(0xd800 | (c >> 10)),
				 (unsigned)(0xdc00 | (c & 0x3ff)));
			put(o, buf);
		}
	}
	putc_out(o, '"');
}

static void json_hex(struct out *o, const uint8_t *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	putc_out(o, '"');
	for (size_t i = 0; i < len; i++) {
		putc_out(o, digits[p[i] >> 4]);
		putc_out(o, digits[p[i] & 15]);
	}
	putc_out(o, '"');
}

static void json_guid(struct out *o, uint64_t guid)
{
	putf(o, "\"0x%016" PRIx64 "\"", guid);
}

static void json_dr_path(struct out *o, const struct ibtopo_dr_path *p)
{
	putf(o, "{\"lid\": %u, \"drslid\": %u, \"drdlid\": %u, \"ports\": [", p->lid, p->drslid,
	     p->drdlid);
	for (unsigned i = 0; i <= p->hops; i++)
		putf(o, i ? ", %u" : "%u", p->port[i]);
	put(o, "]}");
}

static const char *const type_names[] = { "unknown", "ca", "switch", "router" };

static const char *type_name(unsigned type)
{
	return type <= IBTOPO_NODE_ROUTER ? type_names[type] : "unknown";
}

static const char *const error_kinds[] = { NULL, "query", "duplicate", "inconsistent", "limit" };
#define N_ERROR_KINDS (sizeof(error_kinds) / sizeof(error_kinds[0]))

/* The node at the other end, as index and port, for "remote" and "links". */
static bool link_is_first(const struct ibtopo_port *p)
{
	const struct ibtopo_port *r = p->remote;

	return r && (p->node->index < r->node->index ||
		     (p->node->index == r->node->index && p->num <= r->num));
}

static void json_node(struct out *o, const struct ibtopo_node *n, bool last)
{
	const struct ibtopo_chassis *ch = ibtopo_node_chassis(n);
	unsigned nports = 0;

	putf(o, "    {\n      \"index\": %u,\n      \"type\": \"%s\",\n      \"guid\": ", n->index,
	     type_name(n->type));
	json_guid(o, n->guid);
	putf(o, ",\n      \"num_ports\": %u,\n      \"desc\": ", n->num_ports);
	json_string(o, n->desc_str);
	put(o, ",\n      \"node_info\": ");
	json_hex(o, n->info, IBTOPO_SMP_DATA_SIZE);
	put(o, ",\n      \"node_desc\": ");
	if (n->has_desc)
		json_hex(o, n->desc, IBTOPO_SMP_DATA_SIZE);
	else
		put(o, "null");
	put(o, ",\n      \"switch_info\": ");
	if (n->has_switch_info)
		json_hex(o, n->switch_info, IBTOPO_SMP_DATA_SIZE);
	else
		put(o, "null");
	putf(o, ",\n      \"sma_lid\": %u,\n      \"sma_lmc\": %u,\n      \"sma_enh_sp0\": %s",
	     n->sma_lid, n->sma_lmc, n->sma_enh_sp0 ? "true" : "false");
	put(o, ",\n      \"dr_path\": ");
	json_dr_path(o, &n->path);
	put(o, ",\n      \"chassis\": ");
	if (ch || n->ch_type || n->ch_slot || n->ch_slotnum || n->ch_anafanum)
		putf(o, "{\"num\": %u, \"type\": %u, \"slot\": %u, \"slotnum\": %u, \"anafanum\": %u}",
		     ch ? ibtopo_chassis_num(ch) : 0, n->ch_type, n->ch_slot, n->ch_slotnum,
		     n->ch_anafanum);
	else
		put(o, "null");
	put(o, ",\n      \"lft\": ");
	if (n->lft)
		json_hex(o, n->lft, n->lft_len);
	else
		put(o, "null");
	put(o, ",\n      \"mft\": ");
	if (n->mft) {
		putf(o, "{\"entries\": %u, \"data\": \"", n->mft_entries);
		for (size_t i = 0; i < (size_t)n->mft_entries * 16; i++)
			putf(o, "%04x", n->mft[i]);
		put(o, "\"}");
	} else {
		put(o, "null");
	}
	put(o, ",\n      \"ports\": [");
	for (unsigned p = 0; p <= n->num_ports; p++) {
		const struct ibtopo_port *port = n->ports[p];

		if (!port)
			continue;
		putf(o, "%s\n        {\"num\": %u, \"guid\": ", nports++ ? "," : "", port->num);
		json_guid(o, port->guid);
		putf(o, ", \"lid\": %u, \"lmc\": %u, \"ext_num\": %u, \"seq\": %" PRIu32 ", \"info\": ",
		     port->base_lid, port->lmc, port->ext_num, port->seq);
		if (port->has_info)
			json_hex(o, port->info, IBTOPO_SMP_DATA_SIZE);
		else
			put(o, "null");
		put(o, ", \"ext_info\": ");
		if (port->has_ext_info)
			json_hex(o, port->ext_info, IBTOPO_SMP_DATA_SIZE);
		else
			put(o, "null");
		put(o, ", \"remote\": ");
		if (port->remote)
			putf(o, "{\"node\": %u, \"port\": %u}", port->remote->node->index,
			     port->remote->num);
		else
			put(o, "null");
		putc_out(o, '}');
	}
	put(o, nports ? "\n      ]\n    }" : "]\n    }");
	put(o, last ? "\n" : ",\n");
}

/* Runs of LIDs owned by one port */
static void json_lids(struct out *o, const struct ibtopo *t)
{
	unsigned runs = 0;

	put(o, "  \"lids\": [");
	for (unsigned lid = 0; t->lid_tab && lid < LID_TAB_SIZE;) {
		const struct ibtopo_port *p = t->lid_tab[lid];
		unsigned end = lid + 1;

		if (!p) {
			lid++;
			continue;
		}
		while (end < LID_TAB_SIZE && t->lid_tab[end] == p)
			end++;
		putf(o, "%s\n    {\"lid\": %u, \"count\": %u, \"node\": %u, \"port\": %u}",
		     runs++ ? "," : "", lid, end - lid, p->node->index, p->num);
		lid = end;
	}
	put(o, runs ? "\n  ],\n" : "],\n");
}

static bool valid_for_export(const struct ibtopo *t)
{
	for (unsigned i = 0; i < t->all.n; i++)
		if (t->all.v[i]->path.hops > IBTOPO_MAX_HOPS || t->all.v[i]->index != i)
			return false;
	for (unsigned i = 0; i < t->n_errors; i++)
		if (t->errors[i].path.hops > IBTOPO_MAX_HOPS)
			return false;
	return true;
}

IBTOPO_EXPORT int ibtopo_export_json(const struct ibtopo *topo, FILE *f)
{
	struct out o;
	unsigned nlinks = 0, nch;
	int rc;

	if (!topo || !f || !valid_for_export(topo))
		return -EINVAL;
	rc = out_begin(&o, f);
	if (rc)
		return rc;
	putf(&o, "{\n  \"format\": \"ibtopo\",\n  \"schema_version\": %d,\n  \"from\": ",
	     IBTOPO_JSON_SCHEMA_VERSION);
	if (topo->from_node)
		putf(&o, "{\"node\": %u, \"port\": %u}", topo->from_node->index, topo->from_port);
	else
		putf(&o, "{\"node\": null, \"port\": %u}", topo->from_port);
	putf(&o, ",\n  \"max_hops\": %u,\n  \"mads\": %" PRIu64 ",\n  \"port_seq\": %" PRIu32
		 ",\n  \"nodes\": [",
	     topo->max_hops, topo->mads, topo->port_seq);
	put(&o, topo->all.n ? "\n" : "");
	for (unsigned i = 0; i < topo->all.n; i++)
		json_node(&o, topo->all.v[i], i + 1 == topo->all.n);
	put(&o, topo->all.n ? "  ],\n  \"links\": [" : "],\n  \"links\": [");
	for (unsigned i = 0; i < topo->all.n; i++) {
		const struct ibtopo_node *n = topo->all.v[i];

		for (unsigned p = 0; p <= n->num_ports; p++) {
			const struct ibtopo_port *port = n->ports[p];

			if (!port || !link_is_first(port))
				continue;
			putf(&o, "%s\n    [%u, %u, %u, %u]", nlinks++ ? "," : "", n->index, p,
			     port->remote->node->index, port->remote->num);
		}
	}
	put(&o, nlinks ? "\n  ],\n" : "],\n");
	json_lids(&o, topo);
	put(&o, "  \"chassis\": [");
	nch = ibtopo_chassis_count(topo);
	for (unsigned i = 0; i < nch; i++) {
		const struct ibtopo_chassis *ch = ibtopo_chassis_get(topo, i);

		putf(&o, "%s\n    {\"num\": %u, \"guid\": ", i ? "," : "", ibtopo_chassis_num(ch));
		json_guid(&o, ibtopo_chassis_guid(ch));
		putc_out(&o, '}');
	}
	put(&o, nch ? "\n  ],\n  \"errors\": [" : "],\n  \"errors\": [");
	for (unsigned i = 0; i < topo->n_errors; i++) {
		const struct ibtopo_error *e = &topo->errors[i];

		put(&o, i ? ",\n    {\"kind\": " : "\n    {\"kind\": ");
		if ((unsigned)e->kind < N_ERROR_KINDS && error_kinds[e->kind])
			putf(&o, "\"%s\"", error_kinds[e->kind]);
		else
			putf(&o, "%d", (int)e->kind);
		putf(&o, ", \"errnum\": %d, \"attr_id\": %u, \"attr_mod\": %" PRIu32
			 ", \"status\": %u, \"dr_path\": ",
		     e->errnum, e->attr_id, e->attr_mod, e->status);
		json_dr_path(&o, &e->path);
		put(&o, ", \"guid\": ");
		json_guid(&o, e->guid);
		put(&o, ", \"message\": ");
		json_string(&o, e->message ? e->message : "");
		putc_out(&o, '}');
	}
	put(&o, topo->n_errors ? "\n  ]\n}\n" : "]\n}\n");
	return out_finish(&o);
}

/* ---- Graphviz dot --------------------------------------------------------------------------- */

/* The text of a dot string: '"' and '\\' escaped (a backslash starts an escape in a
 * Graphviz label), control characters as spaces, bytes that are not UTF-8 as '?'. */
static void dot_text(struct out *o, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);

	while (len) {
		uint32_t cp;
		unsigned n = utf8_decode(s, len, &cp);

		if (!n) {
			putc_out(o, '?');
			n = 1;
		} else if (cp == '"' || cp == '\\') {
			putc_out(o, '\\');
			putc_out(o, (char)cp);
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
			putc_out(o, ' ');
		} else {
			for (unsigned i = 0; i < n; i++)
				putc_out(o, (char)s[i]);
		}
		s += n;
		len -= n;
	}
}

IBTOPO_EXPORT int ibtopo_export_dot(const struct ibtopo *topo, FILE *f)
{
	static const char *const shapes[] = { "octagon", "ellipse", "box", "diamond" };
	struct out o;
	int rc;

	if (!topo || !f || !valid_for_export(topo))
		return -EINVAL;
	rc = out_begin(&o, f);
	if (rc)
		return rc;
	put(&o, "graph ibtopo {\n");
	for (unsigned i = 0; i < topo->all.n; i++) {
		const struct ibtopo_node *n = topo->all.v[i];

		putf(&o, "\tn%u [shape=%s, label=\"", i,
		     shapes[n->type <= IBTOPO_NODE_ROUTER ? n->type : 0]);
		dot_text(&o, n->desc_str);
		/* "\n" in a dot label is a line break */
		putf(&o, "\\n0x%016" PRIx64 "\"];\n", n->guid);
	}
	for (unsigned i = 0; i < topo->all.n; i++) {
		const struct ibtopo_node *n = topo->all.v[i];

		for (unsigned p = 0; p <= n->num_ports; p++) {
			const struct ibtopo_port *port = n->ports[p];

			if (port && link_is_first(port))
				putf(&o, "\tn%u -- n%u [taillabel=\"%u\", headlabel=\"%u\"];\n", i,
				     port->remote->node->index, p, port->remote->num);
		}
	}
	put(&o, "}\n");
	return out_finish(&o);
}

/* ---- JSON reader: the tree ------------------------------------------------------------------ */

#define JSON_MAX_DEPTH 16

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval;

struct jmember {
	const char *key;
	size_t klen;
	struct jval *val;
};

struct jval {
	enum jtype type;
	size_t off; /* where it starts in the text */
	union {
		bool b;
		struct {
			bool neg, integer; /* integer: no fraction, no exponent */
			uint64_t mag;
		} num;
		struct {
			char *s; /* NUL-terminated; no NUL inside (refused) */
			size_t len;
		} str;
		struct {
			struct jval **v;
			size_t n;
		} arr;
		struct {
			struct jmember *m;
			size_t n;
		} obj;
	};
};

/* Everything the parser allocates, freed at once */
struct arena {
	void **blocks;
	size_t n, cap;
};

static void *arena_alloc(struct arena *a, size_t size)
{
	void *p;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		void **nb = realloc(a->blocks, cap * sizeof(*nb));

		if (!nb)
			return NULL;
		a->blocks = nb;
		a->cap = cap;
	}
	p = malloc(size ? size : 1);
	if (p)
		a->blocks[a->n++] = p;
	return p;
}

static void arena_free(struct arena *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->blocks[i]);
	free(a->blocks);
}

struct parser {
	const unsigned char *s;
	size_t len, pos;
	struct arena *arena;
	char *errbuf;
	size_t errlen;
	int err;
};

/* Records the first error (reason and offset in errbuf); NULL for the callers' returns */
static struct jval *__attribute__((format(printf, 4, 5)))
pfail(struct parser *ps, int err, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	ps->err = err;
	if (!ps->errbuf || !ps->errlen)
		return NULL;
	n = snprintf(ps->errbuf, ps->errlen, "offset %zu: ", off);
	if (n < 0 || (size_t)n >= ps->errlen)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(ps->errbuf + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return NULL;
}

static void skip_ws(struct parser *ps)
{
	while (ps->pos < ps->len) {
		unsigned char c = ps->s[ps->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		ps->pos++;
	}
}

static struct jval *new_val(struct parser *ps, enum jtype type, size_t off)
{
	struct jval *v = arena_alloc(ps->arena, sizeof(*v));

	if (!v)
		return pfail(ps, -ENOMEM, off, "out of memory");
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->off = off;
	return v;
}

static int hex4(const unsigned char *s, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		unsigned char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* A string at ps->pos (the opening quote): decoded into the arena */
static struct jval *parse_string(struct parser *ps)
{
	size_t start = ps->pos++, end, outlen = 0;
	struct jval *v;
	char *out;

	/* the decoded text is never longer than the raw one */
	for (end = ps->pos; end < ps->len && ps->s[end] != '"'; end++)
		if (ps->s[end] == '\\')
			end++;
	if (end >= ps->len)
		return pfail(ps, -EINVAL, start, "unterminated string");
	v = new_val(ps, J_STR, start);
	if (!v)
		return NULL;
	out = arena_alloc(ps->arena, end - ps->pos + 1);
	if (!out)
		return pfail(ps, -ENOMEM, start, "out of memory");
	while (ps->s[ps->pos] != '"') {
		unsigned char c = ps->s[ps->pos];
		uint32_t cp;

		if (c < 0x20)
			return pfail(ps, -EINVAL, ps->pos, "control character 0x%02x in a string", c);
		if (c != '\\') {
			unsigned n = utf8_decode(ps->s + ps->pos, ps->len - ps->pos, &cp);

			if (!n)
				return pfail(ps, -EINVAL, ps->pos, "invalid UTF-8 in a string");
			memcpy(out + outlen, ps->s + ps->pos, n);
			outlen += n;
			ps->pos += n;
			continue;
		}
		/* an escape: the scan above made sure a character follows the backslash */
		c = ps->s[++ps->pos];
		ps->pos++;
		switch (c) {
		case '"':
		case '\\':
		case '/':
			out[outlen++] = (char)c;
			continue;
		case 'b':
			out[outlen++] = '\b';
			continue;
		case 'f':
			out[outlen++] = '\f';
			continue;
		case 'n':
			out[outlen++] = '\n';
			continue;
		case 'r':
			out[outlen++] = '\r';
			continue;
		case 't':
			out[outlen++] = '\t';
			continue;
		case 'u':
			break;
		default:
			return pfail(ps, -EINVAL, ps->pos - 2, "invalid escape in a string");
		}
		if (ps->len - ps->pos < 4 || hex4(ps->s + ps->pos, &cp))
			return pfail(ps, -EINVAL, ps->pos - 2, "invalid \\u escape");
		ps->pos += 4;
		if (cp >= 0xdc80 && cp <= 0xdcff) {
			/* a byte that is not UTF-8 (see next_char()) */
			out[outlen++] = (char)(cp & 0xff);
			continue;
		}
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return pfail(ps, -EINVAL, ps->pos - 6, "lone low surrogate in a \\u escape");
		if (cp >= 0xd800 && cp <= 0xdbff) {
			uint32_t lo;

			if (ps->len - ps->pos < 6 || ps->s[ps->pos] != '\\' ||
			    ps->s[ps->pos + 1] != 'u' || hex4(ps->s + ps->pos + 2, &lo) ||
			    lo < 0xdc00 || lo > 0xdfff)
				return pfail(ps, -EINVAL, ps->pos - 6,
					     "high surrogate without a low one in a \\u escape");
			ps->pos += 6;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		if (cp == 0)
			return pfail(ps, -EINVAL, ps->pos - 6, "NUL character in a string");
		/* 6 (or 12) escape bytes always make room for the at most 3 (4) UTF-8 bytes */
		outlen += utf8_encode(cp, out + outlen);
	}
	ps->pos++;
	out[outlen] = '\0';
	v->str.s = out;
	v->str.len = outlen;
	return v;
}

static struct jval *parse_number(struct parser *ps)
{
	size_t start = ps->pos;
	struct jval *v = new_val(ps, J_NUM, start);
	bool overflow = false;

	if (!v)
		return NULL;
	v->num.integer = true;
	if (ps->s[ps->pos] == '-') {
		v->num.neg = true;
		ps->pos++;
	}
	if (ps->pos >= ps->len || ps->s[ps->pos] < '0' || ps->s[ps->pos] > '9')
		return pfail(ps, -EINVAL, start, "invalid number");
	if (ps->s[ps->pos] == '0') {
		ps->pos++;
	} else {
		while (ps->pos < ps->len && ps->s[ps->pos] >= '0' && ps->s[ps->pos] <= '9') {
			unsigned d = ps->s[ps->pos++] - '0';

			if (v->num.mag > (UINT64_MAX - d) / 10)
				overflow = true;
			else
				v->num.mag = v->num.mag * 10 + d;
		}
	}
	if (ps->pos < ps->len && ps->s[ps->pos] == '.') {
		size_t digits = ++ps->pos;

		while (ps->pos < ps->len && ps->s[ps->pos] >= '0' && ps->s[ps->pos] <= '9')
			ps->pos++;
		if (ps->pos == digits)
			return pfail(ps, -EINVAL, start, "invalid number");
		v->num.integer = false;
	}
	if (ps->pos < ps->len && (ps->s[ps->pos] == 'e' || ps->s[ps->pos] == 'E')) {
		size_t digits;

		ps->pos++;
		if (ps->pos < ps->len && (ps->s[ps->pos] == '+' || ps->s[ps->pos] == '-'))
			ps->pos++;
		digits = ps->pos;
		while (ps->pos < ps->len && ps->s[ps->pos] >= '0' && ps->s[ps->pos] <= '9')
			ps->pos++;
		if (ps->pos == digits)
			return pfail(ps, -EINVAL, start, "invalid number");
		v->num.integer = false;
	}
	if (overflow && v->num.integer)
		return pfail(ps, -ERANGE, start, "integer out of range");
	return v;
}

static struct jval *parse_value(struct parser *ps, unsigned depth);

/* A growing list of pointers kept in the arena's care */
struct ptrvec {
	void **v;
	size_t n, cap;
};

static int ptrvec_push(struct ptrvec *pv, void *p)
{
	if (pv->n == pv->cap) {
		size_t cap = pv->cap ? pv->cap * 2 : 8;
		void **nv = realloc(pv->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		pv->v = nv;
		pv->cap = cap;
	}
	pv->v[pv->n++] = p;
	return 0;
}

static struct jval *parse_array(struct parser *ps, unsigned depth)
{
	struct jval *v = new_val(ps, J_ARR, ps->pos);
	struct ptrvec items = { 0 };

	if (!v)
		return NULL;
	ps->pos++;
	skip_ws(ps);
	if (ps->pos < ps->len && ps->s[ps->pos] == ']') {
		ps->pos++;
		return v;
	}
	for (;;) {
		struct jval *item = parse_value(ps, depth + 1);

		if (!item)
			goto fail;
		if (ptrvec_push(&items, item)) {
			pfail(ps, -ENOMEM, v->off, "out of memory");
			goto fail;
		}
		skip_ws(ps);
		if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->pos < ps->len && ps->s[ps->pos] == ']') {
			ps->pos++;
			break;
		}
		pfail(ps, -EINVAL, ps->pos, "expected ',' or ']' in an array");
		goto fail;
	}
	v->arr.v = arena_alloc(ps->arena, items.n * sizeof(*v->arr.v));
	if (!v->arr.v) {
		pfail(ps, -ENOMEM, v->off, "out of memory");
		goto fail;
	}
	memcpy(v->arr.v, items.v, items.n * sizeof(*v->arr.v));
	v->arr.n = items.n;
	free(items.v);
	return v;
fail:
	free(items.v);
	return NULL;
}

static int member_key_cmp(const void *x, const void *y)
{
	const struct jmember *a = *(const struct jmember *const *)x;
	const struct jmember *b = *(const struct jmember *const *)y;
	size_t n = a->klen < b->klen ? a->klen : b->klen;
	int r = memcmp(a->key, b->key, n);

	if (r)
		return r;
	return a->klen < b->klen ? -1 : a->klen > b->klen;
}

/* Duplicate keys, found by sorting (an object may be huge in hostile text) */
static struct jval *check_duplicates(struct parser *ps, struct jval *v)
{
	const struct jmember **sorted;

	if (v->obj.n < 2)
		return v;
	sorted = malloc(v->obj.n * sizeof(*sorted));
	if (!sorted)
		return pfail(ps, -ENOMEM, v->off, "out of memory");
	for (size_t i = 0; i < v->obj.n; i++)
		sorted[i] = &v->obj.m[i];
	qsort(sorted, v->obj.n, sizeof(*sorted), member_key_cmp);
	for (size_t i = 1; i < v->obj.n; i++) {
		if (!member_key_cmp(&sorted[i - 1], &sorted[i])) {
			size_t off = sorted[i]->val->off;
			const char *key = sorted[i]->key;

			free(sorted);
			return pfail(ps, -EINVAL, off, "duplicate key \"%.40s\"", key);
		}
	}
	free(sorted);
	return v;
}

static struct jval *parse_object(struct parser *ps, unsigned depth)
{
	struct jval *v = new_val(ps, J_OBJ, ps->pos);
	struct jmember *members = NULL;
	size_t n = 0, cap = 0;

	if (!v)
		return NULL;
	ps->pos++;
	skip_ws(ps);
	if (ps->pos < ps->len && ps->s[ps->pos] == '}') {
		ps->pos++;
		return v;
	}
	for (;;) {
		struct jval *key, *val;

		skip_ws(ps);
		if (ps->pos >= ps->len || ps->s[ps->pos] != '"') {
			pfail(ps, -EINVAL, ps->pos, "expected a string key in an object");
			goto fail;
		}
		key = parse_string(ps);
		if (!key)
			goto fail;
		skip_ws(ps);
		if (ps->pos >= ps->len || ps->s[ps->pos] != ':') {
			pfail(ps, -EINVAL, ps->pos, "expected ':' after a key");
			goto fail;
		}
		ps->pos++;
		val = parse_value(ps, depth + 1);
		if (!val)
			goto fail;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct jmember *nm = realloc(members, ncap * sizeof(*nm));

			if (!nm) {
				pfail(ps, -ENOMEM, v->off, "out of memory");
				goto fail;
			}
			members = nm;
			cap = ncap;
		}
		members[n].key = key->str.s;
		members[n].klen = key->str.len;
		members[n].val = val;
		n++;
		skip_ws(ps);
		if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->pos < ps->len && ps->s[ps->pos] == '}') {
			ps->pos++;
			break;
		}
		pfail(ps, -EINVAL, ps->pos, "expected ',' or '}' in an object");
		goto fail;
	}
	v->obj.m = arena_alloc(ps->arena, n * sizeof(*v->obj.m));
	if (!v->obj.m) {
		pfail(ps, -ENOMEM, v->off, "out of memory");
		goto fail;
	}
	memcpy(v->obj.m, members, n * sizeof(*members));
	v->obj.n = n;
	free(members);
	return check_duplicates(ps, v);
fail:
	free(members);
	return NULL;
}

static bool match_word(struct parser *ps, const char *w)
{
	size_t n = strlen(w);

	if (ps->len - ps->pos < n || memcmp(ps->s + ps->pos, w, n))
		return false;
	ps->pos += n;
	return true;
}

static struct jval *parse_value(struct parser *ps, unsigned depth)
{
	size_t start;
	struct jval *v;
	unsigned char c;

	skip_ws(ps);
	start = ps->pos;
	if (depth >= JSON_MAX_DEPTH)
		return pfail(ps, -EINVAL, start, "nested deeper than %d levels", JSON_MAX_DEPTH);
	if (ps->pos >= ps->len)
		return pfail(ps, -EINVAL, start, "unexpected end of text");
	c = ps->s[ps->pos];
	switch (c) {
	case '{':
		return parse_object(ps, depth);
	case '[':
		return parse_array(ps, depth);
	case '"':
		return parse_string(ps);
	case 't':
	case 'f':
	case 'n':
		if (match_word(ps, "true") || match_word(ps, "false")) {
			v = new_val(ps, J_BOOL, start);
			if (v)
				v->b = c == 't';
			return v;
		}
		if (match_word(ps, "null"))
			return new_val(ps, J_NULL, start);
		break;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(ps);
		break;
	}
	return pfail(ps, -EINVAL, start, "unexpected character '%c'", c >= 0x20 && c < 0x7f ? c : '?');
}

/* ---- JSON reader: the schema ---------------------------------------------------------------- */

struct importer {
	struct ibtopo *topo;
	char *errbuf;
	size_t errlen;
	int err;
	const char *where; /* the object being read, for messages */
	unsigned where_index;
	/* remote of each port, resolved once every node exists */
	struct pending {
		struct ibtopo_port *port;
		unsigned node, num;
		size_t off;
	} *pending;
	size_t n_pending, cap_pending;
	bool group; /* the file shows chassis grouping: ibtopo_group_chassis() again */
};

static int __attribute__((format(printf, 4, 5)))
ifail(struct importer *im, int err, const struct jval *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	im->err = err;
	if (!im->errbuf || !im->errlen)
		return err;
	n = snprintf(im->errbuf, im->errlen, "offset %zu: %s", at ? at->off : 0, im->where);
	if (n >= 0 && (size_t)n < im->errlen && im->where_index != UINT32_MAX)
		n += snprintf(im->errbuf + n, im->errlen - (size_t)n, " %u", im->where_index);
	if (n < 0 || (size_t)n + 2 >= im->errlen)
		return err;
	memcpy(im->errbuf + n, ": ", 3);
	n += 2;
	va_start(ap, fmt);
	vsnprintf(im->errbuf + n, im->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

static void set_where(struct importer *im, const char *where, unsigned index)
{
	im->where = where;
	im->where_index = index;
}

static bool key_is(const struct jmember *m, const char *key)
{
	return strlen(key) == m->klen && !memcmp(m->key, key, m->klen);
}

/* The object has exactly these keys (NULL-terminated list) */
static int check_keys(struct importer *im, const struct jval *obj, const char *const keys[])
{
	size_t nkeys = 0;

	if (obj->type != J_OBJ)
		return ifail(im, -EINVAL, obj, "expected an object");
	for (size_t i = 0; i < obj->obj.n; i++) {
		size_t k;

		for (k = 0; keys[k]; k++)
			if (key_is(&obj->obj.m[i], keys[k]))
				break;
		if (!keys[k])
			return ifail(im, -EINVAL, obj->obj.m[i].val, "unknown key \"%.40s\"",
				     obj->obj.m[i].key);
	}
	while (keys[nkeys])
		nkeys++;
	/* keys are unique (the parser refuses duplicates), so equal counts mean all present */
	if (obj->obj.n != nkeys) {
		for (size_t k = 0; keys[k]; k++) {
			size_t i;

			for (i = 0; i < obj->obj.n; i++)
				if (key_is(&obj->obj.m[i], keys[k]))
					break;
			if (i == obj->obj.n)
				return ifail(im, -EINVAL, obj, "missing key \"%s\"", keys[k]);
		}
	}
	return 0;
}

static const struct jval *get(const struct jval *obj, const char *key)
{
	for (size_t i = 0; i < obj->obj.n; i++)
		if (key_is(&obj->obj.m[i], key))
			return obj->obj.m[i].val;
	return NULL; /* not reached after check_keys() */
}

static int want_uint(struct importer *im, const struct jval *v, const char *key, uint64_t max,
		     uint64_t *out)
{
	if (v->type != J_NUM || !v->num.integer || v->num.neg)
		return ifail(im, -EINVAL, v, "\"%s\" must be a non-negative integer", key);
	if (v->num.mag > max)
		return ifail(im, -ERANGE, v, "\"%s\" is out of range (at most %" PRIu64 ")", key,
			     max);
	*out = v->num.mag;
	return 0;
}

static int get_uint(struct importer *im, const struct jval *obj, const char *key, uint64_t max,
		    uint64_t *out)
{
	return want_uint(im, get(obj, key), key, max, out);
}

/* Shorthand for the common small fields */
#define GET_UINT(im, obj, key, max, dst)                                   \
	({                                                                 \
		uint64_t v_;                                               \
		int rc_ = get_uint((im), (obj), (key), (max), &v_);        \
		if (!rc_)                                                  \
			(dst) = (__typeof__(dst))v_;                        \
		rc_;                                                       \
	})

static int get_int(struct importer *im, const struct jval *obj, const char *key, int64_t min,
		   int64_t max, int64_t *out)
{
	const struct jval *v = get(obj, key);
	int64_t x;

	if (v->type != J_NUM || !v->num.integer)
		return ifail(im, -EINVAL, v, "\"%s\" must be an integer", key);
	if (v->num.mag > (uint64_t)INT64_MAX)
		return ifail(im, -ERANGE, v, "\"%s\" is out of range", key);
	x = v->num.neg ? -(int64_t)v->num.mag : (int64_t)v->num.mag;
	if (x < min || x > max)
		return ifail(im, -ERANGE, v, "\"%s\" is out of range", key);
	*out = x;
	return 0;
}

static int get_bool(struct importer *im, const struct jval *obj, const char *key, bool *out)
{
	const struct jval *v = get(obj, key);

	if (v->type != J_BOOL)
		return ifail(im, -EINVAL, v, "\"%s\" must be true or false", key);
	*out = v->b;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1; /* upper case is not what the writer writes */
}

/* A hex string into buf: exactly `want` bytes unless want is 0 (then up to max, *len set). */
static int get_hex(struct importer *im, const struct jval *v, const char *key, uint8_t *buf,
		   size_t want, size_t max, size_t *len)
{
	size_t n;

	if (v->type != J_STR)
		return ifail(im, -EINVAL, v, "\"%s\" must be a hex string", key);
	n = v->str.len / 2;
	if (v->str.len % 2 || (want && n != want) || (!want && n > max))
		return ifail(im, -EINVAL, v, "\"%s\" must be %zu hex digits", key,
			     want ? want * 2 : max * 2);
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(v->str.s[2 * i]), lo = hexval(v->str.s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return ifail(im, -EINVAL, v, "\"%s\" has a character that is not a lower-case hex digit", key);
		buf[i] = (uint8_t)(hi << 4 | lo);
	}
	if (len)
		*len = n;
	return 0;
}

static int get_guid(struct importer *im, const struct jval *obj, const char *key, uint64_t *out)
{
	const struct jval *v = get(obj, key);
	uint8_t b[8];

	if (v->type != J_STR || v->str.len != 18 || v->str.s[0] != '0' || v->str.s[1] != 'x')
		return ifail(im, -EINVAL, v, "\"%s\" must be a GUID \"0x\" + 16 hex digits", key);
	for (int i = 0; i < 8; i++) {
		int hi = hexval(v->str.s[2 + 2 * i]), lo = hexval(v->str.s[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			return ifail(im, -EINVAL, v, "\"%s\" must be a GUID \"0x\" + 16 hex digits",
				     key);
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	*out = get_be64(b);
	return 0;
}

static const struct jval *get_array(struct importer *im, const struct jval *obj, const char *key)
{
	const struct jval *v = get(obj, key);

	if (v->type != J_ARR) {
		ifail(im, -EINVAL, v, "\"%s\" must be an array", key);
		return NULL;
	}
	return v;
}

static int read_dr_path(struct importer *im, const struct jval *v, struct ibtopo_dr_path *p)
{
	static const char *const keys[] = { "lid", "drslid", "drdlid", "ports", NULL };
	const struct jval *ports;
	int rc;

	memset(p, 0, sizeof(*p));
	rc = check_keys(im, v, keys);
	if (rc || (rc = GET_UINT(im, v, "lid", 0xffff, p->lid)) ||
	    (rc = GET_UINT(im, v, "drslid", 0xffff, p->drslid)) ||
	    (rc = GET_UINT(im, v, "drdlid", 0xffff, p->drdlid)))
		return rc;
	ports = get_array(im, v, "ports");
	if (!ports)
		return im->err;
	if (ports->arr.n < 1 || ports->arr.n > IBTOPO_MAX_HOPS + 1)
		return ifail(im, -EINVAL, ports, "a DR path has 1 to %d ports", IBTOPO_MAX_HOPS + 1);
	for (size_t i = 0; i < ports->arr.n; i++) {
		uint64_t x;

		rc = want_uint(im, ports->arr.v[i], "ports", 255, &x);
		if (rc)
			return rc;
		p->port[i] = (uint8_t)x;
	}
	p->hops = (uint8_t)(ports->arr.n - 1);
	return 0;
}

/* "desc" against "node_desc": the reader gave back the very bytes */
static bool desc_matches(const char *desc_str, const struct jval *v)
{
	return strlen(desc_str) == v->str.len && !memcmp(desc_str, v->str.s, v->str.len);
}

static int read_port(struct importer *im, struct ibtopo_node *n, const struct jval *v,
		     int *last_num)
{
	static const char *const keys[] = { "num", "guid", "lid", "lmc", "ext_num", "seq",
					    "info", "ext_info", "remote", NULL };
	static const char *const rkeys[] = { "node", "port", NULL };
	const struct jval *x;
	struct ibtopo_port *p;
	unsigned num;
	int rc = check_keys(im, v, keys);

	if (rc || (rc = GET_UINT(im, v, "num", 255, num)))
		return rc;
	if (num > n->num_ports || (int)num <= *last_num)
		return ifail(im, -EINVAL, get(v, "num"),
			     "port %u: beyond num_ports or not in increasing order", num);
	*last_num = (int)num;
	p = topo_port_get(n, num);
	if (!p)
		return ifail(im, -ENOMEM, v, "out of memory");
	if ((rc = get_guid(im, v, "guid", &p->guid)) ||
	    (rc = GET_UINT(im, v, "lid", 0xffff, p->base_lid)) ||
	    (rc = GET_UINT(im, v, "lmc", 7, p->lmc)) ||
	    (rc = GET_UINT(im, v, "ext_num", 255, p->ext_num)) ||
	    (rc = GET_UINT(im, v, "seq", UINT32_MAX, p->seq)))
		return rc;
	x = get(v, "info");
	if (x->type != J_NULL) {
		rc = get_hex(im, x, "info", p->info, IBTOPO_SMP_DATA_SIZE, 0, NULL);
		if (rc)
			return rc;
		p->has_info = true;
	}
	x = get(v, "ext_info");
	if (x->type != J_NULL) {
		uint8_t ext[IBTOPO_SMP_DATA_SIZE];

		rc = get_hex(im, x, "ext_info", ext, IBTOPO_SMP_DATA_SIZE, 0, NULL);
		if (rc)
			return rc;
		if (topo_port_set_ext_info(p, ext))
			return -ENOMEM;
	}
	x = get(v, "remote");
	if (x->type != J_NULL) {
		struct pending pd = { .port = p, .off = x->off };

		rc = check_keys(im, x, rkeys);
		if (rc || (rc = GET_UINT(im, x, "node", UINT32_MAX, pd.node)) ||
		    (rc = GET_UINT(im, x, "port", 255, pd.num)))
			return rc;
		if (im->n_pending == im->cap_pending) {
			size_t cap = im->cap_pending ? im->cap_pending * 2 : 64;
			struct pending *np = realloc(im->pending, cap * sizeof(*np));

			if (!np)
				return ifail(im, -ENOMEM, v, "out of memory");
			im->pending = np;
			im->cap_pending = cap;
		}
		im->pending[im->n_pending++] = pd;
	}
	return 0;
}

static int read_tables(struct importer *im, struct ibtopo_node *n, const struct jval *v)
{
	static const char *const mkeys[] = { "entries", "data", NULL };
	const struct jval *x = get(v, "lft");
	uint8_t *buf;
	size_t len;
	unsigned entries;
	int rc;

	if (x->type != J_NULL) {
		if (x->type != J_STR)
			return ifail(im, -EINVAL, x, "\"lft\" must be a hex string or null");
		buf = malloc(x->str.len / 2 + 1);
		if (!buf)
			return ifail(im, -ENOMEM, x, "out of memory");
		rc = get_hex(im, x, "lft", buf, 0, LID_UNICAST_MAX + 1, &len);
		if (rc) {
			free(buf);
			return rc;
		}
		n->lft = buf;
		n->lft_len = (unsigned)len;
	}
	x = get(v, "mft");
	if (x->type == J_NULL)
		return 0;
	rc = check_keys(im, x, mkeys);
	if (rc || (rc = GET_UINT(im, x, "entries", 0x4000, entries)))
		return rc;
	buf = malloc((size_t)entries * 32 + 1);
	if (!buf)
		return ifail(im, -ENOMEM, x, "out of memory");
	rc = get_hex(im, get(x, "data"), "data", buf, (size_t)entries * 32, 0, NULL);
	if (rc) {
		free(buf);
		return rc;
	}
	n->mft = calloc((size_t)entries * 16 + 1, sizeof(*n->mft));
	if (!n->mft) {
		free(buf);
		return ifail(im, -ENOMEM, x, "out of memory");
	}
	for (size_t i = 0; i < (size_t)entries * 16; i++)
		n->mft[i] = get_be16(buf + 2 * i);
	n->mft_entries = entries;
	free(buf);
	return 0;
}

static int read_node(struct importer *im, unsigned index, const struct jval *v)
{
	static const char *const keys[] = { "index", "type", "guid", "num_ports", "desc",
					    "node_info", "node_desc", "switch_info", "sma_lid",
					    "sma_lmc", "sma_enh_sp0", "dr_path", "chassis", "lft",
					    "mft", "ports", NULL };
	static const char *const ckeys[] = { "num", "type", "slot", "slotnum", "anafanum", NULL };
	uint8_t info[IBTOPO_SMP_DATA_SIZE], buf[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo_dr_path path;
	const struct jval *x, *ports;
	struct ibtopo_node *n;
	uint64_t idx, guid, num_ports, u;
	bool enh = false;
	int last_num = -1;
	int rc;

	set_where(im, "node", index);
	rc = check_keys(im, v, keys);
	if (rc || (rc = get_uint(im, v, "index", UINT32_MAX, &idx)))
		return rc;
	if (idx != index)
		return ifail(im, -EINVAL, get(v, "index"), "\"index\" is not the node's position");
	if ((rc = get_hex(im, get(v, "node_info"), "node_info", info, sizeof(info), 0, NULL)) ||
	    (rc = get_guid(im, v, "guid", &guid)) ||
	    (rc = get_uint(im, v, "num_ports", 255, &num_ports)))
		return rc;
	x = get(v, "type");
	if (x->type != J_STR || strcmp(x->str.s, type_name(NI_NODE_TYPE(info))))
		return ifail(im, -EINVAL, x, "\"type\" must be \"%s\" (from node_info)",
			     type_name(NI_NODE_TYPE(info)));
	if (guid != NI_NODE_GUID(info) || num_ports != NI_NUM_PORTS(info))
		return ifail(im, -EINVAL, v, "\"guid\" or \"num_ports\" differs from node_info");
	rc = read_dr_path(im, get(v, "dr_path"), &path);
	if (rc)
		return rc;
	n = topo_node_create(im->topo, info, &path);
	if (!n)
		return ifail(im, -ENOMEM, v, "out of memory");
	x = get(v, "node_desc");
	if (x->type != J_NULL) {
		rc = get_hex(im, x, "node_desc", buf, sizeof(buf), 0, NULL);
		if (rc)
			return rc;
		topo_node_set_desc(n, buf);
	}
	x = get(v, "desc");
	if (x->type != J_STR || !desc_matches(n->desc_str, x))
		return ifail(im, -EINVAL, x, "\"desc\" must be the string of \"node_desc\"");
	x = get(v, "switch_info");
	if (x->type != J_NULL) {
		rc = get_hex(im, x, "switch_info", buf, sizeof(buf), 0, NULL);
		if (rc)
			return rc;
		topo_node_set_switch_info(n, buf);
	}
	if ((rc = GET_UINT(im, v, "sma_lid", 0xffff, n->sma_lid)) ||
	    (rc = GET_UINT(im, v, "sma_lmc", 7, n->sma_lmc)) ||
	    (rc = get_bool(im, v, "sma_enh_sp0", &enh)))
		return rc;
	n->sma_enh_sp0 = enh;
	/* chassis: derived (ibtopo_group_chassis() runs again); only its form is checked */
	x = get(v, "chassis");
	if (x->type != J_NULL) {
		im->group = true;
		rc = check_keys(im, x, ckeys);
		for (size_t k = 0; !rc && ckeys[k]; k++)
			rc = get_uint(im, x, ckeys[k], 255, &u);
		if (rc)
			return rc;
	}
	rc = read_tables(im, n, v);
	if (rc)
		return rc;
	ports = get_array(im, v, "ports");
	if (!ports)
		return im->err;
	for (size_t i = 0; i < ports->arr.n; i++) {
		rc = read_port(im, n, ports->arr.v[i], &last_num);
		if (rc)
			return rc;
	}
	return 0;
}

static int resolve_remotes(struct importer *im)
{
	struct ibtopo *t = im->topo;

	set_where(im, "port remote", UINT32_MAX);
	for (size_t i = 0; i < im->n_pending; i++) {
		const struct pending *pd = &im->pending[i];
		struct ibtopo_node *rn = pd->node < t->all.n ? t->all.v[pd->node] : NULL;
		struct ibtopo_port *rp = rn ? ibtopo_node_port(rn, pd->num) : NULL;
		struct jval at = { .off = pd->off };

		if (!rp)
			return ifail(im, -EINVAL, &at, "node %u port %u does not exist", pd->node,
				     pd->num);
		pd->port->remote = rp;
	}
	/* links are symmetric (topo_link() makes them so) */
	for (size_t i = 0; i < im->n_pending; i++) {
		const struct pending *pd = &im->pending[i];
		struct jval at = { .off = pd->off };

		if (pd->port->remote->remote != pd->port)
			return ifail(im, -EINVAL, &at,
				     "node %u port %u is not linked back to node %u port %u",
				     pd->node, pd->num, pd->port->node->index, pd->port->num);
	}
	return 0;
}

/* "links" must be what the ports' remotes give, in the writer's order */
static int check_links(struct importer *im, const struct jval *links)
{
	const struct ibtopo *t = im->topo;
	size_t k = 0;

	set_where(im, "links", UINT32_MAX);
	for (unsigned i = 0; i < t->all.n; i++) {
		const struct ibtopo_node *n = t->all.v[i];

		for (unsigned p = 0; p <= n->num_ports; p++) {
			const struct ibtopo_port *port = n->ports[p];
			uint64_t want[4], got;
			const struct jval *l;

			if (!port || !link_is_first(port))
				continue;
			if (k == links->arr.n)
				return ifail(im, -EINVAL, links, "fewer links than the ports' remotes");
			l = links->arr.v[k++];
			if (l->type != J_ARR || l->arr.n != 4)
				return ifail(im, -EINVAL, l, "a link is [node, port, node, port]");
			want[0] = i;
			want[1] = p;
			want[2] = port->remote->node->index;
			want[3] = port->remote->num;
			for (int e = 0; e < 4; e++) {
				int rc = want_uint(im, l->arr.v[e], "link", UINT32_MAX, &got);

				if (rc)
					return rc;
				if (got != want[e])
					return ifail(im, -EINVAL, l,
						     "link %zu differs from the ports' remotes", k - 1);
			}
		}
	}
	if (k != links->arr.n)
		return ifail(im, -EINVAL, links->arr.v[k], "more links than the ports' remotes");
	return 0;
}

static int seq_cmp(const void *x, const void *y)
{
	const struct ibtopo_port *a = *(struct ibtopo_port *const *)x;
	const struct ibtopo_port *b = *(struct ibtopo_port *const *)y;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The GUID hash is rebuilt in the order the ports first went in (their seq). */
static int index_ports(struct importer *im, uint32_t port_seq, const struct jval *at)
{
	struct ibtopo *t = im->topo;
	struct ibtopo_port **v = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	set_where(im, "port_seq", UINT32_MAX);
	for (unsigned i = 0; i < t->all.n; i++) {
		struct ibtopo_node *node = t->all.v[i];

		for (unsigned p = 0; p <= node->num_ports; p++) {
			struct ibtopo_port *port = node->ports[p];

			if (!port || !port->seq)
				continue;
			if (port->seq > port_seq) {
				free(v);
				return ifail(im, -EINVAL, at, "a port's seq is above port_seq");
			}
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				struct ibtopo_port **nv = realloc(v, ncap * sizeof(*nv));

				if (!nv) {
					free(v);
					return ifail(im, -ENOMEM, at, "out of memory");
				}
				v = nv;
				cap = ncap;
			}
			v[n++] = port;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), seq_cmp);
	for (size_t i = 0; i < n && !rc; i++) {
		uint32_t seq = v[i]->seq;

		if (i && v[i - 1]->seq == seq) {
			rc = ifail(im, -EINVAL, at, "two ports have seq %" PRIu32, seq);
			break;
		}
		if (topo_port_index(v[i]))
			rc = ifail(im, -ENOMEM, at, "out of memory");
		v[i]->seq = seq;
	}
	free(v);
	t->port_seq = port_seq;
	return rc;
}

static int read_lids(struct importer *im, const struct jval *lids)
{
	static const char *const keys[] = { "lid", "count", "node", "port", NULL };
	struct ibtopo *t = im->topo;
	uint64_t next = 0;

	if (lids->arr.n && !t->lid_tab) {
		t->lid_tab = calloc(LID_TAB_SIZE, sizeof(*t->lid_tab));
		if (!t->lid_tab)
			return ifail(im, -ENOMEM, lids, "out of memory");
	}
	if (t->lid_tab)
		memset(t->lid_tab, 0, LID_TAB_SIZE * sizeof(*t->lid_tab));
	for (size_t i = 0; i < lids->arr.n; i++) {
		const struct jval *v = lids->arr.v[i];
		uint64_t lid, count, node, num;
		struct ibtopo_port *p;
		int rc;

		set_where(im, "lids entry", (unsigned)i);
		rc = check_keys(im, v, keys);
		if (rc || (rc = get_uint(im, v, "lid", LID_TAB_SIZE - 1, &lid)) ||
		    (rc = get_uint(im, v, "count", LID_TAB_SIZE, &count)) ||
		    (rc = get_uint(im, v, "node", UINT32_MAX, &node)) ||
		    (rc = get_uint(im, v, "port", 255, &num)))
			return rc;
		if (lid < next || count == 0 || lid + count > LID_TAB_SIZE)
			return ifail(im, -EINVAL, v,
				     "LID ranges must be non-empty, increasing and not overlap");
		p = node < t->all.n ? ibtopo_node_port(t->all.v[node], (unsigned)num) : NULL;
		if (!p)
			return ifail(im, -EINVAL, v, "node %" PRIu64 " port %" PRIu64 " does not exist",
				     node, num);
		for (uint64_t l = lid; l < lid + count; l++)
			t->lid_tab[l] = p;
		next = lid + count;
	}
	return 0;
}

static int read_errors(struct importer *im, const struct jval *errors)
{
	static const char *const keys[] = { "kind", "errnum", "attr_id", "attr_mod", "status",
					    "dr_path", "guid", "message", NULL };

	for (size_t i = 0; i < errors->arr.n; i++) {
		const struct jval *v = errors->arr.v[i], *x;
		struct ibtopo_dr_path path;
		uint16_t attr_id, status;
		uint32_t attr_mod;
		int64_t errnum = 0;
		uint64_t guid;
		unsigned kind = 0;
		int rc;

		set_where(im, "error", (unsigned)i);
		rc = check_keys(im, v, keys);
		if (rc)
			return rc;
		x = get(v, "kind");
		if (x->type == J_STR) {
			for (unsigned k = 1; k < N_ERROR_KINDS; k++)
				if (!strcmp(x->str.s, error_kinds[k]))
					kind = k;
			if (!kind)
				return ifail(im, -EINVAL, x, "unknown error kind");
		} else {
			uint64_t k;

			rc = want_uint(im, x, "kind", INT32_MAX, &k);
			if (rc)
				return rc;
			if (k && k < N_ERROR_KINDS)
				return ifail(im, -EINVAL, x, "a known error kind is written by name");
			kind = (unsigned)k;
		}
		if ((rc = get_int(im, v, "errnum", INT32_MIN, INT32_MAX, &errnum)) ||
		    (rc = GET_UINT(im, v, "attr_id", 0xffff, attr_id)) ||
		    (rc = GET_UINT(im, v, "attr_mod", UINT32_MAX, attr_mod)) ||
		    (rc = GET_UINT(im, v, "status", 0xffff, status)) ||
		    (rc = read_dr_path(im, get(v, "dr_path"), &path)) ||
		    (rc = get_guid(im, v, "guid", &guid)))
			return rc;
		x = get(v, "message");
		if (x->type != J_STR)
			return ifail(im, -EINVAL, x, "\"message\" must be a string");
		if (topo_add_error(im->topo, (enum ibtopo_error_kind)kind, (int)errnum, attr_id,
				   attr_mod, status, &path, guid, "%s", x->str.s))
			return ifail(im, -ENOMEM, v, "out of memory");
	}
	return 0;
}

static int read_topology(struct importer *im, const struct jval *root)
{
	static const char *const keys[] = { "format", "schema_version", "from", "max_hops",
					    "mads", "port_seq", "nodes", "links", "lids",
					    "chassis", "errors", NULL };
	static const char *const fkeys[] = { "node", "port", NULL };
	static const char *const chkeys[] = { "num", "guid", NULL };
	const struct jval *v, *nodes, *links, *lids, *chassis, *errors, *from;
	struct ibtopo *t = im->topo;
	uint64_t version, u;
	uint32_t port_seq;
	int rc;

	set_where(im, "topology", UINT32_MAX);
	if (root->type != J_OBJ)
		return ifail(im, -EINVAL, root, "expected an object");
	/* the version first: a later schema may have other keys */
	v = get(root, "schema_version");
	if (!v)
		return ifail(im, -EINVAL, root, "missing key \"schema_version\"");
	rc = want_uint(im, v, "schema_version", UINT32_MAX, &version);
	if (rc)
		return rc;
	if (version != IBTOPO_JSON_SCHEMA_VERSION)
		return ifail(im, -EPROTO, v, "schema version %" PRIu64 " (this library reads %d)",
			     version, IBTOPO_JSON_SCHEMA_VERSION);
	rc = check_keys(im, root, keys);
	if (rc)
		return rc;
	v = get(root, "format");
	if (v->type != J_STR || strcmp(v->str.s, "ibtopo"))
		return ifail(im, -EINVAL, v, "\"format\" must be \"ibtopo\"");
	if ((rc = GET_UINT(im, root, "max_hops", UINT32_MAX, t->max_hops)) ||
	    (rc = get_uint(im, root, "mads", UINT64_MAX, &t->mads)) ||
	    (rc = GET_UINT(im, root, "port_seq", UINT32_MAX, port_seq)))
		return rc;
	if (!(nodes = get_array(im, root, "nodes")) || !(links = get_array(im, root, "links")) ||
	    !(lids = get_array(im, root, "lids")) || !(chassis = get_array(im, root, "chassis")) ||
	    !(errors = get_array(im, root, "errors")))
		return im->err;
	if (nodes->arr.n > UINT32_MAX - 1)
		return ifail(im, -ERANGE, nodes, "too many nodes");
	for (size_t i = 0; i < nodes->arr.n; i++) {
		rc = read_node(im, (unsigned)i, nodes->arr.v[i]);
		if (rc)
			return rc;
	}
	if ((rc = resolve_remotes(im)) || (rc = check_links(im, links)) ||
	    (rc = index_ports(im, port_seq, get(root, "port_seq"))))
		return rc;
	rc = read_lids(im, lids);
	if (rc)
		return rc;
	set_where(im, "from", UINT32_MAX);
	from = get(root, "from");
	rc = check_keys(im, from, fkeys);
	if (rc || (rc = GET_UINT(im, from, "port", 255, t->from_port)))
		return rc;
	v = get(from, "node");
	if (v->type != J_NULL) {
		rc = want_uint(im, v, "node", UINT32_MAX, &u);
		if (rc)
			return rc;
		if (u >= t->all.n)
			return ifail(im, -EINVAL, v, "node %" PRIu64 " does not exist", u);
		t->from_node = t->all.v[u];
	}
	for (size_t i = 0; i < chassis->arr.n; i++) {
		set_where(im, "chassis", (unsigned)i);
		rc = check_keys(im, chassis->arr.v[i], chkeys);
		if (rc || (rc = get_uint(im, chassis->arr.v[i], "num", 255, &u)) ||
		    (rc = get_guid(im, chassis->arr.v[i], "guid", &u)))
			return rc;
	}
	rc = read_errors(im, errors);
	if (rc)
		return rc;
	/* chassis are derived from the nodes: group again when the file shows grouping */
	if ((chassis->arr.n || im->group) && ibtopo_group_chassis(t)) {
		set_where(im, "chassis", UINT32_MAX);
		return ifail(im, -ENOMEM, chassis, "out of memory");
	}
	return 0;
}

IBTOPO_EXPORT int ibtopo_import_json(const char *text, size_t len, struct ibtopo **out,
				     char *errbuf, size_t errlen)
{
	struct arena arena = { 0 };
	struct parser ps = { 0 };
	struct importer im = { 0 };
	struct jval *root;
	int rc;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	ps.s = (const unsigned char *)(text ? text : "");
	ps.len = len;
	ps.arena = &arena;
	ps.errbuf = errbuf;
	ps.errlen = errlen;
	root = parse_value(&ps, 0);
	if (root) {
		skip_ws(&ps);
		if (ps.pos != ps.len)
			root = pfail(&ps, -EINVAL, ps.pos, "text after the JSON value");
	}
	if (!root) {
		arena_free(&arena);
		return ps.err ? ps.err : -EINVAL;
	}
	rc = ibtopo_new(&im.topo);
	if (rc) {
		arena_free(&arena);
		return rc;
	}
	im.errbuf = errbuf;
	im.errlen = errlen;
	rc = read_topology(&im, root);
	free(im.pending);
	arena_free(&arena);
	if (rc) {
		ibtopo_unref(im.topo);
		return rc;
	}
	*out = im.topo;
	return 0;
}
