/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibfindnodesusing: the channel adapters whose LIDs a switch routes through one of its
 * ports, in both directions of the link there; a drop-in replacement for infiniband-diags'
 * Perl script of the same name.
 *
 *   ibfindnodesusing [-R -C <ca_name> -P <ca_port>] <switch_guid|switch_name> <port>
 *
 * As the script: the links come from the `ibnetdiscover -g` topology cached in
 * /var/cache/infiniband-diags (made first with -R or when missing), the routes from
 * `ibroute -G <guid>` run through the shell for the switch and for the node at the other
 * end of the link, the CA names are compressed into host ranges ("node1-3,node5") and
 * printed space-separated.  The regular expressions are the script's, matched with Perl's
 * rules (utils/common/perlre.c), so that odd descriptions give the script's results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibscript.h"
#include "perlre.h"

/* One switch port of the topology: what get_link_ends() keeps of it. */
struct link_end {
	char *guid;     /* "0x<switch guid>" */
	char *port;     /* the port number as written */
	char *rem_guid; /* "0x<remote node guid>" */
	char *rem_port;
	char *rem_desc;
};

struct links {
	struct link_end *v;
	size_t n, cap;
};

static void links_free(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].guid);
		free(l->v[i].port);
		free(l->v[i].rem_guid);
		free(l->v[i].rem_port);
		free(l->v[i].rem_desc);
	}
	free(l->v);
}

/* $link_ends{guid}{port} = rec: a later record for the same key replaces the earlier. */
static void links_set(struct links *l, struct link_end *rec)
{
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].guid, rec->guid) == 0 && strcmp(l->v[i].port, rec->port) == 0) {
			struct link_end old = l->v[i];

			l->v[i] = *rec;
			*rec = old;
			free(rec->guid);
			free(rec->port);
			free(rec->rem_guid);
			free(rec->rem_port);
			free(rec->rem_desc);
			return;
		}
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct link_end *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			ibscript_die(ENOMEM, "Out of memory!\n");
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *rec;
}

static const struct link_end *links_get(const struct links *l, const char *guid, const char *port)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].guid, guid) == 0 && strcmp(l->v[i].port, port) == 0)
			return &l->v[i];
	return NULL;
}

static char *cat(const char *a, const char *b)
{
	return ibscript_sprintf("%s%s", a, b);
}

static char *read_text(const char *file, size_t *len, bool with_reason)
{
	FILE *f = fopen(file, "r");
	char *text;

	if (!f) {
		if (with_reason)
			ibscript_die(errno, "Failed to open ibnet topology: %s\n", strerror(errno));
		ibscript_die(errno, "Failed to open ibnet topology\n");
	}
	text = ibscript_slurp(f, len);
	fclose(f);
	return text;
}

/* IBswcountlimits.pm's get_link_ends(): the port lines under each switch; the four forms
 * (with and without "[ext N]" on either side), groups: local port, remote GUID, remote port,
 * remote description. */
static const struct {
	const char *re;
	unsigned port, guid, rport, desc;
} port_forms[] = {
	{ "^\\[(\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	  1, 2, 3, 5 },
	{ "^\\[(\\d+)\\]\\[ext (\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	  1, 3, 4, 6 },
	{ "^\\[(\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\]\\[ext (\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	  1, 2, 3, 6 },
	{ "^\\[(\\d+)\\]\\[ext (\\d+)\\]\\s+\\\"[HSR]-(.+)\\\"\\[(\\d+)\\]\\[ext (\\d+)\\](\\(.+\\))?\\s+#.*\\\"(.*)\\\"\\.* lid (\\d+).*",
	  1, 3, 4, 7 },
};

static void get_link_ends(struct links *links, bool regenerate, const char *ca, const char *port)
{
	struct perlre *sw = perlre_compile("^Switch.*\\\"S-(.*)\\\"\\s+#.*\\\"(.*)\\\".* lid (\\d+).*");
	struct perlre *end_sw = perlre_compile("^Ca.*"), *end_rt = perlre_compile("^Rt.*");
	struct perlre *forms[4];
	struct perlre_match m;
	char *file = ibscript_cache_file(ca, port), *text, *line, *guid = strdup("");
	size_t len, pos = 0;
	bool in_switch = false;

	if (regenerate || !ibscript_is_file(file))
		ibscript_generate_topology(ca, port);
	text = read_text(file, &len, true);
	for (int i = 0; i < 4; i++)
		forms[i] = perlre_compile(port_forms[i].re);

	while ((line = ibscript_next_line(text, len, &pos))) {
		if (perlre_match(sw, line, &m)) {
			free(guid);
			guid = perlre_group(line, &m, 1);
			in_switch = true;
		}
		if (in_switch) {
			struct link_end rec = { 0 };
			bool have = false;

			for (int i = 0; i < 4; i++) {
				if (!perlre_match(forms[i], line, &m))
					continue;
				if (have) {
					free(rec.port);
					free(rec.rem_guid);
					free(rec.rem_port);
					free(rec.rem_desc);
				}
				rec.port = perlre_group(line, &m, port_forms[i].port);
				rec.rem_guid = perlre_group(line, &m, port_forms[i].guid);
				rec.rem_port = perlre_group(line, &m, port_forms[i].rport);
				rec.rem_desc = perlre_group(line, &m, port_forms[i].desc);
				have = true;
			}
			if (have) {
				char *g = cat("0x", rec.rem_guid);

				free(rec.rem_guid);
				rec.rem_guid = g;
				rec.guid = cat("0x", guid);
				links_set(links, &rec);
			}
		}
		if (perlre_match(end_sw, line, &m) || perlre_match(end_rt, line, &m))
			in_switch = false;
		free(line);
	}
	for (int i = 0; i < 4; i++)
		perlre_free(forms[i]);
	perlre_free(sw);
	perlre_free(end_sw);
	perlre_free(end_rt);
	free(guid);
	free(text);
	free(file);
}

/* format_guid(): A-F lowered; the part after "0x" (or all) zero-padded to 16 characters as
 * Perl's sprintf("0x%016s") pads. */
static char *format_guid(const char *arg)
{
	char *s = strdup(arg ? arg : ""), *hex, *r;
	size_t n;

	if (!s)
		ibscript_die(ENOMEM, "Out of memory!\n");
	for (char *p = s; *p; p++)
		if (*p >= 'A' && *p <= 'F')
			*p = (char)(*p - 'A' + 'a');
	hex = strstr(s, "0x");
	hex = hex ? hex + 2 : s;
	/* Perl's /0x(.*)/: up to the end of the line only */
	n = strcspn(hex, "\n");
	r = ibscript_sprintf("0x%s%.*s", n < 16 ? "0000000000000000" + n : "", (int)n, hex);
	free(s);
	return r;
}

/* get_hosts_routed(): the script's list starts with an undef element (NULL here). */
static void get_hosts_routed(struct ibscript_list *hosts, const char *sw_guid, const char *sw_port,
			     const char *ca, const char *port)
{
	struct perlre *re = perlre_compile("\\w+\\s+(\\d+)\\s+:\\s+\\(Channel Adapter.*:\\s+'(.*)'\\)");
	struct perlre_match m;
	char *params, *cmd, *out, *line;
	size_t len = 0, pos = 0;

	ibscript_list_push(hosts, NULL);
	if (!sw_guid || !*sw_guid) {
		perlre_free(re);
		return;
	}
	params = ibscript_ca_params(ca, port);
	cmd = ibscript_sprintf("ibroute %s -G %s", params, sw_guid);
	out = ibscript_backquote(cmd, &len);
	/* split("\n", $data): lines without their newline */
	while (out && (line = ibscript_next_line(out, len, &pos))) {
		line[strcspn(line, "\n")] = '\0';
		if (perlre_match(re, line, &m)) {
			char *num = perlre_group(line, &m, 1);

			if (ibscript_num(num) == ibscript_num(sw_port ? sw_port : ""))
				ibscript_list_push(hosts, perlre_group(line, &m, 2));
			free(num);
		}
		free(line);
	}
	free(out);
	free(cmd);
	free(params);
	perlre_free(re);
}

/* ---- compress_hostlist(): "lx01,lx02,lx03,lx05,dev0" -> "dev0,lx01-03,lx05" ------------- */

struct host {
	const char *name; /* NULL: undef */
	char *prefix;     /* name without its trailing digits */
	char *digits;     /* the trailing digits ("" when none) */
	double key;       /* sortn(): the digits' value, 0 when none */
};

static int host_cmp(const void *a, const void *b)
{
	const struct host *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

struct range_set {
	char *prefix;
	struct ibscript_list *ranges; /* each: the digit strings of one run */
	size_t n;                     /* ranges used (index of the current one + 1) */
};

static int set_cmp(const void *a, const void *b)
{
	return strcmp(((const struct range_set *)a)->prefix, ((const struct range_set *)b)->prefix);
}

/* The comma-joined compressed list (malloc'd). */
static char *compress_hostlist(const struct ibscript_list *names)
{
	struct host *h = calloc(names->n + 1, sizeof(*h));
	struct range_set *sets = calloc(names->n + 1, sizeof(*sets));
	size_t n_sets = 0, len = 0, cap = 64, items = 0;
	char *out = malloc(cap);

	if (!h || !sets || !out)
		ibscript_die(ENOMEM, "Out of memory!\n");
	out[0] = '\0';
	for (size_t i = 0; i < names->n; i++) {
		const char *s = names->v[i] ? names->v[i] : "";
		size_t d = strlen(s);

		while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
			d--;
		h[i].name = names->v[i];
		h[i].prefix = strndup(s, d);
		h[i].digits = strdup(s + d);
		if (!h[i].prefix || !h[i].digits)
			ibscript_die(ENOMEM, "Out of memory!\n");
		h[i].key = ibscript_num(h[i].digits);
	}
	/* Perl's sort is a stable merge sort; qsort is not stable: sort indexes instead */
	for (size_t i = 0; i < names->n; i++)
		for (size_t j = i; j > 0 && host_cmp(&h[j - 1], &h[j]) > 0; j--) {
			struct host t = h[j];

			h[j] = h[j - 1];
			h[j - 1] = t;
		}

	/* comp2(): per prefix, runs of consecutive numbers; a name extends the current run
	 * when the run's last number is its number - 1 (an empty run counts as 0) */
	for (size_t i = 0; i < names->n; i++) {
		struct range_set *rs = NULL;
		struct ibscript_list *cur;
		double last = 0;

		for (size_t k = 0; k < n_sets; k++)
			if (strcmp(sets[k].prefix, h[i].prefix) == 0)
				rs = &sets[k];
		if (!rs) {
			rs = &sets[n_sets++];
			rs->prefix = h[i].prefix;
			rs->ranges = calloc(names->n + 2, sizeof(*rs->ranges));
			if (!rs->ranges)
				ibscript_die(ENOMEM, "Out of memory!\n");
			rs->n = 1;
		}
		cur = &rs->ranges[rs->n - 1];
		if (cur->n)
			last = ibscript_num(cur->v[cur->n - 1]);
		if (last != ibscript_num(h[i].digits) - 1)
			cur = &rs->ranges[rs->n++];
		ibscript_list_push(cur, strdup(h[i].digits));
	}
	qsort(sets, n_sets, sizeof(*sets), set_cmp);
	for (size_t k = 0; k < n_sets; k++) {
		for (size_t r = 0; r < sets[k].n; r++) {
			const struct ibscript_list *run = &sets[k].ranges[r];
			char *item;

			if (!run->n)
				continue;
			if (run->n > 1)
				item = ibscript_sprintf("%s%s-%s", sets[k].prefix, run->v[0], run->v[run->n - 1]);
			else
				item = ibscript_sprintf("%s%s", sets[k].prefix, run->v[0]);
			while (len + strlen(item) + 2 > cap) {
				out = realloc(out, cap *= 2);
				if (!out)
					ibscript_die(ENOMEM, "Out of memory!\n");
			}
			len += (size_t)sprintf(out + len, "%s%s", items++ ? "," : "", item);
			free(item);
		}
		for (size_t r = 0; r < sets[k].n; r++)
			ibscript_list_free(&sets[k].ranges[r]);
		free(sets[k].ranges);
	}
	for (size_t i = 0; i < names->n; i++) {
		free(h[i].prefix);
		free(h[i].digits);
	}
	free(h);
	free(sets);
	return out;
}

/* print "@hosts" after @hosts = split ",", $compressed: the fields joined by spaces, the
 * empty fields at the end dropped as Perl's split drops them. */
static void print_hosts(const char *compressed)
{
	size_t n = strlen(compressed);

	while (n > 0 && compressed[n - 1] == ',')
		n--;
	for (size_t i = 0; i < n; i++)
		putchar(compressed[i] == ',' ? ' ' : compressed[i]);
}

static _Noreturn void usage(const char *argv0)
{
	printf("Usage: %s [-R -C <ca_name> -P <ca_port>] <switch_guid|switch_name> <port>\n", ibscript_name(argv0));
	printf("   find a list of nodes which are routed through switch:port\n");
	printf("   -R Recalculate ibnetdiscover information\n");
	ibscript_ca_help();
	exit(2);
}

int main(int argc, char **argv)
{
	struct ibscript_opts o;
	struct links links = { 0 };
	struct ibscript_list hosts = { 0 };
	struct perlre *sw_re, *name_re;
	struct perlre_match m;
	const char *ca, *port, *target_port;
	char *target, *file, *text, *line, *pattern, *sw_guid = NULL, *desc = NULL, *list;
	const struct link_end *hr;
	size_t len, pos = 0;
	bool found = false;

	if (!ibscript_getopts(argc, argv, "hRC:P:", &o) || o.set['h'])
		usage(argv[0]);
	ibscript_ca_port(&o, &ca, &port);

	target = format_guid(o.next < argc ? argv[o.next] : NULL);
	target_port = o.next + 1 < argc ? argv[o.next + 1] : NULL;

	/* the script reads the links before it checks its arguments */
	get_link_ends(&links, o.set['R'], ca, port);
	if (!target_port || !*target_port)
		usage(argv[0]);

	file = ibscript_cache_file(ca, port);
	text = read_text(file, &len, false);
	sw_re = perlre_compile("^Switch.*\\\"S-(.*)\\\"\\s+# (.*) port.*");
	/* the target is put into the pattern as the script interpolates it */
	pattern = ibscript_sprintf(".*%s\\s+.*", target);
	name_re = perlre_compile(pattern);
	while (!found && (line = ibscript_next_line(text, len, &pos))) {
		if (perlre_match(sw_re, line, &m)) {
			char *g = perlre_group(line, &m, 1);

			free(sw_guid);
			free(desc);
			sw_guid = cat("0x", g);
			desc = perlre_group(line, &m, 2);
			free(g);
			found = strcmp(sw_guid, target) == 0 || (name_re && perlre_match(name_re, desc, &m));
		}
		free(line);
	}
	free(text);
	if (!found) {
		printf("Switch \"%s\" not found\n", target);
		printf("   Try running with the \"-R\" or \"-P\" option.\n");
		exit(1);
	}

	hr = links_get(&links, sw_guid, target_port);
	/* the hosts routed out by the switch port, then those routed back from the other end */
	for (int back = 0; back < 2; back++) {
		if (back)
			get_hosts_routed(&hosts, hr ? hr->rem_guid : NULL, hr ? hr->rem_port : NULL, ca, port);
		else
			get_hosts_routed(&hosts, sw_guid, target_port, ca, port);
		list = compress_hostlist(&hosts);
		printf("%s %s (%s)  %s  %s %s (%s)\n", sw_guid, target_port, desc, back ? "<<==" : "==>>",
		       hr ? hr->rem_guid : "", hr ? hr->rem_port : "", hr ? hr->rem_desc : "");
		print_hosts(list);
		printf(back ? "\n" : "\n\n");
		free(list);
		ibscript_list_free(&hosts);
	}

	perlre_free(sw_re);
	perlre_free(name_re);
	free(pattern);
	free(sw_guid);
	free(desc);
	free(target);
	free(file);
	links_free(&links);
	return 0;
}
