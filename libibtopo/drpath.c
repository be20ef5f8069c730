/* SPDX-License-Identifier: BSD-3-Clause */
/* A node's route (struct ibtopo_dr_path) as a libibpath path, for the queries that go to a
 * node after discovery (forwarding tables, LID-mode discovery). */
#include "config.h"

#include <errno.h>

#include "ibtopo-private.h"

int topo_path_to_ibpath(const struct ibtopo_dr_path *dr, unsigned timeout_ms, unsigned retries,
			struct ibpath_path **out)
{
	struct ibpath_path *ip = NULL;
	int rc;

	if (!dr || !out || dr->hops > IBTOPO_MAX_HOPS)
		return -EINVAL;
	*out = NULL;
	if (dr->lid && !dr->hops) {
		/* only LID routed: an ordinary LID-routed SMP */
		rc = ibpath_path_new(&ip, IBPATH_KIND_IB);
		if (!rc)
			rc = ibpath_path_set(ip, IBPATH_DLID, dr->lid);
	} else {
		rc = ibpath_path_new(&ip, IBPATH_KIND_DR);
		if (!rc)
			rc = ibpath_path_set_dr_ports(ip, dr->port, dr->hops + 1u);
		if (!rc && dr->lid) {
			/* a LID-routed part first, then the directed route */
			rc = ibpath_path_set(ip, IBPATH_DLID, dr->lid);
			if (!rc)
				rc = ibpath_path_set(ip, IBPATH_DR_SLID, dr->drslid ? dr->drslid : 0xffff);
			if (!rc)
				rc = ibpath_path_set(ip, IBPATH_DR_DLID, dr->drdlid ? dr->drdlid : 0xffff);
		}
	}
	if (!rc && timeout_ms)
		rc = ibpath_path_set(ip, IBPATH_TIMEOUT_MS, timeout_ms);
	if (!rc && retries != UINT32_MAX)
		rc = ibpath_path_set(ip, IBPATH_RETRIES, retries);
	if (rc) {
		ibpath_path_unref(ip);
		return rc;
	}
	*out = ip;
	return 0;
}
