// SPDX-License-Identifier: BSD-3-Clause
/*
 * topo-dump: libibtopo's side of the fabric tests.  Discovers the fabric (or loads a cache
 * file) and prints the database in the format of tests/topo/ibnd-dump.c, which prints
 * libibnetdisc's: the two outputs are compared with cmp.  The errors met go to stderr, in
 * libibnetdisc's words.
 *
 *   topo-dump [-C ca] [-P port] [-o outstanding] [-m max_hops] [-t timeout_ms] [-r retries]
 *             [-D dr_path] [-q] [--load-cache FILE] [--cache FILE] [--no-path] [--sa | --lid]
 *
 * --sa discovers from the SA's records, --lid with LID-routed SMPs (libibtopo's SA and LID
 * modes); the default is the directed-route walk.
 *
 * Exit: 0 discovered, 1 discovery failed (nothing found), 3 partial (errors met), 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ibmgmt/ibtopo.h>

static void hex(const char *tag, const uint8_t *p, size_t n)
{
	printf("    %s ", tag);
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static int zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static const uint8_t zeros[IBTOPO_SMP_DATA_SIZE];

static void print_node(const struct ibtopo_node *n, int with_path)
{
	const struct ibtopo_dr_path *p = ibtopo_node_dr_path(n);
	const struct ibtopo_chassis *ch = ibtopo_node_chassis(n);
	const uint8_t *si = ibtopo_node_switch_info(n);
	char path[256];

	printf("node %d 0x%016" PRIx64 " ports %u lid %u lmc %u enhsp0 %d path ", (int)ibtopo_node_type(n),
	       ibtopo_node_guid(n), ibtopo_node_num_ports(n), ibtopo_node_sma_lid(n), ibtopo_node_sma_lmc(n),
	       ibtopo_node_enhanced_port0(n) ? 1 : 0);
	if (with_path) {
		ibtopo_dr_path_format(p, path, sizeof(path));
		printf("%u:%u:%u:%s", p->lid, p->drslid, p->drdlid, path);
	} else {
		printf("-");
	}
	printf(" desc \"%s\"\n", ibtopo_node_desc(n));
	if (ch)
		printf("  chassis %u type %u anafa %u slotnum %u slot %u\n", ibtopo_chassis_num(ch),
		       ibtopo_node_chassis_type(n), ibtopo_node_chassis_anafanum(n),
		       ibtopo_node_chassis_slotnum(n), ibtopo_node_chassis_slot(n));
	hex("info", ibtopo_node_info(n), IBTOPO_SMP_DATA_SIZE);
	if (ibtopo_node_type(n) == IBTOPO_NODE_SWITCH)
		hex("swinfo", si ? si : zeros, IBTOPO_SMP_DATA_SIZE);
	for (unsigned i = 0; i <= ibtopo_node_num_ports(n); i++) {
		const struct ibtopo_port *pt = ibtopo_node_port(n, i);
		const struct ibtopo_port *r;
		const uint8_t *info, *epi;

		if (!pt)
			continue;
		r = ibtopo_port_remote(pt);
		printf("  port %u guid 0x%016" PRIx64 " lid %u lmc %u ext %u remote ", ibtopo_port_num(pt),
		       ibtopo_port_guid(pt), ibtopo_port_base_lid(pt), ibtopo_port_lmc(pt), ibtopo_port_ext_num(pt));
		if (r)
			printf("0x%016" PRIx64 "/%u\n", ibtopo_node_guid(ibtopo_port_node(r)), ibtopo_port_num(r));
		else
			printf("-\n");
		info = ibtopo_port_info(pt);
		hex("pinfo", info ? info : zeros, IBTOPO_SMP_DATA_SIZE);
		epi = ibtopo_port_ext_info(pt);
		if (epi && !zero(epi, IBTOPO_SMP_DATA_SIZE))
			hex("epi", epi, IBTOPO_SMP_DATA_SIZE);
	}
}

static void list_type(const struct ibtopo *t, enum ibtopo_node_type type, const char *name)
{
	printf("%s", name);
	for (unsigned i = 0; i < ibtopo_node_count(t, type); i++)
		printf(" %016" PRIx64, ibtopo_node_guid(ibtopo_node_get(t, type, i)));
	printf("\n");
}

static void usage(void)
{
	fprintf(stderr, "usage: topo-dump [-C ca] [-P port] [-o outstanding] [-m max_hops] [-t timeout_ms]\n"
			"                 [-r retries] [-D dr_path] [-q] [--load-cache FILE] [--cache FILE]\n"
			"                 [--no-path] [--sa | --lid]\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "load-cache", required_argument, NULL, 'L' },
		{ "cache", required_argument, NULL, 'c' },
		{ "no-path", no_argument, NULL, 'N' },
		{ "sa", no_argument, NULL, 'S' },
		{ "lid", no_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ca = NULL, *load = NULL, *save = NULL, *from = NULL;
	unsigned port = 0, outstanding = 0, max_hops = 0, timeout = 0, retries = UINT32_MAX;
	int quiet = 0, with_path = 1, c, rc, exit_code = 0;
	enum ibtopo_discovery_mode mode = IBTOPO_DISCOVER_DR;
	struct ibmadrpc_port *mport = NULL;
	struct ibsched *sched = NULL;
	struct ibtopo_discovery *disc = NULL;
	struct ibmadrpc_error *err = NULL;
	struct ibtopo *t = NULL;
	struct timespec t0, t1;
	uint64_t mads = 0;

	while ((c = getopt_long(argc, argv, "C:P:o:m:t:r:D:q", longs, NULL)) != -1) {
		switch (c) {
		case 'C': ca = optarg; break;
		case 'P': port = (unsigned)atoi(optarg); break;
		case 'o': outstanding = (unsigned)atoi(optarg); break;
		case 'm': max_hops = (unsigned)atoi(optarg); break;
		case 't': timeout = (unsigned)atoi(optarg); break;
		case 'r': retries = (unsigned)atoi(optarg); break;
		case 'D': from = optarg; break;
		case 'q': quiet = 1; break;
		case 'L': load = optarg; break;
		case 'c': save = optarg; break;
		case 'N': with_path = 0; break;
		case 'S': mode = IBTOPO_DISCOVER_SA; break;
		case 'I': mode = IBTOPO_DISCOVER_LID; break;
		default: usage(); return 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (load) {
		char why[256];

		rc = ibtopo_cache_load(load, &t, why, sizeof(why));
		if (rc) {
			fprintf(stderr, "topo-dump: %s: %s\n", load, why);
			return 1;
		}
		with_path = 0;
	} else {
		struct ibtopo_dr_path fp;

		rc = ibmadrpc_port_open_name(&mport, ca, port, &err);
		if (rc) {
			char buf[512];

			ibmadrpc_error_format(err, 0, buf, sizeof(buf));
			fprintf(stderr, "topo-dump: %s\n", buf);
			ibmadrpc_error_free(err);
			return 1;
		}
		if (ibsched_new(&sched, mport) || ibtopo_discovery_new(&disc, sched)) {
			fprintf(stderr, "topo-dump: out of memory\n");
			return 1;
		}
		if (from) {
			if (ibtopo_dr_path_parse(from, &fp)) {
				fprintf(stderr, "topo-dump: bad DR path %s\n", from);
				return 2;
			}
			ibtopo_discovery_set_from(disc, &fp);
		}
		ibtopo_discovery_set_mode(disc, mode);
		ibtopo_discovery_set_max_hops(disc, max_hops);
		if (outstanding)
			ibtopo_discovery_set_outstanding(disc, outstanding);
		if (timeout || retries != UINT32_MAX)
			ibtopo_discovery_set_timeout(disc, timeout, retries);
		rc = ibtopo_discover(disc, &t);
		mads = ibtopo_discovery_mads(disc);
		if (rc && !t) {
			fprintf(stderr, "topo-dump: discovery failed: %s\n", strerror(-rc));
			for (unsigned i = 0; t && i < ibtopo_error_count(t); i++)
				fprintf(stderr, "%s\n", ibtopo_error_get(t, i)->message);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (unsigned i = 0; i < ibtopo_error_count(t); i++) {
		fprintf(stderr, "%s\n", ibtopo_error_get(t, i)->message);
		exit_code = 3;
	}
	if (save && (rc = ibtopo_cache_save(t, save))) {
		fprintf(stderr, "topo-dump: cannot write %s: %s\n", save, strerror(-rc));
		return 1;
	}
	if (quiet) {
		printf("nodes %u mads %" PRIu64 " seconds %.6f\n", ibtopo_node_count(t, IBTOPO_NODE_ANY), mads,
		       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	} else {
		const struct ibtopo_node *from_node = ibtopo_from_node(t);

		for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++)
			print_node(ibtopo_node_get(t, IBTOPO_NODE_ANY, i), with_path);
		list_type(t, IBTOPO_NODE_SWITCH, "switches");
		list_type(t, IBTOPO_NODE_CA, "cas");
		list_type(t, IBTOPO_NODE_ROUTER, "routers");
		printf("from 0x%016" PRIx64 " port %u maxhops %u\n", from_node ? ibtopo_node_guid(from_node) : 0,
		       ibtopo_from_port(t), ibtopo_max_hops_discovered(t));
		if (!load)
			printf("mads %" PRIu64 "\n", mads);
		for (unsigned i = 0; i < ibtopo_chassis_count(t); i++) {
			const struct ibtopo_chassis *ch = ibtopo_chassis_get(t, i);

			printf("chassis %u guid 0x%016" PRIx64 "\n", ibtopo_chassis_num(ch), ibtopo_chassis_guid(ch));
		}
		printf("lids");
		for (unsigned lid = 1; lid <= 0xbfff + 128; lid++) {
			const struct ibtopo_port *p = ibtopo_find_port_lid(t, (uint16_t)lid);

			if (p)
				printf(" %u=%016" PRIx64 "/%u", lid, ibtopo_node_guid(ibtopo_port_node(p)),
				       ibtopo_port_num(p));
		}
		printf("\n");
	}
	ibtopo_unref(t);
	ibtopo_discovery_free(disc);
	ibsched_free(sched);
	if (mport)
		ibmadrpc_port_close(mport);
	return exit_code;
}
