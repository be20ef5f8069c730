// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibnd-dump: the reference side of libibtopo's fabric tests.  Discovers with libibnetdisc
 * (infiniband-diags' discovery library; test-only, never linked into the product) and prints
 * the database in the format of tests/topo/topo-dump.c, so the two outputs compare with cmp.
 *
 *   ibnd-dump [-C ca] [-P port] [-o max_smps] [-m max_hops] [-t timeout_ms] [-r retries] [-D dr_path]
 *             [-q] [--load-cache FILE] [--cache FILE]
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

static void hex(const char *tag, const uint8_t *p, size_t n)
{
	printf("    %s ", tag);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static bool zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void print_path(const ib_portid_t *p)
{
	printf("%d:%u:%u:", p->lid, p->drpath.drslid, p->drpath.drdlid);
	for (int i = 0; i <= p->drpath.cnt; i++)
		printf(i ? ",%u" : "%u", p->drpath.p[i]);
}

static void print_node(ibnd_node_t *n, int with_path)
{
	char desc[IB_SMP_DATA_SIZE + 1];

	memcpy(desc, n->nodedesc, IB_SMP_DATA_SIZE);
	desc[IB_SMP_DATA_SIZE] = 0;
	printf("node %d 0x%016" PRIx64 " ports %d lid %u lmc %u enhsp0 %d path ", n->type, n->guid,
	       n->numports, n->smalid, n->smalmc, n->smaenhsp0);
	if (with_path)
		print_path(&n->path_portid);
	else
		printf("-");
	printf(" desc \"%s\"\n", desc);
	if (n->chassis)
		printf("  chassis %u type %u anafa %u slotnum %u slot %u\n", n->chassis->chassisnum,
		       n->ch_type, n->ch_anafanum, n->ch_slotnum, n->ch_slot);
	hex("info", n->info, IB_SMP_DATA_SIZE);
	if (n->type == IB_NODE_SWITCH)
		hex("swinfo", n->switchinfo, IB_SMP_DATA_SIZE);
	for (int i = 0; i <= n->numports; i++) {
		ibnd_port_t *p = n->ports[i];

		if (!p)
			continue;
		printf("  port %d guid 0x%016" PRIx64 " lid %u lmc %u ext %d remote ", p->portnum, p->guid,
		       p->base_lid, p->lmc, p->ext_portnum);
		if (p->remoteport)
			printf("0x%016" PRIx64 "/%d\n", p->remoteport->node->guid, p->remoteport->portnum);
		else
			printf("-\n");
		hex("pinfo", p->info, IB_SMP_DATA_SIZE);
		if (!zero(p->ext_info, IB_SMP_DATA_SIZE))
			hex("epi", p->ext_info, IB_SMP_DATA_SIZE);
	}
}

static void list_type(ibnd_fabric_t *f, int type, const char *name)
{
	printf("%s", name);
	for (ibnd_node_t *n = type == IB_NODE_SWITCH ? f->switches : type == IB_NODE_CA ? f->ch_adapters : f->routers;
	     n; n = n->type_next)
		printf(" %016" PRIx64, n->guid);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "load-cache", required_argument, NULL, 'L' },
		{ "cache", required_argument, NULL, 'c' },
		{ "no-path", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	struct ibnd_config cfg;
	char *ca = NULL, *from = NULL, *load = NULL, *save = NULL;
	int port = 0, quiet = 0, with_path = 1, c;
	ib_portid_t portid;
	ibnd_fabric_t *f;
	struct timespec t0, t1;
	unsigned nodes = 0;

	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = IBND_CONFIG_MLX_EPI;
	while ((c = getopt_long(argc, argv, "C:P:o:m:t:r:D:q", longs, NULL)) != -1) {
		switch (c) {
		case 'C': ca = optarg; break;
		case 'P': port = atoi(optarg); break;
		case 'o': cfg.max_smps = (unsigned)atoi(optarg); break;
		case 'm': cfg.max_hops = (unsigned)atoi(optarg); break;
		case 't': cfg.timeout_ms = (unsigned)atoi(optarg); break;
		case 'r': cfg.retries = (unsigned)atoi(optarg); break;
		case 'D': from = optarg; break;
		case 'q': quiet = 1; break;
		case 'L': load = optarg; break;
		case 'c': save = optarg; break;
		case 'N': with_path = 0; break;
		default: return 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (load) {
		f = ibnd_load_fabric(load, 0);
		with_path = 0; /* not kept in a cache file */
	} else {
		memset(&portid, 0, sizeof(portid));
		if (from && str2drpath(&portid.drpath, from, 0, 0) < 0) {
			fprintf(stderr, "ibnd-dump: bad path %s\n", from);
			return 2;
		}
		f = ibnd_discover_fabric(ca, port, from ? &portid : NULL, &cfg);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!f) {
		fprintf(stderr, "ibnd-dump: discovery failed\n");
		return 1;
	}
	for (ibnd_node_t *n = f->nodes; n; n = n->next)
		nodes++;
	if (save && ibnd_cache_fabric(f, save, 0)) {
		fprintf(stderr, "ibnd-dump: cannot write %s\n", save);
		return 1;
	}
	if (quiet) {
		printf("nodes %u mads %u seconds %.6f\n", nodes, f->total_mads_used,
		       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
		ibnd_destroy_fabric(f);
		return 0;
	}
	for (ibnd_node_t *n = f->nodes; n; n = n->next)
		print_node(n, with_path);
	list_type(f, IB_NODE_SWITCH, "switches");
	list_type(f, IB_NODE_CA, "cas");
	list_type(f, IB_NODE_ROUTER, "routers");
	printf("from 0x%016" PRIx64 " port %d maxhops %u\n", f->from_node ? f->from_node->guid : 0,
	       f->from_portnum, f->maxhops_discovered);
	if (!load)
		printf("mads %u\n", f->total_mads_used);
	for (ibnd_chassis_t *ch = f->chassis; ch; ch = ch->next)
		printf("chassis %u guid 0x%016" PRIx64 "\n", ch->chassisnum, ch->chassisguid);
	printf("lids");
	for (unsigned lid = 1; lid <= 0xbfff + 128; lid++) {
		ibnd_port_t *p = ibnd_find_port_lid(f, (uint16_t)lid);

		if (p)
			printf(" %u=%016" PRIx64 "/%d", lid, p->node->guid, p->portnum);
	}
	printf("\n");
	ibnd_destroy_fabric(f);
	return 0;
}
