/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Discovery for the ibmgmt tools: libibtopo set up from the common options, the progress
 * line, the libibnetdisc error lines, cache loading.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ibdiag-topo.h"

/* One scheduler per process: the tools open one port. */
static struct ibsched *tool_sched;
static struct ibdiag_port *sched_port;

struct ibsched *ibdiag_sched(struct ibdiag_port *p)
{
	if (tool_sched && sched_port == p)
		return tool_sched;
	if (tool_sched)
		ibsched_free(tool_sched);
	if (ibsched_new(&tool_sched, p->port) < 0)
		IBPANIC("cannot create the MAD scheduler");
	sched_port = p;
	return tool_sched;
}

void ibdiag_topo_close(struct ibdiag_port *p)
{
	if (tool_sched && sched_port == p) {
		ibsched_free(tool_sched);
		tool_sched = NULL;
		sched_port = NULL;
	}
	ibdiag_close_port(p);
}

struct progress {
	struct timespec start;
	double after;    /* seconds before the first update */
	double last;     /* seconds since start of the last update */
	int width;       /* characters drawn on the line (0: nothing drawn) */
	uint64_t mads;
};

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress_fn(struct ibtopo_discovery *disc, unsigned nodes, unsigned outstanding,
			void *user)
{
	struct progress *pr = user;
	double t = since(&pr->start);
	int n;

	/* after one second, then ten times a second at most */
	if (t < pr->after || (pr->width && t - pr->last < 0.1))
		return;
	pr->last = t;
	n = fprintf(stderr, "\rDiscovering: %u nodes, %llu MADs, %u in flight, %.1f s", nodes,
		    (unsigned long long)ibtopo_discovery_mads(disc), outstanding, t);
	if (n > 1) {
		/* the line got shorter: blank what is left of the old one */
		if (n - 1 < pr->width)
			fprintf(stderr, "%*s", pr->width - (n - 1), "");
		if (n - 1 > pr->width)
			pr->width = n - 1;
	}
	fflush(stderr);
}

static void progress_end(struct progress *pr)
{
	if (!pr->width)
		return;
	fprintf(stderr, "\r%*s\r", pr->width, "");
	fflush(stderr);
}

struct ibdiag_port *ibdiag_topo_open_port(void)
{
	struct ibdiag_port *p = ibdiag_try_open_port();

	/* IBND_ERROR's __FILE__:__LINE__ in Debian's build of libibnetdisc 44 */
	if (!p)
		fprintf(stderr, "./libibnetdisc/ibnetdisc.c:802; can't open MAD port (%s:%u)\n",
			ibd.ca ? ibd.ca : "(null)", ibd.ca_port);
	return p;
}

int ibdiag_topo_discover(struct ibdiag_port *p, const struct ibdiag_topo_opts *o,
			 struct ibtopo **out)
{
	static const struct ibdiag_topo_opts none;
	struct ibtopo_discovery *disc = NULL;
	struct progress pr = { 0 };
	int rc;

	if (!o)
		o = &none;
	*out = NULL;
	rc = ibtopo_discovery_new(&disc, ibdiag_sched(p));
	if (rc < 0)
		return rc;
	if (o->from) {
		struct ibtopo_dr_path from;

		rc = ibtopo_dr_path_parse(o->from, &from);
		if (rc < 0)
			goto out;
		rc = ibtopo_discovery_set_from(disc, &from);
		if (rc < 0)
			goto out;
	}
	if (ibd.sa) {
		rc = ibtopo_discovery_set_sa(disc, ibdiag_sa(p));
		if (rc == 0)
			rc = ibtopo_discovery_set_mode(disc, IBTOPO_DISCOVER_SA);
		if (rc < 0)
			goto out;
	}
	if (o->max_hops && (rc = ibtopo_discovery_set_max_hops(disc, o->max_hops)) < 0)
		goto out;
	/* libibnetdisc takes any number of SMPs in flight (-o 65536, -o -1); libibtopo at
	 * most 128 */
	if (o->outstanding &&
	    (rc = ibtopo_discovery_set_outstanding(disc, o->outstanding > 128 ? 128 : o->outstanding)) < 0)
		goto out;
	/* libibnetdisc: -t or 1000 ms, 3 retries (sent by the kernel: 4 attempts at most) */
	rc = ibtopo_discovery_set_timeout(disc, ibd.timeout_ms ? ibd.timeout_ms : 1000, 3);
	if (rc < 0)
		goto out;
	if (o->node_seen)
		ibtopo_discovery_set_node_seen(disc, o->node_seen, o->node_seen_user);
	ibtopo_discovery_set_mkey(disc, ibd.mkey);
	ibtopo_discovery_set_mlx_epi(disc, ibd.mlx_epi);
	if (!o->no_progress && isatty(STDERR_FILENO)) {
		/* the tests' way to see the line on a fabric discovered in milliseconds */
		const char *after = getenv("IBMGMT_PROGRESS_AFTER_MS");

		pr.after = after ? atof(after) / 1000 : 1.0;
		clock_gettime(CLOCK_MONOTONIC, &pr.start);
		ibtopo_discovery_set_progress(disc, progress_fn, &pr);
	}
	rc = ibtopo_discover(disc, out);
	progress_end(&pr);
out:
	ibtopo_discovery_free(disc);
	return rc;
}

bool ibdiag_topo_self_resolved(const struct ibtopo *t)
{
	struct ibtopo_node *n = t ? ibtopo_from_node(t) : NULL;
	struct ibtopo_port *port = n ? ibtopo_node_port(n, ibtopo_from_port(t)) : NULL;

	if (t && ibd.sa)
		return true; /* the SA's records: no query of our own port */
	return n && ibtopo_node_info(n) && port && ibtopo_port_info(port);
}

void ibdiag_topo_print_errors(const struct ibtopo *t)
{
	for (unsigned i = 0; t && i < ibtopo_error_count(t); i++) {
		const struct ibtopo_error *e = ibtopo_error_get(t, i);

		/* IBND_ERROR() prefixes __FILE__:__LINE__ of Debian's build of libibnetdisc 44 */
		if (e->kind == IBTOPO_ERR_QUERY)
			fprintf(stderr, "./libibnetdisc/query_smp.c:%d; %s\n",
				e->errnum == -EREMOTEIO ? 193 : 186, e->message);
		else
			fprintf(stderr, "%s\n", e->message);
	}
}

struct ibtopo *ibdiag_topo_load(const char *file, char *why, size_t whylen)
{
	char buf[256];
	struct ibtopo *t = NULL;
	int rc;

	rc = ibtopo_cache_load(file, &t, why ? why : buf, why ? whylen : sizeof(buf));
	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	return t;
}
