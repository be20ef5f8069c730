/* SPDX-License-Identifier: BSD-3-Clause */
/* The Perl script tools' shared part (see ibscript.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "ibscript.h"

/* What Getopt::Std 1.13 under Perl 5.36 prints for --version and --help (the scripts set
 * no $VERSION and leave $STANDARD_HELP_VERSION unset: the texts go to stderr, and parsing
 * goes on after them). */
static void getopts_version(const char *argv0)
{
	fprintf(stderr, "%s version [unknown] calling Getopt::Std::getopts (version 1.13 [paranoid]),\n"
			"running under Perl version 5.36.0.\n", argv0);
}

static void getopts_help(const char *argv0, const char *spec)
{
	fprintf(stderr, "\nUsage: %s [-OPTIONS [-MORE_OPTIONS]] [--] [PROGRAM_ARG1 ...]\n", ibscript_name(argv0));
	fprintf(stderr, "\nThe following single-character options are accepted:");
	for (int pass = 0; pass < 2; pass++) {
		bool any = false;

		for (const char *p = spec; *p; p++) {
			bool arg = p[1] == ':';

			if (*p == ':' || arg != (pass == 0))
				continue;
			fprintf(stderr, "%s-%c", any ? " " : pass == 0 ? "\n\tWith arguments: " :
					"\n\tBoolean (without arguments): ", *p);
			any = true;
		}
	}
	fprintf(stderr, "\n\nOptions may be merged together.  -- stops processing of options.\n");
	if (strchr(spec, ':'))
		fprintf(stderr, "Space is not required between options and their arguments.\n");
}

static void getopts_continue(void)
{
	fprintf(stderr, "  [Now continuing due to backward compatibility and excessive paranoia.\n"
			"   See 'perldoc Getopt::Std' about $Getopt::Std::STANDARD_HELP_VERSION.]\n");
}

bool ibscript_getopts(int argc, char **argv, const char *spec, struct ibscript_opts *o)
{
	int errs = 0, i = 1;
	const char *cur = NULL; /* the rest of a bundle ("-Rh" -> "h") */

	memset(o, 0, sizeof(*o));
	while (i < argc) {
		const char *a = cur ? cur : argv[i];
		const char *pos;
		unsigned char first;

		if (!cur && (a[0] != '-' || a[1] == '\0'))
			break;
		if (!cur && strcmp(a, "--") == 0) {
			i++;
			break;
		}
		first = (unsigned char)(cur ? a[0] : a[1]);
		a = cur ? a + 1 : a + 2; /* the rest after the letter */
		cur = NULL;
		pos = first ? strchr(spec, first) : NULL;
		if (pos) {
			o->set[first] = true;
			if (pos[1] == ':') {
				i++;
				if (*a == '\0') {
					if (i >= argc) {
						/* the option's value is undef: not "defined" */
						errs++;
						o->set[first] = false;
						o->val[first] = NULL;
						continue;
					}
					a = argv[i++];
				}
				o->val[first] = a;
			} else if (*a == '\0') {
				i++;
			} else {
				cur = a;
			}
			continue;
		}
		if (first == '-' && strcmp(a, "help") == 0) {
			getopts_version(argv[0]);
			getopts_help(argv[0], spec);
			getopts_continue();
			i++;
			continue;
		}
		if (first == '-' && strcmp(a, "version") == 0) {
			getopts_version(argv[0]);
			getopts_continue();
			i++;
			continue;
		}
		fprintf(stderr, "Unknown option: %c\n", first);
		errs++;
		if (*a)
			cur = a;
		else
			i++;
	}
	o->next = i;
	return errs == 0;
}

void ibscript_ca_port(const struct ibscript_opts *o, const char **ca, const char **port)
{
	*ca = o->set['C'] ? o->val['C'] : "";
	*port = o->set['P'] ? o->val['P'] : "";
}

char *ibscript_slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap + 1);

	while (buf && f && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb)
				free(buf);
			buf = nb;
			cap *= 2;
		}
	}
	if (!buf)
		ibscript_die(ENOMEM, "Out of memory!\n");
	buf[n] = '\0';
	*len = n;
	return buf;
}

const char *ibscript_name(const char *argv0)
{
	const char *s = strrchr(argv0, '/');

	return s && s[1] ? s + 1 : argv0;
}

const char *ibscript_path(const char *argv0)
{
	const char *p = (const char *)getauxval(AT_EXECFN);

	return p && *p ? p : argv0;
}

_Noreturn void ibscript_die(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stdout);
	exit(err > 0 && err < 256 ? err : 255);
}

static const char *cache_dir(void)
{
	const char *d = getenv("IBMGMT_DIAGS_CACHE_DIR");

	return d && *d ? d : IBSCRIPT_CACHE_DIR;
}

char *ibscript_sprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		ibscript_die(ENOMEM, "Out of memory!\n");
	return s;
}

char *ibscript_cache_file(const char *ca, const char *port)
{
	const char *dir = cache_dir();
	struct stat st;

	if ((stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) && mkdir(dir, 0700) < 0)
		ibscript_die(errno, "cannot create %s: %s\n", dir, strerror(errno));
	return ibscript_sprintf("%s/ibnetdiscover-%s-%s.topology", dir, ca, port);
}

void ibscript_ca_help(void)
{
	printf("   -C <ca_name> use selected Channel Adaptor name for queries\n");
	printf("   -P <ca_port> use selected channel adaptor port for queries\n");
}

bool ibscript_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *ibscript_ca_params(const char *ca, const char *port)
{
	return ibscript_sprintf("%s%s %s%s", *ca ? "-C " : "", ca, *port ? "-P " : "", port);
}

void ibscript_generate_topology(const char *ca, const char *port)
{
	char *file = ibscript_cache_file(ca, port);
	char *params = ibscript_ca_params(ca, port);
	char *cmd = ibscript_sprintf("ibnetdiscover -g %s > %s", params, file);
	size_t len = 0;
	char *out = ibscript_backquote(cmd, &len);

	/* the output goes to the file: the script dies only if something came back anyway */
	if (out && len)
		ibscript_die(errno, "Execution of ibnetdiscover failed: %s\n", strerror(errno));
	free(out);
	free(cmd);
	free(params);
	free(file);
}

char *ibscript_backquote(const char *cmd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	FILE *p;

	if (!buf)
		return NULL;
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p) {
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t got;

		if (cap - n < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				pclose(p);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		got = fread(buf + n, 1, cap - n - 1, p);
		if (!got)
			break;
		n += got;
	}
	pclose(p);
	buf[n] = '\0';
	*len = n;
	return buf;
}

char *ibscript_next_line(const char *text, size_t len, size_t *pos)
{
	const char *nl;
	size_t end;

	if (*pos >= len)
		return NULL;
	nl = memchr(text + *pos, '\n', len - *pos);
	end = nl ? (size_t)(nl - text) + 1 : len;
	{
		char *line = strndup(text + *pos, end - *pos);

		*pos = end;
		return line;
	}
}

double ibscript_num(const char *s)
{
	const char *p = s, *start;
	char buf[128];
	size_t n;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
		p++;
	start = p;
	/* the longest decimal prefix: [+-]digits[.digits][e[+-]digits] (no hexadecimal, no inf) */
	if (*p == '+' || *p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if ((*p == 'e' || *p == 'E') && ((p[1] >= '0' && p[1] <= '9') ||
	    ((p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9')))
		for (p += 2; *p >= '0' && *p <= '9'; p++)
			;
	n = (size_t)(p - start);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, start, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

void ibscript_list_push(struct ibscript_list *l, char *s)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			ibscript_die(ENOMEM, "Out of memory!\n");
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = s;
}

void ibscript_list_free(struct ibscript_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
