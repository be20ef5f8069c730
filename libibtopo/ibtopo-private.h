/* SPDX-License-Identifier: BSD-3-Clause */
/* libibtopo internals.  Not installed.  Every file of the library works on these structs
 * directly; the public API is getters over them. */
#ifndef IBTOPO_PRIVATE_H
#define IBTOPO_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <ibmgmt/ibtopo.h>

#define IBTOPO_EXPORT __attribute__((visibility("default")))

#define LID_UNICAST_MAX 0xbfff
/* A port's LMC range may run past 0xbfff (libibnetdisc maps it anyway). */
#define LID_TAB_SIZE (LID_UNICAST_MAX + 1 + 128)

/* libibnetdisc's GUID hash (ibnetdisc.h HTSZ, internal.h HASHGUID): its bucket order decides
 * the order of some of its lists (ibnd_iter_ports(), the cache file's port records). */
#define IBND_HTSZ 137
static inline unsigned ibnd_hash_bucket(uint64_t guid)
{
	return (uint32_t)(((uint32_t)guid * 101) ^ ((uint32_t)(guid >> 32) * 103)) % IBND_HTSZ;
}

/* SMP attribute IDs the library reads */
#define ATTR_NODE_DESC 0x0010
#define ATTR_NODE_INFO 0x0011
#define ATTR_SWITCH_INFO 0x0012
#define ATTR_PORT_INFO 0x0015
#define ATTR_LFT 0x0019
#define ATTR_MFT 0x001b
#define ATTR_MLNX_EXT_PORT_INFO 0xff90

struct ibtopo_port {
	struct ibtopo_node *node;
	struct ibtopo_port *remote;
	uint64_t guid;
	uint16_t base_lid;
	uint8_t lmc;
	uint8_t num;
	uint8_t ext_num; /* external port number in a chassis */
	bool has_info;
	bool has_ext_info;
	uint8_t info[IBTOPO_SMP_DATA_SIZE];
	uint8_t *ext_info; /* IBTOPO_SMP_DATA_SIZE bytes, allocated when it answered */
	uint32_t seq; /* order of insertion into libibnetdisc's port GUID hash (see cache.c) */
};

struct ibtopo_node {
	struct ibtopo *topo;
	uint64_t guid;
	uint8_t type;
	uint8_t num_ports;
	bool has_desc;
	bool has_switch_info;
	uint16_t sma_lid;
	uint8_t sma_lmc;
	uint8_t sma_enh_sp0;
	unsigned index; /* creation order (0 = discovered first) */
	/* NodeDescription: the raw bytes, and the same NUL terminated (byte 64 stays 0) */
	union {
		uint8_t desc[IBTOPO_SMP_DATA_SIZE];
		char desc_str[IBTOPO_SMP_DATA_SIZE + 1];
	};
	uint8_t info[IBTOPO_SMP_DATA_SIZE];
	uint8_t switch_info[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo_dr_path path;
	struct ibtopo_port **ports; /* num_ports + 1 entries, NULL for ports never seen */

	/* chassis (chassis.c): libibnetdisc's fields of the same names */
	struct ibtopo_chassis *chassis;
	uint8_t ch_type;
	uint8_t ch_anafanum;
	uint8_t ch_slotnum;
	uint8_t ch_slot;
	char ch_type_str[20]; /* Mellanox: the system type of "MF0;name:TYPE/L01/U1" */

	/* forwarding tables (lft.c) */
	uint8_t *lft;
	unsigned lft_len;
	uint16_t *mft; /* mft_entries * 16 words */
	unsigned mft_entries;
};

struct node_vec {
	struct ibtopo_node **v;
	unsigned n, cap;
};

struct ibtopo {
	unsigned refs;
	struct node_vec all;      /* creation order */
	struct node_vec by_type[4];

	/* open-addressed GUID hashes (power-of-two sizes, load <= 1/2) */
	struct ibtopo_node **node_hash;
	unsigned node_hash_size;
	struct ibtopo_port **port_hash;
	unsigned port_hash_size, port_hash_used;
	uint32_t port_seq;

	struct ibtopo_port **lid_tab; /* LID_TAB_SIZE entries, allocated on first use */

	struct ibtopo_node *from_node;
	uint8_t from_port;
	unsigned max_hops;
	uint64_t mads;

	struct ibtopo_error *errors;
	unsigned n_errors, cap_errors;

	/* chassis (chassis.c) */
	struct ibtopo_chassis *chassis;          /* n_chassis, libibnetdisc's list order */
	unsigned n_chassis;
	struct ibtopo_node **chassis_members;    /* every chassis' node list, one block */
	struct ibtopo_chassis *chassis_by_num[256]; /* the first chassis of each number */
};

/* ---- chassis.c ----------------------------------------------------------------------------- */

/* libibnetdisc's ibnd_chassis_t.  Its spinenode[19] and linenode[37] arrays follow each other,
 * so a Mellanox "S19" lands on line slot 0 there (and "L37" one past the end); slots[] keeps
 * that layout (spine i at i, line j at CH_SPINE_SLOTS + j, one spare) so that the same nodes
 * end up in the same slots. */
#define CH_SPINES_MAX 18
#define CH_LINES_MAX 36
#define CH_SPINE_SLOTS (CH_SPINES_MAX + 1)
#define CH_SLOTS (CH_SPINE_SLOTS + CH_LINES_MAX + 2)
struct ibtopo_chassis {
	struct ibtopo *topo;
	uint64_t guid;
	unsigned index;     /* in topo->chassis */
	uint8_t num;        /* chassisnum: an unsigned char, numbers wrap after 255 */
	uint8_t nodecount;  /* likewise (a 256-node group counts 0) */
	struct ibtopo_node **slots;   /* CH_SLOTS entries, NULL when no slot was ever filled */
	struct ibtopo_node **members; /* the nodes list, most recently added first */
	unsigned n_members;
};

/* ---- topo.c: building a topology ----------------------------------------------------------- */

/* A new node from NodeInfo wire bytes (GUID, type, port count decoded from them) reached by
 * `path` (may be NULL); appended in creation order, entered in the GUID hash (a duplicate GUID
 * is not entered: the first node keeps it).  NULL on -ENOMEM. */
struct ibtopo_node *topo_node_create(struct ibtopo *topo, const uint8_t info[IBTOPO_SMP_DATA_SIZE],
				     const struct ibtopo_dr_path *path);
void topo_node_set_desc(struct ibtopo_node *node, const uint8_t desc[IBTOPO_SMP_DATA_SIZE]);
/* Keeps Mellanox ExtendedPortInfo: 0 or -ENOMEM. */
int topo_port_set_ext_info(struct ibtopo_port *port, const uint8_t data[IBTOPO_SMP_DATA_SIZE]);
void topo_node_set_switch_info(struct ibtopo_node *node, const uint8_t si[IBTOPO_SMP_DATA_SIZE]);
/* Port `num` of the node, created (a shell with no PortInfo) when missing; NULL for a port
 * number beyond num_ports or on -ENOMEM. */
struct ibtopo_port *topo_port_get(struct ibtopo_node *node, unsigned num);
/* What libibnetdisc's recv_port_info() does with a PortInfo: keeps it, sets the port's LID
 * and LMC (a switch port takes port 0's), enters the port in the GUID hash and LID map. */
int topo_port_set_info(struct ibtopo_port *port, const uint8_t info[IBTOPO_SMP_DATA_SIZE]);
/* Enters a port whose guid, base_lid and lmc are set into the GUID hash and the LID map. */
int topo_port_index(struct ibtopo_port *port);
/* Links two ports, unlinking whatever either was linked to (libibnetdisc's link_ports()). */
void topo_link(struct ibtopo_port *a, struct ibtopo_port *b);
/* Records an error met (message formatted); -ENOMEM only. */
int topo_add_error(struct ibtopo *topo, enum ibtopo_error_kind kind, int errnum, uint16_t attr_id,
		   uint32_t attr_mod, uint16_t status, const struct ibtopo_dr_path *path, uint64_t guid,
		   const char *fmt, ...) __attribute__((format(printf, 9, 10)));

/* ---- drpath.c (forwarding tables, LID/SA discovery) ---------------------------------------- */
/* A node's route as a libibpath path: an SMP path (DR, LID-routed when the route is only a
 * LID, or a LID-routed part then DR); timeout_ms 0 and retries UINT32_MAX keep the port's
 * defaults.  0 or a negative errno. */
struct ibpath_path;
int topo_path_to_ibpath(const struct ibtopo_dr_path *dr, unsigned timeout_ms, unsigned retries,
			struct ibpath_path **out);

/* ---- image.c: the SA's view of the subnet, for the LID and SA discovery modes ------------- */
struct topo_image;
struct topo_image_env {
	struct ibsched *sched;
	struct ibsched_group *group; /* the discovery's: the SA queries join it */
	struct ibsa *sa;             /* NULL: the image opens its own on the scheduler's port */
	enum ibtopo_discovery_mode mode;
	struct ibtopo *topo;         /* where the errors met go */
	unsigned timeout_ms, retries; /* LID mode's SMPs (0 / UINT32_MAX: the port's) */
	uint64_t *mads;              /* counts the SA queries sent */
	/* the image is complete (status 0: start the walk) or cannot be had (errors recorded) */
	void (*ready)(void *walk, int status);
	void *walk;
};
/* Sends the SA queries (ready() runs from their callbacks).  -errno when nothing was sent
 * (*out set all the same when not NULL: free it). */
int topo_image_start(struct topo_image **out, const struct topo_image_env *env);
void topo_image_free(struct topo_image *img);
/* One SMP of the walk, req->path unused, to the end of `dr`: SA mode answers it at once (0,
 * or -errno with *status for an error status); LID mode returns 1 with req->path set to the
 * LID-routed path to send it on, or -errno when the image has no node there. */
int topo_image_smp(struct topo_image *img, const struct ibtopo_dr_path *dr, struct ibmadrpc_request *req,
		   uint8_t data[IBTOPO_SMP_DATA_SIZE], uint16_t *status);
/* LID mode: the answer's LocalPortNum made the one the directed route enters by. */
void topo_image_fix(const struct topo_image *img, const struct ibtopo_dr_path *dr, uint16_t attr,
		    uint8_t data[IBTOPO_SMP_DATA_SIZE]);

/* chassis.c: frees the chassis list (ibtopo_unref()) */
void topo_chassis_free(struct ibtopo *topo);

/* ---- cache.c: the cache file (libibnetdisc's format) --------------------------------------- */
/* The bytes ibtopo_cache_save() would write, in a malloc()ed buffer (tests, fuzzing).
 * 0, -EINVAL (no from node), -EOVERFLOW (256 ports with records on one node), -ENOMEM. */
int topo_cache_serialize(const struct ibtopo *topo, uint8_t **buf, size_t *len);
/* Writes `len` bytes to `path` as ibtopo_cache_save() does (atomically; what a kill leaves:
 * see cache.c).  TOPO_WRITE_NAMED: without an unnamed (O_TMPFILE) file (tests). */
#define TOPO_WRITE_NAMED 1u
int topo_cache_write(const char *path, const uint8_t *buf, size_t len, unsigned flags);

/* Big-endian field readers for the raw attributes */
static inline uint64_t get_be64(const uint8_t *p)
{
	return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) |
	       ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
	       ((uint64_t)p[6] << 8) | p[7];
}
static inline uint32_t get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

/* NodeInfo offsets (IBA 14.2.5.3) */
#define NI_NODE_TYPE(i) ((i)[2])
#define NI_NUM_PORTS(i) ((i)[3])
#define NI_SYS_GUID(i) get_be64((i) + 4)
#define NI_NODE_GUID(i) get_be64((i) + 12)
#define NI_PORT_GUID(i) get_be64((i) + 20)
#define NI_DEVICE_ID(i) get_be16((i) + 30)
#define NI_LOCAL_PORT(i) ((i)[36])
#define NI_VENDOR_ID(i) (get_be32((i) + 36) & 0xffffff)
/* PortInfo (IBA 14.2.5.6) */
#define PI_LID(i) get_be16((i) + 16)
#define PI_LOCAL_PORT(i) ((i)[28])
#define PI_LINK_WIDTH_ACTIVE(i) ((i)[31])
#define PI_LINK_SPEED_ACTIVE(i) ((i)[35] >> 4)
#define PI_PORT_STATE(i) ((i)[32] & 0xf)
#define PI_PHYS_STATE(i) ((i)[33] >> 4)
#define PI_LMC(i) ((i)[34] & 7)
#define PI_CAP_MASK(i) get_be32((i) + 20)
#define PI_LINK_SPEED_EXT_ACTIVE(i) ((i)[62] >> 4)
/* SwitchInfo (IBA 14.2.5.4) */
#define SI_LFT_CAP(i) get_be16((i) + 0)
#define SI_MFT_CAP(i) get_be16((i) + 4)
#define SI_LFT_TOP(i) get_be16((i) + 6)
#define SI_ENH_PORT0(i) (((i)[16] >> 3) & 1)
#define SI_MFT_TOP(i) get_be16((i) + 18)

#define PHYS_STATE_LINKUP 5

#endif /* IBTOPO_PRIVATE_H */
