// SPDX-License-Identifier: BSD-3-Clause
/*
 * sched-sweep: NodeInfo of LIDs 1..MAXLID, then PortInfo of every port, for the fabric
 * tests of libibsched.  Prints one sorted line per attribute ("lid port hex") so runs can
 * be compared, then a summary line on stderr.
 *
 *   sched-sweep sync MAXLID              one synchronous libibmadrpc call after the other
 *   sched-sweep par MAXLID MAXO [T R]    libibsched, MAXO outstanding, timeout T ms, R retries
 * Exit status: 0 all answered, 1 some failed (listed on stderr with their error).
 *
 * SWEEP_CUT_AFTER=K SWEEP_CUT_FIFO=F SWEEP_CUT_CMDS="c1;c2;...": after K completions the
 * commands are written to F, one per line (the simulator's console: links go down while
 * the sweep runs).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ibmgmt/ibsched.h>

#define MAXL 4096
static char *lines[MAXL * 40];
static unsigned nlines, failed;
static struct ibpath_path *paths[MAXL];
static unsigned completions, cut_after;

/* Once, after cut_after completions: the console commands of SWEEP_CUT_CMDS. */
static void maybe_cut(void)
{
	const char *fifo = getenv("SWEEP_CUT_FIFO"), *cmds = getenv("SWEEP_CUT_CMDS");
	char buf[4096];
	size_t i;
	int fd;

	if (!cut_after || ++completions != cut_after || !fifo || !cmds)
		return;
	snprintf(buf, sizeof(buf), "%s\n", cmds);
	for (i = 0; buf[i]; i++)
		if (buf[i] == ';')
			buf[i] = '\n';
	fd = open(fifo, O_WRONLY | O_NONBLOCK);
	if (fd < 0 || write(fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
		fprintf(stderr, "cannot write the cut commands to %s\n", fifo);
	if (fd >= 0)
		close(fd);
	fprintf(stderr, "cut after %u completions\n", cut_after);
}

static void record(unsigned lid, int port, const uint8_t *data, size_t n)
{
	char buf[256];
	size_t i, o;

	o = (size_t)snprintf(buf, sizeof(buf), "%05u %3d ", lid, port);
	for (i = 0; i < n && o + 3 < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%02x", data[i]);
	if (nlines < sizeof(lines) / sizeof(lines[0]))
		lines[nlines++] = strdup(buf);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int port_done(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user)
{
	unsigned v = (unsigned)(uintptr_t)user;

	(void)s;
	(void)w;
	maybe_cut();
	if (err) {
		char e[1024];

		ibmadrpc_error_format(err, 1, e, sizeof(e));
		fprintf(stderr, "LID %u port %u: %s", v >> 8, v & 0xff, e);
		failed++;
		return IBSCHED_HANDLED;
	}
	record(v >> 8, (int)(v & 0xff), reply->mad + reply->data_offset, 64);
	return IBSCHED_HANDLED;
}

static int node_done(struct ibsched *s, struct ibsched_work *w, const struct ibmadrpc_reply *reply,
		     const struct ibmadrpc_error *err, void *user)
{
	unsigned lid = (unsigned)(uintptr_t)user, p, n;
	const uint8_t *ni;
	struct ibmadrpc_request req;

	(void)w;
	maybe_cut();
	if (err) {
		char e[1024];

		ibmadrpc_error_format(err, 1, e, sizeof(e));
		fprintf(stderr, "LID %u: %s", lid, e);
		failed++;
		return IBSCHED_HANDLED;
	}
	ni = reply->mad + reply->data_offset;
	record(lid, -1, ni, 40);
	n = ni[3];
	memset(&req, 0, sizeof(req));
	req.path = paths[lid];
	req.mgmt_class = 0x01;
	req.method = 0x01;
	req.attr_id = 0x15;
	for (p = ni[2] == 2 ? 0 : 1; p <= n; p++) {
		req.attr_mod = p;
		ibsched_submit(s, NULL, &req, port_done, (void *)(uintptr_t)(lid << 8 | p), NULL);
	}
	return IBSCHED_HANDLED;
}

int main(int argc, char **argv)
{
	struct ibmadrpc_port *port;
	struct ibmadrpc_error *err;
	unsigned maxlid, lid, i;
	unsigned t = 300, r = 2;

	if (argc < 3)
		return 2;
	maxlid = (unsigned)atoi(argv[2]);
	if (maxlid >= MAXL)
		return 2;
	if (getenv("SWEEP_CUT_AFTER"))
		cut_after = (unsigned)atoi(getenv("SWEEP_CUT_AFTER"));
	if (argc > 5) {
		t = (unsigned)atoi(argv[4]);
		r = (unsigned)atoi(argv[5]);
	}
	if (ibmadrpc_port_open_name(&port, NULL, 0, &err))
		return 1;
	for (lid = 1; lid <= maxlid; lid++) {
		ibpath_path_new(&paths[lid], IBPATH_KIND_IB);
		ibpath_path_set(paths[lid], IBPATH_DLID, lid);
		ibpath_path_set(paths[lid], IBPATH_TIMEOUT_MS, t);
		ibpath_path_set(paths[lid], IBPATH_RETRIES, r);
	}
	if (!strcmp(argv[1], "sync")) {
		for (lid = 1; lid <= maxlid; lid++) {
			struct ibstruct_smp_node_info ni;
			uint8_t raw[64];
			unsigned p;

			if (ibmadrpc_attr(port, paths[lid], 1, ibstruct_smp_node_info_desc(), 0, NULL, &ni, NULL)) {
				fprintf(stderr, "LID %u failed\n", lid);
				failed++;
				continue;
			}
			ibstruct_smp_node_info_pack(&ni, raw, sizeof(raw));
			record(lid, -1, raw, 40);
			for (p = ni.nodeType == 2 ? 0 : 1; p <= ni.numPorts; p++) {
				struct ibstruct_smp_port_info pi;

				if (ibmadrpc_attr(port, paths[lid], 1, ibstruct_smp_port_info_desc(), p, NULL, &pi,
						  &err)) {
					fprintf(stderr, "LID %u port %u failed\n", lid, p);
					ibmadrpc_error_free(err);
					failed++;
					continue;
				}
				ibstruct_smp_port_info_pack(&pi, raw, sizeof(raw));
				record(lid, (int)p, raw, 64);
			}
		}
	} else {
		struct ibsched *s;
		struct ibmadrpc_request req;

		if (argc < 4 || ibsched_new(&s, port))
			return 2;
		ibsched_set_max_outstanding(s, (unsigned)atoi(argv[3]));
		memset(&req, 0, sizeof(req));
		req.mgmt_class = 0x01;
		req.method = 0x01;
		req.attr_id = 0x11;
		for (lid = 1; lid <= maxlid; lid++) {
			req.path = paths[lid];
			ibsched_submit(s, NULL, &req, node_done, (void *)(uintptr_t)lid, NULL);
		}
		ibsched_run(s);
		ibsched_free(s);
	}
	qsort(lines, nlines, sizeof(lines[0]), cmp);
	for (i = 0; i < nlines; i++) {
		puts(lines[i]);
		free(lines[i]);
	}
	fprintf(stderr, "%u attributes, %u failed\n", nlines, failed);
	for (lid = 1; lid <= maxlid; lid++)
		ibpath_path_unref(paths[lid]);
	ibmadrpc_port_close(port);
	return failed ? 1 : 0;
}
