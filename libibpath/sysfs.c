// SPDX-License-Identifier: BSD-3-Clause
/*
 * RDMA devices and ports from sysfs.
 *
 * Only open()/read()/close() and opendir()/readdir()/closedir() touch the tree: umad2sim
 * (the simulated fabric's LD_PRELOAD library) intercepts exactly those, and nothing here
 * may turn into open64()/openat()/fopen()/stat().  Files may lack a trailing newline and
 * may be missing altogether; numbers are read with base 0 like libibumad does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibpath-private.h"

/* Reads a small sysfs file into buf without its trailing newline. */
static int read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0, want;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		want = len - 1 - got;
		n = read(fd, buf + got, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		got += (size_t)n;
		/* a sysfs attribute comes whole in one read, and so does a small regular file:
		 * a short read is the end, and asking again would only cost a system call */
		if ((size_t)n < want)
			break;
	}
	close(fd);
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		got--;
	buf[got] = 0;
	return (int)got;
}

static int read_attr(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fmt_str(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* snprintf() that reports truncation as -ENAMETOOLONG */
static int fmt_str(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int read_attr(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_LEN];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return read_file(path, buf, len);
}

/* Leading number of "4: ACTIVE", "0x2", "10 Gb/sec (4X)". */
static unsigned long leading_number(const char *s)
{
	return strtoul(s, NULL, 0);
}

/* "2.5 Gb/sec (1X)" -> 2500, "10 Gb/sec (4X)" -> 10000 */
static unsigned rate_to_mbps(const char *s)
{
	unsigned long whole = strtoul(s, (char **)&s, 10);
	unsigned frac = 0, scale = 1000;

	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			scale /= 10;
			frac += (unsigned)(*s - '0') * scale;
			s++;
		}
	}
	return (unsigned)(whole * 1000 + frac);
}

static int name_cmp(const void *a, const void *b)
{
	const struct ibpath_device *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

static int port_cmp(const void *a, const void *b)
{
	const struct ibpath_port *x = a, *y = b;

	/* (not a subtraction: a directory "ports/4294967295" made that wrap, fuzz-ibpath-sysfs) */
	return (x->num > y->num) - (x->num < y->num);
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void read_table_gids(struct ibpath_port *p, const char *dir)
{
	char path[PATH_LEN], buf[128];
	unsigned i;

	/* gids/<n> are dense from 0; stop at the first missing index */
	for (i = 0; i < IBPATH_MAX_GIDS; i++) {
		ibstruct_gid_t g;

		if (fmt_str(path, sizeof(path), "%s/gids/%u", dir, i) ||
		    read_file(path, buf, sizeof(buf)) < 0)
			break;
		if (ibstruct_gid_parse(buf, &g))
			memset(&g, 0, sizeof(g));
		p->gids[p->ngids++] = g;
	}
}

static void read_table_pkeys(struct ibpath_port *p, const char *dir)
{
	char path[PATH_LEN], buf[64];
	unsigned i;

	for (i = 0; i < IBPATH_MAX_PKEYS; i++) {
		if (fmt_str(path, sizeof(path), "%s/pkeys/%u", dir, i) ||
		    read_file(path, buf, sizeof(buf)) < 0)
			break;
		p->pkeys[p->npkeys++] = (uint16_t)leading_number(buf);
	}
}

static int read_port(struct ibpath_device *dev, struct ibpath_port *p, const char *devdir,
		     unsigned num)
{
	char dir[PATH_LEN], buf[128];

	memset(p, 0, sizeof(*p));
	p->dev = dev;
	p->num = num;
	p->subnet_timeout = 18;
	if (fmt_str(dir, sizeof(dir), "%s/ports/%u", devdir, num))
		return -ENAMETOOLONG;
	if (read_attr(buf, sizeof(buf), "%s/lid", dir) >= 0)
		p->lid = (uint16_t)leading_number(buf);
	if (read_attr(buf, sizeof(buf), "%s/lid_mask_count", dir) >= 0)
		p->lmc = (uint8_t)leading_number(buf);
	if (read_attr(buf, sizeof(buf), "%s/sm_lid", dir) >= 0)
		p->sm_lid = (uint16_t)leading_number(buf);
	if (read_attr(buf, sizeof(buf), "%s/sm_sl", dir) >= 0)
		p->sm_sl = (uint8_t)leading_number(buf);
	if (read_attr(buf, sizeof(buf), "%s/state", dir) >= 0)
		p->state = (unsigned)leading_number(buf);
	if (read_attr(buf, sizeof(buf), "%s/phys_state", dir) >= 0)
		p->phys_state = (unsigned)leading_number(buf);
	if (read_attr(p->rate, sizeof(p->rate), "%s/rate", dir) >= 0)
		p->rate_mbps = rate_to_mbps(p->rate);
	if (read_attr(buf, sizeof(buf), "%s/cap_mask", dir) >= 0)
		p->cap_mask = (uint32_t)leading_number(buf);
	/* libibumad treats a missing link_layer file as InfiniBand */
	p->link_layer = IBPATH_LINK_LAYER_INFINIBAND;
	strcpy(p->link_layer_name, "IB");
	if (read_attr(p->link_layer_name, sizeof(p->link_layer_name), "%s/link_layer", dir) >= 0) {
		strcpy(buf, p->link_layer_name);
		if (!strcmp(buf, "InfiniBand") || !strcmp(buf, "IB"))
			p->link_layer = IBPATH_LINK_LAYER_INFINIBAND;
		else if (!strcmp(buf, "Ethernet"))
			p->link_layer = IBPATH_LINK_LAYER_ETHERNET;
		else
			p->link_layer = IBPATH_LINK_LAYER_UNKNOWN;
	}
	read_table_gids(p, dir);
	read_table_pkeys(p, dir);
	if (read_attr(buf, sizeof(buf), "%s/port_guid", dir) >= 0 && !ibstruct_guid_parse(buf, &p->guid))
		p->has_guid_file = true;
	else if (p->ngids)
		p->guid = ibstruct_gid_guid(&p->gids[0]);
	return 0;
}

static int read_device(struct ibpath_devlist *list, struct ibpath_device *dev, const char *name)
{
	char devdir[PATH_LEN], portsdir[PATH_LEN], buf[128];
	unsigned nums[IBPATH_MAX_PORTS], n = 0, i;
	struct dirent *de;
	DIR *d;

	memset(dev, 0, sizeof(*dev));
	dev->list = list;
	if (fmt_str(dev->name, sizeof(dev->name), "%s", name) ||
	    fmt_str(devdir, sizeof(devdir), "%s/class/infiniband/%s", list->root, name))
		return -ENAMETOOLONG;
	if (read_attr(buf, sizeof(buf), "%s/node_type", devdir) >= 0)
		dev->node_type = (unsigned)leading_number(buf);
	if (read_attr(buf, sizeof(buf), "%s/node_guid", devdir) >= 0)
		ibstruct_guid_parse(buf, &dev->node_guid);
	if (read_attr(buf, sizeof(buf), "%s/sys_image_guid", devdir) >= 0)
		ibstruct_guid_parse(buf, &dev->sys_image_guid);
	read_attr(dev->fw_ver, sizeof(dev->fw_ver), "%s/fw_ver", devdir);
	read_attr(dev->hw_rev, sizeof(dev->hw_rev), "%s/hw_rev", devdir);
	read_attr(dev->hca_type, sizeof(dev->hca_type), "%s/hca_type", devdir);
	read_attr(dev->board_id, sizeof(dev->board_id), "%s/board_id", devdir);
	read_attr(dev->node_desc, sizeof(dev->node_desc), "%s/node_desc", devdir);

	if (fmt_str(portsdir, sizeof(portsdir), "%s/ports", devdir))
		return -ENAMETOOLONG;
	d = opendir(portsdir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < IBPATH_MAX_PORTS)
		if (is_number(de->d_name))
			nums[n++] = (unsigned)strtoul(de->d_name, NULL, 10);
	closedir(d);
	if (!n)
		return 0;
	dev->ports = calloc(n, sizeof(*dev->ports));
	if (!dev->ports)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		int rc = read_port(dev, &dev->ports[dev->nports], devdir, nums[i]);

		if (rc == 0)
			dev->nports++;
	}
	/* glibc's qsort of elements this large (a port is ~5 KB) first asks the kernel for
	 * the memory size: not worth a system call for the usual single port */
	if (dev->nports > 1)
		qsort(dev->ports, dev->nports, sizeof(*dev->ports), port_cmp);
	/* back pointers survive the sort: they point at dev, not at the array */
	return 0;
}

/* /sys/class/infiniband_mad/{umad,issm}N/{ibdev,port}, once per list */
static void read_mad_devices(struct ibpath_devlist *list)
{
	char dir[PATH_LEN], ibdev[64], port[32];
	struct dirent *de;
	DIR *d;

	if (!list)
		return;
	pthread_mutex_lock(&list->mad_lock);
	if (list->mad_read)
		goto out;
	list->mad_read = true;
	if (fmt_str(dir, sizeof(dir), "%s/class/infiniband_mad", list->root))
		goto out;
	d = opendir(dir);
	if (!d)
		goto out;
	while ((de = readdir(d))) {
		bool umad = !strncmp(de->d_name, "umad", 4), issm = !strncmp(de->d_name, "issm", 4);
		struct ibpath_device *dev;
		struct ibpath_port *p;

		if ((!umad && !issm) || !is_number(de->d_name + 4))
			continue;
		if (read_attr(ibdev, sizeof(ibdev), "%s/%s/ibdev", dir, de->d_name) < 0 ||
		    read_attr(port, sizeof(port), "%s/%s/port", dir, de->d_name) < 0)
			continue;
		dev = (struct ibpath_device *)ibpath_devlist_find(list, ibdev);
		if (!dev)
			continue;
		p = (struct ibpath_port *)ibpath_device_port_by_num(dev, (unsigned)leading_number(port));
		if (!p)
			continue;
		fmt_str(umad ? p->umad : p->issm, sizeof(p->umad), "%s", de->d_name);
	}
	closedir(d);
out:
	pthread_mutex_unlock(&list->mad_lock);
}

IBPATH_EXPORT int ibpath_devlist_open(struct ibpath_devlist **out, const char *sysfs_root,
				      unsigned flags)
{
	struct ibpath_devlist *list;
	char dir[PATH_LEN];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int rc;

	if (!out)
		return -EINVAL;
	if (!sysfs_root)
		sysfs_root = "/sys";
	list = calloc(1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	pthread_mutex_init(&list->mad_lock, NULL);
	if (fmt_str(list->root, sizeof(list->root), "%s", sysfs_root) ||
	    fmt_str(dir, sizeof(dir), "%s/class/infiniband", sysfs_root)) {
		pthread_mutex_destroy(&list->mad_lock);
		free(list);
		return -ENAMETOOLONG;
	}
	d = opendir(dir);
	if (!d) {
		rc = -errno;
		pthread_mutex_destroy(&list->mad_lock);
		free(list);
		return rc == -ENOENT ? -ENODEV : rc;
	}
	while ((de = readdir(d))) {
		struct ibpath_device *dev;

		if (de->d_name[0] == '.')
			continue;
		if (list->ndevs == cap) {
			struct ibpath_device **n;

			cap = cap ? cap * 2 : 4;
			n = realloc(list->devs, cap * sizeof(*n));
			if (!n) {
				closedir(d);
				ibpath_devlist_close(list);
				return -ENOMEM;
			}
			list->devs = n;
		}
		dev = calloc(1, sizeof(*dev));
		if (!dev) {
			closedir(d);
			ibpath_devlist_close(list);
			return -ENOMEM;
		}
		rc = read_device(list, dev, de->d_name);
		if (rc) {
			free(dev->ports);
			free(dev);
			if (rc == -ENOMEM) {
				closedir(d);
				ibpath_devlist_close(list);
				return rc;
			}
			continue;
		}
		list->devs[list->ndevs++] = dev;
	}
	closedir(d);
	if (!list->ndevs) {
		ibpath_devlist_close(list);
		return -ENODEV;
	}
	if (flags & IBPATH_DEVLIST_SORTED)
		qsort(list->devs, list->ndevs, sizeof(*list->devs), name_cmp);
	*out = list;
	return 0;
}

IBPATH_EXPORT void ibpath_devlist_close(struct ibpath_devlist *list)
{
	unsigned i;

	if (!list)
		return;
	for (i = 0; i < list->ndevs; i++) {
		free(list->devs[i]->ports);
		free(list->devs[i]);
	}
	free(list->devs);
	pthread_mutex_destroy(&list->mad_lock);
	free(list);
}

IBPATH_EXPORT unsigned ibpath_devlist_count(const struct ibpath_devlist *list)
{
	return list ? list->ndevs : 0;
}

IBPATH_EXPORT const struct ibpath_device *ibpath_devlist_device(const struct ibpath_devlist *list,
								unsigned index)
{
	return list && index < list->ndevs ? list->devs[index] : NULL;
}

IBPATH_EXPORT const struct ibpath_device *ibpath_devlist_find(const struct ibpath_devlist *list,
							      const char *name)
{
	unsigned i;

	if (!list || !name)
		return NULL;
	for (i = 0; i < list->ndevs; i++)
		if (!strcmp(list->devs[i]->name, name))
			return list->devs[i];
	return NULL;
}

/* ---- getters ------------------------------------------------------------------------- */

#define DEV_GET(type, name, expr, dflt)                                                           \
	IBPATH_EXPORT type ibpath_device_##name(const struct ibpath_device *dev)                  \
	{                                                                                          \
		return dev ? (expr) : (dflt);                                                      \
	}

DEV_GET(const char *, name, dev->name, NULL)
DEV_GET(unsigned, node_type, dev->node_type, 0)
DEV_GET(uint64_t, node_guid, dev->node_guid, 0)
DEV_GET(uint64_t, sys_image_guid, dev->sys_image_guid, 0)
DEV_GET(const char *, fw_ver, dev->fw_ver, NULL)
DEV_GET(const char *, hw_rev, dev->hw_rev, NULL)
DEV_GET(const char *, hca_type, dev->hca_type, NULL)
DEV_GET(const char *, board_id, dev->board_id, NULL)
DEV_GET(const char *, node_desc, dev->node_desc, NULL)
DEV_GET(unsigned, port_count, dev->nports, 0)

IBPATH_EXPORT const struct ibpath_port *ibpath_device_port(const struct ibpath_device *dev, unsigned index)
{
	return dev && index < dev->nports ? &dev->ports[index] : NULL;
}

IBPATH_EXPORT const struct ibpath_port *ibpath_device_port_by_num(const struct ibpath_device *dev,
								  unsigned num)
{
	unsigned i;

	if (!dev)
		return NULL;
	for (i = 0; i < dev->nports; i++)
		if (dev->ports[i].num == num)
			return &dev->ports[i];
	return NULL;
}

#define PORT_GET(type, name, expr, dflt)                                                          \
	IBPATH_EXPORT type ibpath_port_##name(const struct ibpath_port *port)                     \
	{                                                                                          \
		return port ? (expr) : (dflt);                                                     \
	}

PORT_GET(const struct ibpath_device *, device, port->dev, NULL)
PORT_GET(unsigned, num, port->num, 0)
PORT_GET(uint16_t, lid, port->lid, 0)
PORT_GET(uint8_t, lmc, port->lmc, 0)
PORT_GET(uint16_t, sm_lid, port->sm_lid, 0)
PORT_GET(uint8_t, sm_sl, port->sm_sl, 0)
PORT_GET(unsigned, state, port->state, 0)
PORT_GET(unsigned, phys_state, port->phys_state, 0)
PORT_GET(const char *, rate_text, port->rate, NULL)
PORT_GET(unsigned, rate_mbps, port->rate_mbps, 0)
PORT_GET(uint32_t, cap_mask, port->cap_mask, 0)
PORT_GET(enum ibpath_link_layer, link_layer, port->link_layer, IBPATH_LINK_LAYER_UNKNOWN)
PORT_GET(const char *, link_layer_name, port->link_layer_name, NULL)
PORT_GET(uint64_t, guid, port->guid, 0)
PORT_GET(uint64_t, subnet_prefix, port->ngids ? ibstruct_gid_prefix(&port->gids[0]) : 0, 0)
PORT_GET(unsigned, gid_count, port->ngids, 0)
PORT_GET(unsigned, pkey_count, port->npkeys, 0)

IBPATH_EXPORT const char *ibpath_port_umad_name(const struct ibpath_port *port)
{
	if (!port)
		return NULL;
	read_mad_devices(port->dev->list);
	return port->umad[0] ? port->umad : NULL;
}

IBPATH_EXPORT const char *ibpath_port_issm_name(const struct ibpath_port *port)
{
	if (!port)
		return NULL;
	read_mad_devices(port->dev->list);
	return port->issm[0] ? port->issm : NULL;
}

PORT_GET(uint8_t, subnet_timeout, port->subnet_timeout, 18)

IBPATH_EXPORT int ibpath_port_gid(const struct ibpath_port *port, unsigned index, ibstruct_gid_t *gid)
{
	if (!port || !gid)
		return -EINVAL;
	if (index >= port->ngids)
		return -ERANGE;
	*gid = port->gids[index];
	return 0;
}

IBPATH_EXPORT uint16_t ibpath_port_pkey(const struct ibpath_port *port, unsigned index)
{
	return port && index < port->npkeys ? port->pkeys[index] : 0;
}

IBPATH_EXPORT void ibpath_port_set_subnet_timeout(struct ibpath_port *port, uint8_t timeout)
{
	if (port && timeout < 32)
		port->subnet_timeout = timeout;
}

IBPATH_EXPORT int ibpath_port_format(const struct ibpath_port *port, char *buf, size_t len)
{
	if (!port)
		return -EINVAL;
	return snprintf(buf, len, "%s/%u", port->dev->name, port->num);
}
