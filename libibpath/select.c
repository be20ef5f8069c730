// SPDX-License-Identifier: BSD-3-Clause
/*
 * Choosing the local end port: from one selection string, or from infiniband-diags'
 * -C <ca> -P <port> (libibumad's resolve_ca_name() rules).
 */
#include <errno.h>
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

/* libibumad's ranking of one port: 3 active, 2 link up, 1 not disabled, 0 unusable. */
static int port_rank(const struct ibpath_port *p)
{
	if (!is_ib(p))
		return 0;
	if (p->state == STATE_ACTIVE)
		return 3;
	if (p->phys_state == PHYS_LINKUP)
		return 2;
	if (p->phys_state != PHYS_DISABLED)
		return 1;
	return 0;
}

/* The best port of a device (a switch has only port 0 to offer). */
static const struct ibpath_port *best_port(const struct ibpath_device *dev, int *rank)
{
	const struct ibpath_port *best = NULL;
	int r = 0;
	unsigned i;

	if (dev->node_type == 2) {
		best = ibpath_device_port_by_num(dev, 0);
		*rank = best ? port_rank(best) : 0;
		return best;
	}
	for (i = 0; i < dev->nports; i++) {
		int pr = port_rank(&dev->ports[i]);

		if (pr > r) {
			r = pr;
			best = &dev->ports[i];
		}
	}
	*rank = r;
	return best;
}

IBPATH_EXPORT int ibpath_devlist_select_ca_port(const struct ibpath_devlist *list, const char *ca,
						unsigned port, const struct ibpath_port **out,
						char *err, size_t errlen)
{
	const struct ibpath_port *best = NULL;
	int best_rank = 0;
	unsigned i;

	if (!list || !out)
		return -EINVAL;
	if (ca && *ca) {
		const struct ibpath_device *dev = ibpath_devlist_find(list, ca);
		const struct ibpath_port *p;

		if (!dev) {
			ibpath_fail(err, errlen, "no RDMA device named '%s'", ca);
			return -ENODEV;
		}
		if (port) {
			/* both given: used as they are */
			p = ibpath_device_port_by_num(dev, port);
			if (!p) {
				ibpath_fail(err, errlen, "device '%s' has no port %u", ca, port);
				return -ENODEV;
			}
			*out = p;
			return 0;
		}
		p = best_port(dev, &best_rank);
		if (!p || !best_rank) {
			ibpath_fail(err, errlen, "device '%s' has no usable InfiniBand port", ca);
			return -ENODEV;
		}
		*out = p;
		return 0;
	}
	/* the first device (in list order) holding the best-ranked port wins ties */
	for (i = 0; i < list->ndevs; i++) {
		const struct ibpath_port *p;
		int r;

		if (port) {
			p = ibpath_device_port_by_num(list->devs[i], port);
			r = p ? port_rank(p) : 0;
		} else {
			p = best_port(list->devs[i], &r);
		}
		if (p && r > best_rank) {
			best = p;
			best_rank = r;
		}
		if (best_rank == 3)
			break;
	}
	if (!best) {
		if (port)
			ibpath_fail(err, errlen, "no RDMA device has a usable InfiniBand port %u", port);
		else
			ibpath_fail(err, errlen, "no RDMA device has a usable InfiniBand port");
		return -ENODEV;
	}
	*out = best;
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
	if (slash && slash[1]) {
		char name[64], *end;
		unsigned long num;
		size_t n = (size_t)(slash - spec);

		num = strtoul(slash + 1, &end, 10);
		if (!*end && n && n < sizeof(name)) {
			const struct ibpath_device *dev;
			const struct ibpath_port *p;

			memcpy(name, spec, n);
			name[n] = 0;
			dev = ibpath_devlist_find(list, name);
			if (!dev) {
				ibpath_fail(err, errlen, "no RDMA device named '%s'", name);
				return -ENODEV;
			}
			p = ibpath_device_port_by_num(dev, (unsigned)num);
			if (!p) {
				ibpath_fail(err, errlen, "device '%s' has no port %lu", name, num);
				return -ENODEV;
			}
			*out = p;
			return 0;
		}
	}
	if (!ibstruct_gid_parse(spec, &gid)) {
		bool link_local = ibstruct_gid_prefix(&gid) == 0xfe80000000000000ull;

		for (i = 0; i < list->ndevs; i++)
			for (j = 0; j < list->devs[i]->nports; j++) {
				const struct ibpath_port *p = &list->devs[i]->ports[j];
				unsigned k;

				/* a link-local GID names the port by its GUID */
				if (link_local && p->guid == ibstruct_gid_guid(&gid)) {
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
		for (i = 0; i < list->ndevs; i++)
			for (j = 0; j < list->devs[i]->nports; j++)
				if (list->devs[i]->ports[j].guid == guid) {
					*out = &list->devs[i]->ports[j];
					return 0;
				}
		for (i = 0; i < list->ndevs; i++)
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
