/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * set_nodedesc: show or set the node description of the local RDMA devices through sysfs
 * (<sysfs>/class/infiniband/<dev>/node_desc), python-rdma's ibtool set_nodedesc and
 * infiniband-diags' old set_nodedesc.sh.
 *
 *   set_nodedesc [-v] [-C dev|nodeguid] [-P port] [NAME]
 *
 * Without NAME, or with -v, every device's description is shown ("mlx5_0: host1 mlx5_0");
 * with NAME it is written to every device (-C / -P: to one device only), and each change
 * is announced before it is made ("mlx5_0: 'old' -> 'new'").  The kernel passes a written
 * description to the device's SMA, so the subnet sees it in NodeDescription.
 *
 * Extra: IBMGMT_SYSFS_ROOT=<dir> uses <dir>/class/infiniband instead of /sys (tests).
 * Exit status: 0 done, 2 usage, 255 error (no such device, a description longer than 64
 * bytes, a node_desc file that cannot be written).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibdiag.h"

#define NODE_DESC_MAX 64 /* IBA NodeDescription: 64 bytes */

/* file scope: an IBEXIT() while it is open leaves nothing unreachable (leak checkers) */
static struct ibpath_devlist *devices;

struct snd_opts {
	bool view;
	const char *ca;
	const char *port;
};

static int handle_opt(void *ctx, int letter, char *arg)
{
	struct snd_opts *o = ctx;

	switch (letter) {
	case 'v':
		o->view = true;
		return 0;
	case 'C':
		o->ca = arg;
		return 0;
	case 'P':
		o->port = arg;
		return 0;
	}
	return -1;
}

/* A description as python-rdma shows it: control bytes escaped, the rest as it is. */
static void print_desc(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else if (c == '\\')
			fputs("\\\\", stdout);
		else
			putchar(c);
	}
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

/* The device -C/-P select (NULL: all of them). */
static const struct ibpath_device *selected(const struct ibpath_devlist *list,
					    const struct snd_opts *o)
{
	const struct ibpath_device *dev = NULL;
	const struct ibpath_port *port;
	char why[256] = "";

	if (o->ca) {
		dev = ibpath_devlist_find(list, o->ca);
		if (!dev) {
			uint64_t guid;

			if (ibstruct_guid_parse(o->ca, &guid) < 0)
				guid = strtoull(o->ca, NULL, 0);
			for (unsigned i = 0; guid && i < ibpath_devlist_count(list); i++)
				if (ibpath_device_node_guid(ibpath_devlist_device(list, i)) == guid)
					dev = ibpath_devlist_device(list, i);
		}
		if (!dev)
			IBEXIT("no RDMA device '%s'", o->ca);
	}
	if (!o->port)
		return dev;
	if (all_digits(o->port)) {
		/* a port number of the -C device (or of the default one) */
		unsigned num = (unsigned)strtoul(o->port, NULL, 10);

		if (!dev && ibpath_devlist_select(list, NULL, &port, why, sizeof(why)) == 0)
			dev = ibpath_port_device(port);
		if (!dev || !ibpath_device_port_by_num(dev, num))
			IBEXIT("no port %s on %s", o->port, dev ? ibpath_device_name(dev) : "any device");
		return dev;
	}
	if (ibpath_devlist_select(list, o->port, &port, why, sizeof(why)) < 0)
		IBEXIT("no end port '%s'%s%s", o->port, *why ? ": " : "", why);
	if (dev && ibpath_port_device(port) != dev)
		IBEXIT("end port '%s' is not on %s", o->port, ibpath_device_name(dev));
	return ibpath_port_device(port);
}

static void write_desc(const char *root, const struct ibpath_device *dev, const char *name)
{
	char path[4096];
	size_t len = strlen(name);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/node_desc", root,
		 ibpath_device_name(dev));
	printf("%s: '", ibpath_device_name(dev));
	print_desc(ibpath_device_node_desc(dev));
	printf("' -> '");
	print_desc(name);
	printf("'\n");
	fflush(stdout);
	/* plain open(): the simulator's preload library intercepts only that */
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		IBEXIT("cannot write %s: %s", path, strerror(errno));
	n = write(fd, name, len);
	if (n < 0 || (size_t)n != len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		IBEXIT("cannot write %s: %s", path, strerror(e));
	}
	if (close(fd) < 0)
		IBEXIT("cannot write %s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "view", 'v', 0, NULL, "show the node descriptions (set nothing)" },
		{ "Ca", 'C', 1, "<ca>", "RDMA device to use: a device name or node GUID" },
		{ "Port", 'P', 1, "<port>",
		  "RDMA end port to use: a GID, port GUID, DEVICE/PORT or port number" },
		{ NULL, 0, 0, NULL, NULL },
	};
	static const char *const examples[] = {
		"                      # show every device's node description",
		"\"$(hostname -s) HCA-1\" # set it on every device",
		"-C mlx5_0 node17      # set it on mlx5_0 only",
		NULL,
	};
	const char *env_root = getenv("IBMGMT_SYSFS_ROOT");
	const char *root = env_root && *env_root ? env_root : "/sys";
	struct snd_opts o = { 0 };
	const struct ibpath_device *only;
	const char *name;
	int first, rc;

	first = ibdiag_process_opts(argc, argv, &o, "zDLGtsKyed", opts, handle_opt, "[NAME]",
				    examples);
	if (argc - first > 1)
		ibdiag_show_usage();
	name = argc - first == 1 ? argv[first] : NULL;
	if (name && strlen(name) > NODE_DESC_MAX)
		IBEXIT("the node description is %zu bytes long, at most %d are possible",
		       strlen(name), NODE_DESC_MAX);

	rc = ibpath_devlist_open(&devices, env_root && *env_root ? env_root : NULL,
				 IBPATH_DEVLIST_SORTED);
	if (rc < 0)
		IBEXIT("no RDMA devices found");
	only = selected(devices, &o);
	for (unsigned i = 0; i < ibpath_devlist_count(devices); i++) {
		const struct ibpath_device *dev = ibpath_devlist_device(devices, i);

		if (only && dev != only)
			continue;
		if (o.view || !name) {
			printf("%s: ", ibpath_device_name(dev));
			print_desc(ibpath_device_node_desc(dev));
			putchar('\n');
		} else {
			write_desc(root, dev, name);
		}
	}
	ibpath_devlist_close(devices);
	return 0;
}
