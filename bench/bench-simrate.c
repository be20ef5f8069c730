// SPDX-License-Identifier: BSD-3-Clause
/*
 * bench-simrate: the simulator's own MAD rate, measured alone.  Sends directed-route
 * SubnGet(NodeInfo) SMPs straight through libibumad (no library of ours, no libibmad: a
 * prebuilt MAD, a new TID, umad_send) keeping WINDOW of them in flight, and counts the
 * answers.  No client can discover faster than this on the same simulator, so
 * bench/bench-topo.sh takes MADs / rate as the floor of a discovery that sends MADs SMPs.
 *
 *   bench-simrate N WINDOW PATH...
 *
 * PATH is an initial DR path as port numbers separated by commas, starting with 0 ("0" is
 * the local node, "0,1" its neighbour through port 1, ...); the SMPs go to the paths in
 * turn, so a mix of hop counts can be given.  The first WINDOW answers warm up and are not
 * timed.  Prints "mads N seconds S rate R"; exits 1 on a failure or a reply lost for 2 s.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/umad.h>

#define MAD_SIZE 256
#define MAX_PATHS 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A directed-route SubnGet(NodeInfo) along PATH ("0,p1,p2,...") into MAD. */
static int build_smp(uint8_t *mad, const char *path)
{
	unsigned hops = 0;
	const char *s = path;
	char *end;

	memset(mad, 0, MAD_SIZE);
	mad[0] = 1;		/* base version */
	mad[1] = 0x81;		/* directed-route SMP class */
	mad[2] = 1;		/* class version */
	mad[3] = 0x01;		/* Get */
	put16(mad + 16, 0x0011);	/* NodeInfo */
	put16(mad + 32, 0xffff);	/* DrSLID: permissive */
	put16(mad + 34, 0xffff);	/* DrDLID: permissive */
	for (;;) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v > 255 || hops > 63 || (hops == 0 && v != 0))
			return -1;
		mad[128 + hops] = (uint8_t)v;	/* initial path, entry 0 unused (0) */
		if (*end == 0)
			break;
		if (*end != ',')
			return -1;
		s = end + 1;
		hops++;
	}
	mad[7] = (uint8_t)hops;	/* hop count */
	return 0;
}

int main(int argc, char **argv)
{
	static _Alignas(8) uint8_t sendbuf[MAX_PATHS][MAD_SIZE + 256], recvbuf[MAD_SIZE + 256];
	long total = argc > 1 ? atol(argv[1]) : 0, window = argc > 2 ? atol(argv[2]) : 0;
	long sent = 0, got = 0, warm;
	int npaths = argc - 3, fd, agent, i;
	uint32_t tid = 1;
	double t0 = 0;

	if (total <= 0 || window <= 0 || npaths < 1 || npaths > MAX_PATHS) {
		fprintf(stderr, "usage: bench-simrate N WINDOW PATH... (PATH: 0,p1,p2,...; at most %d)\n",
			MAX_PATHS);
		return 2;
	}
	if (umad_init() < 0) {
		fprintf(stderr, "bench-simrate: umad_init failed\n");
		return 1;
	}
	fd = umad_open_port(NULL, 0);
	if (fd < 0) {
		fprintf(stderr, "bench-simrate: cannot open the port: %s\n", strerror(-fd));
		return 1;
	}
	agent = umad_register(fd, 0x81, 1, 0, NULL);
	if (agent < 0) {
		fprintf(stderr, "bench-simrate: cannot register the DR SMP class\n");
		return 1;
	}
	for (i = 0; i < npaths; i++) {
		if (build_smp(umad_get_mad(sendbuf[i]), argv[3 + i])) {
			fprintf(stderr, "bench-simrate: bad path %s\n", argv[3 + i]);
			return 2;
		}
		umad_set_addr(sendbuf[i], 0xffff, 0, 0, 0);
	}
	warm = window;
	total += warm;
	while (got < total) {
		while (sent < total && sent - got < window) {
			uint8_t *u = sendbuf[sent % npaths];
			uint8_t *mad = umad_get_mad(u);

			/* the low 32 bits of a TID are all that survive ibsim */
			mad[12] = (uint8_t)(tid >> 24);
			mad[13] = (uint8_t)(tid >> 16);
			mad[14] = (uint8_t)(tid >> 8);
			mad[15] = (uint8_t)tid;
			tid++;
			if (umad_send(fd, agent, u, MAD_SIZE, 0, 0) < 0) {
				fprintf(stderr, "bench-simrate: umad_send failed\n");
				return 1;
			}
			sent++;
		}
		int len = MAD_SIZE;
		int rc = umad_recv(fd, recvbuf, &len, 2000);

		if (rc < 0) {
			fprintf(stderr, "bench-simrate: no reply within 2 s (%ld sent, %ld answered): %s\n", sent,
				got, rc == -ETIMEDOUT ? "time-out" : strerror(-rc));
			return 1;
		}
		uint8_t *mad = umad_get_mad(recvbuf);

		if (umad_status(recvbuf) || (mad[4] & 0x7f) || mad[5]) {
			fprintf(stderr, "bench-simrate: an SMP failed (umad status %d, MAD status 0x%02x%02x)\n",
				umad_status(recvbuf), mad[4] & 0x7f, mad[5]);
			return 1;
		}
		if (++got == warm)
			t0 = now();
	}
	double secs = now() - t0;

	printf("mads %ld seconds %.6f rate %.0f\n", total - warm, secs, (double)(total - warm) / secs);
	umad_unregister(fd, agent);
	umad_close_port(fd);
	return 0;
}
