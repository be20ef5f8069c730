// SPDX-License-Identifier: BSD-3-Clause
/*
 * PortInfo of every port of every LID of a simulated fabric: libibmad's smp_query_via()
 * one after the other (mode "libibmad") or libibsched with a given max_outstanding (mode
 * "ours N").  First NodeInfo of LIDs 1..MAXLID (to learn port counts), then PortInfo of each
 * port.  Prints MADs per second.  bench/run-bench.sh runs the modes in one run and prints
 * the ratio of the best to libibmad.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mad.h>
#include <ibmgmt/ibsched.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long mads;
static unsigned nports[65536];
static struct ibpath_path *paths[65536];

static int port_done(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user)
{
	(void)s;
	(void)w;
	(void)user;
	if (reply && !err)
		mads++;
	return IBSCHED_HANDLED;
}

static int node_done(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user)
{
	unsigned lid = (unsigned)(uintptr_t)user, p, n;
	struct ibmadrpc_request req;

	(void)w;
	if (err || !reply)
		return IBSCHED_HANDLED;
	mads++;
	n = reply->mad[reply->data_offset + 3];
	/* a switch answers PortInfo for every port, an HCA for its own */
	memset(&req, 0, sizeof(req));
	req.path = paths[lid];
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x15;
	for (p = reply->mad[reply->data_offset + 2] == 2 ? 0 : 1; p <= n; p++) {
		req.attr_mod = p;
		ibsched_submit(s, NULL, &req, port_done, NULL, NULL);
	}
	return IBSCHED_HANDLED;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ours";
	unsigned maxlid = argc > 2 ? (unsigned)atoi(argv[2]) : 400, lid;
	unsigned maxo = argc > 3 ? (unsigned)atoi(argv[3]) : 16;
	double t0;

	if (!strcmp(mode, "libibmad")) {
		int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
		struct ibmad_port *mp = mad_rpc_open_port(NULL, 0, classes, 2);
		uint8_t buf[64];
		ib_portid_t pid;

		if (!mp)
			return 1;
		t0 = now();
		for (lid = 1; lid <= maxlid; lid++) {
			unsigned p, n;

			memset(&pid, 0, sizeof(pid));
			pid.lid = (int)lid;
			if (!smp_query_via(buf, &pid, IB_ATTR_NODE_INFO, 0, 1000, mp))
				continue;
			mads++;
			n = buf[3];
			for (p = buf[2] == 2 ? 0 : 1; p <= n; p++)
				if (smp_query_via(buf, &pid, IB_ATTR_PORT_INFO, p, 1000, mp))
					mads++;
		}
		printf("%lu %.0f\n", mads, mads / (now() - t0));
		mad_rpc_close_port(mp);
		return 0;
	}
	{
		struct ibmadrpc_port *port;
		struct ibmadrpc_error *err;
		struct ibsched *s;
		struct ibmadrpc_request req;

		if (ibmadrpc_port_open_name(&port, NULL, 0, &err) || ibsched_new(&s, port))
			return 1;
		ibsched_set_max_outstanding(s, maxo);
		memset(&req, 0, sizeof(req));
		req.mgmt_class = 0x01;
		req.method = 0x01;
		req.attr_id = 0x11;
		t0 = now();
		for (lid = 1; lid <= maxlid; lid++) {
			ibpath_path_new(&paths[lid], IBPATH_KIND_IB);
			ibpath_path_set(paths[lid], IBPATH_DLID, lid);
			ibpath_path_set(paths[lid], IBPATH_TIMEOUT_MS, 1000);
			ibpath_path_set(paths[lid], IBPATH_RETRIES, 0);
			req.path = paths[lid];
			ibsched_submit(s, NULL, &req, node_done, (void *)(uintptr_t)lid, NULL);
		}
		ibsched_run(s);
		printf("%lu %.0f\n", mads, mads / (now() - t0));
		ibsched_free(s);
		ibmadrpc_port_close(port);
		(void)nports;
	}
	return 0;
}
