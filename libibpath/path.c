// SPDX-License-Identifier: BSD-3-Clause
/*
 * Path objects: the addressing of one MAD exchange (LRH/GRH/BTH/DETH fields, or a
 * directed route), its timeouts, its reverse, and its two text forms.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpath-private.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

struct attr_info {
	const char *name; /* the spec name, as python-rdma's path attributes */
	uint64_t max;
	uint64_t dflt;
	bool hex;         /* printed in hex in spec and text forms */
};

/* indexed by enum ibpath_attr */
static const struct attr_info attrs[IBPATH_ATTR_COUNT_] = {
	[IBPATH_SLID] = { "SLID", 0xffff, 0, false },
	[IBPATH_DLID] = { "DLID", 0xffff, 0, false },
	[IBPATH_SL] = { "SL", 15, 0, false },
	[IBPATH_TRAFFIC_CLASS] = { "traffic_class", 0xff, 0, false },
	[IBPATH_FLOW_LABEL] = { "flow_label", 0xfffff, 0, true },
	[IBPATH_HOP_LIMIT] = { "hop_limit", 0xff, 0, false },
	[IBPATH_PKEY] = { "pkey", 0xffff, 0xffff, true },
	[IBPATH_PKEY_INDEX] = { "pkey_index", 0xffff, 0, false },
	[IBPATH_QKEY] = { "qkey", 0xffffffff, 0, true },
	[IBPATH_SQPN] = { "sqpn", 0xffffff, 0, false },
	[IBPATH_DQPN] = { "dqpn", 0xffffff, 0, false },
	[IBPATH_MTU] = { "mtu", 63, 0, false },
	[IBPATH_RATE] = { "rate", 63, 0, false },
	[IBPATH_PACKET_LIFE_TIME] = { "packet_life_time", 31, 18, false },
	[IBPATH_RESP_TIME] = { "resp_time", 31, 20, false },
	[IBPATH_RETRIES] = { "retries", 255, 0, false },
	[IBPATH_DR_SLID] = { "drSLID", 0xffff, 0xffff, false },
	[IBPATH_DR_DLID] = { "drDLID", 0xffff, 0xffff, false },
	[IBPATH_TIMEOUT_MS] = { "timeout_ms", 0x7fffffff, 0, false },
};

IBPATH_EXPORT const char *ibpath_version(void)
{
	return PACKAGE_VERSION;
}

IBPATH_EXPORT int ibpath_path_new(struct ibpath_path **out, enum ibpath_kind kind)
{
	struct ibpath_path *p;
	unsigned i;

	if (!out || (kind != IBPATH_KIND_IB && kind != IBPATH_KIND_DR))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->refcount = 1;
	p->kind = kind;
	for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
		p->attr[i] = attrs[i].dflt;
	if (kind == IBPATH_KIND_DR) {
		p->nports = 1; /* the local port */
		p->ports[0] = 0;
	}
	*out = p;
	return 0;
}

IBPATH_EXPORT struct ibpath_path *ibpath_path_ref(struct ibpath_path *path)
{
	if (path)
		path->refcount++;
	return path;
}

IBPATH_EXPORT void ibpath_path_unref(struct ibpath_path *path)
{
	if (path && --path->refcount <= 0)
		free(path);
}

IBPATH_EXPORT int ibpath_path_copy(const struct ibpath_path *path, struct ibpath_path **out)
{
	struct ibpath_path *p;

	if (!path || !out)
		return -EINVAL;
	p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	*p = *path;
	p->refcount = 1;
	*out = p;
	return 0;
}

IBPATH_EXPORT enum ibpath_kind ibpath_path_kind(const struct ibpath_path *path)
{
	return path ? path->kind : IBPATH_KIND_IB;
}

IBPATH_EXPORT bool ibpath_path_equal(const struct ibpath_path *a, const struct ibpath_path *b)
{
	if (!a || !b)
		return a == b;
	return a->kind == b->kind && !memcmp(a->attr, b->attr, sizeof(a->attr)) &&
	       a->has_grh == b->has_grh && !memcmp(&a->sgid, &b->sgid, sizeof(a->sgid)) &&
	       !memcmp(&a->dgid, &b->dgid, sizeof(a->dgid)) && a->nports == b->nports &&
	       !memcmp(a->ports, b->ports, a->nports) && a->nrports == b->nrports &&
	       !memcmp(a->rports, b->rports, a->nrports) && !strcmp(a->end_port, b->end_port);
}

IBPATH_EXPORT uint64_t ibpath_path_get(const struct ibpath_path *path, enum ibpath_attr attr)
{
	if (!path || (unsigned)attr >= IBPATH_ATTR_COUNT_)
		return 0;
	return path->attr[attr];
}

IBPATH_EXPORT int ibpath_path_set(struct ibpath_path *path, enum ibpath_attr attr, uint64_t value)
{
	if (!path || (unsigned)attr >= IBPATH_ATTR_COUNT_)
		return -EINVAL;
	if (value > attrs[attr].max)
		return -ERANGE;
	path->attr[attr] = value;
	if (attr == IBPATH_HOP_LIMIT && value)
		path->has_grh = true;
	return 0;
}

IBPATH_EXPORT bool ibpath_path_has_grh(const struct ibpath_path *path)
{
	return path && path->has_grh;
}

IBPATH_EXPORT void ibpath_path_sgid(const struct ibpath_path *path, ibstruct_gid_t *gid)
{
	if (path && gid)
		*gid = path->sgid;
}

IBPATH_EXPORT void ibpath_path_dgid(const struct ibpath_path *path, ibstruct_gid_t *gid)
{
	if (path && gid)
		*gid = path->dgid;
}

IBPATH_EXPORT void ibpath_path_set_sgid(struct ibpath_path *path, const ibstruct_gid_t *gid)
{
	if (path && gid) {
		path->sgid = *gid;
		path->has_grh = true;
	}
}

IBPATH_EXPORT void ibpath_path_set_dgid(struct ibpath_path *path, const ibstruct_gid_t *gid)
{
	if (path && gid) {
		path->dgid = *gid;
		if (!path->attr[IBPATH_HOP_LIMIT])
			path->attr[IBPATH_HOP_LIMIT] = 255;
		path->has_grh = true;
	}
}

IBPATH_EXPORT void ibpath_path_clear_grh(struct ibpath_path *path)
{
	if (!path)
		return;
	memset(&path->sgid, 0, sizeof(path->sgid));
	memset(&path->dgid, 0, sizeof(path->dgid));
	path->attr[IBPATH_HOP_LIMIT] = 0;
	path->attr[IBPATH_TRAFFIC_CLASS] = 0;
	path->attr[IBPATH_FLOW_LABEL] = 0;
	path->has_grh = false;
}

IBPATH_EXPORT unsigned ibpath_path_dr_ports(const struct ibpath_path *path, const uint8_t **ports)
{
	if (!path || path->kind != IBPATH_KIND_DR)
		return 0;
	if (ports)
		*ports = path->ports;
	return path->nports;
}

IBPATH_EXPORT int ibpath_path_set_dr_ports(struct ibpath_path *path, const uint8_t *ports, unsigned count)
{
	if (!path || (!ports && count))
		return -EINVAL;
	if (path->kind != IBPATH_KIND_DR || !count)
		return -EINVAL;
	if (count > IBPATH_MAX_HOPS + 1)
		return -ERANGE;
	memcpy(path->ports, ports, count);
	path->nports = count;
	return 0;
}

IBPATH_EXPORT unsigned ibpath_path_dr_return_ports(const struct ibpath_path *path, const uint8_t **ports)
{
	if (!path || path->kind != IBPATH_KIND_DR)
		return 0;
	if (ports)
		*ports = path->rports;
	return path->nrports;
}

IBPATH_EXPORT int ibpath_path_set_dr_return_ports(struct ibpath_path *path, const uint8_t *ports,
						  unsigned count)
{
	if (!path || (!ports && count) || path->kind != IBPATH_KIND_DR)
		return -EINVAL;
	if (count > IBPATH_MAX_HOPS + 1)
		return -ERANGE;
	if (count)
		memcpy(path->rports, ports, count);
	path->nrports = count;
	return 0;
}

IBPATH_EXPORT const char *ibpath_path_end_port(const struct ibpath_path *path)
{
	return path && path->end_port[0] ? path->end_port : NULL;
}

IBPATH_EXPORT int ibpath_path_set_end_port(struct ibpath_path *path, const char *name)
{
	const char *s;

	if (!path)
		return -EINVAL;
	if (!name) {
		path->end_port[0] = 0;
		return 0;
	}
	if (strlen(name) >= sizeof(path->end_port))
		return -ENAMETOOLONG;
	/* the spec form must carry the name unchanged: no item or value delimiters, quotes,
	 * or blanks and control characters (which the spec parser trims) */
	for (s = name; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || strchr(",()='\"", *s))
			return -EINVAL;
	strcpy(path->end_port, name);
	return 0;
}

IBPATH_EXPORT bool ibpath_path_needs_resolution(const struct ibpath_path *path)
{
	return path && path->kind == IBPATH_KIND_IB && !path->attr[IBPATH_DLID] && path->has_grh;
}

IBPATH_EXPORT int ibpath_path_reverse(const struct ibpath_path *path, struct ibpath_path **out)
{
	struct ibpath_path *r;
	uint64_t t;
	int rc;

	if (!path || !out)
		return -EINVAL;
	if (path->kind == IBPATH_KIND_DR && path->nrports != path->nports)
		return -EINVAL;
	rc = ibpath_path_copy(path, &r);
	if (rc)
		return rc;
	t = r->attr[IBPATH_SLID];
	r->attr[IBPATH_SLID] = r->attr[IBPATH_DLID];
	r->attr[IBPATH_DLID] = t;
	t = r->attr[IBPATH_SQPN];
	r->attr[IBPATH_SQPN] = r->attr[IBPATH_DQPN];
	r->attr[IBPATH_DQPN] = t;
	if (r->has_grh) {
		ibstruct_gid_t g = r->sgid;

		r->sgid = r->dgid;
		r->dgid = g;
		r->attr[IBPATH_HOP_LIMIT] = 255;
	}
	if (r->kind == IBPATH_KIND_DR) {
		t = r->attr[IBPATH_DR_SLID];
		r->attr[IBPATH_DR_SLID] = r->attr[IBPATH_DR_DLID];
		r->attr[IBPATH_DR_DLID] = t;
		memcpy(r->ports, path->rports, path->nrports);
		memcpy(r->rports, path->ports, path->nports);
	}
	*out = r;
	return 0;
}

IBPATH_EXPORT uint64_t ibpath_time_value_us(unsigned x)
{
	if (x > 31)
		x = 31;
	/* 4.096 us = 4096 ns; round up to whole microseconds */
	return ((UINT64_C(4096) << x) + 999) / 1000;
}

IBPATH_EXPORT unsigned ibpath_path_mad_timeout_ms(const struct ibpath_path *path)
{
	uint64_t ns;
	unsigned plt, rt;

	if (!path)
		return 0;
	if (path->attr[IBPATH_TIMEOUT_MS])
		return (unsigned)path->attr[IBPATH_TIMEOUT_MS];
	plt = (unsigned)path->attr[IBPATH_PACKET_LIFE_TIME];
	rt = (unsigned)path->attr[IBPATH_RESP_TIME];
	/* plt and rt are at most 31 (ibpath_path_set), so 2^(plt+1) needs no clamping */
	ns = (UINT64_C(4096) << (plt + 1)) + (UINT64_C(4096) << rt);
	return (unsigned)((ns + 999999) / 1000000);
}

/* ---- text forms ------------------------------------------------------------------------ */

struct out {
	char *buf;
	size_t len, pos;
};

static void outf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void outf(struct out *o, const char *fmt, ...)
{
	size_t room = o->pos < o->len ? o->len - o->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

static int out_done(struct out *o)
{
	if (o->len && o->pos >= o->len)
		o->buf[o->len - 1] = 0;
	return (int)o->pos;
}

static void out_ports(struct out *o, const uint8_t *ports, unsigned n, const char *sep)
{
	unsigned i;

	for (i = 0; i < n; i++)
		outf(o, "%s%u", i ? sep : "", ports[i]);
}

IBPATH_EXPORT int ibpath_path_format(const struct ibpath_path *path, char *buf, size_t len)
{
	struct out o = { buf, buf ? len : 0, 0 };
	char g[64];

	if (!path)
		return -EINVAL;
	if (o.len)
		buf[0] = 0;
	if (path->kind == IBPATH_KIND_DR) {
		outf(&o, "DR Path ");
		if (path->attr[IBPATH_DLID])
			outf(&o, "%u -> ", (unsigned)path->attr[IBPATH_DLID]);
		outf(&o, "(");
		out_ports(&o, path->ports, path->nports, ", ");
		outf(&o, ")");
		if (path->attr[IBPATH_DR_DLID] != 0xffff)
			outf(&o, " -> %u", (unsigned)path->attr[IBPATH_DR_DLID]);
		return out_done(&o);
	}
	outf(&o, "Path ");
	if (path->has_grh) {
		ibstruct_gid_format(g, sizeof(g), &path->sgid);
		outf(&o, "%s ", g);
	}
	outf(&o, "%u -> ", (unsigned)path->attr[IBPATH_SLID]);
	if (path->has_grh) {
		ibstruct_gid_format(g, sizeof(g), &path->dgid);
		outf(&o, "%s ", g);
	}
	outf(&o, "%u", (unsigned)path->attr[IBPATH_DLID]);
	if (path->has_grh)
		outf(&o, " TC=%u FL=0x%x HL=%u", (unsigned)path->attr[IBPATH_TRAFFIC_CLASS],
		     (unsigned)path->attr[IBPATH_FLOW_LABEL], (unsigned)path->attr[IBPATH_HOP_LIMIT]);
	outf(&o, " SL=%u PKey=0x%04x DQPN=%u", (unsigned)path->attr[IBPATH_SL],
	     (unsigned)path->attr[IBPATH_PKEY], (unsigned)path->attr[IBPATH_DQPN]);
	return out_done(&o);
}

/* One spec item: name and value text, collected to sort them by name.  The longest value
 * is a DR path of 64 hops through 3-digit ports: "0" + 64 * ":255". */
struct item {
	const char *name;
	char value[1 + IBPATH_MAX_HOPS * 4 + 1];
};

static int item_cmp(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->name, ((const struct item *)b)->name);
}

IBPATH_EXPORT int ibpath_path_format_spec(const struct ibpath_path *path, char *buf, size_t len)
{
	struct out o = { buf, buf ? len : 0, 0 };
	struct item items[IBPATH_ATTR_COUNT_ + 6];
	unsigned n = 0, i;

	if (!path)
		return -EINVAL;
	if (o.len)
		buf[0] = 0;
	for (i = 0; i < IBPATH_ATTR_COUNT_; i++) {
		bool show = path->attr[i] != attrs[i].dflt;

		/* a GRH path always states its hop limit (setting DGID implies 255) */
		if (i == IBPATH_HOP_LIMIT && path->has_grh)
			show = true;
		if (!show)
			continue;
		items[n].name = attrs[i].name;
		snprintf(items[n].value, sizeof(items[n].value), attrs[i].hex ? "0x%llx" : "%llu",
			 (unsigned long long)path->attr[i]);
		n++;
	}
	if (path->has_grh) {
		items[n].name = "DGID";
		ibstruct_gid_format(items[n].value, sizeof(items[n].value), &path->dgid);
		n++;
		items[n].name = "SGID";
		ibstruct_gid_format(items[n].value, sizeof(items[n].value), &path->sgid);
		n++;
	}
	if (path->end_port[0]) {
		items[n].name = "end_port";
		/* bare None means "no end port" (python-rdma's repr), so quote that name */
		snprintf(items[n].value, sizeof(items[n].value),
			 strcmp(path->end_port, "None") ? "%s" : "'%s'", path->end_port);
		n++;
	}
	if (path->kind == IBPATH_KIND_DR) {
		struct out v = { items[n].value, sizeof(items[n].value), 0 };

		items[n].name = "drPath";
		out_ports(&v, path->ports, path->nports, ":");
		n++;
		if (path->nrports) {
			struct out r = { items[n].value, sizeof(items[n].value), 0 };

			items[n].name = "drReturnPath";
			out_ports(&r, path->rports, path->nrports, ":");
			n++;
		}
	}
	qsort(items, n, sizeof(items[0]), item_cmp);
	outf(&o, "%s(", path->kind == IBPATH_KIND_DR ? "IBDRPath" : "IBPath");
	for (i = 0; i < n; i++)
		outf(&o, "%s%s=%s", i ? "," : "", items[i].name, items[i].value);
	outf(&o, ")");
	return out_done(&o);
}

/* ---- spec parsing ------------------------------------------------------------------------ */

/* any_first: element 0 may be any port (a path's spec: the path may hold what libibmad's
 * str2drpath() read, IBPATH_PARSE_DR_ATOI); else it must be 0, the local port */
static int parse_port_list(const char *s, char sep, uint8_t *ports, unsigned *count, char *err,
			   size_t errlen, const char *what, bool any_first)
{
	unsigned n = 0;
	const char *p = s;

	if (!*p)
		return ibpath_fail(err, errlen, "empty %s", what);
	while (*p) {
		char *end;
		unsigned long v;

		if (!isdigit((unsigned char)*p))
			return ibpath_fail(err, errlen, "%s \"%s\": element %u is not a port number", what,
					   s, n);
		v = strtoul(p, &end, 10);
		if (v > 255 || end - p > 3)
			return ibpath_fail(err, errlen, "%s \"%s\": port %.*s is out of range 0-255",
					   what, s, (int)(end - p), p);
		if (n == IBPATH_MAX_HOPS + 1)
			return ibpath_fail(err, errlen, "%s \"%s\" has more than %u hops", what, s,
					   IBPATH_MAX_HOPS);
		if (n == 0 && v != 0 && !any_first)
			return ibpath_fail(err, errlen,
					   "%s \"%s\" must start with 0 (the local port)", what, s);
		ports[n++] = (uint8_t)v;
		p = end;
		if (*p == sep) {
			/* callers strip the one trailing separator they accept */
			if (!*++p)
				return ibpath_fail(err, errlen, "%s \"%s\" ends with '%c'", what, s, sep);
			continue;
		}
		if (*p)
			return ibpath_fail(err, errlen, "%s \"%s\": unexpected '%c' after element %u",
					   what, s, *p, n - 1);
	}
	*count = n;
	return 0;
}

int ibpath_parse_dr_ports(const char *s, char sep, uint8_t *ports, unsigned *count, char *err,
			  size_t errlen);

int ibpath_parse_dr_ports(const char *s, char sep, uint8_t *ports, unsigned *count, char *err,
			  size_t errlen)
{
	return parse_port_list(s, sep, ports, count, err, errlen, "DR path", false);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

/* "GID('fe80::1')" or "fe80::1" (text is left as it is, for the error message) */
static int parse_gid_value(const char *text, ibstruct_gid_t *gid)
{
	char buf[128], *v = buf;
	size_t l = strlen(text);

	if (l >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, l + 1);

	if (!strncmp(v, "GID(", 4) && l > 5 && v[l - 1] == ')') {
		v[l - 1] = 0;
		v += 4;
		l -= 5;
	}
	if (l >= 2 && (v[0] == '\'' || v[0] == '"') && v[l - 1] == v[0]) {
		v[l - 1] = 0;
		v++;
	}
	return ibstruct_gid_parse(v, gid);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

int ibpath_parse_spec(const char *text, struct ibpath_path **out, char *err, size_t errlen);

int ibpath_parse_spec(const char *text, struct ibpath_path **out, char *err, size_t errlen)
{
	char buf[2048], *body, *item, *save = NULL;
	enum ibpath_kind kind;
	struct ibpath_path *p;
	size_t l = strlen(text);
	int rc;

	if (l >= sizeof(buf))
		return ibpath_fail(err, errlen, "path spec is too long (%zu characters)", l);
	memcpy(buf, text, l + 1);
	body = trim(buf);
	if (!strncmp(body, "IBPath(", 7))
		kind = IBPATH_KIND_IB, body += 7;
	else if (!strncmp(body, "IBDRPath(", 9))
		kind = IBPATH_KIND_DR, body += 9;
	else
		return ibpath_fail(err, errlen, "\"%s\": a path spec starts with IBPath( or IBDRPath(",
				   text);
	l = strlen(body);
	if (!l || body[l - 1] != ')')
		return ibpath_fail(err, errlen, "\"%s\": path spec does not end with ')'", text);
	body[l - 1] = 0;
	rc = ibpath_path_new(&p, kind);
	if (rc)
		return rc;
	for (item = strtok_r(body, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq, *name, *val;
		unsigned i;
		uint64_t v;

		item = trim(item);
		if (!*item)
			continue;
		eq = strchr(item, '=');
		if (!eq) {
			rc = ibpath_fail(err, errlen, "\"%s\": \"%s\" is not name=value", text, item);
			goto fail;
		}
		*eq = 0;
		name = trim(item);
		val = trim(eq + 1);
		for (i = 0; i < IBPATH_ATTR_COUNT_; i++)
			if (!strcmp(attrs[i].name, name))
				break;
		if (i < IBPATH_ATTR_COUNT_) {
			if (parse_u64(val, &v)) {
				rc = ibpath_fail(err, errlen, "\"%s\": %s=%s is not a number", text, name, val);
				goto fail;
			}
			if (v > attrs[i].max) {
				rc = ibpath_fail(err, errlen, "\"%s\": %s=%s is out of range 0-%llu", text, name,
						 val, (unsigned long long)attrs[i].max);
				goto fail;
			}
			p->attr[i] = v;
			if (i == IBPATH_HOP_LIMIT && v)
				p->has_grh = true;
		} else if (!strcmp(name, "DGID") || !strcmp(name, "SGID")) {
			ibstruct_gid_t g;

			if (parse_gid_value(val, &g)) {
				rc = ibpath_fail(err, errlen, "\"%s\": %s=%s is not a GID", text, name, val);
				goto fail;
			}
			if (name[0] == 'D')
				ibpath_path_set_dgid(p, &g);
			else
				ibpath_path_set_sgid(p, &g);
		} else if (!strcmp(name, "end_port")) {
			size_t vl = strlen(val);

			/* None (unquoted) is no end port; 'None' is a port of that name */
			if (!strcmp(val, "None"))
				continue;
			if (vl >= 2 && (val[0] == '\'' || val[0] == '"') && val[vl - 1] == val[0]) {
				val[vl - 1] = 0;
				val++;
			}
			if (ibpath_path_set_end_port(p, val)) {
				rc = ibpath_fail(err, errlen, "\"%s\": bad end_port \"%s\"", text, val);
				goto fail;
			}
		} else if (kind == IBPATH_KIND_DR &&
			   (!strcmp(name, "drPath") || !strcmp(name, "drReturnPath"))) {
			uint8_t ports[IBPATH_MAX_HOPS + 1];
			unsigned n;
			size_t vl = strlen(val);

			/* python-rdma writes drPath=0:1:4: (with a trailing separator) */
			if (vl && val[vl - 1] == ':')
				val[vl - 1] = 0;
			rc = parse_port_list(val, ':', ports, &n, err, errlen, name, true);
			if (rc)
				goto fail;
			if (name[2] == 'P')
				ibpath_path_set_dr_ports(p, ports, n);
			else
				ibpath_path_set_dr_return_ports(p, ports, n);
		} else {
			rc = ibpath_fail(err, errlen, "\"%s\": unknown path attribute \"%s\"", text, name);
			goto fail;
		}
	}
	*out = p;
	return 0;
fail:
	ibpath_path_unref(p);
	return rc;
}
