// SPDX-License-Identifier: BSD-3-Clause
/*
 * The text files the tools read besides cache files (conffile.h): ibdiag.conf, the
 * threshold file of ibqueryerrors and the node-name map of ibdiag_nnmap_open().
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conffile.h"
#include "ibdiag.h"

/* ---- ibdiag.conf ----------------------------------------------------------------------- */

/* Keys are matched by prefix and nothing is trimmed, as infiniband-diags does ("Portal=3"
 * sets Port, "CA =x" sets CA to "x"). */
static bool key_is(const char *name, const char *key)
{
	return strncmp(name, key, strlen(key)) == 0;
}

/* a string value: the old one goes, a failed copy leaves the key unset */
static int set_text(struct ibdiag_config *c, char **where, unsigned bit, const char *val)
{
	free(*where);
	*where = strdup(val);
	if (!*where) {
		c->set &= ~bit;
		return -ENOMEM;
	}
	c->set |= bit;
	return 0;
}

int ibdiag_config_read(FILE *f, struct ibdiag_config *c)
{
	char line[1024];
	int rc = 0;

	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *name, *val;

		if (line[0] == '#')
			continue;
		name = strtok_r(line, "=", &save);
		if (!name)
			continue;
		val = strtok_r(NULL, "\n", &save);
		if (!val)
			continue;
		if (key_is(name, "CA")) {
			if (set_text(c, &c->ca, IBDIAG_CONF_CA, val))
				rc = -ENOMEM;
		} else if (key_is(name, "Port")) {
			c->port = (unsigned)strtoul(val, NULL, 0);
			c->set |= IBDIAG_CONF_PORT;
		} else if (key_is(name, "timeout")) {
			c->timeout_ms = (unsigned)strtoul(val, NULL, 0);
			c->set |= IBDIAG_CONF_TIMEOUT;
		} else if (key_is(name, "MLX_EPI")) {
			c->mlx_epi = strncmp(val, "true", 4) == 0 || strncmp(val, "TRUE", 4) == 0;
			c->set |= IBDIAG_CONF_MLX_EPI;
		} else if (key_is(name, "m_key")) {
			c->mkey = strtoull(val, NULL, 0);
			c->set |= IBDIAG_CONF_MKEY;
		} else if (key_is(name, "sa_key")) {
			c->sakey = strtoull(val, NULL, 0);
			c->set |= IBDIAG_CONF_SAKEY;
		} else if (key_is(name, "nd_format")) {
			if (set_text(c, &c->nd_format, IBDIAG_CONF_ND_FORMAT, val))
				rc = -ENOMEM;
		}
	}
	return rc;
}

void ibdiag_config_clear(struct ibdiag_config *c)
{
	free(c->ca);
	free(c->nd_format);
	memset(c, 0, sizeof(*c));
}

/* ---- Thresholds ------------------------------------------------------------------------ */

static int append(char **str, const char *text)
{
	size_t n = *str ? strlen(*str) : 0;
	char *s = realloc(*str, n + strlen(text) + 1);

	if (!s)
		return -ENOMEM;
	strcpy(s + n, text);
	*str = s;
	return 0;
}

int ibdiag_thresholds_read(FILE *f, const char *const *names, unsigned n, uint64_t *values,
			   char **text)
{
	char line[1024];

	if (append(text, "Thresholds: "))
		return -ENOMEM;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *t, *name, *val;
		uint64_t v;

		t = strtok_r(line, "\n", &save);
		if (!t || *t == '#')
			continue;
		name = strtok_r(t, "=", &save);
		val = strtok_r(NULL, "\n", &save);
		if (!name)
			continue;
		v = val ? strtoul(val, NULL, 0) : 0;
		for (unsigned i = 0; i < n; i++) {
			char tmp[256];

			if (strcmp(name, names[i]))
				continue;
			values[i] = v;
			snprintf(tmp, 255, "[%s = %" PRIu64 "]", name, v);
			if (append(text, tmp))
				return -ENOMEM;
		}
	}
	return 0;
}

/* ---- Node names ------------------------------------------------------------------------ */

struct nnmap_entry {
	uint64_t guid;
	char *name;
};

struct ibdiag_nnmap {
	struct nnmap_entry *v;
	size_t n, cap;
};

static void nnmap_clear(struct ibdiag_nnmap *map)
{
	size_t i;

	for (i = 0; i < map->n; i++)
		free(map->v[i].name);
	free(map->v);
	map->v = NULL;
	map->n = map->cap = 0;
}

/* One line: "<guid> <name>", the name being the first token after the GUID delimited by
 * '"' or '#' (the line ends at its newline).  -1 for a line whose GUID is not a number
 * followed by a blank, '#' or the end; a line without a name is skipped. */
static int nnmap_line(struct ibdiag_nnmap *map, char *line)
{
	char *p = line, *end, *save = NULL, *name;
	uint64_t guid;

	p[strcspn(p, "\n")] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0' || *p == '#')
		return 0;
	guid = strtoull(p, &end, 0);
	if (end == p || (!isspace((unsigned char)*end) && *end != '#' && *end != '\0'))
		return -1;
	p = end;
	while (isspace((unsigned char)*p))
		p++;
	name = strtok_r(p, "\"#", &save);
	if (!name)
		return 0;
	if (map->n == map->cap) {
		size_t cap = map->cap ? 2 * map->cap : 64;
		struct nnmap_entry *v = realloc(map->v, cap * sizeof(*v));

		if (!v)
			return -1;
		map->v = v;
		map->cap = cap;
	}
	map->v[map->n].guid = guid;
	map->v[map->n].name = strdup(name);
	if (!map->v[map->n].name)
		return -1;
	map->n++;
	return 0;
}

struct ibdiag_nnmap *ibdiag_nnmap_read(FILE *f, const char *file)
{
	struct ibdiag_nnmap *map;
	char *line = NULL;
	size_t cap = 0;

	map = calloc(1, sizeof(*map));
	if (!map)
		return NULL;
	while (getline(&line, &cap, f) != -1) {
		char *copy = strdup(line);

		if (!copy || nnmap_line(map, line) < 0) {
			size_t l = copy ? strlen(copy) : 0;

			if (l && copy[l - 1] == '\n')
				copy[l - 1] = '\0';
			fprintf(stderr, "WARNING failed to parse node name map \"%s\"\n", file);
			fprintf(stderr, "WARNING failed line: \"%s\"\n", copy ? copy : "");
			free(copy);
			nnmap_clear(map);
			break;
		}
		free(copy);
	}
	free(line);
	return map;
}

void ibdiag_nnmap_close(struct ibdiag_nnmap *map)
{
	if (!map)
		return;
	nnmap_clear(map);
	free(map);
}

char *ibdiag_clean_nodedesc(char *desc)
{
	size_t i;

	for (i = 0; desc[i] && i < 64; i++)
		if (!isprint((unsigned char)desc[i]))
			desc[i] = ' ';
	desc[i] = '\0';
	return desc;
}

char *ibdiag_nnmap_name(const struct ibdiag_nnmap *map, uint64_t node_guid, const char *desc)
{
	char buf[65];
	size_t i;

	for (i = 0; map && i < map->n; i++)
		if (map->v[i].guid == node_guid)
			return strdup(map->v[i].name);
	snprintf(buf, sizeof(buf), "%s", desc ? desc : "");
	return strdup(ibdiag_clean_nodedesc(buf));
}
