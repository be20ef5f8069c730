/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Directed routes that keep off given links, and PortInfo sets (see portset.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portset.h"

struct ps_entry {
	const struct ibtopo_node *node;
	int parent;       /* index of the node it was reached from, -1: the start */
	uint8_t out_port; /* the parent's port toward it (the start: its from port) */
	uint8_t depth;    /* hops from the start */
};

struct portset_routes {
	struct ps_entry *v; /* in the order reached */
	unsigned n, cap;
	int *slots;         /* open addressing: node pointer -> index in v, -1 empty */
	unsigned nslots;
};

static unsigned hash_ptr(const void *p, unsigned nslots)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return (unsigned)(x & (nslots - 1));
}

static int find(const struct portset_routes *r, const struct ibtopo_node *node)
{
	for (unsigned h = hash_ptr(node, r->nslots);; h = (h + 1) & (r->nslots - 1)) {
		int i = r->slots[h];

		if (i < 0 || r->v[i].node == node)
			return i;
	}
}

static void add(struct portset_routes *r, const struct ibtopo_node *node, int parent,
		unsigned out_port, unsigned depth)
{
	unsigned h = hash_ptr(node, r->nslots);

	while (r->slots[h] >= 0)
		h = (h + 1) & (r->nslots - 1);
	r->slots[h] = (int)r->n;
	r->v[r->n].node = node;
	r->v[r->n].parent = parent;
	r->v[r->n].out_port = (uint8_t)out_port;
	r->v[r->n].depth = (uint8_t)depth;
	r->n++;
}

static bool avoided(const struct ibtopo_port *port, const struct ibtopo_port *const *avoid,
		    unsigned navoid)
{
	const struct ibtopo_port *rem = ibtopo_port_remote(port);

	for (unsigned i = 0; i < navoid; i++)
		if (avoid[i] == port || (rem && avoid[i] == rem))
			return true;
	return false;
}

struct portset_routes *portset_routes_new(const struct ibtopo *t,
					  const struct ibtopo_port *const *avoid, unsigned navoid)
{
	const struct ibtopo_node *start = ibtopo_from_node(t);
	unsigned count = ibtopo_node_count(t, IBTOPO_NODE_ANY);
	struct portset_routes *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cap = count + 1;
	for (r->nslots = 16; r->nslots < 2 * r->cap; r->nslots *= 2)
		;
	r->v = calloc(r->cap, sizeof(*r->v));
	r->slots = malloc(r->nslots * sizeof(*r->slots));
	if (!r->v || !r->slots) {
		portset_routes_free(r);
		return NULL;
	}
	memset(r->slots, 0xff, r->nslots * sizeof(*r->slots));
	if (!start)
		return r;
	add(r, start, -1, ibtopo_from_port(t), 0);
	for (unsigned i = 0; i < r->n; i++) {
		const struct ibtopo_node *node = r->v[i].node;
		bool is_switch = ibtopo_node_type(node) == IBTOPO_NODE_SWITCH;
		unsigned first = 1, last = ibtopo_node_num_ports(node);

		/* only switches pass directed routes on; the start CA leaves by its own port */
		if (!is_switch) {
			if (i)
				continue;
			first = last = ibtopo_from_port(t);
		}
		if (r->v[i].depth + 1 >= PORTSET_MAX_DR)
			continue;
		for (unsigned pn = first; pn <= last; pn++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, pn);
			const struct ibtopo_port *rem = port ? ibtopo_port_remote(port) : NULL;
			const struct ibtopo_node *next = rem ? ibtopo_port_node(rem) : NULL;

			if (!next || avoided(port, avoid, navoid) || find(r, next) >= 0)
				continue;
			if (r->n == r->cap)
				break;
			add(r, next, (int)i, pn, r->v[i].depth + 1u);
		}
	}
	return r;
}

void portset_routes_free(struct portset_routes *r)
{
	if (!r)
		return;
	free(r->v);
	free(r->slots);
	free(r);
}

unsigned portset_route(const struct portset_routes *r, const struct ibtopo_node *node,
		       uint8_t ports[PORTSET_MAX_DR])
{
	int i = node ? find(r, node) : -1;
	unsigned depth;

	if (i < 0)
		return 0;
	depth = r->v[i].depth;
	ports[0] = 0;
	for (unsigned d = depth; d > 0; d--) {
		ports[d] = r->v[i].out_port;
		i = r->v[i].parent;
	}
	return depth + 1;
}

int portset_depth(const struct portset_routes *r, const struct ibtopo_node *node)
{
	int i = node ? find(r, node) : -1;

	return i < 0 ? -1 : r->v[i].depth;
}

const char *portset_dr_text(const uint8_t *ports, unsigned count, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < count && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, i ? ",%u" : "%u", ports[i]);
	return buf;
}

int portset_set(struct ibdiag_port *p, const uint8_t *ports, unsigned count, unsigned num,
		unsigned state, unsigned phys, uint8_t before[64], uint8_t after[64],
		struct ibmadrpc_error **err)
{
	struct ibstruct_smp_port_info pi;
	struct ibpath_path *path;
	uint8_t data[64];
	int rc;

	*err = NULL;
	rc = ibpath_path_new(&path, IBPATH_KIND_DR);
	if (rc < 0)
		return rc;
	rc = ibpath_path_set_dr_ports(path, ports, count);
	if (rc == 0)
		rc = ibdiag_smp_get(p, path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, num, before, err);
	if (rc == 0)
		rc = ibstruct_smp_port_info_unpack(&pi, before, 64);
	if (rc == 0) {
		/* what a Set leaves alone: no state change, no new speed or width */
		pi.portState = (uint8_t)state;
		pi.portPhysicalState = (uint8_t)phys;
		pi.linkSpeedEnabled = 0;
		pi.linkWidthEnabled = 0;
		pi.linkSpeedExtEnabled = 0;
		rc = ibstruct_smp_port_info_pack(&pi, data, sizeof(data));
	}
	if (rc == 0)
		rc = ibdiag_smp_set(p, path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, num, data, after, err);
	ibpath_path_unref(path);
	return rc;
}

struct ibtopo *portset_discover(struct ibdiag_port **port)
{
	struct ibtopo *t = NULL;

	*port = ibdiag_topo_open_port();
	if (!*port)
		IBEXIT("cannot open the local port");
	ibdiag_topo_discover(*port, NULL, &t);
	ibdiag_topo_print_errors(t);
	if (t && !ibtopo_from_node(t)) {
		ibtopo_unref(t);
		t = NULL;
	}
	if (!t)
		IBEXIT("discovery of the subnet failed");
	return t;
}

const char *portset_node_text(const struct ibtopo_node *node, char *buf, size_t len)
{
	snprintf(buf, len, "\"%s\" (0x%016" PRIx64 ")", ibtopo_node_desc(node),
		 ibtopo_node_guid(node));
	return buf;
}
