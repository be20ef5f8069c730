// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibnd-chassis: the reference side of the chassis differential (tests/topo/chassis-diff.sh).
 * Loads a cache file with libibnetdisc's ibnd_load_fabric(), which groups the nodes into
 * chassis with its group_nodes(), and prints the chassis in the format of
 * tests/topo/chassis-fab.c.  Test-only: libibnetdisc is never linked into the product.
 *
 *   ibnd-chassis SEED0 COUNT DIR   loads DIR/cache-SEED.. (and removes them), reports to DIR/ref
 *                                  (a file: libibnetdisc prints on stdout)
 *   ibnd-chassis --report CACHE REPORT   the report of one cache file
 *   ibnd-chassis --time CACHE      times ibnd_load_fabric() (best of 3)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/ibnetdisc.h>

static int chassis_index(const ibnd_fabric_t *f, const ibnd_chassis_t *ch)
{
	int i = 0;

	for (const ibnd_chassis_t *c = f->chassis; c; c = c->next, i++)
		if (c == ch)
			return i;
	return -1;
}

static void report(FILE *o, ibnd_fabric_t *f)
{
	int i = 0;

	if (!f) {
		fprintf(o, "result fail\n");
		return;
	}
	fprintf(o, "result ok\n");
	for (ibnd_chassis_t *ch = f->chassis; ch; ch = ch->next, i++) {
		fprintf(o, "chassis %d num %u guid 0x%016" PRIx64 "\n", i, ch->chassisnum, ch->chassisguid);
		for (int s = 1; s <= SPINES_MAX_NUM; s++)
			if (ch->spinenode[s])
				fprintf(o, " spine %d 0x%016" PRIx64 "\n", s, ch->spinenode[s]->guid);
		for (int s = 1; s <= LINES_MAX_NUM; s++)
			if (ch->linenode[s])
				fprintf(o, " line %d 0x%016" PRIx64 "\n", s, ch->linenode[s]->guid);
		for (ibnd_node_t *n = ch->nodes; n; n = n->next_chassis_node)
			fprintf(o, " member 0x%016" PRIx64 "\n", n->guid);
	}
	for (unsigned num = 1; num <= 255; num++) {
		uint64_t g = ibnd_get_chassis_guid(f, (unsigned char)num);

		if (g)
			fprintf(o, "bynum %u 0x%016" PRIx64 "\n", num, g);
	}
	for (ibnd_node_t *n = f->nodes; n; n = n->next) {
		const char *ts = ibnd_get_chassis_type(n);
		char buf[256];
		const char *ss = ibnd_get_chassis_slot_str(n, buf, sizeof(buf));

		fprintf(o, "node 0x%016" PRIx64 " ch ", n->guid);
		if (n->chassis)
			fprintf(o, "%d", chassis_index(f, n->chassis));
		else
			fprintf(o, "-");
		fprintf(o, " type %u slot %u slotnum %u anafa %u tstr %s sstr %s\n", n->ch_type,
			n->ch_slot, n->ch_slotnum, n->ch_anafanum, ts ? ts : "-", ss ? ss : "-");
		for (int p = 0; p <= n->numports; p++)
			if (n->ports[p] && n->ports[p]->ext_portnum)
				fprintf(o, " ext %d %d\n", p, n->ports[p]->ext_portnum);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long seed0, count;
	char path[4096];
	ibnd_fabric_t *f;
	FILE *o;

	if (argc == 3 && !strcmp(argv[1], "--time")) {
		double best = 1e9;
		int chassis = 0;

		for (int i = 0; i < 3; i++) {
			double t0 = now();

			f = ibnd_load_fabric(argv[2], 0);
			if (now() - t0 < best)
				best = now() - t0;
			if (!f)
				return 1;
			chassis = 0;
			for (ibnd_chassis_t *ch = f->chassis; ch; ch = ch->next)
				chassis++;
			ibnd_destroy_fabric(f);
		}
		printf("libibnetdisc: ibnd_load_fabric %.3f ms (best of 3), %d chassis\n", best * 1e3, chassis);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--report")) {
		o = fopen(argv[3], "w");
		if (!o) {
			perror(argv[3]);
			return 1;
		}
		f = ibnd_load_fabric(argv[2], 0);
		report(o, f);
		if (f)
			ibnd_destroy_fabric(f);
		return fclose(o) != 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: ibnd-chassis SEED0 COUNT DIR | --report CACHE REPORT | --time CACHE\n");
		return 2;
	}
	seed0 = strtoull(argv[1], NULL, 0);
	count = strtoull(argv[2], NULL, 0);
	snprintf(path, sizeof(path), "%s/ref", argv[3]);
	o = fopen(path, "w");
	if (!o) {
		perror(path);
		return 1;
	}
	for (unsigned long long s = seed0; s < seed0 + count; s++) {
		snprintf(path, sizeof(path), "%s/cache-%llu", argv[3], s);
		fprintf(o, "seed %llu\n", s);
		f = ibnd_load_fabric(path, 0);
		report(o, f);
		if (f)
			ibnd_destroy_fabric(f);
		remove(path);
	}
	return fclose(o) != 0;
}
