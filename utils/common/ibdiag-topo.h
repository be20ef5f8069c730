/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The discovery side of the ibmgmt tools (not installed): a libibtopo discovery set up from
 * the common options, with the progress line on a terminal, and the loading of cache files.
 * Used by every fabric-wide tool (ibnetdiscover, iblinkinfo, ibqueryerrors, dump_fts, ...).
 */
#ifndef IBMGMT_UTILS_IBDIAG_TOPO_H
#define IBMGMT_UTILS_IBDIAG_TOPO_H

#include <stdbool.h>

#include <ibmgmt/ibsched.h>
#include <ibmgmt/ibtopo.h>

#include "ibdiag.h"

struct ibdiag_topo_opts {
	const char *from;      /* -D: the DR path to start from ("0,1,3"); NULL: the local port */
	unsigned max_hops;     /* 0: no limit */
	unsigned outstanding;  /* -o: SMPs in flight (0: libibnetdisc's 2 is NOT kept: ours, 64) */
	bool no_progress;      /* never draw the progress line */
	/* each NodeInfo answer as it is taken in (ibnetdiscover -s); NULL: none */
	ibtopo_node_seen_fn node_seen;
	void *node_seen_user;
};

/* The port's scheduler (made on first use; freed by ibdiag_close_port's caller through
 * ibdiag_topo_close()). */
struct ibsched *ibdiag_sched(struct ibdiag_port *p);
void ibdiag_topo_close(struct ibdiag_port *p);

/* The port opened as libibnetdisc opens it for a discovery: NULL when it cannot be opened,
 * after its error line on stderr ("./libibnetdisc/ibnetdisc.c:802; can't open MAD port
 * (ca:port)"); the tools then end as their reference does (ibnetdiscover: "discover
 * failed"). */
struct ibdiag_port *ibdiag_topo_open_port(void);

/* Discovers the fabric as libibnetdisc's ibnd_discover_fabric() would with the common
 * options: DR walk (SA mode with --sa), -t as the time-out of one attempt, -y M_Key, config
 * MLX_EPI.  A progress line ("Discovering: N nodes, M MADs") is drawn on stderr while the
 * discovery runs longer than a second (IBMGMT_PROGRESS_AFTER_MS in the environment: that many
 * ms, for tests), only when stderr is a terminal, and erased at the end.  Returns 0 and *out, or a negative errno with *out the partial topology (or NULL
 * when nothing was found).  Errors met are in ibtopo_error_get(*out): print them with
 * ibdiag_topo_print_errors(). */
int ibdiag_topo_discover(struct ibdiag_port *p, const struct ibdiag_topo_opts *o,
			 struct ibtopo **out);

/* libibnetdisc resolves its own port (PortInfo and NodeInfo by an empty directed route)
 * before the walk, and fails with "Failed to resolve self" when that port does not answer.
 * false when the walk t (a live one, not --sa) has no NodeInfo of its start node or no
 * PortInfo of its start port: the tools then end as their reference does. */
bool ibdiag_topo_self_resolved(const struct ibtopo *t);

/* The errors of the topology on stderr, one line each, as libibnetdisc prints them
 * ("<src>:<line>; " prefix of IBND_ERROR included). */
void ibdiag_topo_print_errors(const struct ibtopo *t);

/* Loads a cache file (ibnd_load_fabric()): the topology, or NULL with errno set; the
 * reason, when one is known, is put in why (may be NULL). */
struct ibtopo *ibdiag_topo_load(const char *file, char *why, size_t whylen);

#endif /* IBMGMT_UTILS_IBDIAG_TOPO_H */
