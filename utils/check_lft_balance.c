/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * check_lft_balance: how evenly each switch spreads the LIDs of its forwarding table over
 * its ports, a drop-in replacement for infiniband-diags' Perl script of the same name.
 *
 *   check_lft_balance -l <dump_lfts output> -i <ibnetdiscover cache> [-e] [-v]
 *
 * As the script: the table of each switch is read from dump_lfts' output; the state of its
 * ports from `iblinkinfo --load-cache <cache> -S <guid>` run through the shell; ports 1-36
 * that are down (and route nothing) and ports that seem to lead straight to one host are
 * left out; a switch whose busiest port routes more than one LID more than its least busy
 * one is "Unbalanced" (-e: two more heuristics may let it pass).  -v prints every switch.
 * The script's regular expressions and its numeric comparisons of strings are kept (see
 * utils/common/perlre.c), so any input gives the script's output.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibscript.h"
#include "perlre.h"

#define NUM_PORTS 36 /* the script looks at ports "001" to "036" */

/* %switch_port_count: port string -> count */
struct counts {
	char **keys;
	long *vals;
	size_t n, cap;
};

static long *count_slot(struct counts *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->keys[i], key) == 0)
			return &c->vals[i];
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		char **k = realloc(c->keys, cap * sizeof(*k));
		long *v = k ? realloc(c->vals, cap * sizeof(*v)) : NULL;

		if (k)
			c->keys = k;
		if (!k || !v)
			ibscript_die(ENOMEM, "Out of memory!\n");
		c->vals = v;
		c->cap = cap;
	}
	c->keys[c->n] = strdup(key);
	if (!c->keys[c->n])
		ibscript_die(ENOMEM, "Out of memory!\n");
	c->vals[c->n] = 0;
	return &c->vals[c->n++];
}

static void counts_clear(struct counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->keys[i]);
	c->n = 0;
}

struct state {
	const char *cache;     /* -i */
	bool verbose, heuristic;
	char *switch_guid;     /* NULL: undef */
	char *switch_name;
	struct counts port_count;
	struct ibscript_list maybe_direct_hosts;
	char *host;
	struct ibscript_list host_ports;
	long lids_per_port;
	long lids_per_port_calculated;
};

static const char *str(const char *s)
{
	return s ? s : "";
}

static char *dup_or_null(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		ibscript_die(ENOMEM, "Out of memory!\n");
	return d;
}

/* $port =~ /0+(.+)/: the port number without its leading zeros, " N" below 10 */
static char *dec_port(const char *port)
{
	static struct perlre *re;
	struct perlre_match m;
	char *d, *r;

	if (!re)
		re = perlre_compile("0+(.+)");
	d = perlre_match(re, port, &m) ? perlre_group(port, &m, 1) : strdup("");
	if (ibscript_num(d) >= 1 && ibscript_num(d) <= 9) {
		r = ibscript_sprintf(" %s", d);
		free(d);
		return r;
	}
	return d;
}

/* The lines of iblinkinfo's output for the port ("$decport\[..\] =="), each in turn. */
struct port_lines {
	struct perlre *re;
	const char *text;
	size_t len, pos;
};

static void port_lines_open(struct port_lines *pl, const char *out, size_t len, const char *port)
{
	char *d = dec_port(port), *pattern;

	pattern = ibscript_sprintf("%s\\[..\\] ==", d);
	pl->re = perlre_compile(pattern);
	pl->text = out;
	pl->len = len;
	pl->pos = 0;
	free(pattern);
	free(d);
}

/* The next matching line (malloc'd, without its newline), NULL at the end. */
static char *port_lines_next(struct port_lines *pl)
{
	struct perlre_match m;
	char *line;

	while (pl->re && (line = ibscript_next_line(pl->text, pl->len, &pl->pos))) {
		line[strcspn(line, "\n")] = '\0';
		if (perlre_match(pl->re, line, &m))
			return line;
		free(line);
	}
	perlre_free(pl->re);
	pl->re = NULL;
	return NULL;
}

static bool is_port_up(const char *out, size_t len, const char *port)
{
	struct port_lines pl;
	char *line;
	bool up;

	port_lines_open(&pl, out, len, port);
	line = port_lines_next(&pl);
	if (!line)
		return false;
	up = !strstr(line, "Down");
	free(line);
	perlre_free(pl.re);
	return up;
}

static bool is_directly_connected(const struct state *s, const char *out, size_t len, const char *port,
				  long count)
{
	static struct perlre *re;
	struct port_lines pl;
	struct perlre_match m;
	char *line, *last = NULL, *name;
	bool rv = false;

	if (count != s->lids_per_port || !s->maybe_direct_hosts.n)
		return false;
	port_lines_open(&pl, out, len, port);
	while ((line = port_lines_next(&pl))) {
		free(last);
		last = line;
	}
	if (!last || !strstr(last, "Active")) {
		free(last);
		return false;
	}
	if (!re)
		re = perlre_compile("[\\d]+[\\s]+[\\d]+\\[.+\\]  \\=\\=.+\\=\\=>[\\s]+[\\d]+[\\s]+[\\d]+\\[.+\\] \\\"(.+)\\\".+");
	/* a failed match leaves $1 undef here; the script compares names as numbers */
	name = perlre_match(re, last, &m) ? perlre_group(last, &m, 1) : NULL;
	for (size_t i = 0; i < s->maybe_direct_hosts.n; i++)
		if (ibscript_num(str(name)) == ibscript_num(str(s->maybe_direct_hosts.v[i]))) {
			rv = true;
			break;
		}
	free(name);
	free(last);
	return rv;
}

static void output_switch_port_usage(struct state *s)
{
	char ports[NUM_PORTS][4], *cmd, *out;
	const char *output_ports[NUM_PORTS], *check[NUM_PORTS];
	long min = 999999, max = 0, min2 = 999999, max2 = 0;
	int n_out = 0, n_check, on_switch = 0;
	bool unbalanced;
	size_t len = 0;

	cmd = ibscript_sprintf("iblinkinfo --load-cache %s -S %s", s->cache, str(s->switch_guid));
	out = ibscript_backquote(cmd, &len);
	free(cmd);
	if (!out) {
		out = strdup("");
		len = 0;
	}

	for (int i = 0; i < NUM_PORTS; i++) {
		const char *port = ports[i];
		long count;

		snprintf(ports[i], sizeof(ports[i]), "%03d", i + 1);
		count = *count_slot(&s->port_count, port);
		/* a port that routes nothing and is down does not count */
		if (count == 0 && !is_port_up(out, len, port))
			continue;
		on_switch++;
		if (is_directly_connected(s, out, len, port, count))
			continue;
		output_ports[n_out++] = port;
		if (count < min)
			min = count;
		if (count > max)
			max = count;
	}
	unbalanced = max > min + 1;

	/* -e: a line board sends half its ports up and half down; if about half the ports
	 * (those not at max, max - 1 or 0) are balanced among themselves, so is the switch */
	if (s->heuristic && unbalanced && on_switch > 12) {
		n_check = 0;
		for (int i = 0; i < n_out; i++) {
			long c = *count_slot(&s->port_count, output_ports[i]);

			if (c != max && c != max - 1 && c != 0)
				check[n_check++] = output_ports[i];
		}
		if (n_check == on_switch / 2 || n_check == on_switch / 2 + 1 || n_check == on_switch / 2 - 1) {
			for (int i = 0; i < n_check; i++) {
				long c = *count_slot(&s->port_count, check[i]);

				if (c < min2)
					min2 = c;
				if (c > max2)
					max2 = c;
			}
			if (!(max2 > min2 + 1))
				unbalanced = false;
		}
	}
	/* -e: a switch not fully cabled: balanced when every port not at max or max - 1 is 0 */
	if (s->heuristic && unbalanced && on_switch > 12) {
		bool all_zero = true;

		for (int i = 0; i < n_out; i++) {
			long c = *count_slot(&s->port_count, output_ports[i]);

			if (c != max && c != max - 1 && c != 0) {
				all_zero = false;
				break;
			}
		}
		if (all_zero)
			unbalanced = false;
	}

	if (s->verbose || unbalanced) {
		printf("%sSwitch Port Usage: %s, %s\n", unbalanced ? "Unbalanced " : "", str(s->switch_name),
		       str(s->switch_guid));
		for (int i = 0; i < n_out; i++)
			printf("Port %s: %ld\n", output_ports[i], *count_slot(&s->port_count, output_ports[i]));
	}
	free(out);
}

/* A host whose LIDs all leave by one port may sit right behind it. */
static void process_host_ports(struct state *s)
{
	const struct ibscript_list *hp = &s->host_ports;

	if ((long)hp->n != s->lids_per_port)
		return;
	for (size_t i = 0; i < hp->n; i++)
		if (ibscript_num(str(hp->v[i])) != ibscript_num(str(hp->v[0])))
			return;
	ibscript_list_push(&s->maybe_direct_hosts, dup_or_null(s->host));
}

static _Noreturn void usage(const char *argv0)
{
	const char *prog = ibscript_name(argv0);

	printf("Usage: %s -l lft-output -i ibnetdiscover-cache [-e] [-v]\n", prog);
	printf("  Generate lft-output via \"dump_lfts.sh > lft-output\"\n");
	printf("  Generate ibnetdiscover-cache via \"ibnetdiscover --cache ibnetdiscover-cache\"\n");
	printf("  -e turn on heuristic(s) to look at switch balances deeper\n");
	printf("  -v verbose output, output all switches\n");
	exit(2);
}

/* Perl's two-argument open("< $file") drops white space around the name. */
static FILE *open_trimmed(const char *file)
{
	const char *b = file;
	size_t n;
	char *name;
	FILE *f;

	while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r' || *b == '\f')
		b++;
	n = strlen(b);
	while (n > 0 && (b[n - 1] == ' ' || b[n - 1] == '\t' || b[n - 1] == '\n' || b[n - 1] == '\r' ||
			 b[n - 1] == '\f'))
		n--;
	name = strndup(b, n);
	if (!name)
		ibscript_die(ENOMEM, "Out of memory!\n");
	f = fopen(name, "r");
	free(name);
	return f;
}

int main(int argc, char **argv)
{
	struct ibscript_opts o;
	struct state s = { 0 };
	struct perlre *re_dr, *re_lid, *re_host, *re_path;
	struct perlre_match m;
	char *text, *line;
	size_t len = 0, pos = 0;
	FILE *f;

	if (!ibscript_getopts(argc, argv, "hl:i:ve", &o) || o.set['h'])
		usage(argv[0]);
	if (!o.set['l']) {
		fprintf(stderr, "Must specify dump lfts file\n");
		usage(argv[0]);
	}
	if (!o.set['i']) {
		fprintf(stderr, "Must specify ibnetdiscover cache\n");
		usage(argv[0]);
	}
	s.cache = o.val['i'];
	s.verbose = o.set['v'];
	s.heuristic = o.set['e'];

	f = open_trimmed(o.val['l']);
	if (!f)
		fprintf(stderr, "Couldn't open dump lfts file: %s: %s\n", o.val['l'], strerror(errno));
	text = ibscript_slurp(f, &len);
	if (f)
		fclose(f);

	re_dr = perlre_compile("Unicast lids .+ of switch DR path slid .+ guid (.+) \\((.+)\\)");
	re_lid = perlre_compile("Unicast lids .+ of switch Lid .+ guid (.+) \\((.+)\\)");
	re_host = perlre_compile(".+ (.+) : \\(.+ portguid .+: '(.+)'\\)");
	re_path = perlre_compile(".+ (.+) : \\(path #. out of .: portguid .+\\)");

	while ((line = ibscript_next_line(text, len, &pos))) {
		size_t l = strlen(line);

		if (l && line[l - 1] == '\n')
			line[l - 1] = '\0';
		if (strstr(line, "Unicast")) {
			if (s.host_ports.n)
				process_host_ports(&s);
			if (s.switch_name)
				output_switch_port_usage(&s);
			/* no match keeps the previous switch's GUID and name */
			for (int r = 0; r < 2; r++) {
				if (!perlre_match(r ? re_lid : re_dr, line, &m))
					continue;
				free(s.switch_guid);
				free(s.switch_name);
				s.switch_guid = perlre_group(line, &m, 1);
				s.switch_name = perlre_group(line, &m, 2);
			}
			ibscript_list_free(&s.maybe_direct_hosts);
			counts_clear(&s.port_count);
			ibscript_list_free(&s.host_ports);
			s.lids_per_port = 0;
			s.lids_per_port_calculated = 0;
		} else if (strstr(line, "Channel") || strstr(line, "Router")) {
			/* no match: $1 and $2 are undef (the last match, /Channel/, had no groups) */
			bool ok = perlre_match(re_host, line, &m);
			char *port = ok ? perlre_group(line, &m, 1) : NULL;

			free(s.host);
			s.host = ok ? perlre_group(line, &m, 2) : NULL;
			(*count_slot(&s.port_count, str(port)))++;
			if (s.host_ports.n)
				process_host_ports(&s);
			ibscript_list_free(&s.host_ports);
			ibscript_list_push(&s.host_ports, port);
			if (s.lids_per_port == 0)
				s.lids_per_port++;
			else
				s.lids_per_port_calculated++;
		} else if (strstr(line, "path")) {
			bool ok = perlre_match(re_path, line, &m);
			char *port = ok ? perlre_group(line, &m, 1) : NULL;

			(*count_slot(&s.port_count, str(port)))++;
			if (s.lids_per_port_calculated == 0)
				s.lids_per_port++;
			ibscript_list_push(&s.host_ports, port);
		} else if (s.lids_per_port) {
			s.lids_per_port_calculated++;
		}
		free(line);
	}
	if (s.host_ports.n)
		process_host_ports(&s);
	output_switch_port_usage(&s);

	perlre_free(re_dr);
	perlre_free(re_lid);
	perlre_free(re_host);
	perlre_free(re_path);
	free(text);
	free(s.switch_guid);
	free(s.switch_name);
	free(s.host);
	counts_clear(&s.port_count);
	free(s.port_count.keys);
	free(s.port_count.vals);
	ibscript_list_free(&s.maybe_direct_hosts);
	ibscript_list_free(&s.host_ports);
	return 0;
}
