/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test helpers: topologies built with libibtopo's internal builders from raw NodeInfo and
 * PortInfo bytes (no fabric), for the diff and export suites.
 */
#ifndef TOPO_BUILD_H
#define TOPO_BUILD_H

#include <stdint.h>
#include <string.h>

#include "ibtopo-private.h"

/* PortInfo values */
#define TB_DOWN 1
#define TB_ACTIVE 4
#define TB_POLLING 2
#define TB_LINKUP 5
#define TB_4X 2
#define TB_SDR 1
#define TB_DDR 2

static inline void tb_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void tb_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* A node from NodeInfo bytes (system image GUID = node GUID) with a description. */
static inline struct ibtopo_node *tb_node(struct ibtopo *t, unsigned type, unsigned nports,
					  uint64_t guid, uint64_t port_guid, const char *desc)
{
	uint8_t ni[IBTOPO_SMP_DATA_SIZE] = { 1, 1, (uint8_t)type, (uint8_t)nports };
	uint8_t nd[IBTOPO_SMP_DATA_SIZE] = { 0 };
	struct ibtopo_dr_path path = { .drslid = 0xffff, .drdlid = 0xffff };
	struct ibtopo_node *n;

	tb_be64(ni + 4, guid);
	tb_be64(ni + 12, guid);
	tb_be64(ni + 20, port_guid);
	tb_be16(ni + 28, 0xffff);
	ni[36] = 1;
	path.hops = (uint8_t)(t->all.n % 3);
	for (unsigned i = 1; i <= path.hops; i++)
		path.port[i] = (uint8_t)i;
	n = topo_node_create(t, ni, &path);
	if (n && desc) {
		size_t len = strlen(desc);

		memcpy(nd, desc, len < sizeof(nd) ? len : sizeof(nd));
		topo_node_set_desc(n, nd);
	}
	return n;
}

/* Port `num` with a PortInfo (a switch's ports after its port 0: they take its LID). */
static inline struct ibtopo_port *tb_port(struct ibtopo_node *n, unsigned num, uint16_t lid,
					  unsigned lmc, unsigned state, unsigned phys,
					  unsigned width, unsigned speed)
{
	uint8_t pi[IBTOPO_SMP_DATA_SIZE] = { 0 };
	struct ibtopo_port *p = topo_port_get(n, num);

	if (!p)
		return NULL;
	tb_be16(pi + 16, lid);
	pi[28] = (uint8_t)num;
	pi[31] = (uint8_t)width;
	pi[32] = (uint8_t)state;
	pi[33] = (uint8_t)(phys << 4 | 2);
	pi[34] = (uint8_t)(lmc & 7);
	pi[35] = (uint8_t)(speed << 4 | 1);
	if (n->type != IBTOPO_NODE_SWITCH)
		p->guid = NI_PORT_GUID(n->info) + num - 1;
	if (topo_port_set_info(p, pi))
		return NULL;
	return p;
}

static inline void tb_link(struct ibtopo_node *a, unsigned pa, struct ibtopo_node *b, unsigned pb)
{
	topo_link(a->ports[pa], b->ports[pb]);
}

/* A switch with every port (0..nports) answered: ports up when `up` has their bit. */
static inline struct ibtopo_node *tb_switch(struct ibtopo *t, uint64_t guid, const char *desc,
					    unsigned nports, uint16_t lid, uint32_t up)
{
	struct ibtopo_node *n = tb_node(t, IBTOPO_NODE_SWITCH, nports, guid, guid, desc);

	if (!n)
		return NULL;
	tb_port(n, 0, lid, 0, TB_ACTIVE, TB_LINKUP, TB_4X, TB_SDR);
	for (unsigned p = 1; p <= nports; p++) {
		if (up & (1u << p))
			tb_port(n, p, 0, 0, TB_ACTIVE, TB_LINKUP, TB_4X, TB_SDR);
		else
			tb_port(n, p, 0, 0, TB_DOWN, TB_POLLING, TB_4X, TB_SDR);
	}
	return n;
}

/* A CA with port 1 up at `lid` (port GUIDs node GUID + 1, + 2, ...). */
static inline struct ibtopo_node *tb_ca(struct ibtopo *t, uint64_t guid, const char *desc,
					unsigned nports, uint16_t lid)
{
	struct ibtopo_node *n = tb_node(t, IBTOPO_NODE_CA, nports, guid, guid + 1, desc);

	if (n)
		tb_port(n, 1, lid, 0, TB_ACTIVE, TB_LINKUP, TB_4X, TB_SDR);
	return n;
}

/*
 * ibsim's net.2sw2path4hca as infiniband-diags discovers it from Hca1 (the fabric of
 * shared/reference/diags-samples): creation order Hca1, Switch1, Hca3, Switch2, Hca2, Hca4.
 * Switch1 (0x200000, LID 1) ports 1 Hca1, 2 Hca3, 3 and 5 Switch2 (3, 5); Switch2 (0x200001,
 * LID 3) ports 1 Hca2, 2 Hca4.  `unlink_sw3` leaves the Switch1[3]-Switch2[3] link down.
 */
struct tb_fabric {
	struct ibtopo *t;
	struct ibtopo_node *sw1, *sw2, *hca1, *hca2, *hca3, *hca4;
};

static inline int tb_2sw4hca(struct tb_fabric *f, bool unlink_sw3)
{
	uint32_t up1 = unlink_sw3 ? 0x26 : 0x2e, up2 = unlink_sw3 ? 0x26 : 0x2e;

	memset(f, 0, sizeof(*f));
	if (ibtopo_new(&f->t))
		return -1;
	f->hca1 = tb_ca(f->t, 0x100000, "Hca1", 2, 2);
	f->sw1 = tb_switch(f->t, 0x200000, "Switch1", 8, 1, up1);
	f->hca3 = tb_ca(f->t, 0x100006, "Hca3", 2, 5);
	f->sw2 = tb_switch(f->t, 0x200001, "Switch2", 8, 3, up2);
	f->hca2 = tb_ca(f->t, 0x100003, "Hca2", 2, 4);
	f->hca4 = tb_ca(f->t, 0x100009, "Hca4", 2, 6);
	if (!f->hca1 || !f->sw1 || !f->hca3 || !f->sw2 || !f->hca2 || !f->hca4)
		return -1;
	tb_link(f->sw1, 1, f->hca1, 1);
	tb_link(f->sw1, 2, f->hca3, 1);
	if (!unlink_sw3)
		tb_link(f->sw1, 3, f->sw2, 3);
	tb_link(f->sw1, 5, f->sw2, 5);
	tb_link(f->sw2, 1, f->hca2, 1);
	tb_link(f->sw2, 2, f->hca4, 1);
	f->t->from_node = f->hca1;
	f->t->from_port = 1;
	f->t->max_hops = 3;
	return 0;
}

#endif /* TOPO_BUILD_H */
