/* SPDX-License-Identifier: BSD-3-Clause */
/* ibprintca, ibprintrt and ibprintswitch (see ibprint.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibprint.h"
#include "ibscript.h"
#include "perlre.h"

/* The script's %ports: port number (as written) -> the port's line.  Never emptied: each
 * flush prints every port seen since the start, a later line for a number replacing the
 * earlier one, as the script's hash does. */
struct ports {
	char **num;
	char **line;
	size_t n, cap;
};

static void ports_put(struct ports *p, char *num, char *line)
{
	for (size_t i = 0; i < p->n; i++) {
		if (strcmp(p->num[i], num) == 0) {
			free(num);
			free(p->line[i]);
			p->line[i] = line;
			return;
		}
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		char **nv = realloc(p->num, cap * sizeof(*nv));

		if (nv)
			p->num = nv;
		nv = nv ? realloc(p->line, cap * sizeof(*nv)) : NULL;
		if (!nv)
			ibscript_die(ENOMEM, "Out of memory!\n");
		p->line = nv;
		p->cap = cap;
	}
	p->num[p->n] = num;
	p->line[p->n++] = line;
}

struct port_order {
	double num;
	size_t idx;
};

static int port_cmp(const void *a, const void *b)
{
	const struct port_order *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* foreach (sort { $a <=> $b } keys %ports) { print $ports{$_} } */
static void ports_print(const struct ports *p)
{
	struct port_order *o;

	if (!p->n)
		return;
	o = calloc(p->n, sizeof(*o));
	if (!o)
		ibscript_die(ENOMEM, "Out of memory!\n");
	for (size_t i = 0; i < p->n; i++) {
		o[i].num = ibscript_num(p->num[i]);
		o[i].idx = i;
	}
	qsort(o, p->n, sizeof(*o), port_cmp);
	for (size_t i = 0; i < p->n; i++)
		fputs(p->line[o[i].idx], stdout);
	free(o);
}

static void ports_free(struct ports *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->num[i]);
		free(p->line[i]);
	}
	free(p->num);
	free(p->line);
}

static _Noreturn void usage(const char *argv0, const struct ibprint_kind *k)
{
	printf("Usage: %s [-R -l] [-G %s]\n", ibscript_name(argv0), k->operand);
	printf("   print only the %s specified from the ibnetdiscover output\n", k->what);
	printf("   -R Recalculate ibnetdiscover information\n");
	printf("   -l list %s\n", k->list_what);
	printf("   -C <ca_name> use selected channel adaptor name for queries\n");
	printf("   -P <ca_port> use selected channel adaptor port for queries\n");
	printf("   -G node is specified with GUID\n");
	exit(2);
}

/* IBswcountlimits.pm's format_guid(): A-F lowered, what follows the first "0x" (or all)
 * left-padded with zeros to 16 characters (Perl's "%016s" pads strings with zeros too). */
static char *format_guid(const char *guid)
{
	struct perlre *re = perlre_compile("0x(.*)");
	struct perlre_match m;
	char *g = strdup(guid ? guid : ""), *digits, *r;
	size_t len;

	if (!g || !re)
		ibscript_die(ENOMEM, "Out of memory!\n");
	for (char *c = g; *c; c++)
		if (*c >= 'A' && *c <= 'F')
			*c = (char)(*c - 'A' + 'a');
	digits = perlre_match(re, g, &m) ? perlre_group(g, &m, 1) : strdup(g);
	if (!digits)
		ibscript_die(ENOMEM, "Out of memory!\n");
	len = strlen(digits);
	r = ibscript_sprintf("0x%.*s%s", len < 16 ? (int)(16 - len) : 0, "0000000000000000", digits);
	free(digits);
	free(g);
	perlre_free(re);
	return r;
}

/* Perl's fatal errors for the operand's regular expression, found as Perl's parser finds
 * them: ")" with nothing open and a quantifier on a quantifier at once, "(" left open at
 * the end (the innermost).  NULL, or the message and *at, the offset after which Perl
 * puts its "<-- HERE" mark. */
static const char *regex_error(const char *t, size_t *at)
{
	size_t open[64], depth = 0, i = 0, n = strlen(t);
	bool quantified = false, modified = false;

	while (i < n) {
		char c = t[i++];

		if (c == '\\') {
			if (i < n)
				i++;
			quantified = false;
			continue;
		}
		if (c == '[') {
			/* a class: the first ']' (after an optional '^') is a member */
			if (i < n && t[i] == '^')
				i++;
			if (i < n && t[i] == ']')
				i++;
			while (i < n && t[i] != ']')
				i += t[i] == '\\' && i + 1 < n ? 2 : 1;
			i += i < n;
			quantified = false;
			continue;
		}
		if (c == '*' || c == '+' || c == '?') {
			if (quantified && !modified && c != '*') {
				modified = true; /* lazy "*?" or possessive "*+" */
				continue;
			}
			if (quantified) {
				*at = i;
				return "Nested quantifiers";
			}
			quantified = true;
			modified = false;
			continue;
		}
		quantified = false;
		if (c == '(') {
			if (depth < sizeof(open) / sizeof(open[0]))
				open[depth] = i;
			depth++;
		} else if (c == ')') {
			if (!depth) {
				*at = i;
				return "Unmatched )";
			}
			depth--;
		}
	}
	if (depth) {
		*at = open[depth <= sizeof(open) / sizeof(open[0]) ? depth - 1 : sizeof(open) / sizeof(open[0]) - 1];
		return "Unmatched (";
	}
	return NULL;
}

/* The operand as the script puts it into /[\s\"]$target[\s\"]/: a regular expression.
 * The alternatives of a top-level "|" are matched one by one (perlre has no alternation). */
struct name_re {
	struct perlre *alt[16];
	int n;
};

static _Noreturn void unknown_syntax(const char *argv0, const char *target)
{
	fflush(stdout);
	ibscript_die(255, "%s: cannot match the name \"%s\": regular expression syntax this tool "
		     "does not know\n", ibscript_name(argv0), target);
}

static void name_re_compile(struct name_re *r, const char *argv0, const char *target, long lineno)
{
	char *pat = ibscript_sprintf("[\\s\"]%s[\\s\"]", target);
	const char *err;
	size_t at = 0, start = 0, depth = 0, len = strlen(pat);

	err = regex_error(target, &at);
	if (err) {
		fflush(stdout);
		/* errno is ENOTTY there: Perl's open() looked whether the file is a terminal */
		ibscript_die(ENOTTY, "%s in regex; marked by <-- HERE in m/[\\s\\\"]%.*s <-- HERE %s[\\s\\\"]/ "
			     "at %s line 114, <IBNET_TOPO> line %ld.\n", err, (int)at, target, target + at,
			     argv0, lineno);
	}
	/* Perl's escapes with a meaning of their own (perlre takes them for the letter) */
	for (const char *e = strchr(target, '\\'); e && e[1]; e = strchr(e + 2, '\\'))
		if (e[1] != '\0' && strchr("bBAzZGtnrfeaxcNhHvVRKpPXCogk0123456789", e[1]))
			unknown_syntax(argv0, target);
	for (size_t i = 0; i <= len; i++) {
		char c = pat[i];

		if (c == '\\' && pat[i + 1]) {
			i++;
		} else if (c == '[') {
			/* skip the class, as regex_error() does */
			i += pat[i + 1] == '^';
			i += pat[i + 1] == ']';
			while (pat[i + 1] && pat[i + 1] != ']')
				i += pat[i + 1] == '\\' && pat[i + 2] ? 2 : 1;
			i += pat[i + 1] != '\0';
		} else if (c == '(') {
			depth++;
		} else if (c == ')') {
			depth--;
		} else if ((c == '|' && !depth) || c == '\0') {
			pat[i] = '\0';
			if (r->n == (int)(sizeof(r->alt) / sizeof(r->alt[0])) ||
			    !(r->alt[r->n++] = perlre_compile(pat + start)))
				unknown_syntax(argv0, target);
			start = i + 1;
		}
	}
	free(pat);
}

static bool name_re_match(const struct name_re *r, const char *desc)
{
	struct perlre_match m;

	for (int i = 0; i < r->n; i++)
		if (perlre_match(r->alt[i], desc, &m))
			return true;
	return false;
}

static void name_re_free(struct name_re *r)
{
	for (int i = 0; i < r->n; i++)
		perlre_free(r->alt[i]);
}

struct search {
	const struct ibprint_kind *k;
	const char *argv0, *target;
	struct perlre *header, *leave[2], *port;
	struct name_re name;
	bool name_ready;
	long lineno;
	struct ports ports;
	bool in_node;
	long found;
};

static void search_line(struct search *s, const char *line)
{
	struct perlre_match m;

	if (perlre_match(s->header, line, &m)) {
		char *guid = perlre_group(line, &m, 1), *desc = perlre_group(line, &m, 2);
		char *hex = guid ? ibscript_sprintf("0x%s", guid) : NULL;

		if (!desc || !hex)
			ibscript_die(ENOMEM, "Out of memory!\n");
		if (s->in_node) {
			s->in_node = false;
			ports_print(&s->ports);
		}
		if (strcmp(hex, s->target) != 0 && !s->name_ready) {
			name_re_compile(&s->name, s->argv0, s->target, s->lineno);
			s->name_ready = true;
		}
		if (strcmp(hex, s->target) == 0 || name_re_match(&s->name, desc)) {
			fputs(line, stdout);
			s->in_node = true;
			s->found++;
		}
		free(hex);
		free(guid);
		free(desc);
	}
	for (int i = 0; i < 2; i++)
		if (s->leave[i] && perlre_match(s->leave[i], line, &m))
			s->in_node = false;
	if (s->in_node && perlre_match(s->port, line, &m)) {
		char *num = perlre_group(line, &m, 1), *copy = strdup(line);

		if (!num || !copy)
			ibscript_die(ENOMEM, "Out of memory!\n");
		ports_put(&s->ports, num, copy);
	}
}

int ibprint_main(int argc, char **argv, const struct ibprint_kind *k)
{
	struct ibscript_opts o;
	struct search s = { .k = k };
	const char *ca, *port;
	char *target = NULL, *file, *text, *line;
	size_t len = 0, pos = 0;
	FILE *f;

	fprintf(stderr, "*** WARNING ***: this command is deprecated; Please use \"%s\"\n\n", k->instead);
	if (!ibscript_getopts(argc, argv, "hRlC:P:G", &o) || o.set['h'])
		usage(argv[0], k);
	ibscript_ca_port(&o, &ca, &port);
	if (o.next < argc)
		target = strdup(argv[o.next]);
	if (o.set['G']) {
		char *g = format_guid(target);

		free(target);
		target = g;
	}

	file = ibscript_cache_file(ca, port);
	if (o.set['R'] || !ibscript_is_file(file))
		ibscript_generate_topology(ca, port);

	if (o.set['l']) {
		char *cmd = ibscript_sprintf("%s %s", k->instead, file);
		int rc;

		fflush(stdout);
		rc = system(cmd); /* whatever it gives (Perl's system() says nothing either) */
		(void)rc;
		free(cmd);
		exit(1);
	}
	if (!target || !*target)
		usage(argv[0], k);

	f = fopen(file, "r");
	if (!f)
		ibscript_die(errno, "Failed to open ibnet topology\n");
	text = ibscript_slurp(f, &len);
	fclose(f);

	s.target = target;
	s.argv0 = ibscript_path(argv[0]);
	s.header = perlre_compile(k->header_re);
	for (int i = 0; i < 2; i++)
		s.leave[i] = k->leave_re[i] ? perlre_compile(k->leave_re[i]) : NULL;
	s.port = perlre_compile("^\\[(\\d+)\\].*");
	while ((line = ibscript_next_line(text, len, &pos))) {
		s.lineno++;
		search_line(&s, line);
		free(line);
	}
	if (k->flush_at_end && s.in_node)
		ports_print(&s.ports);

	if (s.found == 0) {
		fflush(stdout);
		fprintf(stderr, "%s\"%s\" not found\n   Try running with the \"-R\" option.\n%s",
			k->not_found, target, k->not_found_down ? "   If still not found the node is probably down.\n" : "");
		exit(255);
	}
	if (s.found > 1)
		printf("\nWARNING: Found %ld %s with the name \"%s\"\n", s.found, k->several, target);

	ports_free(&s.ports);
	perlre_free(s.header);
	perlre_free(s.leave[0]);
	perlre_free(s.leave[1]);
	perlre_free(s.port);
	name_re_free(&s.name);
	free(text);
	free(file);
	free(target);
	return 0;
}
