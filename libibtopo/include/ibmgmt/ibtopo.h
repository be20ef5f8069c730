/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibtopo: the subnet topology database and its discovery.
 *
 * A topology (struct ibtopo) holds nodes (CA, switch, router) with the raw SMP attributes
 * they answered (NodeInfo, NodeDescription, SwitchInfo, per port PortInfo: 64 wire bytes
 * each, decodable with libibstruct), their ports, the links between ports, the LID map,
 * switch forwarding tables loaded on demand, chassis grouping, the directed route by which
 * each node was reached and the errors met on the way.  Look-ups by node GUID, port GUID,
 * LID and DR path are O(1) (DR: O(hops)).
 *
 * Node order.  Every list is in the order infiniband-diags prints it: libibnetdisc keeps its
 * nodes most recently discovered first, and a discovery here commits the answers in the
 * order libibnetdisc would have processed them, whatever order they arrive in.  So index 0
 * of ibtopo_node_get() is the node discovered last.
 *
 * Uses libibsa, libibsched, libibmadrpc, libibpath and libibstruct.  Never prints; errors
 * are negative errnos plus, where useful, an ibmadrpc_error.
 */
#ifndef IBMGMT_IBTOPO_H
#define IBMGMT_IBTOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ibmgmt/ibsa.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibtopo;      /* a subnet; reference counted */
struct ibtopo_node; /* owned by its topology */
struct ibtopo_port; /* owned by its node */

enum ibtopo_node_type {
	IBTOPO_NODE_ANY = 0, /* in look-ups and iteration: every type */
	IBTOPO_NODE_CA = 1,
	IBTOPO_NODE_SWITCH = 2,
	IBTOPO_NODE_ROUTER = 3,
};

#define IBTOPO_SMP_DATA_SIZE 64 /* bytes of one SMP attribute kept per node/port */
#define IBTOPO_MAX_HOPS 63      /* the longest directed route (IBA 14.2.2) */
#define IBTOPO_MAX_PORTS 254    /* NodeInfo.NumPorts is 8 bits; 255 is reserved */

/* A directed route the way infiniband-diags keeps it (ib_portid_t): the LID-routed part
 * (lid, 0 = none), DrSLID/DrDLID, and the out ports: port[0] is 0, port[1..hops] the hops. */
struct ibtopo_dr_path {
	uint16_t lid;
	uint16_t drslid;
	uint16_t drdlid;
	uint8_t hops;
	uint8_t port[IBTOPO_MAX_HOPS + 1];
};

/* "0,1,3" as infiniband-diags writes a DR path: the ports only (not the LID-routed part,
 * nor DrSLID/DrDLID); snprintf semantics. */
int ibtopo_dr_path_format(const struct ibtopo_dr_path *path, char *buf, size_t len);
/* Parses "0,1,3" (or "1,3"; element 0 may be left out). -EINVAL/-ERANGE. */
int ibtopo_dr_path_parse(const char *text, struct ibtopo_dr_path *path);

/* ---- The topology ------------------------------------------------------------------------ */

int ibtopo_new(struct ibtopo **out);
struct ibtopo *ibtopo_ref(struct ibtopo *topo);
void ibtopo_unref(struct ibtopo *topo); /* NULL is fine */

/* Nodes of one type (IBTOPO_NODE_ANY: all), in infiniband-diags' order (see above). */
unsigned ibtopo_node_count(const struct ibtopo *topo, enum ibtopo_node_type type);
struct ibtopo_node *ibtopo_node_get(const struct ibtopo *topo, enum ibtopo_node_type type,
				    unsigned index);
/* Look-ups; NULL when absent.  A port GUID shared by every port of a switch finds port 0. */
struct ibtopo_node *ibtopo_find_node_guid(const struct ibtopo *topo, uint64_t guid);
struct ibtopo_port *ibtopo_find_port_guid(const struct ibtopo *topo, uint64_t guid);
/* Any LID of a port's LMC range finds the port; for a switch, port 0. */
struct ibtopo_port *ibtopo_find_port_lid(const struct ibtopo *topo, uint16_t lid);
/* The node at the end of a DR path from the discovery's start node (path text as
 * ibtopo_dr_path_parse() reads it). */
struct ibtopo_node *ibtopo_find_node_dr(const struct ibtopo *topo, const struct ibtopo_dr_path *path);

/* The node the discovery started from and the port it started on (NULL/0 when empty). */
struct ibtopo_node *ibtopo_from_node(const struct ibtopo *topo);
unsigned ibtopo_from_port(const struct ibtopo *topo);
/* The largest number of hops discovery went (as libibnetdisc's maxhops_discovered). */
unsigned ibtopo_max_hops_discovered(const struct ibtopo *topo);
/* SMPs sent by the discovery that built the topology. */
uint64_t ibtopo_mads_used(const struct ibtopo *topo);

/* ---- Nodes ------------------------------------------------------------------------------- */

struct ibtopo *ibtopo_node_topo(const struct ibtopo_node *node);
enum ibtopo_node_type ibtopo_node_type(const struct ibtopo_node *node);
uint64_t ibtopo_node_guid(const struct ibtopo_node *node);
unsigned ibtopo_node_num_ports(const struct ibtopo_node *node);
/* Raw attributes, IBTOPO_SMP_DATA_SIZE wire bytes each; NULL when never answered. */
const uint8_t *ibtopo_node_info(const struct ibtopo_node *node);
const uint8_t *ibtopo_node_desc_raw(const struct ibtopo_node *node);
const uint8_t *ibtopo_node_switch_info(const struct ibtopo_node *node);
/* NodeDescription as a NUL-terminated string (at most 64 characters, "" when unknown). */
const char *ibtopo_node_desc(const struct ibtopo_node *node);
/* Port 0's LID and LMC for a switch (the SMA's), else 0. */
uint16_t ibtopo_node_sma_lid(const struct ibtopo_node *node);
uint8_t ibtopo_node_sma_lmc(const struct ibtopo_node *node);
/* SwitchInfo.EnhancedPort0. */
bool ibtopo_node_enhanced_port0(const struct ibtopo_node *node);
/* The route by which the node was first reached. */
const struct ibtopo_dr_path *ibtopo_node_dr_path(const struct ibtopo_node *node);
/* Port `num` (0..num_ports), NULL when it was never seen. */
struct ibtopo_port *ibtopo_node_port(const struct ibtopo_node *node, unsigned num);

/* ---- Ports ------------------------------------------------------------------------------- */

struct ibtopo_node *ibtopo_port_node(const struct ibtopo_port *port);
unsigned ibtopo_port_num(const struct ibtopo_port *port);
/* External (front panel) port number in a chassis, 0 when unknown. */
unsigned ibtopo_port_ext_num(const struct ibtopo_port *port);
uint64_t ibtopo_port_guid(const struct ibtopo_port *port);
/* Base LID and LMC (a switch port reports its port 0's). */
uint16_t ibtopo_port_base_lid(const struct ibtopo_port *port);
uint8_t ibtopo_port_lmc(const struct ibtopo_port *port);
/* PortInfo (64 wire bytes), NULL when never answered; Mellanox ExtendedPortInfo likewise. */
const uint8_t *ibtopo_port_info(const struct ibtopo_port *port);
const uint8_t *ibtopo_port_ext_info(const struct ibtopo_port *port);
/* The port at the other end of the link, NULL when none was found. */
struct ibtopo_port *ibtopo_port_remote(const struct ibtopo_port *port);

/* ---- Errors met ---------------------------------------------------------------------------- */

enum ibtopo_error_kind {
	IBTOPO_ERR_QUERY = 1,        /* an SMP or SA query failed (time-out, error status) */
	IBTOPO_ERR_DUPLICATE = 2,    /* two nodes answered with one GUID */
	IBTOPO_ERR_INCONSISTENT = 3, /* an answer contradicts what is known (bad port, ...) */
	IBTOPO_ERR_LIMIT = 4,        /* max hops or a resource limit stopped a branch */
};

struct ibtopo_error {
	enum ibtopo_error_kind kind;
	int errnum;                 /* negative errno */
	uint16_t attr_id;           /* the query's attribute (0 when none) */
	uint32_t attr_mod;
	uint16_t status;            /* MAD status of an error answer, else 0 */
	struct ibtopo_dr_path path; /* where the query went */
	uint64_t guid;              /* the node concerned, 0 when unknown */
	const char *message;        /* one line, no newline */
};

unsigned ibtopo_error_count(const struct ibtopo *topo);
const struct ibtopo_error *ibtopo_error_get(const struct ibtopo *topo, unsigned index);

/* ---- Discovery ----------------------------------------------------------------------------- */

enum ibtopo_discovery_mode {
	IBTOPO_DISCOVER_DR = 0,  /* directed-route walk (libibnetdisc's) */
	IBTOPO_DISCOVER_LID = 1, /* LID-routed SMPs to LIDs learned from the SA */
	IBTOPO_DISCOVER_SA = 2,  /* the SA's NodeRecord/PortInfoRecord/LinkRecord/... tables */
	/* LID and SA modes build what the DR walk builds (node order, paths, links, raw
	 * attributes): the walk runs over the SA's records, its SMPs answered from them (SA)
	 * or sent LID routed to the port the path reaches (LID).  Tables an SA cuts short
	 * (no RMPP) are completed record by record.  What the SA cannot give: Mellanox
	 * ExtendedPortInfo (not queried in SA mode) and, with OpenSM, the PortInfo of switch
	 * ports without a link, of which it keeps only PortState and PortPhysicalState. */
};

struct ibtopo_discovery;

/* Progress: nodes found so far and MADs on the wire now. */
typedef void (*ibtopo_progress_fn)(struct ibtopo_discovery *disc, unsigned nodes,
				   unsigned outstanding, void *user);
/* The end of a discovery started with ibtopo_discovery_start(): status 0, a negative errno
 * when nothing could be discovered, or -ECANCELED. */
typedef void (*ibtopo_done_fn)(struct ibtopo_discovery *disc, int status, void *user);

#define IBTOPO_DEFAULT_OUTSTANDING 64

/* A discovery over a scheduler (and its port).  Defaults: DR mode from the local port, no
 * hop limit, IBTOPO_DEFAULT_OUTSTANDING SMPs in flight (set on the scheduler when the
 * discovery starts), the MAD time-out and retries of the port's paths, Mellanox
 * ExtendedPortInfo queried where libibnetdisc queries it. */
int ibtopo_discovery_new(struct ibtopo_discovery **out, struct ibsched *sched);
void ibtopo_discovery_free(struct ibtopo_discovery *disc); /* cancels a running one */

int ibtopo_discovery_set_mode(struct ibtopo_discovery *disc, enum ibtopo_discovery_mode mode);
/* The SA client for LID and SA modes (NULL: one of the discovery's own); the discovery sets
 * its scheduler to this one's (ibsa_set_sched()). */
int ibtopo_discovery_set_sa(struct ibtopo_discovery *disc, struct ibsa *sa);
/* Start somewhere else than the local port: a DR path (-D), optionally after a LID. */
int ibtopo_discovery_set_from(struct ibtopo_discovery *disc, const struct ibtopo_dr_path *from);
/* Stop extending routes beyond this many hops (0: no limit; libibnetdisc's max_hops). */
int ibtopo_discovery_set_max_hops(struct ibtopo_discovery *disc, unsigned max_hops);
/* Time-out of one attempt (ms, 0: the path's default) and attempts after the first
 * (UINT_MAX: the path's default). */
int ibtopo_discovery_set_timeout(struct ibtopo_discovery *disc, unsigned timeout_ms, unsigned retries);
/* SMPs in flight at most (1..128; 0 keeps the scheduler's own setting; default 64). */
int ibtopo_discovery_set_outstanding(struct ibtopo_discovery *disc, unsigned max);
/* M_Key sent with every SMP. */
void ibtopo_discovery_set_mkey(struct ibtopo_discovery *disc, uint64_t mkey);
/* Query Mellanox ExtendedPortInfo where libibnetdisc does (IBND_CONFIG_MLX_EPI; default on). */
void ibtopo_discovery_set_mlx_epi(struct ibtopo_discovery *disc, bool on);
void ibtopo_discovery_set_progress(struct ibtopo_discovery *disc, ibtopo_progress_fn fn, void *user);
/* Each NodeInfo answer as it is taken in (libibnetdisc's show_progress lines): the route it
 * came by, the node (is_new: first seen now) and the port that answered.  What the node and
 * port hold is what was known at that moment: a known node's description and the port's LID
 * only when they have already answered.  NULL removes it. */
typedef void (*ibtopo_node_seen_fn)(struct ibtopo_discovery *disc, const struct ibtopo_dr_path *path,
				    struct ibtopo_node *node, struct ibtopo_port *port, bool is_new,
				    void *user);
void ibtopo_discovery_set_node_seen(struct ibtopo_discovery *disc, ibtopo_node_seen_fn fn, void *user);

/* Starts on the scheduler; `done` runs from ibsched_dispatch() when it ends.  -EBUSY when
 * already started. */
int ibtopo_discovery_start(struct ibtopo_discovery *disc, ibtopo_done_fn done, void *user);
/* Stops issuing queries and cancels those on the wire; `done` runs with -ECANCELED.  Safe
 * from any callback, the progress callback included. */
void ibtopo_discovery_cancel(struct ibtopo_discovery *disc);
/* What has been found so far (a reference: the caller unrefs it). */
struct ibtopo *ibtopo_discovery_topology(struct ibtopo_discovery *disc);
/* MADs sent so far. */
uint64_t ibtopo_discovery_mads(const struct ibtopo_discovery *disc);

/* Runs a discovery to its end on its own: 0 and *out, or a negative errno (with *out still
 * set to the partial topology unless nothing was found; the caller unrefs it).  The errors
 * met are in ibtopo_error_get(). */
int ibtopo_discover(struct ibtopo_discovery *disc, struct ibtopo **out);

/* ---- Switch forwarding tables (loaded on demand) ----------------------------------------- */

/* Reads the switch's LinearForwardingTable blocks up to `top` (0: SwitchInfo.LinearFDBTop;
 * at most 0xbfff) over the DR path the node was found by (its LID when a node other than
 * the start node has no path, as from a file), all blocks at once through the scheduler,
 * which it runs until they are in.  0, or a negative errno: -EINVAL, -ENOTSUP (not a
 * switch), -ENODATA (top 0 without SwitchInfo), -EHOSTUNREACH (no path, no LID), -EBUSY
 * (called from a scheduler callback), or the failing block's (-ETIMEDOUT, -EREMOTEIO for
 * an error status ...) with *err, when given, set to its error with the block and the
 * switch pushed (the caller frees it; NULL for failures before any query).  A failure
 * once queries went out leaves the node with no table, not even one loaded before; one
 * before (bad arguments, -ENOTSUP, -ENODATA, -ENOMEM) leaves the table as it was. */
int ibtopo_load_lft(struct ibtopo *topo, struct ibsched *sched, struct ibtopo_node *node,
		    uint16_t top, struct ibmadrpc_error **err);
/* The loaded table: *len entries (LID 0..len-1), 0xff for no route; NULL when not loaded. */
const uint8_t *ibtopo_node_lft(const struct ibtopo_node *node, unsigned *len);
/* MulticastForwardingTable: every block and port position (ceil((NumPorts + 1) / 16) of
 * them) up to `top` MLID (0: SwitchInfo.MulticastFDBTop, or the capacity when that is 0 or
 * below 0xbfff), never beyond SwitchInfo.MulticastFDBCap; 0xbfff loads an empty table.  The
 * errors of ibtopo_load_lft(), and -EINVAL for a top below 0xbfff. */
int ibtopo_load_mft(struct ibtopo *topo, struct ibsched *sched, struct ibtopo_node *node,
		    uint16_t top, struct ibmadrpc_error **err);
/* Port mask of MLID 0xc000 + index: IBTOPO_MAX_PORTS+1 bits as 16 16-bit words (word 0 =
 * ports 0-15); NULL when not loaded or beyond the table; *entries = entries loaded. */
const uint16_t *ibtopo_node_mft(const struct ibtopo_node *node, unsigned index, unsigned *entries);
/* Follows loaded LFTs from `from` to the port owning `dlid` (any LID of its LMC range; a
 * switch's port 0): one hop per node, in order, into hops[]: the start (in_port 0; its
 * out_port the CA port `from`, or the switch's LFT entry), each switch crossed, the end
 * (out_port 0).  Returns the number of hops (1: `from` owns `dlid`), -ENOENT (no route, a
 * port without a link, a table not loaded or too short, delivered to a CA that does not own
 * `dlid`; *stuck set to that node), -ELOOP (a switch entered twice; *stuck set), -ENOSPC
 * (more than max_hops hops), -EINVAL.  hops may be NULL to count them only. */
struct ibtopo_hop {
	struct ibtopo_node *node;
	unsigned in_port;  /* 0 at the start */
	unsigned out_port; /* 0 at the end */
};
int ibtopo_route(const struct ibtopo *topo, struct ibtopo_port *from, uint16_t dlid,
		 struct ibtopo_hop *hops, unsigned max_hops, struct ibtopo_node **stuck);

/* ---- node-name-map ------------------------------------------------------------------------- */

struct ibtopo_nodemap; /* GUID -> name, rdma-core's ib-node-name-map format */

#define IBTOPO_NODEMAP_DEFAULT "/etc/rdma/ib-node-name-map"

/* Problems found in a map file: line number and what is wrong (with the line's start), through
 * a callback.  A line whose GUID does not parse, which makes rdma-core drop the whole map, is
 * skipped here and the map loads without it; GUIDs without a name, repeated GUIDs (the first
 * name stays) and lines longer than rdma-core's 255-character pieces are reported too.  After
 * 100 reports, one more says how many were left out. */
typedef void (*ibtopo_nodemap_warn_fn)(void *user, unsigned line, const char *what);

/* Reads a map as rdma-core's open_node_name_map() does (the same entries for every file it
 * accepts: see libibtopo/nodemap.c).  path NULL: IBTOPO_NODEMAP_DEFAULT, an empty map when it
 * is missing; a named file must exist.  0, or -errno: -ENOENT/-EACCES/..., -EISDIR,
 * -EFBIG (over 64 MiB), -EILSEQ (a NUL byte: not a text file), -ENOMEM.  A pipe is read to
 * its end. */
int ibtopo_nodemap_open(struct ibtopo_nodemap **out, const char *path, ibtopo_nodemap_warn_fn warn,
			void *user);
/* From text in memory (same format, same errors). */
int ibtopo_nodemap_parse(struct ibtopo_nodemap **out, const char *text, size_t len,
			 ibtopo_nodemap_warn_fn warn, void *user);
void ibtopo_nodemap_free(struct ibtopo_nodemap *map);
unsigned ibtopo_nodemap_count(const struct ibtopo_nodemap *map);
/* The mapped name, or NULL (map NULL: NULL).  O(1). */
const char *ibtopo_nodemap_lookup(const struct ibtopo_nodemap *map, uint64_t guid);
/* What infiniband-diags prints for a node (rdma-core's remap_node_name()): the mapped name as
 * it is, else the description's first 64 characters with every one outside 0x20-0x7e made a
 * space (desc NULL: "").  Writes at most len bytes, NUL-terminated, as snprintf; returns the
 * length of the full name. */
int ibtopo_nodemap_name(const struct ibtopo_nodemap *map, uint64_t guid, const char *desc,
			char *buf, size_t len);

/* ---- Chassis --------------------------------------------------------------------------------- */

struct ibtopo_chassis; /* owned by the topology */

#define IBTOPO_CHASSIS_SPINES 18 /* spine slots 1..18 */
#define IBTOPO_CHASSIS_LINES 36  /* line slots 1..36 */

/* Groups the nodes into chassis exactly as libibnetdisc's group_nodes() does (Voltaire ISR
 * chassis from their internal wiring, Mellanox IS4 chassis from "MF0;..." descriptions,
 * Topspin/Xsigo/others by system image GUID), in linear time, and sets the external port
 * numbers it sets (ports it does not number keep theirs, e.g. a cache file's).  Discovery does
 * it at its end; call again after changing the topology.  0, -ENOMEM, or -EPROTO when
 * libibnetdisc gives up (a Voltaire spine or line whose wiring gives no valid slot: its
 * discovery then fails): the chassis list is left empty, the per-node fields are kept. */
int ibtopo_group_chassis(struct ibtopo *topo);
/* Every chassis in libibnetdisc's list order (its fabric->chassis), including the groups of a
 * single node, which have number 0 and are not printed by ibnetdiscover. */
unsigned ibtopo_chassis_count(const struct ibtopo *topo);
struct ibtopo_chassis *ibtopo_chassis_get(const struct ibtopo *topo, unsigned index);
/* The first chassis numbered `num` (what ibnd_get_chassis_guid() looks up), NULL if none. */
struct ibtopo_chassis *ibtopo_chassis_find_num(const struct ibtopo *topo, unsigned num);
/* libibnetdisc's chassisnum: 1, 2, ... kept in 8 bits as there (0: not a chassis). */
unsigned ibtopo_chassis_num(const struct ibtopo_chassis *ch);
uint64_t ibtopo_chassis_guid(const struct ibtopo_chassis *ch);
/* The node in a spine (1..IBTOPO_CHASSIS_SPINES) or line (1..IBTOPO_CHASSIS_LINES) slot of a
 * Voltaire or Mellanox chassis, NULL when empty. */
struct ibtopo_node *ibtopo_chassis_spine(const struct ibtopo_chassis *ch, unsigned slot);
struct ibtopo_node *ibtopo_chassis_line(const struct ibtopo_chassis *ch, unsigned slot);
/* The nodes grouped by system image GUID (libibnetdisc's ch->nodes: last added first). */
unsigned ibtopo_chassis_node_count(const struct ibtopo_chassis *ch);
struct ibtopo_node *ibtopo_chassis_node(const struct ibtopo_chassis *ch, unsigned index);
/* The node's chassis (libibnetdisc's node->chassis), NULL when it is in none; tools print
 * chassis membership only when its number is not 0. */
struct ibtopo_chassis *ibtopo_node_chassis(const struct ibtopo_node *node);
/* libibnetdisc's ch_type, ch_slot, ch_slotnum, ch_anafanum of the node (0 when none). */
unsigned ibtopo_node_chassis_type(const struct ibtopo_node *node);
unsigned ibtopo_node_chassis_slot(const struct ibtopo_node *node);
unsigned ibtopo_node_chassis_slotnum(const struct ibtopo_node *node);
unsigned ibtopo_node_chassis_anafanum(const struct ibtopo_node *node);
/* What ibnetdiscover -g prints for a switch in a chassis: its type ("ISR9288", a Mellanox
 * system type) and its position ("Line 3 Chip 1"), NULL when libibnetdisc's
 * ibnd_get_chassis_type() / ibnd_get_chassis_slot_str() return NULL.  The position is
 * written into buf (as snprintf), which is returned. */
const char *ibtopo_chassis_type_str(const struct ibtopo_node *node);
const char *ibtopo_node_chassis_slot_str(const struct ibtopo_node *node, char *buf, size_t len);
/* "[ext N]" for a port with an external number (as snprintf into buf), else NULL. */
const char *ibtopo_port_ext_str(const struct ibtopo_port *port, char *buf, size_t len);
/* libibnetdisc's ibnd_is_xsigo_guid/hca/tca(): Xsigo GUID ranges that ibnetdiscover -g marks. */
bool ibtopo_is_xsigo_guid(uint64_t guid);
bool ibtopo_is_xsigo_hca(uint64_t guid);
bool ibtopo_is_xsigo_tca(uint64_t guid);

/* ---- Cache file (libibnetdisc's format, version 1) ----------------------------------------- */

/* The format, what it holds and what the reader refuses: doc/libibtopo-cache.md. */

/* Writes atomically (an unnamed file in path's directory, fsync, then named and renamed over
 * path: a failed or killed save leaves no file, and an old one as it was); an existing
 * non-regular file (/dev/null) is written in place.  0 or a negative errno (-EINVAL: no
 * start node; -ENOSPC, -EACCES, ...). */
int ibtopo_cache_save(const struct ibtopo *topo, const char *path);
/* The same for the `len` bytes at `data`, a cache file made elsewhere (ibcacheedit's edited
 * file); the bytes are written as they are, unchecked. */
int ibtopo_cache_save_mem(const void *data, size_t len, const char *path);
/* Reads a cache file written by us or by libibnetdisc.  0 and *out, or a negative errno and
 * a one-line reason in errbuf: -EINVAL (not a cache file), -EPROTONOSUPPORT (another
 * version), -EPROTO (truncated, inconsistent or hostile content), -EFBIG, -ENOMEM, or the
 * errno of open/read.  The start port and DR paths are not in the format (0 and empty). */
int ibtopo_cache_load(const char *path, struct ibtopo **out, char *errbuf, size_t errlen);
/* The same from memory (for fuzzing and tests). */
int ibtopo_cache_load_mem(const void *data, size_t len, struct ibtopo **out, char *errbuf,
			  size_t errlen);

/* ---- Diff ---------------------------------------------------------------------------------- */

/*
 * ibtopo_diff() compares a subnet `a` (the reference, e.g. a cache file) with `b` (the
 * current one) and hands each difference to a callback as it is found.  It has two reports:
 *
 * 1. The node walk (default): what `ibnetdiscover --diff` and `iblinkinfo --diff` compare.
 *    Pass 1 takes a's nodes of `type` (IBTOPO_NODE_ANY: all) in ibtopo_node_get() order;
 *    pass 2 takes b's nodes of `type` in that order.  A node is matched with the node of the
 *    other subnet that has its GUID (ibtopo_find_node_guid(), whatever its type); ports are
 *    matched by number, links by the GUID (and number) of the remote port.  For each node:
 *      pass 1, no match in b:   NODE_REMOVED (a_node);
 *      pass 1, matched:         NODE_CHANGED when the description or the SMA LID differ,
 *                               then NUM_PORTS when NumPorts differ (and nothing more for
 *                               the node), else one PORT item per port 1..NumPorts that
 *                               differs (port 0 is not compared: its LID is the SMA LID);
 *      pass 2, no match in a:   NODE_ADDED (b_node).  Matched nodes are not compared again.
 *    ibnetdiscover runs this once per type selected by --diffcheck (switches, then CAs, then
 *    routers), with a = the --diff cache and b = the subnet discovered (or --load-cache);
 *    iblinkinfo once with IBTOPO_NODE_ANY (or the type of --switches-only/--cas-only).
 *    How each tool prints from the items:
 *      NODE_REMOVED/ADDED: the node's header with "< "/"> " and its ports with that prefix
 *        (ibnetdiscover: the ports that have a remote; iblinkinfo: every port it prints);
 *      NODE_CHANGED: ibnetdiscover prints a's header prefixed "< " and b's detail line "> "
 *        (iblinkinfo: a's and b's header lines; it counts C_SMA_LID only for switches);
 *      NUM_PORTS: the header (unless printed) and "< numports = %d" / "> numports = %d";
 *      PORT: the header (unless printed), then the ports:
 *        ibnetdiscover: a's port alone when C_PORT_A_ONLY or C_LINK_A_ONLY, else b's alone
 *          when C_PORT_B_ONLY or C_LINK_B_ONLY, else both when C_PORT_GUID or
 *          C_REMOTE_GUID; both in any case when C_LID, C_REMOTE_LID or C_REMOTE_DESC;
 *        iblinkinfo: whichever ports exist when any of C_PORT_A_ONLY, C_PORT_B_ONLY,
 *          C_LINK_A_ONLY, C_LINK_B_ONLY, C_REMOTE_GUID, C_STATE, C_REMOTE_LID,
 *          C_REMOTE_DESC is set.
 *      (iblinkinfo -S/-D with --diff compares nothing: it prints the one node with "> "
 *      when its GUID is not in the cache; no ibtopo_diff() call is needed for that.)
 *    Which comparisons run is chosen by flags (0 = IBTOPO_DIFF_F_ALL):
 *      F_NODES  NODE_ADDED/NODE_REMOVED;
 *      F_LINKS  C_PORT_A_ONLY/B_ONLY, C_LINK_A_ONLY/B_ONLY, C_PORT_GUID, C_REMOTE_GUID,
 *               C_REMOTE_PORT (--diffcheck port);
 *      F_LIDS   C_SMA_LID, C_LID, C_LMC; with F_LINKS also C_REMOTE_LID (--diffcheck lid);
 *      F_DESC   C_DESC; with F_LINKS also C_REMOTE_DESC (--diffcheck nodedesc);
 *      F_STATE  C_STATE, C_PHYS_STATE, C_WIDTH, C_SPEED, C_SPEED_EXT (iblinkinfo's state).
 *    NUM_PORTS is checked when any of F_LINKS, F_LIDS, F_DESC, F_STATE is set.  `changes`
 *    holds every enabled comparison that differs, so a tool tests only the bits it prints.
 *
 * 2. The sets (IBTOPO_DIFF_F_SETS): python-rdma's `ibtool subnet_diff REFERENCE CURRENT`,
 *    a = REFERENCE, b = CURRENT, type must be IBTOPO_NODE_ANY.  Five sections, each opened
 *    by a SET item carrying the sizes of both sets and how many items follow:
 *      SET_END_PORTS  END_PORT items: port GUIDs of the end ports on a link (a switch's
 *                     port 0 when one of its ports has a link, a CA's/router's linked ports);
 *      SET_NODES      NODE_ADDED/NODE_REMOVED items: GUIDs of the nodes having such a port;
 *      SET_LINKS      LINK items: a link is ((end port GUID, port number) x 2), the larger
 *                     end first; the item's port is that first end;
 *      SET_RATES      LINK_RATE items: links of both sets whose first end's LinkSpeedActive
 *                     (C_SPEED) or LinkWidthActive (C_WIDTH) differ;
 *      SET_LIDS       LID_MAP items: a LID mapped (ibtopo_find_port_lid()) to ports of
 *                     different GUIDs, or mapped in one subnet only.
 *    Within the first three sections the items only in b come first, then those only in a,
 *    each sorted by GUID (links: by first end GUID, its port, second end GUID, its port);
 *    LINK_RATE items are sorted like links, LID_MAP items by LID.  flags select sections
 *    (F_NODES: end ports and nodes, F_LINKS: links, F_STATE: rates, F_LIDS: LIDs; none of
 *    them: all five).  Unlike python-rdma (which walks from one port, so sees one connected
 *    component, and keys the rates by port GUID, so keeps one link per switch), every node
 *    and every common link counts here.
 *
 * On which side an item is: a_* is NULL when only b has it and b_* when only a has it.
 * ibtopo_diff() returns the number of difference items (SET items are not counted), or fn's
 * non-zero return value as soon as fn returns one (make it negative to tell it from a
 * count), or -EINVAL (bad arguments), -ENOMEM.  Identical subnets give 0 and, in the node
 * walk, no call of fn.
 */
enum ibtopo_diff_what {
	/* the node walk */
	IBTOPO_DIFF_NODE_REMOVED = 1, /* a_node: no node of b has its GUID */
	IBTOPO_DIFF_NODE_CHANGED = 2, /* C_DESC and/or C_SMA_LID */
	IBTOPO_DIFF_NUM_PORTS = 3,    /* NumPorts differ (see the nodes' num_ports) */
	IBTOPO_DIFF_PORT = 4,         /* port `port` differs: changes; a_port/b_port may be NULL */
	IBTOPO_DIFF_NODE_ADDED = 5,   /* b_node: no node of a has its GUID */
	/* the sets (besides NODE_ADDED/NODE_REMOVED) */
	IBTOPO_DIFF_SET = 6,          /* a section starts: `set` */
	IBTOPO_DIFF_END_PORT = 7,     /* a_port or b_port: an end port only one side has */
	IBTOPO_DIFF_LINK = 8,         /* a_port or b_port: the first end of a link only one side has */
	IBTOPO_DIFF_LINK_RATE = 9,    /* a_port, b_port: first ends of one link; changes */
	IBTOPO_DIFF_LID_MAP = 10,     /* `lid`: a_port, b_port (either may be NULL) */
};

/* IBTOPO_DIFF_SET sections, in the order they come */
enum ibtopo_diff_set {
	IBTOPO_DIFF_SET_END_PORTS = 1,
	IBTOPO_DIFF_SET_NODES = 2,
	IBTOPO_DIFF_SET_LINKS = 3,
	IBTOPO_DIFF_SET_RATES = 4,
	IBTOPO_DIFF_SET_LIDS = 5,
};

/* item->changes */
#define IBTOPO_DIFF_C_DESC (1u << 0)        /* NodeDescription (64 bytes) */
#define IBTOPO_DIFF_C_SMA_LID (1u << 1)     /* ibtopo_node_sma_lid() */
#define IBTOPO_DIFF_C_PORT_A_ONLY (1u << 2) /* the port exists in a only */
#define IBTOPO_DIFF_C_PORT_B_ONLY (1u << 3)
#define IBTOPO_DIFF_C_LINK_A_ONLY (1u << 4) /* both have the port, a's has a remote, b's not */
#define IBTOPO_DIFF_C_LINK_B_ONLY (1u << 5)
#define IBTOPO_DIFF_C_PORT_GUID (1u << 6)   /* the ports' GUIDs */
#define IBTOPO_DIFF_C_REMOTE_GUID (1u << 7) /* both linked, the remote ports' GUIDs differ */
#define IBTOPO_DIFF_C_REMOTE_PORT (1u << 8) /* both linked, the remote port numbers differ */
#define IBTOPO_DIFF_C_LID (1u << 9)         /* the ports' base LIDs */
#define IBTOPO_DIFF_C_LMC (1u << 10)
#define IBTOPO_DIFF_C_REMOTE_LID (1u << 11) /* both linked, the remote ports' base LIDs */
#define IBTOPO_DIFF_C_REMOTE_DESC (1u << 12) /* both linked, the remote nodes' descriptions */
#define IBTOPO_DIFF_C_STATE (1u << 13)      /* PortInfo.PortState (both ports exist) */
#define IBTOPO_DIFF_C_PHYS_STATE (1u << 14) /* PortInfo.PortPhysicalState */
#define IBTOPO_DIFF_C_WIDTH (1u << 15)      /* PortInfo.LinkWidthActive */
#define IBTOPO_DIFF_C_SPEED (1u << 16)      /* PortInfo.LinkSpeedActive */
#define IBTOPO_DIFF_C_SPEED_EXT (1u << 17)  /* PortInfo.LinkSpeedExtActive */

struct ibtopo_diff_item {
	enum ibtopo_diff_what what;
	unsigned changes;                          /* IBTOPO_DIFF_C_* (NODE_CHANGED, PORT, LINK_RATE) */
	const struct ibtopo_node *a_node, *b_node; /* NULL on the side that lacks it */
	const struct ibtopo_port *a_port, *b_port; /* likewise */
	unsigned port;                             /* PORT: the port number; else 0 */
	uint16_t lid;                              /* LID_MAP */
	struct {
		enum ibtopo_diff_set which;
		unsigned a_count, b_count; /* sizes of a's and b's sets */
		unsigned a_only, b_only;   /* items for what only a / only b has */
		unsigned changed;          /* LINK_RATE or LID_MAP items that follow */
	} set;                             /* SET */
};

typedef int (*ibtopo_diff_fn)(const struct ibtopo_diff_item *item, void *user);

#define IBTOPO_DIFF_F_NODES (1u << 0)
#define IBTOPO_DIFF_F_LINKS (1u << 1)
#define IBTOPO_DIFF_F_DESC (1u << 2)
#define IBTOPO_DIFF_F_LIDS (1u << 3)
#define IBTOPO_DIFF_F_STATE (1u << 4)
#define IBTOPO_DIFF_F_ALL 0x1fu
#define IBTOPO_DIFF_F_SETS (1u << 8) /* the set report instead of the node walk */

int ibtopo_diff(const struct ibtopo *a, const struct ibtopo *b, enum ibtopo_node_type type,
		unsigned flags, ibtopo_diff_fn fn, void *user);

/* ---- Export ------------------------------------------------------------------------------- */

/* Schema of ibtopo_export_json() (doc/libibtopo-json.md).  The number grows whenever the
 * output changes in any way; ibtopo_import_json() reads its own version and refuses others. */
#define IBTOPO_JSON_SCHEMA_VERSION 1

/* The topology as JSON (doc/libibtopo-json.md) or Graphviz dot (an undirected graph: one
 * vertex per node labelled with its description and GUID, one edge per link labelled with
 * the port numbers).  0, or -EINVAL, or the write error (-EIO, -ENOSPC, ...). */
int ibtopo_export_json(const struct ibtopo *topo, FILE *out);
int ibtopo_export_dot(const struct ibtopo *topo, FILE *out);
/* Reads what ibtopo_export_json() wrote (len bytes, no NUL needed): 0 and *out, or -EINVAL
 * (not JSON, or not our schema: the reason and the byte offset in errbuf), -EPROTO (another
 * schema version), -ERANGE (a number out of range), -ENOMEM.  The result equals the exported
 * topology through every getter; exporting it again gives the same bytes. */
int ibtopo_import_json(const char *text, size_t len, struct ibtopo **out, char *errbuf, size_t errlen);

const char *ibtopo_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBTOPO_H */
