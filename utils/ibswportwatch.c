/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibswportwatch: polls a port's performance counters and prints the rates at which its error
 * counters (and, with -b, its data counters) grow; a drop-in replacement for
 * infiniband-diags' Perl script of the same name.
 *
 *   ibswportwatch [-p <pause_time> -b -v -n <cycles> -G] <guid|lid> <port>
 *
 * As the script: each poll runs `perfquery [-G] <addr> <port>` through the shell into
 * perfquery.out in IBswcountlimits.pm's cache directory and reads the counters back from
 * it; the first poll only sets the starting values.  Numbers follow Perl's rules: -p and -n
 * are read as Perl reads a number ("0.5" pauses int(0.5) = 0 seconds but rates are per 0.5
 * s, "x" is 0), rates print as Perl prints them.  The script lists the rates in the order
 * of its Perl hashes, which changes from run to run; this one keeps the order of the
 * counters' declaration.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibscript.h"
#include "perlre.h"

/* IBswcountlimits.pm's @counters, in its order */
static const char *const counters[] = {
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors",
	"PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors", "PortXmitDiscards",
	"PortXmitConstraintErrors", "PortRcvConstraintErrors", "LocalLinkIntegrityErrors",
	"ExcessiveBufferOverrunErrors", "VL15Dropped", "PortXmitData", "PortRcvData",
	"PortXmitPkts", "PortRcvPkts",
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

/* %rate_dep_thresholds (each 10) and %data_counters, as indexes into counters[] */
static const unsigned rate_dep[] = { 0, 1, 3, 9, 6 };
#define RATE_THRESHOLD 10
static const unsigned data_counters[] = { 12, 13, 14, 15 };

struct watch {
	const char *pause;  /* -p as given ("10" by default) */
	double pause_num;   /* its value as a Perl number */
	bool verbose;
	const char *guid;   /* "-G" or "" */
	const char *addr, *port;
	char *cur[NCOUNTERS], *new[NCOUNTERS]; /* the counts as read ("0" at the start) */
	struct perlre *re[NCOUNTERS];
};

static _Noreturn void usage(const char *argv0)
{
	printf("Usage: %s [-p <pause_time> -b -v -n <cycles> -G] <guid|lid> <port>\n", ibscript_name(argv0));
	printf("   Attempt to diagnose a problem on a port\n");
	printf("   Run this on a link while a job is running which utilizes that link.\n");
	printf("   -p <pause_time> define the ammount of time between counter polls (default 10)\n");
	printf("   -v Be verbose\n");
	printf("   -n <cycles> run n cycles then exit (default -1 == forever)\n");
	printf("   -G Address provided is a GUID\n");
	printf("   -b report bytes/second packets/second\n");
	exit(2);
}

static char *xstrdup(const char *s)
{
	char *r = strdup(s);

	if (!r)
		ibscript_die(ENOMEM, "Out of memory!\n");
	return r;
}

static void set_count(char **slot, char *val)
{
	free(*slot);
	*slot = val;
}

/* get_new_counts(): the new counts become the current ones, perfquery gives new ones. */
static void get_new_counts(struct watch *w)
{
	char *file = ibscript_cache_file("", ""), *dir, *out, *cmd, *text, *line;
	struct perlre_match m;
	size_t len = 0, pos = 0;
	FILE *f;
	int rc;

	for (size_t i = 0; i < NCOUNTERS; i++)
		set_count(&w->cur[i], xstrdup(w->new[i]));
	/* the cache directory, made if missing, as ensure_cache_dir() does */
	dir = file;
	*strrchr(dir, '/') = '\0';
	out = ibscript_sprintf("%s/perfquery.out", dir);
	cmd = ibscript_sprintf("perfquery %s %s %s > %s", w->guid, w->addr, w->port, out);
	fflush(stdout);
	rc = system(cmd);
	if (rc != 0)
		ibscript_die(rc == -1 ? errno : 0, "perfquery failed : \"perfquery %s %s %s\"\n",
			     w->guid, w->addr, w->port);
	f = fopen(out, "r");
	if (!f)
		ibscript_die(errno, "cannot read '%s': %s\n", out, strerror(errno));
	text = ibscript_slurp(f, &len);
	fclose(f);
	while ((line = ibscript_next_line(text, len, &pos))) {
		for (size_t i = 0; i < NCOUNTERS; i++)
			if (perlre_match(w->re[i], line, &m)) {
				char *v = perlre_group(line, &m, 1);

				if (!v)
					ibscript_die(ENOMEM, "Out of memory!\n");
				set_count(&w->new[i], v);
			}
		free(line);
	}
	free(text);
	free(cmd);
	free(out);
	free(file);
}

/* calculate_rate(): (new - old) / pause, printed as Perl prints a number ("%.15g"; the
 * counters are 32-bit, so an exact integer quotient prints the same). */
static void print_rate(const struct watch *w, unsigned i, char *buf, size_t size)
{
	double delta = ibscript_num(w->new[i]) - ibscript_num(w->cur[i]);
	double rate;

	if (w->pause_num == 0)
		ibscript_die(0, "Illegal division by zero at %s line 166.\n",
			     "/usr/share/perl5/IBswcountlimits.pm");
	rate = delta / w->pause_num;
	if (rate == 0)
		snprintf(buf, size, "0"); /* Perl prints a negative zero as "0" too */
	else
		snprintf(buf, size, "%.15g", rate);
}

static double rate_of(const struct watch *w, unsigned i)
{
	return (ibscript_num(w->new[i]) - ibscript_num(w->cur[i])) / w->pause_num;
}

static void check_counter_rates(const struct watch *w)
{
	char buf[64];

	for (size_t r = 0; r < sizeof(rate_dep) / sizeof(rate_dep[0]); r++) {
		unsigned i = rate_dep[r];
		double rate;

		print_rate(w, i, buf, sizeof(buf));
		rate = rate_of(w, i);
		if (rate > RATE_THRESHOLD)
			printf("Detected excessive rate for %s (%s cnts/sec)\n", counters[i], buf);
		else if (rate > 0)
			printf("Detected rate for %s (%s cnts/sec)\n", counters[i], buf);
	}
}

static void print_data_rates(const struct watch *w)
{
	char buf[64];

	for (size_t d = 0; d < sizeof(data_counters) / sizeof(data_counters[0]); d++) {
		print_rate(w, data_counters[d], buf, sizeof(buf));
		printf("   %s %s/second\n", buf, counters[data_counters[d]]);
	}
}

static void print_all_counts(const struct watch *w)
{
	if (!w->verbose)
		return;
	printf("   Counter\t\t\tNew ==> Old\n");
	for (size_t i = 0; i < NCOUNTERS; i++)
		printf("   %s\t\t\t%s ==> %s\n", counters[i], w->new[i], w->cur[i]);
}

int main(int argc, char **argv)
{
	struct ibscript_opts o;
	struct watch w = { .pause = "10", .guid = "", .addr = "", .port = "" };
	double cycle = -1;
	bool bytes;

	if (!ibscript_getopts(argc, argv, "hbvp:n:G", &o) || o.set['h'])
		usage(argv[0]);
	if (o.set['p'])
		w.pause = o.val['p'];
	w.pause_num = ibscript_num(w.pause);
	w.verbose = o.set['v'];
	if (o.set['n'])
		cycle = ibscript_num(o.val['n']);
	if (o.set['G'])
		w.guid = "-G";
	bytes = o.set['b'];
	if (o.next < argc)
		w.addr = argv[o.next];
	if (o.next + 1 < argc)
		w.port = argv[o.next + 1];

	for (size_t i = 0; i < NCOUNTERS; i++) {
		char *pat = ibscript_sprintf("^%s:\\.+(\\d+)", counters[i]);

		w.re[i] = perlre_compile(pat);
		free(pat);
		w.cur[i] = xstrdup("0");
		w.new[i] = xstrdup("0");
	}

	get_new_counts(&w);
	while (cycle != 0) {
		/* Perl's sleep() takes the integer part; a negative time does not sleep */
		double secs = trunc(w.pause_num);

		printf("Checking counts...\n");
		fflush(stdout);
		if (secs > 0)
			sleep(secs > 2147483647.0 ? 2147483647u : (unsigned)secs);
		else if (secs < 0) /* one of Perl's default warnings */
			fprintf(stderr, "sleep() with negative argument at %s line 163.\n",
				ibscript_path(argv[0]));
		get_new_counts(&w);
		check_counter_rates(&w);
		if (bytes)
			print_data_rates(&w);
		print_all_counts(&w);
		if (cycle != -1)
			cycle -= 1;
	}

	for (size_t i = 0; i < NCOUNTERS; i++) {
		perlre_free(w.re[i]);
		free(w.cur[i]);
		free(w.new[i]);
	}
	return 0;
}
