/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Changing the state of fabric ports over directed routes (set_port_state, init_all_ports;
 * not installed): shortest directed routes through a discovered topology that keep off
 * the links being changed, and the PortInfo Get + Set of one port.
 */
#ifndef IBMGMT_UTILS_PORTSET_H
#define IBMGMT_UTILS_PORTSET_H

#include <stdint.h>

#include <ibmgmt/ibtopo.h>

#include "ibdiag-topo.h"

#define PORTSET_MAX_DR 64 /* elements of a DR path: 0 and up to 63 hops */

/* A breadth-first search from the topology's start node (ibtopo_from_node(), leaving a CA
 * by ibtopo_from_port() only) through switches, never crossing a link that has one of its
 * ends in `avoid`. */
struct portset_routes;

struct portset_routes *portset_routes_new(const struct ibtopo *t,
					  const struct ibtopo_port *const *avoid, unsigned navoid);
void portset_routes_free(struct portset_routes *r);
/* The DR path to the node (ports[0] = 0, then the out port of each hop): the element
 * count, or 0 when the search did not reach the node. */
unsigned portset_route(const struct portset_routes *r, const struct ibtopo_node *node,
		       uint8_t ports[PORTSET_MAX_DR]);

/* Hops from the start to the node, -1 when the search did not reach it. */
int portset_depth(const struct portset_routes *r, const struct ibtopo_node *node);

/* "0,1,7" */
const char *portset_dr_text(const uint8_t *ports, unsigned count, char *buf, size_t len);

/* SubnGet PortInfo of port `num` of the node at the end of the DR path (into before), then
 * SubnSet of the same with PortState = state and PortPhysicalState = phys (0: no change for
 * both), LinkSpeedEnabled, LinkSpeedExtEnabled, LinkWidthEnabled 0 (no change); the answer
 * into after.  0 or a
 * negative errno with *err (the caller frees it). */
int portset_set(struct ibdiag_port *p, const uint8_t *ports, unsigned count, unsigned num,
		unsigned state, unsigned phys, uint8_t before[64], uint8_t after[64],
		struct ibmadrpc_error **err);

/* Opens the local port and discovers the subnet over directed routes (discovery errors on
 * stderr); IBEXIT when the port cannot be opened or nothing was found.  The caller closes
 * *port with ibdiag_topo_close() and unrefs the topology. */
struct ibtopo *portset_discover(struct ibdiag_port **port);

/* A node as the messages name it: "sw-a" (0x0000000000200000). */
const char *portset_node_text(const struct ibtopo_node *node, char *buf, size_t len);

#endif /* IBMGMT_UTILS_PORTSET_H */
