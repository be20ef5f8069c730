/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fake fabric for libibtopo's unit tests: nodes, ports and links in memory behind
 * libibmadrpc's test port.  Directed-route SMPs are routed hop by hop from the local port
 * and answered as an SMA would (NodeInfo, NodeDescription, SwitchInfo, PortInfo,
 * LinearForwardingTable, MulticastForwardingTable); faults: a node that answers nothing, a
 * drop rate, answers held back and sent in random order (a thread), a link cut after N SMPs.
 */
#ifndef FAKEFAB_H
#define FAKEFAB_H

#include <stdbool.h>
#include <stdint.h>

#include "ibmadrpc-private.h"

#define FF_MAX_NODES 400

struct ff_port {
	int peer;           /* node index, -1: nothing attached */
	uint8_t peer_port;
	uint8_t phys;       /* PortPhysicalState: 5 LinkUp (default when linked), 2 Polling */
};

struct ff_node {
	uint8_t type;       /* 1 CA, 2 switch, 3 router */
	uint8_t nports;
	uint64_t guid;      /* node GUID; port GUIDs: guid + port for CAs, guid for switches */
	uint64_t sysguid;
	uint16_t devid;
	uint32_t vendid;
	char desc[64];
	uint16_t lid;       /* base LID (port 0 of a switch, port 1.. of a CA: lid + port - 1) */
	uint8_t lmc;
	bool dead;          /* answers nothing */
	uint8_t bogus_local_port; /* non-zero: NodeInfo claims this local port */
	struct ff_port port[256];
	uint8_t lft[1024];  /* LID -> port for LIDs < 1024 (0xff: none) */
};

struct fakefab {
	struct ff_node node[FF_MAX_NODES];
	unsigned n;
	unsigned drop_pct;      /* every answer dropped with this probability */
	bool reorder;           /* answers held and sent in random order */
	unsigned cut_after;     /* after this many SMPs (0: never) ... */
	int cut_node;           /* ... node cut_node's port cut_port goes down */
	unsigned cut_port;
	unsigned smps;          /* SMPs received (retries included) */
	int send_error;         /* non-zero: every send fails with it */
	unsigned seed;
};

extern struct fakefab ff;

/* Empties the fabric. */
void ff_reset(void);
/* A node; returns its index.  GUID 0x1000 * (index + 1), LID index + 1, no links. */
int ff_add(uint8_t type, unsigned nports, const char *desc);
/* A link (both ports LinkUp). */
void ff_link(int a, unsigned pa, int b, unsigned pb);
/* A test port attached to node 0 port 1 (a CA); close with ff_close(). */
struct ibmadrpc_port *ff_open(void);
void ff_close(struct ibmadrpc_port *port);

#endif
