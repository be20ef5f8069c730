/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibping: ping a port over the OpenIB vendor class 0x32 (OUI 0x001405), a drop-in
 * replacement for infiniband-diags' ibping.
 *
 *   ibping [options] <dest lid|guid>      client: one Get a second (-f: back to back)
 *   ibping -S [options]                   server: answers each Get with "<host>.<domain>"
 *
 * The client prints a line per answer and, at the end (after -c pings, or on SIGINT or
 * SIGTERM), the statistics; it exits 0 whatever was lost.  Times are measured as the
 * reference measures them (seconds in microseconds plus nanoseconds in 10 us units).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ibdiag.h"
#include "responder.h"

#define PING_CLASS 0x32
#define NO_REPLY UINT64_MAX

struct ping_opts {
	unsigned count;
	int flood;
	int server;
	uint32_t oui;
};

static volatile sig_atomic_t stop_signal;

/* Microseconds as the reference counts them: its nanoseconds are divided by 10000, not
 * 1000 (an upstream slip), and scripts compare the times it prints; kept so. */
static uint64_t time_stamp(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 10000u;
}

static int process_opt(void *ctx, int letter, char *arg)
{
	struct ping_opts *o = ctx;

	switch (letter) {
	case 'c':
		o->count = (unsigned)strtoul(arg, NULL, 0);
		break;
	case 'f':
		o->flood++;
		break;
	case 'o':
		o->oui = (uint32_t)strtoul(arg, NULL, 0);
		break;
	case 'S':
		o->server++;
		break;
	default:
		return -1;
	}
	return 0;
}

/* ---- server ------------------------------------------------------------------------------ */

static char host_and_domain[RESPONDER_VENDOR2_DATA];

static void pong(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in, void *user)
{
	(void)user;
	if (ibd.debug)
		IBWARN("Pong: %s", host_and_domain);
	if (ibmadrpc_respond(port, in, 0, host_and_domain, sizeof(host_and_domain)) < 0 && ibd.debug)
		IBWARN("respond failed");
}

static _Noreturn void serve(struct ibdiag_port *port, uint32_t oui)
{
	if (responder_register(port, PING_CLASS, 1, oui) < 0)
		IBEXIT("can't serve class %d on this port", PING_CLASS);
	responder_host_and_domain(host_and_domain, sizeof(host_and_domain));
	responder_loop(port, pong, NULL);
}

/* ---- client ------------------------------------------------------------------------------ */

struct ping_stats {
	uint64_t minrtt, maxrtt, total_rtt;
	uint64_t start, ntrans, replied, lost;
	char last_host[RESPONDER_VENDOR2_DATA + 1];
};

static void on_signal(int sig)
{
	stop_signal = sig;
}

static uint64_t ping_once(struct ibdiag_port *port, const struct ibpath_path *path, uint32_t oui,
			  int quiet, struct ping_stats *st)
{
	char data[RESPONDER_VENDOR2_DATA + 1];
	char where[160];
	struct ibmadrpc_request req = {
		.path = path,
		.mgmt_class = PING_CLASS,
		.method = IBSTRUCT_METHOD_GET,
		.oui = oui,
	};
	struct ibmadrpc_reply reply;
	uint64_t start, rtt;

	start = time_stamp();
	if (ibdiag_call(port, &req, &reply, NULL) < 0)
		return NO_REPLY;
	rtt = time_stamp() - start;
	ibdiag_reply_data(&reply, data, RESPONDER_VENDOR2_DATA);
	data[RESPONDER_VENDOR2_DATA] = '\0';
	if (!st->last_host[0])
		memcpy(st->last_host, data, sizeof(st->last_host));
	if (!quiet)
		printf("Pong from %s (%s): time %" PRIu64 ".%03" PRIu64 " ms\n", data,
		       ibdiag_portid_str(path, where, sizeof(where)), rtt / 1000, rtt % 1000);
	return rtt;
}

static void report(const struct ping_stats *st, const struct ibpath_path *path)
{
	uint64_t total_time = time_stamp() - st->start;
	uint64_t avg = st->replied ? st->total_rtt / st->replied : 0;
	uint64_t min = st->minrtt == NO_REPLY ? 0 : st->minrtt;
	char where[160];

	printf("\n--- %s (%s) ibping statistics ---\n", st->last_host,
	       ibdiag_portid_str(path, where, sizeof(where)));
	printf("%" PRIu64 " packets transmitted, %" PRIu64 " received, %" PRIu64
	       "%% packet loss, time %" PRIu64 " ms\n",
	       st->ntrans, st->replied, st->lost ? st->lost * 100 / st->ntrans : 0, total_time / 1000);
	printf("rtt min/avg/max = %" PRIu64 ".%03" PRIu64 "/%" PRIu64 ".%03" PRIu64 "/%" PRIu64
	       ".%03" PRIu64 " ms\n",
	       min / 1000, min % 1000, avg / 1000, avg % 1000, st->maxrtt / 1000, st->maxrtt % 1000);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "count", 'c', 1, "<num>", "stop after count packets" },
		{ "flood", 'f', 0, NULL, "flood destination" },
		{ "oui", 'o', 1, NULL, "use specified OUI number" },
		{ "Server", 'S', 0, NULL, "start in server mode" },
		{ NULL, 0, 0, NULL, NULL },
	};
	struct ping_opts o = { .count = ~0u, .oui = RESPONDER_OPENIB_OUI };
	struct ping_stats st;
	struct ibpath_path *path = NULL;
	struct ibdiag_port *port;
	struct sigaction sa;
	int first;

	first = ibdiag_process_opts(argc, argv, &o, "DKy", opts, process_opt, "<dest lid|guid>", NULL);
	argc -= first;
	argv += first;
	if (!argc && !o.server)
		ibdiag_show_usage();

	port = ibdiag_open_port();
	if (o.server)
		serve(port, o.oui);

	if (ibdiag_resolve(port, argv[0], ibd.dest_type, &path) < 0)
		IBEXIT("can't resolve destination port %s", argv[0]);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a wait in progress ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	memset(&st, 0, sizeof(st));
	st.minrtt = NO_REPLY;
	st.start = time_stamp();
	while (o.count-- > 0 && !stop_signal) {
		uint64_t rtt;

		st.ntrans++;
		rtt = ping_once(port, path, o.oui, o.flood, &st);
		if (stop_signal)
			break; /* the reference reports from its handler: this one is not counted */
		if (rtt == NO_REPLY) {
			if (ibd.debug)
				IBWARN("ibping failed");
			st.lost++;
		} else {
			if (rtt < st.minrtt)
				st.minrtt = rtt;
			if (rtt > st.maxrtt)
				st.maxrtt = rtt;
			st.total_rtt += rtt;
			st.replied++;
		}
		if (!o.flood)
			sleep(1);
	}
	report(&st, path);
	ibpath_path_unref(path);
	ibdiag_close_port(port);
	return 0;
}
