/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * init_all_ports: drop every Armed or Active link of the subnet back to Initialize
 * (python-rdma's ibtool init_all_ports), e.g. to stop the data traffic of a deadlocked
 * subnet (a credit loop): only management traffic passes an Initialize link, until the
 * subnet manager arms and activates the links again.
 *
 *   init_all_ports [options]
 *
 * The subnet is discovered over directed routes from the local port; then each link is
 * set once, by a PortInfo Set of PortState Down (IBA 14.2.5.6: the link goes down and
 * trains back to Initialize) at the end nearer to the local port that can take it (a
 * switch port, or the local port itself: a CA's SMA only changes the port an SMP comes in
 * through).  The farthest links go first, so no change lies on the route of a later one
 * (directed routes need only a physical link, not an Active one).  python-rdma made the
 * changes during its walk, at the far end of each link.  Each change is announced, then
 * made, and a summary line ends the output.
 *
 * Exit status: 0 every link set, 1 some could not be, 2 usage, 255 no discovery possible.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portset.h"

struct iap_link {
	const struct ibtopo_port *port; /* the end that is set */
	int depth;
};

struct iap {
	struct ibdiag_port *port;
	struct ibtopo *topo;
	struct portset_routes *routes;
	struct iap_link *links;
	unsigned n, cap;
};

/* file scope: what an IBEXIT() leaves is still referenced (leak checkers) */
static struct iap s;

static void cleanup(void)
{
	free(s.links);
	portset_routes_free(s.routes);
	ibtopo_unref(s.topo);
	if (s.port)
		ibdiag_topo_close(s.port);
	memset(&s, 0, sizeof(s));
}

static unsigned port_state(const struct ibtopo_port *port)
{
	const uint8_t *pi = ibtopo_port_info(port);
	struct ibstruct_smp_port_info p;

	if (!pi || ibstruct_smp_port_info_unpack(&p, pi, IBTOPO_SMP_DATA_SIZE) < 0)
		return 0;
	return p.portState;
}

/* Can the SMA of the port's node change it over our directed routes? */
static bool settable(const struct ibtopo_port *port)
{
	const struct ibtopo_node *node = ibtopo_port_node(port);

	if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH)
		return true;
	return node == ibtopo_from_node(s.topo) && ibtopo_port_num(port) == ibtopo_from_port(s.topo);
}

/* Does end a come before end b (by node GUID, then port number)? */
static bool before(const struct ibtopo_port *a, const struct ibtopo_port *b)
{
	uint64_t ga = ibtopo_node_guid(ibtopo_port_node(a)), gb = ibtopo_node_guid(ibtopo_port_node(b));

	return ga != gb ? ga < gb : ibtopo_port_num(a) < ibtopo_port_num(b);
}

/* Is `a` the end of its link (remote `b`) that is set? */
static bool chosen(const struct ibtopo_port *a, const struct ibtopo_port *b)
{
	int da = portset_depth(s.routes, ibtopo_port_node(a));
	int db = portset_depth(s.routes, ibtopo_port_node(b));
	bool sa = settable(a) && da >= 0, sb = settable(b) && db >= 0;

	if (sa != sb)
		return sa;
	if (!sa)
		return false;
	return da != db ? da < db : before(a, b);
}

static void add_link(const struct ibtopo_port *port)
{
	if (s.n == s.cap) {
		unsigned cap = s.cap ? 2 * s.cap : 64;
		struct iap_link *v = realloc(s.links, cap * sizeof(*v));

		if (!v)
			IBPANIC("out of memory");
		s.links = v;
		s.cap = cap;
	}
	s.links[s.n].port = port;
	s.links[s.n].depth = portset_depth(s.routes, ibtopo_port_node(port));
	s.n++;
}

static int by_depth(const void *x, const void *y)
{
	const struct iap_link *a = x, *b = y;

	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	return before(a->port, b->port) ? -1 : before(b->port, a->port) ? 1 : 0;
}

static void link_text(const struct ibtopo_port *port)
{
	const struct ibtopo_port *rem = ibtopo_port_remote(port);
	char a[128], b[128];

	printf("port %u of %s <=> port %u of %s", ibtopo_port_num(port),
	       portset_node_text(ibtopo_port_node(port), a, sizeof(a)), ibtopo_port_num(rem),
	       portset_node_text(ibtopo_port_node(rem), b, sizeof(b)));
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {
		"          # every Armed/Active link of the subnet to Initialize",
		NULL,
	};
	unsigned done = 0, failed = 0, unreachable = 0;
	int first;

	first = ibdiag_process_opts(argc, argv, NULL, "DLGK", NULL, NULL, "", examples);
	if (first < argc)
		ibdiag_show_usage();
	atexit(cleanup);

	s.topo = portset_discover(&s.port);
	s.routes = portset_routes_new(s.topo, NULL, 0);
	if (!s.routes)
		IBPANIC("out of memory");

	for (unsigned i = 0; i < ibtopo_node_count(s.topo, IBTOPO_NODE_ANY); i++) {
		const struct ibtopo_node *node = ibtopo_node_get(s.topo, IBTOPO_NODE_ANY, i);

		for (unsigned pn = 1; pn <= ibtopo_node_num_ports(node); pn++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, pn);
			const struct ibtopo_port *rem = port ? ibtopo_port_remote(port) : NULL;
			unsigned st;

			if (!rem)
				continue;
			st = port_state(port);
			if (st != 3 && st != 4) /* only Armed and Active links */
				continue;
			if (chosen(port, rem)) {
				add_link(port);
			} else if (!chosen(rem, port) && before(port, rem)) {
				printf("Cannot reach either end of the link ");
				link_text(port);
				printf(" to change it\n");
				unreachable++;
			}
		}
	}
	qsort(s.links, s.n, sizeof(*s.links), by_depth);

	for (unsigned i = 0; i < s.n; i++) {
		const struct ibtopo_port *port = s.links[i].port;
		struct ibmadrpc_error *err = NULL;
		uint8_t dr[PORTSET_MAX_DR], pi_before[64], pi_after[64];
		char text[256];
		unsigned len = portset_route(s.routes, ibtopo_port_node(port), dr);
		int rc;

		printf("Set to INIT ");
		link_text(port);
		printf(", via DR path %s\n", portset_dr_text(dr, len, text, sizeof(text)));
		rc = portset_set(s.port, dr, len, ibtopo_port_num(port), 1, 0, pi_before, pi_after,
				 &err);
		if (rc < 0) {
			printf("  failed: %s\n", strerror(-rc));
			ibdiag_show_error(err);
			ibmadrpc_error_free(err);
			failed++;
		} else {
			done++;
		}
	}
	printf("%u links set to INIT, %u failed, %u not reachable\n", done, failed, unreachable);
	fflush(stdout);
	return failed || unreachable ? 1 : 0;
}
