/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * node-name-map: GUID -> name, read as rdma-core's util/node_name_map.c reads
 * /etc/rdma/ib-node-name-map, with the same result for every file that rdma-core accepts:
 *
 *  - the file is read with fgets() into a 256-byte buffer, so a line longer than 255
 *    characters is cut into pieces of 255, each read as a line of its own;
 *  - leading white space is skipped; an empty line or one starting with '#' is nothing;
 *  - the GUID is what strtoull(p, &end, 0) takes: hex with 0x/0X, octal with a leading 0,
 *    decimal otherwise, an optional sign (negated modulo 2^64), overflow giving all ones;
 *    it must be followed by white space, '#' or the end of the line;
 *  - the name is the first run of characters other than '"' and '#' after the GUID and its
 *    white space, up to the end of the line ('\n' excluded), so "name", name and "a#b"
 *    give name, name and a, and a line with a GUID and no such run maps nothing;
 *  - when a GUID comes twice, the first name stays.
 * rdma-core drops the whole map (tools then print node descriptions) at the first line whose
 * GUID does not parse; here that line is reported through the warn callback and skipped.
 * Other oddities (a GUID without a name, a duplicate, a line cut into pieces) are reported
 * too but change nothing.  A file with a NUL byte (binary), over IBTOPO_NODEMAP_MAX_BYTES, or
 * not a file to read (a directory) is refused with -EILSEQ, -EFBIG, -EISDIR.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ibtopo-private.h"

#define LINE_PIECE 255                     /* fgets() with rdma-core's 256-byte buffer */
#define NODEMAP_MAX_BYTES (64u << 20)      /* a map for 1M nodes fits several times */
#define NODEMAP_MAX_WARNINGS 100           /* then one summary */
#define SMP_DESC_LEN IBTOPO_SMP_DATA_SIZE  /* remap_node_name() keeps 64 characters */

struct nm_slot {
	uint64_t guid;
	char *name; /* NULL: empty slot */
};

struct ibtopo_nodemap {
	struct nm_slot *slots;
	unsigned size; /* power of two, load <= 1/2 */
	unsigned count;
};

struct nm_parse {
	struct ibtopo_nodemap *map;
	ibtopo_nodemap_warn_fn warn;
	void *user;
	unsigned warnings, suppressed, last_line;
};

/* The C locale's classes, as rdma-core (which never calls setlocale) sees them; bytes above
 * 0x7f are neither */
static inline bool c_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool c_isprint(unsigned char c)
{
	return c >= 0x20 && c <= 0x7e;
}

static inline unsigned slot_of(uint64_t guid, unsigned size)
{
	guid ^= guid >> 33;
	guid *= 0xff51afd7ed558ccdULL;
	guid ^= guid >> 33;
	return (unsigned)guid & (size - 1);
}

static struct nm_slot *find_slot(const struct ibtopo_nodemap *map, uint64_t guid)
{
	struct nm_slot *s;

	if (!map->size)
		return NULL;
	for (unsigned i = slot_of(guid, map->size);; i = (i + 1) & (map->size - 1)) {
		s = &map->slots[i];
		if (!s->name || s->guid == guid)
			return s;
	}
}

static int grow(struct ibtopo_nodemap *map)
{
	unsigned size = map->size ? map->size * 2 : 64;
	struct nm_slot *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (unsigned i = 0; i < map->size; i++) {
		struct nm_slot *o = &map->slots[i];
		unsigned j;

		if (!o->name)
			continue;
		for (j = slot_of(o->guid, size); slots[j].name; j = (j + 1) & (size - 1))
			;
		slots[j] = *o;
	}
	free(map->slots);
	map->slots = slots;
	map->size = size;
	return 0;
}

/* 1 added, 0 the GUID was there (the first name stays), -ENOMEM */
static int map_add(struct ibtopo_nodemap *map, uint64_t guid, const char *name, size_t len)
{
	struct nm_slot *s = find_slot(map, guid);

	if (s && s->name)
		return 0;
	if ((map->count + 1) * 2 > map->size) {
		if (grow(map))
			return -ENOMEM;
		s = find_slot(map, guid);
	}
	s->name = strndup(name, len);
	if (!s->name)
		return -ENOMEM;
	s->guid = guid;
	map->count++;
	return 1;
}

__attribute__((format(printf, 3, 4))) static void warnf(struct nm_parse *ps, unsigned line,
							 const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!ps->warn)
		return;
	ps->last_line = line;
	if (ps->warnings >= NODEMAP_MAX_WARNINGS) {
		ps->suppressed++;
		return;
	}
	ps->warnings++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ps->warn(ps->user, line, msg);
}

/* The start of a piece of text for a message: at most 60 characters, '?' for the unprintable */
static void excerpt(char *out, const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && n < 60 && s[n] != '\n') {
		out[n] = c_isprint((unsigned char)s[n]) ? s[n] : '?';
		n++;
	}
	if (n == 60 && n < len && s[n] != '\n')
		memcpy(out + n - 3, "...", 3);
	out[n] = '\0';
}

static int digit_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* strtoull(s, &end, 0) as glibc 2.36 does it in the C locale (no 0b prefix), on s[0..stop)
 * (fgets() ends the string there) already stripped of leading white space; *end == s when
 * there is no number. */
static uint64_t parse_guid(const char *s, const char *stop, const char **end)
{
	const char *p = s, *digits;
	unsigned base = 10;
	bool neg = false, over = false;
	uint64_t v = 0;

	if (p < stop && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (p < stop && *p == '0') {
		if (p + 1 < stop && (p[1] == 'x' || p[1] == 'X')) {
			p += 2;
			base = 16;
		} else {
			base = 8;
		}
	}
	digits = p;
	for (int d; p < stop && (d = digit_value((unsigned char)*p)) < (int)base; p++) {
		if (v > (UINT64_MAX - (unsigned)d) / base)
			over = true;
		else
			v = v * base + (unsigned)d;
	}
	if (p == digits) {
		/* "0x" with no hex digit after it is the number 0 ending at the 'x' */
		*end = base == 16 ? digits - 1 : s;
		return 0;
	}
	*end = p;
	if (over)
		return UINT64_MAX;
	return neg ? 0 - v : v;
}

/* One fgets() piece: s[0..len) holds no NUL and at most one '\n', at its end */
static int parse_piece(struct nm_parse *ps, unsigned line, const char *s, size_t len)
{
	const char *p = s, *e, *stop = s + len, *name;
	char text[64];
	uint64_t guid;
	int rc;

	while (p < stop && c_isspace((unsigned char)*p))
		p++;
	if (p == stop || *p == '#')
		return 0;
	guid = parse_guid(p, stop, &e);
	if (e == p || (e < stop && !c_isspace((unsigned char)*e) && *e != '#')) {
		excerpt(text, p, (size_t)(stop - p));
		warnf(ps, line,
		      "not a GUID at the start of the line, line skipped (rdma-core drops the "
		      "whole map): \"%s\"",
		      text);
		return 0;
	}
	for (p = e; p < stop && c_isspace((unsigned char)*p); p++)
		;
	if (stop > p && stop[-1] == '\n')
		stop--;
	/* strtok(p, "\"#"): skip the separators, take what runs to the next one */
	while (p < stop && (*p == '"' || *p == '#'))
		p++;
	name = p;
	while (p < stop && *p != '"' && *p != '#')
		p++;
	if (p == name) {
		warnf(ps, line, "GUID 0x%016" PRIx64 " has no name", guid);
		return 0;
	}
	rc = map_add(ps->map, guid, name, (size_t)(p - name));
	if (rc == 0)
		warnf(ps, line, "GUID 0x%016" PRIx64 " given again, its first name kept", guid);
	return rc < 0 ? rc : 0;
}

static int parse_text(struct nm_parse *ps, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	unsigned line = 1;
	size_t off = 0;

	if (nul) {
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		warnf(ps, line, "a NUL byte: not a text file");
		return -EILSEQ;
	}
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) + 1 : len; /* the line with its '\n' */
		bool long_line = end - off > LINE_PIECE + (nl ? 1 : 0);

		if (long_line)
			warnf(ps, line,
			      "longer than %d characters: read in pieces of %d as rdma-core does",
			      LINE_PIECE, LINE_PIECE);
		while (off < end) {
			size_t n = end - off < LINE_PIECE ? end - off : LINE_PIECE;
			int rc = parse_piece(ps, line, text + off, n);

			if (rc)
				return rc;
			off += n;
		}
		line++;
	}
	return 0;
}

IBTOPO_EXPORT void ibtopo_nodemap_free(struct ibtopo_nodemap *map)
{
	if (!map)
		return;
	for (unsigned i = 0; i < map->size; i++)
		free(map->slots[i].name);
	free(map->slots);
	free(map);
}

IBTOPO_EXPORT int ibtopo_nodemap_parse(struct ibtopo_nodemap **out, const char *text, size_t len,
				       ibtopo_nodemap_warn_fn warn, void *user)
{
	struct nm_parse ps = { .warn = warn, .user = user };
	int rc;

	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	if (len > NODEMAP_MAX_BYTES)
		return -EFBIG;
	ps.map = calloc(1, sizeof(*ps.map));
	if (!ps.map)
		return -ENOMEM;
	rc = len ? parse_text(&ps, text, len) : 0;
	if (ps.suppressed) {
		char msg[96];

		snprintf(msg, sizeof(msg), "%u more problems not reported (the last on this line)",
			 ps.suppressed);
		warn(user, ps.last_line, msg);
	}
	if (rc) {
		ibtopo_nodemap_free(ps.map);
		return rc;
	}
	*out = ps.map;
	return 0;
}

/* Reads a whole file of at most NODEMAP_MAX_BYTES: 0 and *buf (malloc'd), or -errno */
static int read_file(const char *path, char **buf, size_t *len)
{
	size_t cap, n = 0;
	struct stat st;
	char *b = NULL;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		rc = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)NODEMAP_MAX_BYTES) {
		rc = -EFBIG;
		goto out;
	}
	/* a pipe or device is read to its end, or to one byte over the limit */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
	for (;;) {
		ssize_t r;

		if (n == cap || !b) {
			char *nb;

			if (b)
				cap = cap * 2 > NODEMAP_MAX_BYTES + 1 ? NODEMAP_MAX_BYTES + 1
								       : cap * 2;
			nb = realloc(b, cap);
			if (!nb) {
				rc = -ENOMEM;
				goto out;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > NODEMAP_MAX_BYTES) {
			rc = -EFBIG;
			goto out;
		}
	}
out:
	close(fd);
	if (rc) {
		free(b);
		return rc;
	}
	*buf = b;
	*len = n;
	return 0;
}

IBTOPO_EXPORT int ibtopo_nodemap_open(struct ibtopo_nodemap **out, const char *path,
				      ibtopo_nodemap_warn_fn warn, void *user)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path) {
		struct stat st;

		/* rdma-core: no default map when stat() fails, whatever the reason */
		path = IBTOPO_NODEMAP_DEFAULT;
		if (stat(path, &st))
			return ibtopo_nodemap_parse(out, NULL, 0, warn, user);
	}
	rc = read_file(path, &text, &len);
	if (rc)
		return rc;
	rc = ibtopo_nodemap_parse(out, text, len, warn, user);
	free(text);
	return rc;
}

IBTOPO_EXPORT unsigned ibtopo_nodemap_count(const struct ibtopo_nodemap *map)
{
	return map ? map->count : 0;
}

IBTOPO_EXPORT const char *ibtopo_nodemap_lookup(const struct ibtopo_nodemap *map, uint64_t guid)
{
	const struct nm_slot *s = map ? find_slot(map, guid) : NULL;

	return s ? s->name : NULL;
}

IBTOPO_EXPORT int ibtopo_nodemap_name(const struct ibtopo_nodemap *map, uint64_t guid,
				      const char *desc, char *buf, size_t len)
{
	const char *name = ibtopo_nodemap_lookup(map, guid);
	size_t n;

	if (name) {
		/* a mapped name is printed as it is, unprintable characters and all */
		n = strlen(name);
		if (len) {
			size_t k = n < len - 1 ? n : len - 1;

			memcpy(buf, name, k);
			buf[k] = '\0';
		}
		return (int)n;
	}
	/* the description: 64 characters at most, the unprintable ones made spaces */
	n = desc ? strnlen(desc, SMP_DESC_LEN) : 0;
	if (len) {
		size_t k = n < len - 1 ? n : len - 1;

		for (size_t i = 0; i < k; i++)
			buf[i] = c_isprint((unsigned char)desc[i]) ? desc[i] : ' ';
		buf[k] = '\0';
	}
	return (int)n;
}
