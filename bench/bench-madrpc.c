// SPDX-License-Identifier: BSD-3-Clause
/*
 * Synchronous SubnGet(NodeInfo) round trips on the simulated fabric: libibmad's
 * smp_query_via() (mode "libibmad") or libibmadrpc's ibmadrpc_attr() (mode "ours") to the
 * same target; prints round trips per second.  bench/run-bench.sh alternates the two in
 * one run on one fabric and prints the ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mad.h>
#include <ibmgmt/ibmadrpc.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One process per library: umad2sim serves one umad user per process. */
int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ours";
	int lid = argc > 2 ? atoi(argv[2]) : 1, n = argc > 3 ? atoi(argv[3]) : 2000, i;
	double t0;

	if (!strcmp(mode, "libibmad")) {
		int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
		struct ibmad_port *mp = mad_rpc_open_port(NULL, 0, classes, 2);
		ib_portid_t pid;
		uint8_t buf[64];

		if (!mp) {
			fprintf(stderr, "libibmad: cannot open the port\n");
			return 1;
		}
		memset(&pid, 0, sizeof(pid));
		pid.lid = lid;
		smp_query_via(buf, &pid, IB_ATTR_NODE_INFO, 0, 0, mp); /* warm up */
		t0 = now();
		for (i = 0; i < n; i++)
			if (!smp_query_via(buf, &pid, IB_ATTR_NODE_INFO, 0, 0, mp)) {
				fprintf(stderr, "libibmad: query failed\n");
				return 1;
			}
		printf("%.0f\n", n / (now() - t0));
		mad_rpc_close_port(mp);
	} else {
		struct ibmadrpc_port *port;
		struct ibmadrpc_error *err;
		struct ibpath_path *path;
		struct ibstruct_smp_node_info ni;

		if (ibmadrpc_port_open_name(&port, NULL, 0, &err)) {
			fprintf(stderr, "libibmadrpc: cannot open the port\n");
			return 1;
		}
		ibpath_path_new(&path, IBPATH_KIND_IB);
		ibpath_path_set(path, IBPATH_DLID, (uint64_t)lid);
		ibmadrpc_attr(port, path, IBSTRUCT_METHOD_GET, ibstruct_smp_node_info_desc(), 0, NULL, &ni, NULL);
		t0 = now();
		for (i = 0; i < n; i++)
			if (ibmadrpc_attr(port, path, IBSTRUCT_METHOD_GET, ibstruct_smp_node_info_desc(), 0, NULL,
					  &ni, NULL)) {
				fprintf(stderr, "libibmadrpc: query failed\n");
				return 1;
			}
		printf("%.0f\n", n / (now() - t0));
		ibpath_path_unref(path);
		ibmadrpc_port_close(port);
	}
	return 0;
}
