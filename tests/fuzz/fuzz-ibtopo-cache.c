// SPDX-License-Identifier: BSD-3-Clause
/*
 * libFuzzer target: libibtopo's cache file reader (ibtopo_cache_load_mem()).  Whatever it
 * accepts is walked through the public API (every node, port, link, LID, chassis) with the
 * model's invariants checked, then written and read again: the second file must be the
 * first's bytes.  Whatever it refuses must come with a one-line reason and no topology.
 * Built and run by tests/fuzz/run-fuzz.sh; seeds are tests/data/topo/cache-corpus/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibtopo-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                  \
	do {                                                                         \
		if (!(cond)) {                                                       \
			fprintf(stderr, "fuzz-ibtopo-cache: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                     \
		}                                                                    \
	} while (0)

static void walk_port(const struct ibtopo *t, const struct ibtopo_node *n, const struct ibtopo_port *p,
		      unsigned num)
{
	const struct ibtopo_port *r = ibtopo_port_remote(p);
	const struct ibtopo_port *by_guid = ibtopo_find_port_guid(t, ibtopo_port_guid(p));
	uint16_t lid = ibtopo_port_base_lid(p);

	CHECK(ibtopo_port_node(p) == n);
	CHECK(ibtopo_port_num(p) == num);
	CHECK(ibtopo_port_info(p) != NULL);
	CHECK(ibtopo_port_ext_info(p) == NULL);
	CHECK(ibtopo_port_lmc(p) <= 7);
	(void)ibtopo_port_ext_num(p);
	if (r) {
		CHECK(ibtopo_port_remote(r) == p);
		CHECK(ibtopo_node_port(ibtopo_port_node(r), ibtopo_port_num(r)) == r);
	}
	CHECK(by_guid && ibtopo_port_guid(by_guid) == ibtopo_port_guid(p));
	if (lid && lid <= LID_UNICAST_MAX) {
		for (unsigned l = lid; l < lid + (1u << ibtopo_port_lmc(p)); l++)
			CHECK(ibtopo_find_port_lid(t, (uint16_t)l) != NULL);
	}
}

static void walk(const struct ibtopo *t)
{
	unsigned all = ibtopo_node_count(t, IBTOPO_NODE_ANY), typed = 0;
	struct ibtopo_node *from = ibtopo_from_node(t);
	char buf[128];

	CHECK(all > 0 && from != NULL);
	CHECK(ibtopo_from_port(t) == 0);
	(void)ibtopo_max_hops_discovered(t);
	for (unsigned type = IBTOPO_NODE_CA; type <= IBTOPO_NODE_ROUTER; type++) {
		unsigned count = ibtopo_node_count(t, (enum ibtopo_node_type)type);

		for (unsigned i = 0; i < count; i++)
			CHECK(ibtopo_node_type(ibtopo_node_get(t, (enum ibtopo_node_type)type, i)) == type);
		CHECK(ibtopo_node_get(t, (enum ibtopo_node_type)type, count) == NULL);
		typed += count;
	}
	CHECK(typed <= all);
	for (unsigned i = 0; i < all; i++) {
		const struct ibtopo_node *n = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);
		const struct ibtopo_chassis *ch = ibtopo_node_chassis(n);

		CHECK(n && ibtopo_node_topo(n) == t);
		CHECK(ibtopo_find_node_guid(t, ibtopo_node_guid(n)) == n);
		CHECK(ibtopo_node_info(n) && ibtopo_node_desc_raw(n));
		CHECK(strlen(ibtopo_node_desc(n)) <= IBTOPO_SMP_DATA_SIZE);
		if (ibtopo_node_type(n) == IBTOPO_NODE_SWITCH)
			CHECK(ibtopo_node_switch_info(n) != NULL);
		(void)ibtopo_node_sma_lid(n);
		(void)ibtopo_node_sma_lmc(n);
		(void)ibtopo_node_enhanced_port0(n);
		(void)ibtopo_node_dr_path(n);
		if (ch)
			(void)ibtopo_chassis_num(ch);
		(void)ibtopo_node_chassis_type(n);
		(void)ibtopo_node_chassis_slot(n);
		(void)ibtopo_node_chassis_slotnum(n);
		(void)ibtopo_node_chassis_anafanum(n);
		(void)ibtopo_node_chassis_slot_str(n, buf, sizeof(buf));
		(void)ibtopo_chassis_type_str(n);
		for (unsigned k = 0; k <= ibtopo_node_num_ports(n); k++) {
			const struct ibtopo_port *p = ibtopo_node_port(n, k);

			if (p)
				walk_port(t, n, p, k);
		}
		CHECK(ibtopo_node_port(n, ibtopo_node_num_ports(n) + 1) == NULL);
	}
	for (unsigned i = 0; i < ibtopo_chassis_count(t); i++)
		(void)ibtopo_chassis_guid(ibtopo_chassis_get(t, i));
	/* one hop out of every port of the start node */
	for (unsigned k = 1; k <= ibtopo_node_num_ports(from); k++) {
		struct ibtopo_dr_path path = { .drslid = 0xffff, .drdlid = 0xffff, .hops = 1 };
		const struct ibtopo_port *p = ibtopo_node_port(from, k);
		const struct ibtopo_node *there;

		path.port[1] = (uint8_t)k;
		there = ibtopo_find_node_dr(t, &path);
		CHECK(there == (p && ibtopo_port_remote(p) ? ibtopo_port_node(ibtopo_port_remote(p)) : NULL));
	}
	for (unsigned lid = 0; lid < LID_TAB_SIZE; lid += 97)
		(void)ibtopo_find_port_lid(t, (uint16_t)lid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibtopo *t = (struct ibtopo *)data, *t2 = NULL;
	uint8_t *f1, *f2;
	size_t l1, l2;
	char why[160];
	int rc;

	why[0] = 'x';
	rc = ibtopo_cache_load_mem(data, size, &t, why, sizeof(why));
	if (rc) {
		CHECK(rc < 0 && t == NULL);
		CHECK(why[0] != '\0' && strchr(why, '\n') == NULL);
		return 0;
	}
	walk(t);
	/* what was accepted is written and read back to the same file */
	CHECK(topo_cache_serialize(t, &f1, &l1) == 0);
	CHECK(ibtopo_cache_load_mem(f1, l1, &t2, why, sizeof(why)) == 0);
	CHECK(topo_cache_serialize(t2, &f2, &l2) == 0);
	CHECK(l1 == l2 && memcmp(f1, f2, l1) == 0);
	CHECK(ibtopo_node_count(t, IBTOPO_NODE_ANY) == ibtopo_node_count(t2, IBTOPO_NODE_ANY));
	free(f1);
	free(f2);
	ibtopo_unref(t2);
	ibtopo_unref(t);
	return 0;
}
