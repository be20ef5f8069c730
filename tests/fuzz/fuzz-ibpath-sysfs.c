// SPDX-License-Identifier: BSD-3-Clause
/*
 * fuzz-ibpath-sysfs: libibpath's sysfs reader (libibpath/sysfs.c) on any tree of any file
 * contents, then every accessor and the port selection on what it read.
 * sysfs.c reaches the tree only through open/read/close and opendir/readdir/closedir (it
 * says so: umad2sim intercepts exactly those); here it is compiled into this file with
 * those six names turned into an in-memory tree built from the input, so that no input
 * touches the disk and a run costs microseconds.
 * Input: one entry per line, "<path>=<contents>" for a file below the root
 * ("class/infiniband/mlx5_0/ports/1/state=4: ACTIVE"), "<path>" alone for an (empty)
 * directory; in the contents "\n", "\r", "\\" and "\xHH" stand for those bytes.  A path
 * starting with '!' is a file whose read fails (EIO).  Parent directories exist by
 * implication.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ibmgmt/ibpath.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The tree's own lookups are not what is being fuzzed: kept out of the coverage feedback
 * (which would also make them slow), comparing bytes without the C library's intercepted
 * strcmp(). */
#define HARNESS __attribute__((no_sanitize("coverage")))

#define ROOT "/fz"
#define MAX_ENTRIES 512
#define MAX_OPEN 8

struct entry {
	char *path; /* below ROOT, no leading '/' */
	uint32_t hash;
	char *data;
	size_t len;
	bool dir, fail;
};

static struct entry tree[MAX_ENTRIES];
static size_t ntree;
/* every directory: the parents of the entries and the directory entries (by hash; a
 * collision only makes a directory of a path that is not one) */
#define MAX_DIRS (MAX_ENTRIES * 16)
static uint32_t dirs[MAX_DIRS];
static size_t ndirs;

static struct {
	const struct entry *e;
	size_t off;
} fds[MAX_OPEN];

struct fz_dir {
	char **names;
	size_t n, next;
	struct dirent de;
};

HARNESS static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

HARNESS static void add_dir(const char *s, size_t n)
{
	if (ndirs < MAX_DIRS)
		dirs[ndirs++] = hash(s, n);
}

HARNESS static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* whether s starts with the n bytes of prefix */
HARNESS static bool starts(const char *s, const char *prefix, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != prefix[i])
			return false;
	return true;
}

static char *unescape(const char *s, size_t n, size_t *len)
{
	char *out = malloc(n + 1);
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			out[o++] = s[i];
			continue;
		}
		i++;
		if (s[i] == 'n')
			out[o++] = '\n';
		else if (s[i] == 'r')
			out[o++] = '\r';
		else if (s[i] == 'x' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
			 isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], 0 };

			out[o++] = (char)strtoul(hex, NULL, 16);
			i += 2;
		} else
			out[o++] = s[i];
	}
	out[o] = 0;
	*len = o;
	return out;
}

static void add(const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n);
	size_t plen = eq ? (size_t)(eq - line) : n;
	struct entry *e;

	if (ntree == MAX_ENTRIES)
		return;
	e = &tree[ntree++];
	memset(e, 0, sizeof(*e));
	if (plen && line[0] == '!') {
		e->fail = true;
		line++;
		plen--;
		n--;
	}
	while (plen && line[0] == '/') {
		line++;
		plen--;
		n--;
	}
	e->path = strndup(line, plen);
	e->hash = hash(e->path, strlen(e->path));
	e->dir = !eq;
	if (e->dir)
		add_dir(e->path, strlen(e->path));
	for (const char *p = e->path; (p = strchr(p, '/')); p++)
		add_dir(e->path, (size_t)(p - e->path));
	if (eq)
		e->data = unescape(eq + 1, n - plen - 1, &e->len);
}

static void build_tree(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;

	ntree = ndirs = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (n)
			add(s, n);
		s += n + 1;
	}
}

static void free_tree(void)
{
	for (size_t i = 0; i < ntree; i++) {
		free(tree[i].path);
		free(tree[i].data);
	}
	ntree = 0;
	memset(fds, 0, sizeof(fds));
}

/* the path below ROOT, or NULL for a path outside it ("" is ROOT itself) */
HARNESS static const char *below_root(const char *path)
{
	size_t r = strlen(ROOT);

	if (!starts(path, ROOT, r) || (path[r] && path[r] != '/'))
		return NULL;
	path += r;
	while (*path == '/')
		path++;
	return path;
}

/* whether rel is a directory: one given, or the parent of an entry */
HARNESS static bool is_dir(const char *rel)
{
	uint32_t h = hash(rel, strlen(rel));

	if (!*rel)
		return true;
	for (size_t i = 0; i < ndirs; i++)
		if (dirs[i] == h)
			return true;
	return false;
}

HARNESS static const struct entry *find_file(const char *rel)
{
	const struct entry *found = NULL;
	uint32_t h = hash(rel, strlen(rel));

	/* the last of several entries with one path wins, as a rewrite would */
	for (size_t i = 0; i < ntree; i++)
		if (!tree[i].dir && tree[i].hash == h && same(tree[i].path, rel))
			found = &tree[i];
	return found;
}

static int fz_open(const char *path, int flags, ...)
{
	static const struct entry dir_entry = { .dir = true };
	const char *rel = below_root(path);
	const struct entry *e;

	(void)flags;
	if (!rel) {
		errno = ENOENT;
		return -1;
	}
	e = find_file(rel);
	if (!e && is_dir(rel))
		e = &dir_entry;
	if (!e) {
		errno = ENOENT;
		return -1;
	}
	for (int fd = 0; fd < MAX_OPEN; fd++) {
		if (!fds[fd].e) {
			fds[fd].e = e;
			fds[fd].off = 0;
			return fd + 100;
		}
	}
	errno = EMFILE;
	return -1;
}

static ssize_t fz_read(int fd, void *buf, size_t n)
{
	const struct entry *e;
	size_t left;

	if (fd < 100 || fd >= 100 + MAX_OPEN || !fds[fd - 100].e)
		abort(); /* sysfs.c read a descriptor it does not hold */
	e = fds[fd - 100].e;
	if (e->dir || e->fail) {
		errno = e->dir ? EISDIR : EIO;
		return -1;
	}
	left = e->len - fds[fd - 100].off;
	if (n > left)
		n = left;
	memcpy(buf, e->data + fds[fd - 100].off, n);
	fds[fd - 100].off += n;
	return (ssize_t)n;
}

static int fz_close(int fd)
{
	if (fd < 100 || fd >= 100 + MAX_OPEN || !fds[fd - 100].e)
		abort(); /* closed twice, or never opened */
	fds[fd - 100].e = NULL;
	return 0;
}

HARNESS static DIR *fz_opendir(const char *path)
{
	const char *rel = below_root(path);
	struct fz_dir *d;
	size_t n;

	if (!rel || !is_dir(rel)) {
		errno = rel && find_file(rel) ? ENOTDIR : ENOENT;
		return NULL;
	}
	n = strlen(rel);
	d = calloc(1, sizeof(*d));
	d->names = calloc(ntree + 2, sizeof(*d->names));
	d->names[d->n++] = strdup(".");
	d->names[d->n++] = strdup("..");
	for (size_t i = 0; i < ntree; i++) {
		const char *p = tree[i].path, *child, *slash;
		size_t k;
		bool dup = false;

		if (n && (!starts(p, rel, n) || p[n] != '/'))
			continue;
		child = n ? p + n + 1 : p;
		if (!*child)
			continue;
		slash = strchr(child, '/');
		k = slash ? (size_t)(slash - child) : strlen(child);
		if (!k)
			continue;
		for (size_t j = 0; j < d->n && !dup; j++)
			dup = starts(d->names[j], child, k) && d->names[j][k] == '\0';
		if (!dup)
			d->names[d->n++] = strndup(child, k);
	}
	return (DIR *)d;
}

static struct dirent *fz_readdir(DIR *dir)
{
	struct fz_dir *d = (struct fz_dir *)dir;

	if (d->next == d->n)
		return NULL;
	memset(&d->de, 0, sizeof(d->de));
	snprintf(d->de.d_name, sizeof(d->de.d_name), "%s", d->names[d->next++]);
	return &d->de;
}

static int fz_closedir(DIR *dir)
{
	struct fz_dir *d = (struct fz_dir *)dir;

	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	free(d);
	return 0;
}

#define open fz_open
#define read fz_read
#define close fz_close
#define opendir fz_opendir
#define readdir fz_readdir
#define closedir fz_closedir
#include "sysfs.c"
#undef open
#undef read
#undef close
#undef opendir
#undef readdir
#undef closedir

static char text[4096], err[256];

static void check_str(const char *s, size_t max)
{
	if (!s || strlen(s) >= max)
		abort();
}

static void use_port(const struct ibpath_port *p)
{
	ibstruct_gid_t g;

	ibpath_port_device(p);
	ibpath_port_num(p);
	ibpath_port_lid(p);
	ibpath_port_lmc(p);
	ibpath_port_sm_lid(p);
	ibpath_port_sm_sl(p);
	ibpath_port_state(p);
	ibpath_port_phys_state(p);
	check_str(ibpath_port_rate_text(p), 64);
	ibpath_port_rate_mbps(p);
	ibpath_port_cap_mask(p);
	ibpath_port_link_layer(p);
	check_str(ibpath_port_link_layer_name(p), 32);
	ibpath_port_guid(p);
	ibpath_port_subnet_prefix(p);
	if (ibpath_port_gid_count(p) > IBPATH_MAX_GIDS || ibpath_port_pkey_count(p) > IBPATH_MAX_PKEYS)
		abort();
	for (unsigned i = 0; i <= ibpath_port_gid_count(p); i++)
		ibpath_port_gid(p, i, &g);
	for (unsigned i = 0; i <= ibpath_port_pkey_count(p); i++)
		ibpath_port_pkey(p, i);
	ibpath_port_umad_name(p);
	ibpath_port_issm_name(p);
	ibpath_port_subnet_timeout(p);
	ibpath_port_format(p, text, sizeof(text));
	ibpath_port_format(p, text, 3);
}

static void select_all(const struct ibpath_devlist *list)
{
	static const char *const specs[] = { "", "mlx5_0", "mlx5_0/1", "switch0", "0x0002c90300001492",
					     "fe80::2:c903:0:1492", "mlx5_0/0", "nosuch" };
	const struct ibpath_port *p;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		p = NULL;
		if (ibpath_devlist_select(list, specs[i], &p, err, sizeof(err)) == 0) {
			if (!p)
				abort();
		} else if (!err[0]) {
			abort();
		}
	}
	ibpath_devlist_select(list, NULL, &p, err, sizeof(err));
	ibpath_devlist_select_ca_port(list, NULL, 0, &p, err, sizeof(err));
	ibpath_devlist_select_ca_port(list, NULL, 1, &p, err, sizeof(err));
	ibpath_devlist_select_ca_port(list, "mlx5_0", 0, &p, err, sizeof(err));
	ibpath_devlist_select_ca_port(list, "mlx5_0", 2, &p, err, sizeof(err));
	if (ibpath_devlist_count(list)) {
		const struct ibpath_device *d = ibpath_devlist_device(list, 0);

		ibpath_devlist_select(list, ibpath_device_name(d), &p, err, sizeof(err));
		ibpath_devlist_select_ca_port(list, ibpath_device_name(d), 0, &p, err, sizeof(err));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibpath_devlist *list = NULL;

	build_tree(data, size);
	for (unsigned flags = 0; flags < 2; flags++) {
		int rc = ibpath_devlist_open(&list, ROOT, flags);

		if (rc) {
			if (rc > 0 || list)
				abort();
			continue;
		}
		for (unsigned i = 0; i < ibpath_devlist_count(list); i++) {
			const struct ibpath_device *d = ibpath_devlist_device(list, i);

			check_str(ibpath_device_name(d), 64);
			if (ibpath_devlist_find(list, ibpath_device_name(d)) == NULL)
				abort();
			ibpath_device_node_type(d);
			ibpath_device_node_guid(d);
			ibpath_device_sys_image_guid(d);
			check_str(ibpath_device_fw_ver(d), 64);
			check_str(ibpath_device_hw_rev(d), 64);
			check_str(ibpath_device_hca_type(d), 64);
			check_str(ibpath_device_board_id(d), 128);
			check_str(ibpath_device_node_desc(d), 128);
			for (unsigned k = 0; k < ibpath_device_port_count(d); k++) {
				const struct ibpath_port *p = ibpath_device_port(d, k);

				if (!p || ibpath_device_port_by_num(d, ibpath_port_num(p)) == NULL)
					abort();
				if (k && ibpath_port_num(p) < ibpath_port_num(ibpath_device_port(d, k - 1)))
					abort(); /* in port number order */
				use_port(p);
			}
			ibpath_device_port(d, ibpath_device_port_count(d));
		}
		select_all(list);
		ibpath_devlist_close(list);
		list = NULL;
		for (int fd = 0; fd < MAX_OPEN; fd++)
			if (fds[fd].e)
				abort(); /* a file left open */
	}
	free_tree();
	return 0;
}
