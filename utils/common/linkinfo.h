/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The link line shared by iblinkinfo and ibqueryerrors (not installed): one port of a
 * discovered node, its link state and the port at the other end, in infiniband-diags'
 * format, plus the small helpers both tools need (counter units, JSON strings).
 */
#ifndef IBMGMT_UTILS_LINKINFO_H
#define IBMGMT_UTILS_LINKINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ibmgmt/ibstruct.h>
#include <ibmgmt/ibtopo.h>

#include "ibdiag.h"
#include "ibdiag-topo.h"

/* PortInfo.PortState of a link that is down */
#define LINKINFO_STATE_DOWN 1

/* The port's PortInfo decoded (all zero when the port never answered). */
void linkinfo_port_info(const struct ibtopo_port *port, struct ibstruct_smp_port_info *pi);

/* The state part of the line: "( 4X           2.5 Gbps Active/  LinkUp)", or
 * "(              Down/ Polling)" for a port that is down.  The CapabilityMask (extended
 * speeds) of a switch port is its port 0's; without a port 0 the width and speed read 0.
 * snprintf semantics. */
int linkinfo_link_str(const struct ibtopo_port *port, char *buf, size_t len);
/* The width and speed texts of that line ("4X", "2.5 Gbps"), len bytes each. */
void linkinfo_width_speed(const struct ibtopo_port *port, char *width, char *speed, size_t len);

/* The "Could be ..." remarks of a linked port (empty strings when at its best). */
void linkinfo_max_msg(const struct ibtopo_port *port, char *width_msg, char *speed_msg, size_t len);

/* The LID printed for the far end: its base LID, else its node's SMA LID. */
uint16_t linkinfo_remote_lid(const struct ibtopo_port *remote);

/* The remote part of the line of a linked port ("     3    1[  ] \"Switch1\" (Could be
 * ...)\n"), with the remote port GUID first when with_guid; "" for a port without a link. */
int linkinfo_remote_str(const struct ibtopo_port *port, const struct ibdiag_nnmap *map,
			bool with_guid, char *buf, size_t len);

/* "%d" of the port's external number, "" when it has none. */
void linkinfo_ext_str(const struct ibtopo_port *port, char buf[16]);

/* conv_cnt_human_readable(): the value scaled by 1024s (data counters count 4-byte words:
 * times 4, in bytes) and its unit. */
const char *linkinfo_human(uint64_t val64, float *val, bool data);

/* A JSON string (quotes and escapes included). */
void linkinfo_json_str(FILE *out, const char *s);

/* The text forms of a few PortInfo values, as libibmad prints them. */
const char *linkinfo_fmt(enum ibstruct_diags_fmt fmt, unsigned value, char *buf, size_t len);

/* ---- The scans of both tools ------------------------------------------------------------ */

/* A discovery with the common options from `from` (a DR path text, NULL: the local port),
 * at most max_hops hops (0: no limit).  The errors met go to stderr as libibnetdisc prints
 * them.  The topology (partial ones included), or NULL when nothing was found. */
struct ibtopo *linkinfo_discover(struct ibdiag_port *p, const char *from, unsigned max_hops,
				 unsigned outstanding);

/* A DR path as text ("0,1,3"); false when the path is not a directed route. */
bool linkinfo_dr_text(const struct ibpath_path *path, char *buf, size_t len);

/* The node holding the port a -S/-G target names: by the GUID the text reads as (strtoull
 * base 0), else by the LID the target resolved to (the extra target forms). */
struct ibtopo_node *linkinfo_find_target(const struct ibtopo *t, const char *text,
					 const struct ibpath_path *resolved);

#endif /* IBMGMT_UTILS_LINKINFO_H */
