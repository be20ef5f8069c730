// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibv_devices: the RDMA devices user-space verbs can use, with their node GUIDs.
 *
 * A drop-in for libibverbs' ibv_devices (Debian's ibverbs-utils), which python-rdma's
 * `ibtool ibv_devices` imitates.  "Can use" is libibverbs' own decision: a device is
 * listed when it has a uverbs character device and a provider library claims it (by
 * kernel driver id, device name or modalias).  No other program can repeat that choice
 * without repeating every provider's match table, so the list comes from libibverbs
 * itself, the only library this tool links.  What is ours is everything around it, done
 * as the original does it:
 *   - arguments are ignored, all of them (the original parses none: `ibv_devices -h`
 *     lists the devices too);
 *   - a list that cannot be had (no uverbs class in sysfs, an unsupported kernel ABI)
 *     is "Failed to get IB devices list: <errno text>" on stderr and exit status 1;
 *   - the two header lines and one line per device, in libibverbs' order, name padded
 *     to 16 columns, a tab, the node GUID as 16 hex digits (0 when sysfs has none).
 *
 * Extra: IBMGMT_SYSFS_ROOT=<dir> (the sysfs root every tool here honours) is passed on
 * as libibverbs' SYSFS_PATH when SYSFS_PATH itself is not set.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <infiniband/verbs.h>

int main(int argc, char **argv)
{
	struct ibv_device **devs;
	const char *root;
	int n = 0;

	(void)argc;
	(void)argv;
	root = getenv("IBMGMT_SYSFS_ROOT");
	if (root && *root && !getenv("SYSFS_PATH") && setenv("SYSFS_PATH", root, 0)) {
		perror("ibv_devices: IBMGMT_SYSFS_ROOT");
		return 1;
	}

	devs = ibv_get_device_list(&n);
	if (!devs) {
		perror("Failed to get IB devices list");
		return 1;
	}

	printf("    %-16s\t   node GUID\n", "device");
	printf("    %-16s\t----------------\n", "------");
	for (int i = 0; i < n; i++)
		printf("    %-16s\t%016" PRIx64 "\n", ibv_get_device_name(devs[i]),
		       be64toh(ibv_get_device_guid(devs[i])));

	ibv_free_device_list(devs);
	return 0;
}
