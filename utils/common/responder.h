/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The server side that ibping -S and ibsysstat -S share: the host name they answer with,
 * the agent registration and the loop that hands each request of the served class to the
 * tool.
 */
#ifndef IBMGMT_UTILS_RESPONDER_H
#define IBMGMT_UTILS_RESPONDER_H

#include <stddef.h>
#include <stdint.h>

#include "ibdiag.h"

#define RESPONDER_OPENIB_OUI 0x001405u
#define RESPONDER_VENDOR2_DATA 216 /* data bytes of a vendor range 2 MAD (offset 40) */

/* "<hostname>.<domainname>" as the reference servers build it: "?hostname?" or
 * "?domainname?" when a call fails, no dot when the domain name is empty; at most size-1
 * characters.  Returns the length. */
size_t responder_host_and_domain(char *buf, size_t size);

/* Registers the port to receive requests of mgmt_class (all methods; oui for range 2).
 * When the environment has SIM_SET_ISSM (ibsim's umad2sim, whose issm clients are sent
 * every request the simulator does not answer itself), it also registers the classes such a
 * client may be sent, so that umad2sim has somewhere to queue them: it kills a process that
 * is sent a class without an agent.  Those requests are then dropped.  0 or a negative
 * errno (the served class could not be registered). */
int responder_register(struct ibdiag_port *p, uint8_t mgmt_class, uint8_t class_version, uint32_t oui);

/* Serves until the process is killed: fn gets each request of the registered class (and
 * OUI); requests of other classes, replies and malformed packets are dropped. */
_Noreturn void responder_loop(struct ibdiag_port *p, ibmadrpc_serve_fn fn, void *user);

#endif /* IBMGMT_UTILS_RESPONDER_H */
