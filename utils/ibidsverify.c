/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibidsverify: checks the LIDs and GUIDs of a subnet for zeros and duplicates, a drop-in
 * replacement for infiniband-diags' Perl script of the same name.
 *
 *   ibidsverify [-Rh] [-C <ca_name>] [-P <ca_port>]
 *
 * Like the script it reads the topology that `ibnetdiscover -g` wrote into
 * /var/cache/infiniband-diags/ibnetdiscover-<ca>-<port>.topology (running it first with -R
 * or when the file is missing), picks the node GUIDs, port GUIDs and LIDs out of its lines
 * with the script's regular expressions (Perl's matching rules: utils/common/perlre.c) and
 * prints one line per problem.  Exit status 1 when it found one, else 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibscript.h"
#include "perlre.h"

/* A string -> string table (the script's Perl hashes), linear probing. */
struct table {
	char **keys;
	char **vals;
	size_t size, used;
};

static size_t str_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static const char *table_get(const struct table *t, const char *key)
{
	if (!t->size)
		return NULL;
	for (size_t i = str_hash(key) & (t->size - 1); t->keys[i]; i = (i + 1) & (t->size - 1))
		if (strcmp(t->keys[i], key) == 0)
			return t->vals[i];
	return NULL;
}

static void table_put(struct table *t, const char *key, const char *val)
{
	size_t i;

	if (2 * (t->used + 1) > t->size) {
		struct table n = { 0 };

		n.size = t->size ? 2 * t->size : 64;
		n.keys = calloc(n.size, sizeof(*n.keys));
		n.vals = calloc(n.size, sizeof(*n.vals));
		if (!n.keys || !n.vals)
			ibscript_die(ENOMEM, "Out of memory!\n");
		for (size_t j = 0; j < t->size; j++)
			if (t->keys[j]) {
				for (i = str_hash(t->keys[j]) & (n.size - 1); n.keys[i]; i = (i + 1) & (n.size - 1))
					;
				n.keys[i] = t->keys[j];
				n.vals[i] = t->vals[j];
			}
		n.used = t->used;
		free(t->keys);
		free(t->vals);
		*t = n;
	}
	for (i = str_hash(key) & (t->size - 1); t->keys[i]; i = (i + 1) & (t->size - 1))
		;
	t->keys[i] = strdup(key);
	t->vals[i] = strdup(val);
	if (!t->keys[i] || !t->vals[i])
		ibscript_die(ENOMEM, "Out of memory!\n");
	t->used++;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->size; i++) {
		free(t->keys[i]);
		free(t->vals[i]);
	}
	free(t->keys);
	free(t->vals);
}

struct ids {
	struct table lids;      /* LID -> node GUID */
	struct table nodeguids; /* node GUID -> LID */
	struct table portguids; /* port GUID -> LID */
	int rc;
};

static void insert_lid(struct ids *s, const char *lid, const char *nodeguid, const char *type)
{
	const char *old;

	if (strcmp(lid, "0") == 0) {
		printf("LID 0 found for %s NodeGUID %s\n", type, nodeguid);
		s->rc = 1;
		return;
	}
	old = table_get(&s->lids, lid);
	if (old) {
		printf("LID %s already defined for NodeGUID %s\n", lid, old);
		s->rc = 1;
	} else {
		table_put(&s->lids, lid, nodeguid);
	}
}

/* validate_non_zero_guid(): the script compares with the string "0" */
static bool zero_guid(struct ids *s, const char *lid, const char *guid, const char *type)
{
	if (strcmp(guid, "0") != 0)
		return false;
	printf("%s GUID 0x0 found with LID %s\n", type, lid);
	s->rc = 1;
	return true;
}

static void insert_nodeguid(struct ids *s, const char *lid, const char *nodeguid, const char *type)
{
	const char *old;

	if (zero_guid(s, lid, nodeguid, type))
		return;
	old = table_get(&s->nodeguids, nodeguid);
	if (old) {
		printf("NodeGUID %s already defined for LID %s\n", nodeguid, old);
		s->rc = 1;
	} else {
		table_put(&s->nodeguids, nodeguid, lid);
	}
}

static void insert_portguid(struct ids *s, const char *lid, const char *portguid, const char *type,
			    const char *nodeguid)
{
	const char *old;

	if (zero_guid(s, lid, portguid, type))
		return;
	old = table_get(&s->portguids, portguid);
	if (old) {
		printf("PortGUID %s already defined for LID %s\n", portguid, old);
		s->rc = 1;
		return;
	}
	table_put(&s->portguids, portguid, lid);
	if (strcmp(nodeguid, portguid) != 0 && table_get(&s->nodeguids, portguid)) {
		printf("PortGUID %s is an invalid duplicate of a NodeGUID\n", portguid);
		s->rc = 1;
	}
}

static _Noreturn void usage(const char *argv0)
{
	printf("Usage: %s [-Rh]\n", ibscript_name(argv0));
	printf("   Validate LIDs and GUIDs (check for zero and duplicates) in the local subnet\n");
	printf("   -h This help message\n");
	printf("   -R Recalculate ibnetdiscover information (Default is to reuse ibnetdiscover output)\n");
	ibscript_ca_help();
	exit(2);
}

/* The script's patterns, in the order it tries them on each line */
enum {
	RE_CAGUID, RE_RTGUID, RE_SWGUID, RE_SWGUID_PORT, RE_SWITCH, RE_CA, RE_RT,
	RE_TO_S, RE_TO_H, RE_TO_R, RE_PORTGUID, RE_COUNT
};
static const char *const patterns[RE_COUNT] = {
	[RE_CAGUID] = "^caguid=(.*)",
	[RE_RTGUID] = "^rtguid=(.*)",
	[RE_SWGUID] = "^switchguid=(.*)",
	[RE_SWGUID_PORT] = "^switchguid=(.*)\\((.*)\\)",
	[RE_SWITCH] = "^Switch.*\\\"S-(.*)\\\"\\s+# (.*) port.* lid (\\d+) .*",
	[RE_CA] = "^Ca.*",
	[RE_RT] = "^Rt.*",
	[RE_TO_S] = "\"S-(.*)\\# lid (\\d+) .*",
	[RE_TO_H] = "^.*\"H-(.*)\\# lid (\\d+) .*",
	[RE_TO_R] = "^.*\"R-(.*)\\# lid (\\d+) .*",
	[RE_PORTGUID] = "^\\[(\\d+)\\]\\((.*)\\)",
};

static void set_str(char **var, char *val)
{
	free(*var);
	*var = val;
}

static char *prefixed(const char *prefix, char *s)
{
	char *r = ibscript_sprintf("%s%s", prefix, s);

	free(s);
	return r;
}

int main(int argc, char **argv)
{
	struct ibscript_opts o;
	struct perlre *re[RE_COUNT];
	struct perlre_match m;
	struct ids s = { 0 };
	const char *ca, *port;
	char *file, *text, *line;
	char *nodetype = strdup(""), *nodeguid = strdup(""), *portguid = strdup(""), *lid = strdup("");
	bool firstport = false;
	size_t len = 0, pos = 0;
	FILE *f;

	if (!ibscript_getopts(argc, argv, "hRC:P:", &o) || o.set['h'])
		usage(argv[0]);
	ibscript_ca_port(&o, &ca, &port);

	file = ibscript_cache_file(ca, port);
	if (o.set['R'] || !ibscript_is_file(file))
		ibscript_generate_topology(ca, port);
	f = fopen(file, "r");
	if (!f)
		ibscript_die(errno, "Failed to open ibnet topology: %s\n", strerror(errno));
	text = ibscript_slurp(f, &len);
	fclose(f);

	for (int i = 0; i < RE_COUNT; i++)
		re[i] = perlre_compile(patterns[i]);

	while ((line = ibscript_next_line(text, len, &pos))) {
		if (perlre_match(re[RE_CAGUID], line, &m) || perlre_match(re[RE_RTGUID], line, &m)) {
			set_str(&nodeguid, perlre_group(line, &m, 1));
			set_str(&nodetype, strdup(""));
		}
		if (perlre_match(re[RE_SWGUID], line, &m)) {
			set_str(&nodeguid, perlre_group(line, &m, 1));
			set_str(&portguid, strdup(""));
			set_str(&nodetype, strdup(""));
		}
		if (perlre_match(re[RE_SWGUID_PORT], line, &m)) {
			set_str(&nodeguid, perlre_group(line, &m, 1));
			set_str(&portguid, prefixed("0x", perlre_group(line, &m, 2)));
		}
		if (perlre_match(re[RE_SWITCH], line, &m)) {
			set_str(&nodetype, strdup("switch"));
			firstport = true;
			set_str(&lid, perlre_group(line, &m, 3));
			insert_lid(&s, lid, nodeguid, nodetype);
			insert_nodeguid(&s, lid, nodeguid, nodetype);
			if (*portguid)
				insert_portguid(&s, lid, portguid, nodetype, nodeguid);
		}
		if (perlre_match(re[RE_CA], line, &m)) {
			set_str(&nodetype, strdup("ca"));
			firstport = true;
		}
		if (perlre_match(re[RE_RT], line, &m)) {
			set_str(&nodetype, strdup("router"));
			firstport = true;
		}
		if (strcmp(nodetype, "ca") == 0 || strcmp(nodetype, "router") == 0) {
			for (int r = RE_TO_S; r <= RE_TO_R; r++) {
				if (!perlre_match(re[r], line, &m))
					continue;
				set_str(&lid, perlre_group(line, &m, 2));
				insert_lid(&s, lid, nodeguid, nodetype);
				if (firstport) {
					insert_nodeguid(&s, lid, nodeguid, nodetype);
					firstport = false;
				}
			}
			if (perlre_match(re[RE_PORTGUID], line, &m)) {
				set_str(&portguid, prefixed("0x", perlre_group(line, &m, 2)));
				insert_portguid(&s, lid, portguid, nodetype, nodeguid);
			}
		}
		free(line);
	}

	for (int i = 0; i < RE_COUNT; i++)
		perlre_free(re[i]);
	free(text);
	free(file);
	free(nodetype);
	free(nodeguid);
	free(portguid);
	free(lid);
	table_free(&s.lids);
	table_free(&s.nodeguids);
	table_free(&s.portguids);
	return s.rc;
}
