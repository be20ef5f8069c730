// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibstat: the local RDMA devices and their ports as sysfs describes them (no MADs).
 *
 * A drop-in for infiniband-diags' ibstat, which reads sysfs through libibumad: the device
 * list is the devices whose node_type is 1..3, sorted by name; a device is shown only when
 * every file libibumad insists on is there (otherwise the reference fails the whole run
 * with "stat of IB device ... failed"), and values are parsed the way libibumad parses
 * them (strtoul base 0, the text of the rate file, GID 0 for the port GUID).
 *
 * Values come from libibpath's device list.  The list of names and the completeness
 * check are done here with plain open()/opendir() (so umad2sim's simulated sysfs works),
 * because libibpath is deliberately more tolerant than libibumad (it skips a device
 * without a ports directory, which the reference still lists with -l).
 *
 * Extra: IBMGMT_SYSFS_ROOT=<dir> reads <dir>/class/infiniband instead of /sys.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/ibdiag.h"

#define MAX_PORTS 10 /* libibumad's UMAD_CA_MAX_PORTS: port directories 0..9 */
#define MAX_DEVS  256

static const char *const node_type_str[] = {"???", "CA", "Switch", "Router", "iWARP RNIC"};
static const char *const port_state_str[] = {"???", "Down", "Initializing", "Armed", "Active"};
static const char *const phys_state_str[] = {
    "No state change",		 "Sleep",  "Polling",		"Disabled",
    "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest"};

struct ibstat_opts {
	bool list_only;
	bool short_format;
	bool list_ports;
};

static char sysfs_root[4096] = "/sys";

static const char *type_name(unsigned type)
{
	return type <= 4 ? node_type_str[type] : "???";
}

static int handle_opt(void *ctx, int letter, char *optarg)
{
	struct ibstat_opts *o = ctx;

	(void)optarg;
	switch (letter) {
	case 'l':
		o->list_only = true;
		return 0;
	case 's':
		o->short_format = true;
		return 0;
	case 'p':
		o->list_ports = true;
		return 0;
	default:
		return -1;
	}
}

/* ---- libibumad's view of a device: which files must exist ----------------------------- */

/* snprintf() into a path buffer; an over-long path simply fails to open later. */
static void path_fmt(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void path_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* Reads a file of the device tree as libibumad does: at most len - 1 bytes, cut at the
 * last newline.  0 or a negative errno. */
static int read_text(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int read_text(char *buf, size_t len, const char *fmt, ...)
{
	char path[4096], *nl;
	va_list ap;
	ssize_t n;
	int fd, r;

	va_start(ap, fmt);
	r = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	close(fd);
	buf[n] = 0;
	nl = strrchr(buf, '\n');
	if (nl)
		*nl = 0;
	return 0;
}

/* libibumad reads GUIDs and GIDs as ':'-separated groups and fails when there are too few. */
static int check_groups(const char *text, unsigned want)
{
	char buf[128], *s = buf, *tok;
	unsigned i;

	snprintf(buf, sizeof(buf), "%s", text);
	for (i = 0; i < want; i++) {
		tok = strsep(&s, ": \t\n");
		if (!tok)
			return -EINVAL;
	}
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int check_port(const char *portsdir, int num)
{
	static const char *const files[] = {"lid_mask_count", "sm_lid",	   "sm_sl", "lid",
					    "state",	      "phys_state"};
	char buf[64], path[4096];
	struct dirent *de;
	unsigned i, pkeys = 0;
	DIR *d;
	int r;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		r = read_text(buf, 32, "%s/%d/%s", portsdir, num, files[i]);
		if (r)
			return r;
	}
	r = read_text(buf, 32, "%s/%d/cap_mask", portsdir, num);
	if (r)
		return r;
	r = read_text(buf, 64, "%s/%d/gids/0", portsdir, num);
	if (r)
		return r;
	if (check_groups(buf, 8))
		return -EINVAL;
	path_fmt(path, sizeof(path), "%s/%d/pkeys", portsdir, num);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (all_digits(de->d_name))
			pkeys++;
	closedir(d);
	return pkeys ? 0 : -EIO;
}

/* What makes libibumad's umad_get_ca() fail, in its order.  0 or a negative errno. */
static int check_device(const char *name)
{
	char dir[4096], portsdir[4096], buf[64];
	struct dirent *de;
	DIR *d;
	int r = 0;

	path_fmt(dir, sizeof(dir), "%s/class/infiniband/%s", sysfs_root, name);
	r = read_text(buf, 32, "%s/node_type", dir);
	if (r)
		return r;
	r = read_text(buf, 32, "%s/node_guid", dir);
	if (!r && check_groups(buf, 4))
		r = -EINVAL;
	if (r)
		return r;
	r = read_text(buf, 32, "%s/sys_image_guid", dir);
	if (!r && check_groups(buf, 4))
		r = -EINVAL;
	if (r)
		return r;
	path_fmt(portsdir, sizeof(portsdir), "%s/ports", dir);
	d = opendir(portsdir);
	if (!d)
		return -ENOENT;
	while (!r && (de = readdir(d))) {
		int num = 0;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (strcmp(de->d_name, "0")) {
			num = atoi(de->d_name);
			if (num <= 0 || num >= MAX_PORTS) {
				r = -EIO;
				break;
			}
		}
		r = check_port(portsdir, num);
		if (r)
			r = -EIO;
	}
	closedir(d);
	return r;
}

/* libibumad reads fw_ver, hw_rev, hca_type and each port's rate and link_layer without
 * insisting on them; a missing one leaves errno at ENOENT, which the reference's later
 * "stat of IB device ... failed" message then shows (umad2sim's tree has no link_layer). */
static int leftover_errno(const char *name)
{
	static const char *const dev_files[] = {"fw_ver", "hw_rev", "hca_type"};
	char dir[4096], buf[64];
	struct dirent *de;
	unsigned i;
	int e = 0;
	DIR *d;

	path_fmt(dir, sizeof(dir), "%s/class/infiniband/%s", sysfs_root, name);
	for (i = 0; i < sizeof(dev_files) / sizeof(dev_files[0]); i++)
		if (read_text(buf, sizeof(buf), "%s/%s", dir, dev_files[i]))
			e = ENOENT;
	path_fmt(dir, sizeof(dir), "%s/class/infiniband/%s/ports", sysfs_root, name);
	d = opendir(dir);
	if (!d)
		return e;
	while ((de = readdir(d))) {
		if (!all_digits(de->d_name))
			continue;
		if (read_text(buf, sizeof(buf), "%s/%s/rate", dir, de->d_name) ||
		    read_text(buf, sizeof(buf), "%s/%s/link_layer", dir, de->d_name))
			e = ENOENT;
	}
	closedir(d);
	return e;
}

/* ---- The device list ------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* libibumad's device list: entries of class/infiniband whose node_type reads as 1..3,
 * sorted (ibstat sorts it).  Returns the count; names are malloc'd. */
static unsigned list_devices(char **names, unsigned max)
{
	char path[4096], buf[32];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	path_fmt(path, sizeof(path), "%s/class/infiniband", sysfs_root);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		unsigned long type;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (read_text(buf, sizeof(buf), "%s/%s/node_type", path, de->d_name))
			continue;
		type = strtoul(buf, NULL, 0);
		if (type < 1 || type > 3)
			continue;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	return n;
}

/* ---- Output --------------------------------------------------------------------------- */

/* The highest port number (libibumad's "numports"; 0 for a switch). */
static unsigned max_port(const struct ibpath_device *dev)
{
	unsigned i, max = 0;

	for (i = 0; i < ibpath_device_port_count(dev); i++)
		if (ibpath_port_num(ibpath_device_port(dev, i)) > max)
			max = ibpath_port_num(ibpath_device_port(dev, i));
	return max;
}

static uint64_t port_guid(const struct ibpath_port *p)
{
	ibstruct_gid_t gid;

	/* libibumad takes the port GUID from GID 0, never from the port_guid file */
	if (ibpath_port_gid(p, 0, &gid))
		return 0;
	return ibstruct_gid_guid(&gid);
}

static void print_device(const struct ibpath_device *dev)
{
	const char *t = type_name(ibpath_device_node_type(dev));

	printf("%s '%s'\n", t, ibpath_device_name(dev));
	/* libibumad keeps these in fixed buffers of 40 and 20 bytes */
	printf("\t%s type: %.39s\n", t, ibpath_device_hca_type(dev));
	printf("\tNumber of ports: %u\n", max_port(dev));
	printf("\tFirmware version: %.19s\n", ibpath_device_fw_ver(dev));
	printf("\tHardware version: %.19s\n", ibpath_device_hw_rev(dev));
	printf("\tNode GUID: 0x%016" PRIx64 "\n", ibpath_device_node_guid(dev));
	printf("\tSystem image GUID: 0x%016" PRIx64 "\n", ibpath_device_sys_image_guid(dev));
}

static void print_port(const struct ibpath_port *p, bool alone)
{
	const char *pre = alone ? "" : "\t\t", *hdr = alone ? "" : "\t";
	const char *rate_text = ibpath_port_rate_text(p), *paren;
	unsigned st = ibpath_port_state(p), ph = ibpath_port_phys_state(p);
	unsigned long rate;

	if (!rate_text)
		rate_text = "";
	/* libibumad keeps the leading number of "40 Gb/sec (4X QDR)" */
	rate = strtoul(rate_text, NULL, 0);
	paren = strchr(rate_text, ')');
	printf("%sPort %u:\n", hdr, ibpath_port_num(p));
	printf("%sState: %s\n", pre, st <= 4 ? port_state_str[st] : "???");
	printf("%sPhysical state: %s\n", pre, ph <= 7 ? phys_state_str[ph] : "???");
	if (paren && paren - rate_text >= 5 && !strncasecmp(paren - 5, "fdr10", 5))
		printf("%sRate: %lu (FDR10)\n", pre, rate);
	else if (rate != 2) /* "2.5 Gb/sec" */
		printf("%sRate: %lu\n", pre, rate);
	else
		printf("%sRate: 2.5\n", pre);
	printf("%sBase lid: %u\n", pre, ibpath_port_lid(p));
	printf("%sLMC: %u\n", pre, ibpath_port_lmc(p));
	printf("%sSM lid: %u\n", pre, ibpath_port_sm_lid(p));
	printf("%sCapability mask: 0x%08x\n", pre, ibpath_port_cap_mask(p));
	printf("%sPort GUID: 0x%016" PRIx64 "\n", pre, port_guid(p));
	printf("%sLink layer: %.19s\n", pre, ibpath_port_link_layer_name(p));
}

/* One device: its header and ports, or with a port number that port alone.  0, or -1
 * with errno set for the caller's IBPANIC. */
static int ca_stat(const struct ibpath_devlist *list, const char *name, int portnum, bool no_ports)
{
	const struct ibpath_device *dev;
	const struct ibpath_port *p;
	unsigned i;
	int r;

	r = check_device(name);
	dev = list ? ibpath_devlist_find(list, name) : NULL;
	if (r || !dev) {
		errno = r ? -r : ENOENT;
		return -1;
	}
	if (!no_ports && portnum >= 0) {
		const char *t = type_name(ibpath_device_node_type(dev));

		p = portnum <= (int)max_port(dev)
			? ibpath_device_port_by_num(dev, (unsigned)portnum)
			: NULL;
		if (!p) {
			IBWARN("%s: '%s' has no port number %d - max (%u)", t, name, portnum,
			       max_port(dev));
			errno = leftover_errno(name);
			return -1;
		}
		printf("%s: '%s'\n", t, name);
		print_port(p, true);
		return 0;
	}
	print_device(dev);
	if (no_ports)
		return 0;
	for (i = 0; i < ibpath_device_port_count(dev); i++)
		print_port(ibpath_device_port(dev, i), false);
	return 0;
}

/* -p: the non-zero port GUIDs of the devices. */
static int list_port_guids(const struct ibpath_devlist *list, char **names, unsigned n)
{
	unsigned i, j;

	for (i = 0; i < n; i++) {
		const struct ibpath_device *dev;
		int r = check_device(names[i]);

		dev = list ? ibpath_devlist_find(list, names[i]) : NULL;
		if (r || !dev) {
			errno = r ? -r : ENOENT;
			return -1;
		}
		for (j = 0; j < ibpath_device_port_count(dev); j++) {
			uint64_t guid = port_guid(ibpath_device_port(dev, j));

			if (guid)
				printf("0x%016" PRIx64 "\n", guid);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
	    {"list_of_cas", 'l', 0, NULL, "list all IB devices"},
	    {"short", 's', 0, NULL, "short output"},
	    {"port_list", 'p', 0, NULL, "show port list"},
	    {0},
	};
	static const char *const examples[] = {
	    "-l       # list all IB devices",
	    "mthca0 2 # stat port 2 of 'mthca0'",
	    NULL,
	};
	struct ibstat_opts o = {0};
	struct ibpath_devlist *list = NULL;
	char *names[MAX_DEVS];
	unsigned n, first = 0, last, i;
	const char *root = getenv("IBMGMT_SYSFS_ROOT");
	int portnum = -1;
	int optind_;

	optind_ = ibdiag_process_opts(argc, argv, &o, "CDeGKLPsty", opts, handle_opt,
				      "<ca_name> [portnum]", examples);
	argc -= optind_;
	argv += optind_;
	/* the reference keeps strtol()'s result in an int: huge numbers wrap */
	if (argc > 1)
		portnum = (int)strtol(argv[1], NULL, 0);
	if (root && *root)
		path_fmt(sysfs_root, sizeof(sysfs_root), "%s", root);

	n = list_devices(names, MAX_DEVS);
	last = n;
	if (n)
		ibpath_devlist_open(&list, sysfs_root, IBPATH_DEVLIST_SORTED);
	if (argc) {
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], argv[0]))
				break;
		if (i == n) {
			errno = 0;
			IBPANIC("'%s' IB device can't be found", argv[0]);
		}
		first = i;
		last = i + 1;
	}

	if (o.list_ports) {
		if (list_port_guids(list, names + first, last - first) < 0)
			IBPANIC("can't list ports");
	} else {
		for (i = first; i < last; i++) {
			if (o.list_only)
				printf("%s\n", names[i]);
			else if (ca_stat(list, names[i], portnum, o.short_format) < 0)
				IBPANIC("stat of IB device '%s' failed", names[i]);
		}
	}
	ibpath_devlist_close(list);
	for (i = 0; i < n; i++)
		free(names[i]);
	return 0;
}
