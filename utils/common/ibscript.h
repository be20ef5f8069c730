/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tools replacing infiniband-diags' Perl scripts (check_lft_balance,
 * ibfindnodesusing, ibidsverify) share: Perl's Getopt::Std option parsing with its messages,
 * Perl's die(), the scripts' topology cache (IBswcountlimits.pm: ibnetdiscover -g output in
 * /var/cache/infiniband-diags) and running the other diags tools through the shell, as the
 * scripts do.
 */
#ifndef IBMGMT_UTILS_IBSCRIPT_H
#define IBMGMT_UTILS_IBSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* IBswcountlimits.pm's cache directory; the environment variable IBMGMT_DIAGS_CACHE_DIR
 * replaces it (for tests, which must not write to the system's). */
#define IBSCRIPT_CACHE_DIR "/var/cache/infiniband-diags"

struct ibscript_opts {
	bool set[256];
	const char *val[256]; /* options with an argument; NULL when it was missing */
	int next;             /* index of the first operand */
};

/* Getopt::Std::getopts(spec): bundled letters, "-Cval" or "-C val", stops at the first
 * operand or "--"; prints "Unknown option: x" for others, and Getopt::Std's --help/--version
 * texts (then goes on, as Getopt::Std does by default).  Returns true when no error. */
bool ibscript_getopts(int argc, char **argv, const char *spec, struct ibscript_opts *o);

/* -C and -P as the scripts take them: "" when not given. */
void ibscript_ca_port(const struct ibscript_opts *o, const char **ca, const char **port);

/* The rest of a file (NULL: none) in a NUL-terminated malloc'd buffer, *len bytes. */
char *ibscript_slurp(FILE *f, size_t *len);

/* `basename $0`, as the scripts print their name */
const char *ibscript_name(const char *argv0);

/* Perl's $0 for a script run as a program: the path the program was started by (the
 * kernel gives the interpreter that path, not argv[0]; a run through PATH shows the full
 * path), argv0 when the system does not tell. */
const char *ibscript_path(const char *argv0);

/* Perl's die "<msg>": the message on stderr, exit with errno (err) if not 0, else 255. */
_Noreturn void ibscript_die(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* get_cache_file(ca, port): the topology file's path (malloc'd), creating the directory
 * (mode 0700) when missing, or dying "cannot create <dir>: <error>". */
char *ibscript_cache_file(const char *ca, const char *port);
/* asprintf() that dies "Out of memory!" as Perl does. */
char *ibscript_sprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The usage lines of -C and -P that ibfindnodesusing and ibidsverify share. */
void ibscript_ca_help(void);

/* Perl's -f: an existing regular file (symbolic links followed). */
bool ibscript_is_file(const char *path);
/* "-C <ca> -P <port>" as get_ca_name_port_param_string() builds it (malloc'd). */
char *ibscript_ca_params(const char *ca, const char *port);
/* generate_ibnetdiscover_topology(): "ibnetdiscover -g <params> > <file>" run by the shell. */
void ibscript_generate_topology(const char *ca, const char *port);

/* Runs a shell command line as Perl's backquotes do: stdout returned (malloc'd, NUL
 * terminated, *len bytes), stderr passed through.  NULL when the shell cannot be run. */
char *ibscript_backquote(const char *cmd, size_t *len);

/* The next line of text (with its "\n" when it has one), NULL at the end.  *pos advances. */
char *ibscript_next_line(const char *text, size_t len, size_t *pos);

/* A string's value as a Perl number ("12abc" is 12, "abc" 0, no hexadecimal). */
double ibscript_num(const char *s);

/* A growing list of strings (NULL entries allowed: Perl's undef). */
struct ibscript_list {
	char **v;
	size_t n, cap;
};
/* Appends s (taken over; NULL for undef). */
void ibscript_list_push(struct ibscript_list *l, char *s);
void ibscript_list_free(struct ibscript_list *l);

#endif /* IBMGMT_UTILS_IBSCRIPT_H */
