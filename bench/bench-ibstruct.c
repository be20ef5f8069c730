// SPDX-License-Identifier: BSD-3-Clause
/*
 * Decode speed: unpack + read every field of PortInfo, NodeInfo, PortCounters and a
 * PathRecord with libibstruct, against libibmad's mad_decode_field() for the same fields,
 * in the same run.  Prints ns per record for both and the ratio.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mad.h>
#include <ibmgmt/ibstruct.h>

#define NBUF 256
#define ROUNDS 20000

static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint8_t bufs[NBUF][256];

struct range {
	int first, last; /* libibmad fields [first, last) */
};

static double bench_libibmad(const struct range *r, unsigned nr)
{
	double t0 = now();
	uint64_t acc = 0;
	unsigned round, b, i;
	uint64_t val[64];
	int f;

	for (round = 0; round < ROUNDS; round++)
		for (b = 0; b < 8; b++) {
			uint8_t *buf = bufs[(round * 8 + b) % NBUF];

			for (i = 0; i < nr; i++)
				for (f = r[i].first; f < r[i].last; f++) {
					mad_decode_field(buf, f, val);
					acc += val[0];
				}
		}
	sink += acc;
	return (now() - t0) / (ROUNDS * 8.0) * 1e9;
}

#define BENCH_OURS(type, read)                                                                     \
	static double bench_##type(void)                                                            \
	{                                                                                          \
		double t0 = now();                                                                 \
		uint64_t acc = 0;                                                                  \
		unsigned round, b;                                                                 \
		struct ibstruct_##type h;                                                          \
                                                                                                   \
		for (round = 0; round < ROUNDS; round++)                                           \
			for (b = 0; b < 8; b++) {                                                  \
				ibstruct_##type##_unpack(&h, bufs[(round * 8 + b) % NBUF], 256);     \
				read;                                                              \
			}                                                                          \
		sink += acc;                                                                       \
		return (now() - t0) / (ROUNDS * 8.0) * 1e9;                                        \
	}

/* Fold the whole host struct (every field) so that no unpacking can be optimised away. */
static uint64_t fold(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t s = 0, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		s ^= w;
	}
	for (; i < n; i++)
		s += b[i];
	return s;
}

BENCH_OURS(smp_port_info, acc += fold(&h, sizeof(h)))
BENCH_OURS(smp_node_info, acc += fold(&h, sizeof(h)))
BENCH_OURS(pm_port_counters, acc += fold(&h, sizeof(h)))
BENCH_OURS(sa_path_record, acc += fold(&h, sizeof(h)))

int main(void)
{
	static const struct range pi[] = { { IB_PORT_FIRST_F, IB_PORT_LAST_F },
					   { IB_PORT_CAPMASK2_F, IB_PORT_LINK_SPEED_EXT_LAST_F } };
	static const struct range ni[] = { { IB_NODE_FIRST_F, IB_NODE_LAST_F } };
	static const struct range pc[] = { { IB_PC_FIRST_F, IB_PC_LAST_F } };
	static const struct range pr[] = { { IB_SA_PR_DGID_F, IB_SA_PR_SL_F + 1 } };
	struct {
		const char *name;
		double (*ours)(void);
		const struct range *r;
		unsigned nr;
	} cases[] = {
		{ "PortInfo", bench_smp_port_info, pi, 2 },
		{ "NodeInfo", bench_smp_node_info, ni, 1 },
		{ "PortCounters", bench_pm_port_counters, pc, 1 },
		{ "PathRecord", bench_sa_path_record, pr, 1 },
	};
	unsigned i, j;
	uint64_t seed = 12345;
	double gsum = 0;

	for (i = 0; i < NBUF; i++)
		for (j = 0; j < 256; j++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			bufs[i][j] = (uint8_t)(seed >> 56);
		}
	printf("%-14s %14s %14s %8s\n", "record", "libibmad ns", "ibstruct ns", "ratio");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double best_l = 1e9, best_o = 1e9;
		unsigned rep;

		for (rep = 0; rep < 5; rep++) {
			double l = bench_libibmad(cases[i].r, cases[i].nr), o = cases[i].ours();

			best_l = l < best_l ? l : best_l;
			best_o = o < best_o ? o : best_o;
		}
		printf("%-14s %14.1f %14.1f %7.1fx\n", cases[i].name, best_l, best_o, best_l / best_o);
		gsum += best_l / best_o;
	}
	printf("mean ratio: %.1fx (target >= 10x)\n", gsum / 4);
	return sink == 42 ? 1 : 0;
}
