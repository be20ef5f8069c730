/* SPDX-License-Identifier: BSD-3-Clause */
/* libibpath internals.  Not installed. */
#ifndef IBPATH_PRIVATE_H
#define IBPATH_PRIVATE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <ibmgmt/ibpath.h>
#include <ibmgmt/ibstruct.h>

#define IBPATH_EXPORT __attribute__((visibility("default")))

/* a sysfs path: the root (struct ibpath_devlist.root) plus at most
 * "/class/infiniband/<64-byte device>/ports/<n>/pkeys/<n>"; a longer one is -ENAMETOOLONG.
 * Kept small: four of these are on the stack at once while a device is read. */
#define PATH_LEN 1280
#define IBPATH_MAX_PORTS 256
#define IBPATH_MAX_GIDS 256
#define IBPATH_MAX_PKEYS 128

struct ibpath_port {
	struct ibpath_device *dev;
	unsigned num;
	uint16_t lid;
	uint8_t lmc;
	uint16_t sm_lid;
	uint8_t sm_sl;
	unsigned state;
	unsigned phys_state;
	char rate[64];
	unsigned rate_mbps;
	uint32_t cap_mask;
	enum ibpath_link_layer link_layer;
	char link_layer_name[32];
	uint64_t guid;
	bool has_guid_file;
	uint8_t subnet_timeout;
	unsigned ngids;
	ibstruct_gid_t gids[IBPATH_MAX_GIDS];
	unsigned npkeys;
	uint16_t pkeys[IBPATH_MAX_PKEYS];
	char umad[32];
	char issm[32];
};

struct ibpath_device {
	struct ibpath_devlist *list;
	char name[64];
	unsigned node_type;
	uint64_t node_guid;
	uint64_t sys_image_guid;
	char fw_ver[64];
	char hw_rev[64];
	char hca_type[64];
	char board_id[128];
	char node_desc[128];
	unsigned nports;
	struct ibpath_port *ports;
};

struct ibpath_devlist {
	char root[1024];
	/* the umad/issm names are read on first use: opening a port does not need them
	 * (libibumad finds the umad device itself), and reading them costs a directory scan */
	pthread_mutex_t mad_lock;
	bool mad_read;
	unsigned ndevs;
	struct ibpath_device **devs;
};

struct ibpath_path {
	int refcount;
	enum ibpath_kind kind;
	uint64_t attr[IBPATH_ATTR_COUNT_];
	bool has_grh;
	ibstruct_gid_t sgid;
	ibstruct_gid_t dgid;
	unsigned nports;                      /* DR: 1 + hops */
	uint8_t ports[IBPATH_MAX_HOPS + 1];
	unsigned nrports;                     /* DR return path, 0 if unknown */
	uint8_t rports[IBPATH_MAX_HOPS + 1];
	char end_port[96];
};

/* Writes a formatted message into err (may be NULL) and returns -EINVAL. */
int ibpath_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* IBPATH_PRIVATE_H */
