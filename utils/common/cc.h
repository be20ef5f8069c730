/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What ibccquery and ibccconfig share (not installed): their operation table and main
 * flow (options, the -c CC_Key, the usage text, the target), the Congestion Control
 * Get/Set and the NodeInfo check of SwitchPortCongestionSetting.
 */
#ifndef IBMGMT_UTILS_CC_H
#define IBMGMT_UTILS_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "ibdiag.h"

#define CC_DATA_SIZE 192 /* CC attribute data: MAD bytes 64..255 */
#define CC_LOG_SIZE  224 /* CongestionLog data: MAD bytes 32..255 */

/* One operation: returns NULL or the reason of the failure ("operation <op>: <reason>"). */
typedef const char *(*cc_op_fn)(const struct ibpath_path *dest, char **argv, int argc);

struct cc_op {
	const char *name;
	const char *alias;
	cc_op_fn fn;
	bool portnum;      /* takes a port number (usage: " [<portnum>]" / " <portnum>") */
	const char *extra; /* ibccconfig: the operands after the target */
};

/* The tool's settings, valid while an operation runs. */
struct cc_tool {
	struct ibdiag_port *port;
	uint64_t cckey; /* -c */
};
extern struct cc_tool cc;

/* The common main of both tools: options, usage (the ops listed as the query tool or, with
 * `config`, as the configuration tool with its warning), operation lookup, port, target,
 * the operation, exit status.  Never returns. */
_Noreturn void cc_main(int argc, char **argv, const struct cc_op *ops, bool config,
		       const char *const *examples);

/* A CC Get: the attribute's data (CC_LOG_SIZE bytes from MAD byte 32 for CongestionLog,
 * else CC_DATA_SIZE bytes from byte 64) into data.  0 or -1. */
int cc_get(const struct ibpath_path *dest, uint16_t attr, uint32_t mod, uint8_t *data);
/* A CC Set of CC_DATA_SIZE bytes; the reply's data into out (may be NULL).  0 or -1. */
int cc_set(const struct ibpath_path *dest, uint16_t attr, uint32_t mod,
	   const uint8_t in[CC_DATA_SIZE], uint8_t *out);

/* NodeInfo of the target: NULL and its port count when it is a switch, else `failed`
 * (the query failed) or "destination not a switch". */
const char *cc_switch_ports(const struct ibpath_path *dest, const char *failed, int *numports);

#endif /* IBMGMT_UTILS_CC_H */
