/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibpath: RDMA devices and end ports (sysfs), address parsing, path objects.
 *
 * Conventions as in libibstruct: 0 or a negative errno, no printing, no exiting.  Parsers
 * take an optional error buffer that receives a one-line explanation naming the bad part.
 * Sysfs is read with plain open()/read()/opendir() (never fopen/openat/stat), so the
 * library also works under umad2sim's simulated sysfs, and the root can be redirected.
 */
#ifndef IBMGMT_IBPATH_H
#define IBMGMT_IBPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibmgmt/ibstruct-types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Devices and end ports ------------------------------------------------------ */

struct ibpath_devlist; /* a snapshot of all devices; owns every device and port in it */
struct ibpath_device;
struct ibpath_port;

enum ibpath_link_layer {
	IBPATH_LINK_LAYER_UNKNOWN = 0,
	IBPATH_LINK_LAYER_INFINIBAND,
	IBPATH_LINK_LAYER_ETHERNET,
};

enum {
	IBPATH_DEVLIST_SORTED = 1 << 0, /* order devices by name (default: directory order) */
};

/* Reads <sysfs_root>/class/infiniband and <sysfs_root>/class/infiniband_mad.  sysfs_root
 * NULL means "/sys".  A device directory that cannot be read is skipped; missing files
 * leave their value at 0/empty.  -ENODEV: no RDMA device at all. */
int ibpath_devlist_open(struct ibpath_devlist **out, const char *sysfs_root, unsigned flags);
void ibpath_devlist_close(struct ibpath_devlist *list);
unsigned ibpath_devlist_count(const struct ibpath_devlist *list);
const struct ibpath_device *ibpath_devlist_device(const struct ibpath_devlist *list, unsigned index);
const struct ibpath_device *ibpath_devlist_find(const struct ibpath_devlist *list, const char *name);

const char *ibpath_device_name(const struct ibpath_device *dev);
unsigned ibpath_device_node_type(const struct ibpath_device *dev); /* 1 CA, 2 switch, 3 router */
uint64_t ibpath_device_node_guid(const struct ibpath_device *dev);
uint64_t ibpath_device_sys_image_guid(const struct ibpath_device *dev);
const char *ibpath_device_fw_ver(const struct ibpath_device *dev);
const char *ibpath_device_hw_rev(const struct ibpath_device *dev);
const char *ibpath_device_hca_type(const struct ibpath_device *dev);
const char *ibpath_device_board_id(const struct ibpath_device *dev);
const char *ibpath_device_node_desc(const struct ibpath_device *dev);
/* The number of port directories (a switch has one: port 0; libibumad's "numports" is the
 * highest port number instead). */
unsigned ibpath_device_port_count(const struct ibpath_device *dev);
/* By index 0..count-1, in port number order. */
const struct ibpath_port *ibpath_device_port(const struct ibpath_device *dev, unsigned index);
const struct ibpath_port *ibpath_device_port_by_num(const struct ibpath_device *dev, unsigned num);

const struct ibpath_device *ibpath_port_device(const struct ibpath_port *port);
unsigned ibpath_port_num(const struct ibpath_port *port);
uint16_t ibpath_port_lid(const struct ibpath_port *port);
uint8_t ibpath_port_lmc(const struct ibpath_port *port);
uint16_t ibpath_port_sm_lid(const struct ibpath_port *port);
uint8_t ibpath_port_sm_sl(const struct ibpath_port *port);
unsigned ibpath_port_state(const struct ibpath_port *port);      /* 4 = ACTIVE */
unsigned ibpath_port_phys_state(const struct ibpath_port *port); /* 5 = LinkUp */
/* The kernel's text ("10 Gb/sec (4X)") and the rate in Mb/s (10000). */
const char *ibpath_port_rate_text(const struct ibpath_port *port);
unsigned ibpath_port_rate_mbps(const struct ibpath_port *port);
uint32_t ibpath_port_cap_mask(const struct ibpath_port *port);
enum ibpath_link_layer ibpath_port_link_layer(const struct ibpath_port *port);
/* The link_layer file's text ("InfiniBand", "Ethernet"), "IB" when the file is missing
 * (as libibumad reports it). */
const char *ibpath_port_link_layer_name(const struct ibpath_port *port);
/* port_guid file, else the interface ID of GID 0 (as libibumad does). */
uint64_t ibpath_port_guid(const struct ibpath_port *port);
uint64_t ibpath_port_subnet_prefix(const struct ibpath_port *port);
unsigned ibpath_port_gid_count(const struct ibpath_port *port);
int ibpath_port_gid(const struct ibpath_port *port, unsigned index, ibstruct_gid_t *gid);
unsigned ibpath_port_pkey_count(const struct ibpath_port *port);
uint16_t ibpath_port_pkey(const struct ibpath_port *port, unsigned index);
/* The umad/issm character devices of this port ("umad0", "issm0"), or NULL. */
const char *ibpath_port_umad_name(const struct ibpath_port *port);
const char *ibpath_port_issm_name(const struct ibpath_port *port);
/* SubnetTimeOut (not in sysfs; 18 until the caller learns the real one from PortInfo). */
uint8_t ibpath_port_subnet_timeout(const struct ibpath_port *port);
void ibpath_port_set_subnet_timeout(struct ibpath_port *port, uint8_t timeout);
/* "mlx5_0/1" */
int ibpath_port_format(const struct ibpath_port *port, char *buf, size_t len);

/* End port selection from one string: "" or NULL (the default, as libibumad chooses it:
 * the first device with an ACTIVE InfiniBand port, else the first device with a LinkUp or
 * at least not disabled port), "mlx5_0" (that device's best port; a switch uses port 0),
 * "mlx5_0/2", a port GID, a port GUID (0x.. or canonical), or a node GUID.  -ENODEV when
 * nothing matches. */
int ibpath_devlist_select(const struct ibpath_devlist *list, const char *spec,
			  const struct ibpath_port **out, char *err, size_t errlen);
/* infiniband-diags -C/-P semantics (libibumad): ca NULL and/or port 0 mean "not given"
 * (without ca, so does a port that is negative as an int, libibumad's type); both given
 * are used as they are. */
int ibpath_devlist_select_ca_port(const struct ibpath_devlist *list, const char *ca, unsigned port,
				  const struct ibpath_port **out, char *err, size_t errlen);

/* ---- Paths --------------------------------------------------------------------------- */

struct ibpath_path; /* reference counted */

enum ibpath_kind {
	IBPATH_KIND_IB = 0, /* LID routed, optionally with a GRH */
	IBPATH_KIND_DR,     /* directed route (optionally behind a LID-routed part) */
};

enum ibpath_attr {
	IBPATH_SLID = 0,
	IBPATH_DLID,
	IBPATH_SL,
	IBPATH_TRAFFIC_CLASS,
	IBPATH_FLOW_LABEL,
	IBPATH_HOP_LIMIT,
	IBPATH_PKEY,
	IBPATH_PKEY_INDEX,
	IBPATH_QKEY,
	IBPATH_SQPN,
	IBPATH_DQPN,
	IBPATH_MTU,              /* IBA MTU code, 0 = unknown */
	IBPATH_RATE,             /* IBA rate code, 0 = unknown */
	IBPATH_PACKET_LIFE_TIME, /* 4.096 us * 2^x, default 18 */
	IBPATH_RESP_TIME,        /* 4.096 us * 2^x, default 20 */
	IBPATH_RETRIES,
	IBPATH_DR_SLID,          /* 0xffff unless a LID-routed part precedes the DR part */
	IBPATH_DR_DLID,
	IBPATH_TIMEOUT_MS,       /* explicit MAD timeout; 0 = from packet life and response time */
	IBPATH_ATTR_COUNT_
};

#define IBPATH_MAX_HOPS 64

int ibpath_path_new(struct ibpath_path **out, enum ibpath_kind kind);
struct ibpath_path *ibpath_path_ref(struct ibpath_path *path);
void ibpath_path_unref(struct ibpath_path *path);
int ibpath_path_copy(const struct ibpath_path *path, struct ibpath_path **out);
enum ibpath_kind ibpath_path_kind(const struct ibpath_path *path);
/* Equal in every attribute (kind, values, GIDs, hops, end port). */
bool ibpath_path_equal(const struct ibpath_path *a, const struct ibpath_path *b);

uint64_t ibpath_path_get(const struct ibpath_path *path, enum ibpath_attr attr);
/* -ERANGE when the value does not fit the attribute's field (SL 4 bits, LIDs 16, ...). */
int ibpath_path_set(struct ibpath_path *path, enum ibpath_attr attr, uint64_t value);
bool ibpath_path_has_grh(const struct ibpath_path *path);
void ibpath_path_sgid(const struct ibpath_path *path, ibstruct_gid_t *gid);
void ibpath_path_dgid(const struct ibpath_path *path, ibstruct_gid_t *gid);
void ibpath_path_set_sgid(struct ibpath_path *path, const ibstruct_gid_t *gid);
/* Setting a DGID adds a GRH (hop limit 255 unless one was set). */
void ibpath_path_set_dgid(struct ibpath_path *path, const ibstruct_gid_t *gid);
void ibpath_path_clear_grh(struct ibpath_path *path);

/* DR hop list as infiniband-diags writes it: element 0 is 0, then the out port of each hop;
 * count = hops + 1 (1 = the local port itself). */
unsigned ibpath_path_dr_ports(const struct ibpath_path *path, const uint8_t **ports);
int ibpath_path_set_dr_ports(struct ibpath_path *path, const uint8_t *ports, unsigned count);
/* The return path of a DR reply (element 0 is 0), needed to reverse a DR path. */
unsigned ibpath_path_dr_return_ports(const struct ibpath_path *path, const uint8_t **ports);
int ibpath_path_set_dr_return_ports(struct ibpath_path *path, const uint8_t *ports, unsigned count);

/* The local end port the path starts at ("mlx5_0/1"), NULL if not set. */
const char *ibpath_path_end_port(const struct ibpath_path *path);
int ibpath_path_set_end_port(struct ibpath_path *path, const char *name);
/* True for a path that names its target only by GID/GUID: the SA must fill in the DLID. */
bool ibpath_path_needs_resolution(const struct ibpath_path *path);

/* The reply path per IBA 13.5.4: LIDs, GIDs and QPNs swapped, hop limit 255 when there is
 * a GRH; a DR path swaps DrSLID/DrDLID and initial/return paths (-EINVAL without a return
 * path). */
int ibpath_path_reverse(const struct ibpath_path *path, struct ibpath_path **out);

/* 4.096 us * 2^x in microseconds (x = 0..31). */
uint64_t ibpath_time_value_us(unsigned x);
/* The MAD timeout of one attempt in milliseconds: the explicit IBPATH_TIMEOUT_MS, else
 * 4.096 us * (2^(PacketLifeTime+1) + 2^RespTimeValue) rounded up. */
unsigned ibpath_path_mad_timeout_ms(const struct ibpath_path *path);

/* Human text: "Path 8 -> 8 SL=0 PKey=0xffff DQPN=1", "DR Path (0, 1, 4)",
 * "DR Path 5 -> (0, 1, 4)". */
int ibpath_path_format(const struct ibpath_path *path, char *buf, size_t len);
/* Spec text that ibpath_parse() reads back to an equal path:
 * "IBPath(DLID=2,SL=2)", "IBDRPath(drPath=0:1:4)" (non-default attributes, sorted). */
int ibpath_path_format_spec(const struct ibpath_path *path, char *buf, size_t len);

/* ---- Address parsing ------------------------------------------------------------------ */

enum {
	IBPATH_PARSE_LID = 1 << 0,  /* -L: the text is a LID */
	IBPATH_PARSE_GUID = 1 << 1, /* -G: the text is a GUID */
	IBPATH_PARSE_DR = 1 << 2,   /* -D: the text is a DR path ("0" is the local port) */
	IBPATH_PARSE_GID = 1 << 3,  /* the text is a GID */
	IBPATH_PARSE_MCAST = 1 << 4, /* allow multicast LIDs (0xc000-0xfffe) */
	/* With IBPATH_PARSE_DR: read the path as infiniband-diags' str2drpath() does (atoi()
	 * of each comma-separated element; element 0, which the SMA ignores, kept as given,
	 * as libibmad sends and prints it), for drop-in tools. */
	IBPATH_PARSE_DR_ATOI = 1 << 5,
};

/* One target string to a new path: decimal/0x LID (1-0xbfff), GUID (0x + 5..16 hex digits,
 * 16 bare hex digits, or 0002:c903:0000:1492), GID (fe80::1), scoped GID (fe80::1%mlx5_0/1),
 * DR path (0,1,4), or a spec (IBPath(DLID=2,SL=2)).  Without a type flag the form is
 * decided by syntax.  -EINVAL with a message naming the bad part; *out untouched on error. */
int ibpath_parse(const char *text, unsigned flags, struct ibpath_path **out, char *err, size_t errlen);

/* Library version string. */
const char *ibpath_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBPATH_H */
