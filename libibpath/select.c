// SPDX-License-Identifier: BSD-3-Clause
/*
 * Choosing the local end port: from one selection string, or from infiniband-diags'
 * -C <ca> -P <port> (libibumad's resolve_ca_name() rules).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpath-private.h"

#define STATE_ACTIVE 4
#define PHYS_LINKUP 5
#define PHYS_DISABLED 3

int ibpath_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool is_ib(const struct ibpath_port *p)
{
	return p->link_layer == IBPATH_LINK_LAYER_INFINIBAND;
}

/*
 * libibumad's resolve_ca_port(): which port of a device to use and how good it is:
 * 1 an ACTIVE port (a switch's port 0 always counts as that), 0 a usable one, -1 none.
 * *num is the requested port on entry (0: any) and the chosen one on return.
 */
static int resolve_port(const struct ibpath_device *dev, unsigned *num)
{
	const struct ibpath_port *p;
	int up = -1;
	unsigned i;

	if (dev->node_type == 2) {
		*num = 0; /* the switch's management port */
		return ibpath_device_port_by_num(dev, 0) ? 1 : -1;
	}
	if (*num) {
		p = ibpath_device_port_by_num(dev, *num);
		if (!p || !is_ib(p))
			return -1;
		if (p->state == STATE_ACTIVE)
			return 1;
		return p->phys_state != PHYS_DISABLED ? 0 : -1;
	}
	/* ports in number order: the first ACTIVE one, else the first LinkUp one */
	for (i = 0; i < dev->nports; i++) {
		p = &dev->ports[i];
		if (!is_ib(p))
			continue;
		if (up < 0 && p->phys_state == PHYS_LINKUP) {
			up = (int)i;
			*num = p->num;
		}
		if (p->state == STATE_ACTIVE) {
			*num = p->num;
			return 1;
		}
	}
	if (up >= 0)
		return 0;
	/* else the first port that is not disabled (libibumad skips the link layer check here) */
	for (i = 0; i < dev->nports; i++)
		if (dev->ports[i].phys_state != PHYS_DISABLED) {
			*num = dev->ports[i].num;
			return 0;
		}
	return -1;
}

IBPATH_EXPORT int ibpath_devlist_select_ca_port(const struct ibpath_devlist *list, const char *ca,
						unsigned port, const struct ibpath_port **out,
						char *err, size_t errlen)
{
	const struct ibpath_device *usable = NULL;
	unsigned usable_num = 0, i;

	if (!list || !out)
		return -EINVAL;
	if (ca && *ca) {
		const struct ibpath_device *dev = ibpath_devlist_find(list, ca);
		const struct ibpath_port *p;
		unsigned num = port;

		if (!dev) {
			ibpath_fail(err, errlen, "no RDMA device named '%s'", ca);
			return -ENODEV;
		}
		/* both given: used as they are; -C alone: the device's best port */
		if (!port && resolve_port(dev, &num) < 0) {
			ibpath_fail(err, errlen, "device '%s' has no usable InfiniBand port", ca);
			return -ENODEV;
		}
		p = ibpath_device_port_by_num(dev, num);
		if (!p) {
			ibpath_fail(err, errlen, "device '%s' has no port %u", ca, num);
			return -ENODEV;
		}
		*out = p;
		return 0;
	}
	/* libibumad takes the port as an int: without a device, a negative one means "not
	 * given" (what the tools' -P 4294967295, -P -1 or -P 2^64 come to); with one, it is
	 * looked up as it is, and no device has it */
	if ((int)port < 0)
		port = 0;
	/* the first device with an ACTIVE port, else the first with a usable one */
	for (i = 0; i < list->ndevs; i++) {
		unsigned num = port;
		int r = resolve_port(list->devs[i], &num);

		if (r > 0) {
			*out = ibpath_device_port_by_num(list->devs[i], num);
			return 0;
		}
		if (r == 0 && !usable) {
			usable = list->devs[i];
			usable_num = num;
		}
	}
	if (!usable) {
		if (port)
			ibpath_fail(err, errlen, "no RDMA device has a usable InfiniBand port %u", port);
		else
			ibpath_fail(err, errlen, "no RDMA device has a usable InfiniBand port");
		return -ENODEV;
	}
	*out = ibpath_device_port_by_num(usable, usable_num);
	return 0;
}

IBPATH_EXPORT int ibpath_devlist_select(const struct ibpath_devlist *list, const char *spec,
					const struct ibpath_port **out, char *err, size_t errlen)
{
	const char *slash;
	uint64_t guid;
	ibstruct_gid_t gid;
	unsigned i, j;

	if (!list || !out)
		return -EINVAL;
	if (!spec || !*spec)
		return ibpath_devlist_select_ca_port(list, NULL, 0, out, err, errlen);
	if (ibpath_devlist_find(list, spec))
		return ibpath_devlist_select_ca_port(list, spec, 0, out, err, errlen);
	slash = strrchr(spec, '/');
	/* device/port: the port number is all digits (strtoul() would also take a sign,
	 * blanks, and wrap a huge number around to a small one) */
	if (slash && slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1)) {
		char name[64];
		size_t n = (size_t)(slash - spec);

		if (n && n < sizeof(name)) {
			const struct ibpath_device *dev;
			const struct ibpath_port *p = NULL;
			unsigned long num;

			memcpy(name, spec, n);
			name[n] = 0;
			dev = ibpath_devlist_find(list, name);
			if (!dev) {
				ibpath_fail(err, errlen, "no RDMA device named '%s'", name);
				return -ENODEV;
			}
			errno = 0;
			num = strtoul(slash + 1, NULL, 10);
			if (!errno && num <= UINT_MAX)
				p = ibpath_device_port_by_num(dev, (unsigned)num);
			if (!p) {
				ibpath_fail(err, errlen, "device '%s' has no port %s", name, slash + 1);
				return -ENODEV;
			}
			*out = p;
			return 0;
		}
	}
	if (!ibstruct_gid_parse(spec, &gid)) {
		bool link_local = ibstruct_gid_prefix(&gid) == 0xfe80000000000000ull;
		static const ibstruct_gid_t zero;

		/* an all-zero entry is an unused table slot and GUID 0 an unknown one: neither
		 * names a port */
		for (i = 0; i < list->ndevs && memcmp(gid.raw, zero.raw, 16); i++)
			for (j = 0; j < list->devs[i]->nports; j++) {
				const struct ibpath_port *p = &list->devs[i]->ports[j];
				unsigned k;

				/* a link-local GID names the port by its GUID */
				if (link_local && p->guid && p->guid == ibstruct_gid_guid(&gid)) {
					*out = p;
					return 0;
				}
				for (k = 0; k < p->ngids; k++)
					if (!memcmp(p->gids[k].raw, gid.raw, 16)) {
						*out = p;
						return 0;
					}
			}
		ibpath_fail(err, errlen, "no local port has GID %s", spec);
		return -ENODEV;
	}
	if (!ibstruct_guid_parse(spec, &guid)) {
		/* GUID 0 is what a port or device without a known GUID has */
		for (i = 0; i < list->ndevs && guid; i++)
			for (j = 0; j < list->devs[i]->nports; j++)
				if (list->devs[i]->ports[j].guid == guid) {
					*out = &list->devs[i]->ports[j];
					return 0;
				}
		for (i = 0; i < list->ndevs && guid; i++)
			if (list->devs[i]->node_guid == guid)
				return ibpath_devlist_select_ca_port(list, list->devs[i]->name, 0, out, err,
								     errlen);
		ibpath_fail(err, errlen, "no local port or device has GUID %s", spec);
		return -ENODEV;
	}
	ibpath_fail(err, errlen,
		    "'%s' names no local end port (expected a device, device/port, GID or GUID)", spec);
	return -ENODEV;
}
