/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reference for libibtopo's node-name-map parser in the unit tests and the fuzzer:
 * rdma-core's util/node_name_map.c reading loop restated with the C library calls it makes
 * (fgets() into 256 bytes, isspace(), strtoull(..., 0), strtok(..., "\"#")), so that the
 * hand-written parser is compared with the library's own number and token scanners.  One
 * difference, as in libibtopo: a line whose GUID does not parse is counted and skipped
 * instead of dropping the whole map.  Text with a NUL byte is not for this oracle.
 */
#ifndef NODEMAP_ORACLE_H
#define NODEMAP_ORACLE_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct oracle_entry {
	uint64_t guid;
	char *name;
};

struct oracle {
	struct oracle_entry *e;
	unsigned n, cap;
	unsigned rejected; /* lines rdma-core would fail the map on */
};

static inline const char *oracle_lookup(const struct oracle *o, uint64_t guid)
{
	for (unsigned i = 0; i < o->n; i++)
		if (o->e[i].guid == guid)
			return o->e[i].name;
	return NULL;
}

static inline void oracle_free(struct oracle *o)
{
	for (unsigned i = 0; i < o->n; i++)
		free(o->e[i].name);
	free(o->e);
	memset(o, 0, sizeof(*o));
}

/* 0, or -1 when out of memory */
static inline int oracle_parse(struct oracle *o, const char *text, size_t len)
{
	char line[256];
	FILE *f;

	memset(o, 0, sizeof(*o));
	if (!len)
		return 0;
	f = fmemopen((void *)text, len, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *e, *name;
		uint64_t guid;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '\n' || *p == '#')
			continue;
		guid = strtoull(p, &e, 0);
		if (e == p || (!isspace((unsigned char)*e) && *e != '#' && *e != '\0')) {
			o->rejected++;
			continue;
		}
		p = e;
		while (isspace((unsigned char)*p))
			p++;
		e = strpbrk(p, "\n");
		if (e)
			*e = '\0';
		name = strtok(p, "\"#");
		if (!name || oracle_lookup(o, guid))
			continue;
		if (o->n == o->cap) {
			unsigned cap = o->cap ? 2 * o->cap : 64;
			struct oracle_entry *ne = realloc(o->e, cap * sizeof(*ne));

			if (!ne)
				goto oom;
			o->e = ne;
			o->cap = cap;
		}
		o->e[o->n].guid = guid;
		o->e[o->n].name = strdup(name);
		if (!o->e[o->n].name)
			goto oom;
		o->n++;
	}
	fclose(f);
	return 0;
oom:
	fclose(f);
	oracle_free(o);
	return -1;
}

#endif
