/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cache file: libibnetdisc's format, version 1, read and written byte for byte as
 * infiniband-diags 44 does (ibnetdiscover --cache / --load-cache).  The layout, the order
 * of the records and what the reader refuses are described in doc/libibtopo-cache.md.
 *
 * Reading is done in two passes over the bytes: the first checks every record and every
 * reference between records (nothing is trusted: counts, port numbers, GUIDs), the second
 * builds the topology from records known to be consistent.  Writing builds the whole file
 * in memory, then writes it to an unnamed file in the target's directory, syncs it, names
 * it and renames it over the target (topo_cache_write(): what a killed save leaves).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ibtopo-private.h"

#define CACHE_MAGIC 0x8fe7832bu
#define CACHE_VERSION 1u

/* Record sizes (bytes).  Node: smalid 2, smalmc 1, smaenhsp0 1, SwitchInfo 64, GUID 8,
 * type 1, port count 1, NodeInfo 64, NodeDescription 64, number of port keys 1; then
 * 9 bytes (port GUID, port number) per key.  Port: GUID 8, number 1, external number 1,
 * base LID 2, LMC 1, PortInfo 64, node GUID 8, linked flag 1, remote GUID 8, remote
 * number 1. */
#define CACHE_HEADER_LEN 28
#define CACHE_NODE_LEN 207
#define CACHE_KEY_LEN 9
#define CACHE_PORT_LEN 95
#define CACHE_MAX_KEYS 255

/* Offsets in the header */
#define H_MAGIC 0
#define H_VERSION 4
#define H_NODES 8
#define H_PORTS 12
#define H_FROM_GUID 16
#define H_MAX_HOPS 24
/* ... in a node record */
#define N_SMA_LID 0
#define N_SMA_LMC 2
#define N_SMA_ENH_SP0 3
#define N_SWITCH_INFO 4
#define N_GUID 68
#define N_TYPE 76
#define N_NUM_PORTS 77
#define N_NODE_INFO 78
#define N_NODE_DESC 142
#define N_NUM_KEYS 206
/* ... in a port record */
#define P_GUID 0
#define P_NUM 8
#define P_EXT_NUM 9
#define P_BASE_LID 10
#define P_LMC 12
#define P_PORT_INFO 13
#define P_NODE_GUID 77
#define P_LINKED 85
#define P_REMOTE_GUID 86
#define P_REMOTE_NUM 94

/* A file larger than this is refused before it is read (-EFBIG).  A 64k-node fabric with
 * a few hundred thousand ports makes a cache file of some tens of MB. */
#define CACHE_MAX_FILE (256u << 20)

/* The file is little-endian throughout (the SMP attributes inside are wire bytes). */
static inline uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | ((uint64_t)le32(p + 4) << 32);
}

static inline uint8_t *put8(uint8_t *p, uint8_t v)
{
	*p = v;
	return p + 1;
}

static inline uint8_t *put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return p + 2;
}

static inline uint8_t *put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p + 4;
}

static inline uint8_t *put64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p + 8;
}

static inline uint8_t *put_bytes(uint8_t *p, const uint8_t *src, size_t n)
{
	memcpy(p, src, n);
	return p + n;
}

/* ---- Writing -------------------------------------------------------------------------------- */

/* Whether libibnetdisc would have the port in its port GUID hash: a port that answered
 * PortInfo was indexed (topo_port_index() numbers it); a shell created when a link was
 * seen but whose PortInfo never came is not, and has no record of its own. */
static inline bool port_cached(const struct ibtopo_port *p)
{
	return p && p->seq != 0;
}

/* libibnetdisc writes its port records walking its GUID hash: bucket 0 to 136, and in each
 * bucket the port inserted last first. */
static int port_record_cmp(const void *a, const void *b)
{
	const struct ibtopo_port *pa = *(const struct ibtopo_port *const *)a;
	const struct ibtopo_port *pb = *(const struct ibtopo_port *const *)b;
	unsigned ba = ibnd_hash_bucket(pa->guid), bb = ibnd_hash_bucket(pb->guid);

	if (ba != bb)
		return ba < bb ? -1 : 1;
	if (pa->seq != pb->seq)
		return pa->seq > pb->seq ? -1 : 1;
	return 0;
}

int topo_cache_serialize(const struct ibtopo *topo, uint8_t **buf, size_t *len)
{
	struct ibtopo_port **ports = NULL;
	size_t n_ports = 0, size = CACHE_HEADER_LEN;
	uint8_t *out, *p;

	if (!topo || !buf || !len)
		return -EINVAL;
	/* the header names the node discovery started from: there must be one */
	if (!topo->from_node)
		return -EINVAL;

	for (unsigned i = 0; i < topo->all.n; i++) {
		const struct ibtopo_node *n = topo->all.v[i];
		unsigned keys = 0;

		for (unsigned k = 0; k <= n->num_ports; k++)
			if (port_cached(n->ports[k]))
				keys++;
		/* the key count is one byte: 256 ports (0..255) do not fit */
		if (keys > CACHE_MAX_KEYS)
			return -EOVERFLOW;
		size += CACHE_NODE_LEN + (size_t)keys * CACHE_KEY_LEN;
		n_ports += keys;
	}
	if (n_ports > UINT32_MAX)
		return -EOVERFLOW;
	size += n_ports * CACHE_PORT_LEN;

	if (n_ports) {
		size_t k = 0;

		ports = malloc(n_ports * sizeof(*ports));
		if (!ports)
			return -ENOMEM;
		for (unsigned i = 0; i < topo->all.n; i++) {
			const struct ibtopo_node *n = topo->all.v[i];

			for (unsigned j = 0; j <= n->num_ports; j++)
				if (port_cached(n->ports[j]))
					ports[k++] = n->ports[j];
		}
		qsort(ports, n_ports, sizeof(*ports), port_record_cmp);
	}
	out = malloc(size);
	if (!out) {
		free(ports);
		return -ENOMEM;
	}

	p = put32(out, CACHE_MAGIC);
	p = put32(p, CACHE_VERSION);
	p = put32(p, topo->all.n);
	p = put32(p, (uint32_t)n_ports);
	p = put64(p, topo->from_node->guid);
	p = put32(p, topo->max_hops);

	/* nodes most recently created first, as libibnetdisc's node list */
	for (unsigned i = topo->all.n; i-- > 0;) {
		const struct ibtopo_node *n = topo->all.v[i];
		uint8_t *count;
		unsigned keys = 0;

		p = put16(p, n->sma_lid);
		p = put8(p, n->sma_lmc);
		p = put8(p, n->sma_enh_sp0);
		p = put_bytes(p, n->switch_info, IBTOPO_SMP_DATA_SIZE);
		p = put64(p, n->guid);
		p = put8(p, n->type);
		p = put8(p, n->num_ports);
		p = put_bytes(p, n->info, IBTOPO_SMP_DATA_SIZE);
		p = put_bytes(p, n->desc, IBTOPO_SMP_DATA_SIZE);
		count = p++;
		for (unsigned k = 0; k <= n->num_ports; k++) {
			const struct ibtopo_port *pt = n->ports[k];

			if (!port_cached(pt))
				continue;
			p = put64(p, pt->guid);
			p = put8(p, pt->num);
			keys++;
		}
		*count = (uint8_t)keys;
	}

	for (size_t i = 0; i < n_ports; i++) {
		const struct ibtopo_port *pt = ports[i];
		const struct ibtopo_port *r = pt->remote;

		p = put64(p, pt->guid);
		p = put8(p, pt->num);
		p = put8(p, pt->ext_num);
		p = put16(p, pt->base_lid);
		p = put8(p, pt->lmc);
		p = put_bytes(p, pt->info, IBTOPO_SMP_DATA_SIZE);
		p = put64(p, pt->node->guid);
		/* a link to a port without a record of its own could not be resolved on reading */
		if (port_cached(r)) {
			p = put8(p, 1);
			p = put64(p, r->guid);
			p = put8(p, r->num);
		} else {
			p = put8(p, 0);
			p = put64(p, 0);
			p = put8(p, 0);
		}
	}
	free(ports);
	*buf = out;
	*len = size;
	return 0;
}

static int write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A name for the temporary file that no one else picks: pid, time and a counter mixed
 * (O_EXCL, or linkat()'s EEXIST, settles the rare collision). */
static uint64_t tmp_name_bits(void)
{
	static unsigned counter;
	struct timespec ts;
	uint64_t x;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
	    ((uint64_t)__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED) << 48);
	/* splitmix64 finaliser */
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#define TMP_PREFIX ".ibtopo-cache."
#define TMP_RANDOM 10

/* The length of the directory part of `path`, its last slash included (0: none) */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* The directory of `path`, to open (malloc()ed) */
static char *dir_of(const char *path)
{
	size_t n = dir_len(path);

	if (!n)
		return strdup(".");
	return strndup(path, n == 1 ? 1 : n - 1);
}

/* A buffer for "<dir of path>/.ibtopo-cache.<10 characters>"; tmp_name_next() fills in
 * the characters, anew at each try. */
static char *tmp_name_new(const char *path)
{
	size_t n = dir_len(path);
	char *tmp = malloc(n + sizeof(TMP_PREFIX) + TMP_RANDOM);

	if (!tmp)
		return NULL;
	memcpy(tmp, path, n);
	memcpy(tmp + n, TMP_PREFIX, sizeof(TMP_PREFIX));
	return tmp;
}

static void tmp_name_next(char *tmp)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	char *p = strrchr(tmp, '.') + 1; /* the prefix's last dot: the characters have none */
	uint64_t bits = tmp_name_bits();

	for (unsigned i = 0; i < TMP_RANDOM; i++, bits /= 36)
		p[i] = alphabet[bits % 36];
	p[TMP_RANDOM] = '\0';
}

/* Creates the named temporary file next to `path` (same directory, so the rename is
 * atomic); mode 0644 less the umask, as libibnetdisc creates its cache files. */
static int open_tmp(const char *path, char **tmp_out)
{
	char *tmp = tmp_name_new(path);

	if (!tmp)
		return -ENOMEM;
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		int fd;

		tmp_name_next(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0644);
		if (fd >= 0) {
			*tmp_out = tmp;
			return fd;
		}
		if (errno != EEXIST) {
			int rc = -errno;

			free(tmp);
			return rc;
		}
	}
	free(tmp);
	return -EEXIST;
}

/* An unnamed file in the directory of `path` (O_TMPFILE), same mode.  -EOPNOTSUPP when
 * the kernel or the file system has none: older kernels take O_TMPFILE for an attempt to
 * open the directory for writing (EISDIR), some file systems refuse it (EOPNOTSUPP) and
 * some report EINVAL. */
static int open_unnamed(const char *path)
{
	char *dir = dir_of(path);
	int fd;

	if (!dir)
		return -ENOMEM;
	/* openat(), not open(): a program's own open() in front of libc's (umad2sim, the
	 * simulator's preload, is one) may pass the mode on for O_CREAT only, and the file
	 * would get mode 0 */
	fd = openat(AT_FDCWD, dir, O_TMPFILE | O_WRONLY | O_CLOEXEC | O_NOCTTY, 0644);
	free(dir);
	if (fd >= 0)
		return fd;
	if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)
		return -EOPNOTSUPP;
	return -errno;
}

/* Gives the unnamed file `fd` a temporary name next to `path`.  Through /proc/self/fd
 * (any user may), else with AT_EMPTY_PATH (where /proc is not mounted; the kernel may ask
 * for CAP_DAC_READ_SEARCH).  -EOPNOTSUPP when neither works: the caller then writes a
 * named temporary file instead. */
static int link_unnamed(int fd, const char *path, char **tmp_out)
{
	char proc[sizeof("/proc/self/fd/") + 12];
	char *tmp = tmp_name_new(path);

	if (!tmp)
		return -ENOMEM;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		tmp_name_next(tmp);
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) ||
		    (errno == ENOENT && !linkat(fd, "", AT_FDCWD, tmp, AT_EMPTY_PATH))) {
			*tmp_out = tmp;
			return 0;
		}
		if (errno != EEXIST) {
			int rc = errno == ENOENT || errno == EPERM || errno == EACCES ? -EOPNOTSUPP
										      : -errno;

			free(tmp);
			return rc;
		}
	}
	free(tmp);
	return -EEXIST;
}

/* After the rename, the directory entry itself is made durable (best effort: some file
 * systems cannot sync a directory, and the file is already in place). */
static void sync_dir_of(const char *path)
{
	char *dir = dir_of(path);
	int fd;

	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return;
	(void)fsync(fd);
	close(fd);
}

/* A target that exists and is not a regular file (a device such as /dev/null or /dev/full,
 * a FIFO) is written in place: renaming over it would replace the device node. */
static int write_in_place(const char *path, const uint8_t *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	int rc;

	if (fd < 0)
		return -errno;
	rc = write_all(fd, buf, len);
	if (close(fd) && !rc && errno != EINTR)
		rc = -errno;
	return rc;
}

/* The bytes, synced, then the descriptor closed: close() reports delayed write errors
 * (NFS), so a failed close is a failed save. */
static int fill_and_close(int fd, const uint8_t *buf, size_t len)
{
	int rc = write_all(fd, buf, len);

	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc && errno != EINTR)
		rc = -errno;
	return rc;
}

/*
 * What a process killed while saving leaves.  The bytes go first into an unnamed file
 * (O_TMPFILE) in the target's directory, which the kernel frees when its descriptor
 * closes, however the process ends (SIGKILL included): killed while writing or syncing,
 * the process leaves nothing, and the target as it was.  Only once the file is complete
 * and synced does it get a name, a temporary one (linkat(): the kernel cannot rename an
 * unnamed file over an existing one), which is at once renamed over the target; a kill
 * between those two calls (a few microseconds) would leave that temporary name.
 * Where there is no O_TMPFILE (or no way to link it), the bytes go into a named temporary
 * file from the start, and a kill during the write leaves it.  A failed save removes its
 * temporary file in both cases.  Catchable signals are the program's business (a library
 * installs no handler): ibnetdiscover blocks them around its save.
 * TOPO_WRITE_NAMED (tests) skips the unnamed file.
 */
int topo_cache_write(const char *path, const uint8_t *buf, size_t len, unsigned flags)
{
	struct stat st;
	char *tmp = NULL;
	int fd, rc = -EOPNOTSUPP;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode))
			return write_in_place(path, buf, len);
	}
	if (!(flags & TOPO_WRITE_NAMED)) {
		fd = open_unnamed(path);
		if (fd < 0 && fd != -EOPNOTSUPP)
			return fd;
		if (fd >= 0) {
			rc = write_all(fd, buf, len);
			if (!rc && fsync(fd))
				rc = -errno;
			if (!rc)
				rc = link_unnamed(fd, path, &tmp);
			if (close(fd) && !rc && errno != EINTR)
				rc = -errno;
		}
	}
	if (rc == -EOPNOTSUPP) {
		/* no unnamed file here, or no way to name it: a named temporary file */
		fd = open_tmp(path, &tmp);
		if (fd < 0)
			return fd;
		rc = fill_and_close(fd, buf, len);
	}
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc && tmp)
		unlink(tmp);
	else if (!rc)
		sync_dir_of(path);
	free(tmp);
	return rc;
}

IBTOPO_EXPORT int ibtopo_cache_save_mem(const void *data, size_t len, const char *path)
{
	if ((!data && len) || !path || !*path)
		return -EINVAL;
	return topo_cache_write(path, data, len, 0);
}

IBTOPO_EXPORT int ibtopo_cache_save(const struct ibtopo *topo, const char *path)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (!topo || !path || !*path)
		return -EINVAL;
	rc = topo_cache_serialize(topo, &buf, &len);
	if (rc)
		return rc;
	rc = topo_cache_write(path, buf, len, 0);
	free(buf);
	return rc;
}

/* ---- Reading -------------------------------------------------------------------------------- */

struct errctx {
	char *buf;
	size_t len;
};

static int __attribute__((format(printf, 3, 4))) fail(struct errctx *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (e->buf && e->len) {
		va_start(ap, fmt);
		vsnprintf(e->buf, e->len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Open-addressed map from (GUID, port number) to a record index, sized once for n keys. */
struct kslot {
	uint64_t guid;
	uint32_t num;
	uint32_t idx; /* record index + 1; 0: empty */
};

struct kmap {
	struct kslot *s;
	size_t mask;
};

static int kmap_init(struct kmap *m, size_t n)
{
	size_t size = 16;

	while (size < 2 * n)
		size *= 2;
	m->s = calloc(size, sizeof(*m->s));
	if (!m->s)
		return -ENOMEM;
	m->mask = size - 1;
	return 0;
}

static inline size_t kmap_slot(const struct kmap *m, uint64_t guid, unsigned num)
{
	uint64_t x = guid ^ ((uint64_t)num << 56) ^ num;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (size_t)x & m->mask;
}

/* The index (0-based) stored for the key, or -1. */
static long kmap_find(const struct kmap *m, uint64_t guid, unsigned num)
{
	for (size_t s = kmap_slot(m, guid, num); m->s[s].idx; s = (s + 1) & m->mask)
		if (m->s[s].guid == guid && m->s[s].num == num)
			return (long)m->s[s].idx - 1;
	return -1;
}

/* Enters the key with index idx; when present already, returns the index stored, else -1. */
static long kmap_add(struct kmap *m, uint64_t guid, unsigned num, size_t idx)
{
	size_t s;

	for (s = kmap_slot(m, guid, num); m->s[s].idx; s = (s + 1) & m->mask)
		if (m->s[s].guid == guid && m->s[s].num == num)
			return (long)m->s[s].idx - 1;
	m->s[s].guid = guid;
	m->s[s].num = num;
	m->s[s].idx = (uint32_t)(idx + 1);
	return -1;
}

struct node_rec {
	const uint8_t *rec; /* CACHE_NODE_LEN bytes, then the keys */
	uint64_t guid;
	unsigned n_keys;
	uint8_t num_ports;
	struct ibtopo_node *node;
};

struct port_rec {
	const uint8_t *rec;
	uint64_t guid;
	uint8_t num;
	bool linked;
	uint32_t owner;  /* node record index (from the port's own node GUID) */
	uint32_t remote; /* port record index when linked */
	bool listed;     /* found in its node's key list */
};

struct cache_load {
	struct errctx *err;
	const uint8_t *data;
	size_t len;
	uint32_t n_nodes, n_ports;
	uint64_t from_guid;
	uint32_t max_hops;
	struct node_rec *nodes;
	struct port_rec *ports;
	struct kmap node_map, port_map;
	uint32_t from;
};

#define GUIDF "0x%016" PRIx64

/* The magic and the version: whether the bytes are a cache file this reader knows. */
static int check_magic(const uint8_t *d, size_t len, struct errctx *e)
{
	uint32_t magic, version;

	if (len < 4)
		return fail(e, -EPROTO, "truncated: %zu bytes, the header alone has %u", len,
			    CACHE_HEADER_LEN);
	magic = le32(d + H_MAGIC);
	if (magic != CACHE_MAGIC)
		return fail(e, -EINVAL, "not a libibnetdisc cache file (magic 0x%08" PRIx32 ", expected 0x%08x)",
			    magic, CACHE_MAGIC);
	if (len < 8)
		return fail(e, -EPROTO, "truncated: %zu bytes, the header alone has %u", len,
			    CACHE_HEADER_LEN);
	version = le32(d + H_VERSION);
	if (version != CACHE_VERSION)
		return fail(e, -EPROTONOSUPPORT, "unsupported cache file version %" PRIu32 " (this reader knows version %u)",
			    version, CACHE_VERSION);
	return 0;
}

/* The most bytes a file with this header can have (every node with 255 port keys). */
static uint64_t max_file_len(const uint8_t *header)
{
	return CACHE_HEADER_LEN +
	       (uint64_t)le32(header + H_NODES) * (CACHE_NODE_LEN + CACHE_MAX_KEYS * CACHE_KEY_LEN) +
	       (uint64_t)le32(header + H_PORTS) * CACHE_PORT_LEN;
}

/* The 28-byte header, and whether the file is long enough for what it announces. */
static int check_header(const uint8_t *d, size_t len, uint32_t *n_nodes, uint32_t *n_ports, struct errctx *e)
{
	uint64_t min_len;
	int rc;

	rc = check_magic(d, len, e);
	if (rc)
		return rc;
	if (len < CACHE_HEADER_LEN)
		return fail(e, -EPROTO, "truncated: %zu bytes, the header alone has %u", len,
			    CACHE_HEADER_LEN);
	*n_nodes = le32(d + H_NODES);
	*n_ports = le32(d + H_PORTS);
	if (*n_nodes == 0)
		return fail(e, -EPROTO, "no node records (the node count is 0)");
	min_len = CACHE_HEADER_LEN + (uint64_t)*n_nodes * CACHE_NODE_LEN + (uint64_t)*n_ports * CACHE_PORT_LEN;
	if (min_len > len)
		return fail(e, -EPROTO,
			    "truncated: the header announces %" PRIu32 " nodes and %" PRIu32 " ports (at least %" PRIu64 " bytes), the file has %zu",
			    *n_nodes, *n_ports, min_len, len);
	return 0;
}

/* Splits the file into records; checks sizes and the fields of each record alone. */
static int parse_records(struct cache_load *c)
{
	const uint8_t *d = c->data;
	size_t off = CACHE_HEADER_LEN;
	int rc;

	rc = check_header(d, c->len, &c->n_nodes, &c->n_ports, c->err);
	if (rc)
		return rc;
	c->from_guid = le64(d + H_FROM_GUID);
	c->max_hops = le32(d + H_MAX_HOPS);

	/* both counts are bounded by the length now: the allocations below are too */
	c->nodes = calloc(c->n_nodes, sizeof(*c->nodes));
	c->ports = calloc(c->n_ports ? c->n_ports : 1, sizeof(*c->ports));
	if (!c->nodes || !c->ports)
		return fail(c->err, -ENOMEM, "out of memory");

	for (uint32_t i = 0; i < c->n_nodes; i++) {
		struct node_rec *n = &c->nodes[i];
		const uint8_t *r = d + off, *info;

		if (c->len - off < CACHE_NODE_LEN)
			return fail(c->err, -EPROTO, "truncated in node record %" PRIu32 " of %" PRIu32 " (offset %zu)",
				    i, c->n_nodes, off);
		n->rec = r;
		n->guid = le64(r + N_GUID);
		n->num_ports = r[N_NUM_PORTS];
		n->n_keys = r[N_NUM_KEYS];
		off += CACHE_NODE_LEN;
		if (c->len - off < (size_t)n->n_keys * CACHE_KEY_LEN)
			return fail(c->err, -EPROTO, "truncated in the port list of node record %" PRIu32 " (offset %zu)",
				    i, off);
		off += (size_t)n->n_keys * CACHE_KEY_LEN;

		/* discovery takes these from NodeInfo; a file where the type or the port count
		 * differ was not written from a discovery.  The GUID may differ: ibcacheedit
		 * changes the record's and leaves NodeInfo as the node answered (the record's
		 * GUID is the node's, as libibnetdisc reads it). */
		info = r + N_NODE_INFO;
		if (NI_NODE_TYPE(info) != r[N_TYPE])
			return fail(c->err, -EPROTO, "node " GUIDF ": type %u differs from its NodeInfo's %u",
				    n->guid, r[N_TYPE], NI_NODE_TYPE(info));
		if (NI_NUM_PORTS(info) != n->num_ports)
			return fail(c->err, -EPROTO, "node " GUIDF ": port count %u differs from its NodeInfo's %u",
				    n->guid, n->num_ports, NI_NUM_PORTS(info));
		if (n->n_keys > (unsigned)n->num_ports + 1)
			return fail(c->err, -EPROTO, "node " GUIDF " lists %u ports but has only %u",
				    n->guid, n->n_keys, n->num_ports + 1);
	}

	if ((c->len - off) / CACHE_PORT_LEN < c->n_ports)
		return fail(c->err, -EPROTO, "truncated in the port records: %" PRIu32 " announced, room for %zu",
			    c->n_ports, (c->len - off) / CACHE_PORT_LEN);
	for (uint32_t i = 0; i < c->n_ports; i++) {
		struct port_rec *p = &c->ports[i];
		const uint8_t *r = d + off;

		p->rec = r;
		p->guid = le64(r + P_GUID);
		p->num = r[P_NUM];
		p->linked = r[P_LINKED] != 0;
		off += CACHE_PORT_LEN;
		if (r[P_LMC] > 7)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u: LMC %u is beyond 7", p->guid, p->num, r[P_LMC]);
	}
	if (off != c->len)
		return fail(c->err, -EPROTO, "%zu bytes of unknown data after the last port record (offset %zu)",
			    c->len - off, off);
	return 0;
}

/* Resolves every reference (node -> its ports, port -> its node and its peer) and refuses
 * whatever libibnetdisc's discovery could not have produced. */
static int link_records(struct cache_load *c)
{
	long found;

	if (kmap_init(&c->node_map, c->n_nodes) || kmap_init(&c->port_map, c->n_ports))
		return fail(c->err, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < c->n_nodes; i++) {
		found = kmap_add(&c->node_map, c->nodes[i].guid, 0, i);
		if (found >= 0)
			return fail(c->err, -EPROTO, "node GUID " GUIDF " has two node records (%ld and %" PRIu32 ")",
				    c->nodes[i].guid, found, i);
	}
	found = kmap_find(&c->node_map, c->from_guid, 0);
	if (found < 0)
		return fail(c->err, -EPROTO, "the node discovery started from (" GUIDF ") has no node record",
			    c->from_guid);
	c->from = (uint32_t)found;

	for (uint32_t i = 0; i < c->n_ports; i++) {
		struct port_rec *p = &c->ports[i];
		uint64_t node_guid = le64(p->rec + P_NODE_GUID);
		const struct node_rec *n;

		found = kmap_add(&c->port_map, p->guid, p->num, i);
		if (found >= 0)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u has two port records (%ld and %" PRIu32 ")",
				    p->guid, p->num, found, i);
		found = kmap_find(&c->node_map, node_guid, 0);
		if (found < 0)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u belongs to node " GUIDF ", which has no node record",
				    p->guid, p->num, node_guid);
		p->owner = (uint32_t)found;
		n = &c->nodes[found];
		if (p->num > n->num_ports)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u is beyond the %u ports of node " GUIDF,
				    p->guid, p->num, n->num_ports, n->guid);
	}

	for (uint32_t i = 0; i < c->n_nodes; i++) {
		const struct node_rec *n = &c->nodes[i];
		const uint8_t *key = n->rec + CACHE_NODE_LEN;
		uint8_t seen[(IBTOPO_MAX_PORTS + 2 + 7) / 8] = { 0 };

		for (unsigned k = 0; k < n->n_keys; k++, key += CACHE_KEY_LEN) {
			uint64_t guid = le64(key);
			unsigned num = key[8];
			struct port_rec *p;

			found = kmap_find(&c->port_map, guid, num);
			if (found < 0)
				return fail(c->err, -EPROTO, "node " GUIDF " lists port " GUIDF ":%u, which has no port record",
					    n->guid, guid, num);
			p = &c->ports[found];
			if (p->owner != i)
				return fail(c->err, -EPROTO, "node " GUIDF " lists port " GUIDF ":%u, whose record names node " GUIDF,
					    n->guid, guid, num, c->nodes[p->owner].guid);
			if (p->listed)
				return fail(c->err, -EPROTO, "node " GUIDF " lists port " GUIDF ":%u twice",
					    n->guid, guid, num);
			if (seen[num / 8] & (1u << (num % 8)))
				return fail(c->err, -EPROTO, "node " GUIDF " lists two ports numbered %u", n->guid, num);
			seen[num / 8] |= (uint8_t)(1u << (num % 8));
			p->listed = true;
		}
	}

	for (uint32_t i = 0; i < c->n_ports; i++) {
		struct port_rec *p = &c->ports[i];
		uint64_t rguid;
		unsigned rnum;
		const struct port_rec *r;

		if (!p->listed)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u is not listed by its node " GUIDF,
				    p->guid, p->num, c->nodes[p->owner].guid);
		if (!p->linked)
			continue;
		rguid = le64(p->rec + P_REMOTE_GUID);
		rnum = p->rec[P_REMOTE_NUM];
		found = kmap_find(&c->port_map, rguid, rnum);
		if (found < 0)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u links to port " GUIDF ":%u, which has no port record",
				    p->guid, p->num, rguid, rnum);
		p->remote = (uint32_t)found;
		r = &c->ports[found];
		/* links are symmetric in a discovered fabric (libibnetdisc's link_ports()) */
		if (!r->linked || le64(r->rec + P_REMOTE_GUID) != p->guid || r->rec[P_REMOTE_NUM] != p->num)
			return fail(c->err, -EPROTO, "port " GUIDF ":%u links to port " GUIDF ":%u, which does not link back",
				    p->guid, p->num, rguid, rnum);
	}
	return 0;
}

/* Builds the topology the way libibnetdisc's ibnd_load_fabric() rebuilds its fabric:
 * the nodes in the order their discovery created them (the file lists them newest first),
 * the ports entered into the GUID hash and the LID map in the reverse of their record
 * order, which puts them back in the order discovery entered them within each hash bucket
 * (so that writing the topology again reproduces the file) and gives every LID to the
 * port libibnetdisc gives it. */
static int build_topology(struct cache_load *c, struct ibtopo **out)
{
	static const uint8_t no_data[IBTOPO_SMP_DATA_SIZE];
	struct ibtopo *t;
	int rc;

	rc = ibtopo_new(&t);
	if (rc)
		return fail(c->err, rc, "out of memory");
	for (uint32_t i = c->n_nodes; i-- > 0;) {
		struct node_rec *nr = &c->nodes[i];
		const uint8_t *r = nr->rec;
		uint8_t info[IBTOPO_SMP_DATA_SIZE];
		struct ibtopo_node *n;

		/* the node is created (and hashed) under the record's GUID, which an ibcacheedit
		 * edit may have made differ from NodeInfo's; NodeInfo is kept as read */
		memcpy(info, r + N_NODE_INFO, sizeof(info));
		for (unsigned b = 0; b < 8; b++)
			info[12 + b] = (uint8_t)(nr->guid >> (56 - 8 * b));
		n = topo_node_create(t, info, NULL);
		if (!n) {
			ibtopo_unref(t);
			return fail(c->err, -ENOMEM, "out of memory");
		}
		memcpy(n->info, r + N_NODE_INFO, IBTOPO_SMP_DATA_SIZE);
		nr->node = n;
		topo_node_set_desc(n, r + N_NODE_DESC);
		/* kept as read, whatever the node type: writing it again must give the same bytes */
		memcpy(n->switch_info, r + N_SWITCH_INFO, IBTOPO_SMP_DATA_SIZE);
		n->has_switch_info = n->type == IBTOPO_NODE_SWITCH ||
				     memcmp(n->switch_info, no_data, IBTOPO_SMP_DATA_SIZE) != 0;
		n->sma_lid = le16(r + N_SMA_LID);
		n->sma_lmc = r[N_SMA_LMC];
		n->sma_enh_sp0 = r[N_SMA_ENH_SP0];
	}
	for (uint32_t i = c->n_ports; i-- > 0;) {
		const struct port_rec *pr = &c->ports[i];
		const uint8_t *r = pr->rec;
		struct ibtopo_port *p = topo_port_get(c->nodes[pr->owner].node, pr->num);

		if (!p) {
			ibtopo_unref(t);
			return fail(c->err, -ENOMEM, "out of memory");
		}
		p->guid = pr->guid;
		p->ext_num = r[P_EXT_NUM];
		p->base_lid = le16(r + P_BASE_LID);
		p->lmc = r[P_LMC];
		memcpy(p->info, r + P_PORT_INFO, IBTOPO_SMP_DATA_SIZE);
		p->has_info = true;
		if (topo_port_index(p)) {
			ibtopo_unref(t);
			return fail(c->err, -ENOMEM, "out of memory");
		}
	}
	for (uint32_t i = 0; i < c->n_ports; i++) {
		const struct port_rec *pr = &c->ports[i];

		/* each link once (a port cabled to itself has remote == i) */
		if (pr->linked && pr->remote >= i) {
			struct ibtopo_port *a = c->nodes[pr->owner].node->ports[pr->num];
			const struct port_rec *rr = &c->ports[pr->remote];

			topo_link(a, c->nodes[rr->owner].node->ports[rr->num]);
		}
	}
	t->from_node = c->nodes[c->from].node;
	t->from_port = 0; /* not in the file (libibnetdisc leaves it 0 too) */
	t->max_hops = c->max_hops;
	/* ibnd_load_fabric() groups the chassis as discovery does */
	rc = ibtopo_group_chassis(t);
	if (rc) {
		ibtopo_unref(t);
		return fail(c->err, rc, rc == -EPROTO ?
				"chassis grouping gave up: the nodes' chassis data is inconsistent (libibnetdisc refuses the file too)" :
				"out of memory");
	}
	*out = t;
	return 0;
}

IBTOPO_EXPORT int ibtopo_cache_load_mem(const void *data, size_t len, struct ibtopo **out, char *errbuf,
					 size_t errlen)
{
	struct errctx e = { errbuf, errlen };
	struct cache_load c;
	int rc;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	if (!out || (!data && len))
		return fail(&e, -EINVAL, "invalid argument");
	*out = NULL;
	memset(&c, 0, sizeof(c));
	c.err = &e;
	c.data = data;
	c.len = len;
	rc = parse_records(&c);
	if (!rc)
		rc = link_records(&c);
	if (!rc)
		rc = build_topology(&c, out);
	free(c.nodes);
	free(c.ports);
	free(c.node_map.s);
	free(c.port_map.s);
	return rc;
}

/* Reads the whole file into memory.  A stream (pipe, device) is read until its end, but
 * no further than the header's counts allow, so /dev/zero or /dev/urandom end quickly. */
static int read_file(int fd, uint8_t **data, size_t *len, struct errctx *e)
{
	size_t cap, n = 0, limit = CACHE_MAX_FILE;
	bool header_seen = false;
	struct stat st;
	uint8_t *buf;

	if (fstat(fd, &st))
		return fail(e, -errno, "cannot stat: %s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return fail(e, -EISDIR, "is a directory");
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > CACHE_MAX_FILE)
		return fail(e, -EFBIG, "too large for a cache file (%jd bytes, at most %u)", (intmax_t)st.st_size,
			    CACHE_MAX_FILE);
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
	buf = malloc(cap);
	if (!buf)
		return fail(e, -ENOMEM, "out of memory");
	for (;;) {
		ssize_t got;

		if (n == cap) {
			size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
			uint8_t *nb;

			if (ncap <= cap) {
				free(buf);
				return fail(e, -EFBIG, "too large for a cache file (more than %zu bytes)", limit);
			}
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return fail(e, -ENOMEM, "out of memory");
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0) {
			int rc = -errno;

			if (errno == EINTR)
				continue;
			free(buf);
			return fail(e, rc, "cannot read: %s", strerror(-rc));
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (!header_seen && n >= CACHE_HEADER_LEN) {
			struct errctx quiet = { NULL, 0 };
			uint64_t max_len = max_file_len(buf);

			header_seen = true;
			/* not a cache file: what was read is enough for the reason */
			if (check_magic(buf, n, &quiet))
				break;
			if (max_len < limit)
				limit = (size_t)max_len;
		}
		if (n > limit)
			break; /* the parser names the trailing data */
	}
	*data = buf;
	*len = n;
	return 0;
}

IBTOPO_EXPORT int ibtopo_cache_load(const char *path, struct ibtopo **out, char *errbuf, size_t errlen)
{
	struct errctx e = { errbuf, errlen };
	uint8_t *data = NULL;
	size_t len = 0;
	int fd, flags, rc;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	if (!path || !out)
		return fail(&e, -EINVAL, "invalid argument");
	*out = NULL;
	/* O_NONBLOCK: a FIFO nobody writes to opens at once (and reads as empty) instead of
	 * blocking; reads block as usual afterwards */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = -errno;
		return fail(&e, rc, "cannot open: %s", strerror(-rc));
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		rc = -errno;
		close(fd);
		return fail(&e, rc, "cannot read: %s", strerror(-rc));
	}
	rc = read_file(fd, &data, &len, &e);
	close(fd);
	if (rc)
		return rc;
	rc = ibtopo_cache_load_mem(data, len, out, errbuf, errlen);
	free(data);
	return rc;
}
