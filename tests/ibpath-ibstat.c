// SPDX-License-Identifier: BSD-3-Clause
/*
 * Prints what libibpath sees of the local devices in the layout of infiniband-diags'
 * `ibstat` (no arguments), so a fabric test can compare it with the reference tool on the
 * same simulated node.  Test program only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibpath.h>

static const char *const type_str[] = { "???", "CA", "Switch", "Router", "iWARP RNIC" };
static const char *const state_str[] = { "???", "Down", "Initializing", "Armed", "Active" };
static const char *const phys_str[] = { "No state change", "Sleep", "Polling", "Disabled",
					"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
					"PhyTest" };

static int by_name(const void *a, const void *b)
{
	return strcmp(ibpath_device_name(*(const struct ibpath_device *const *)a),
		      ibpath_device_name(*(const struct ibpath_device *const *)b));
}

int main(void)
{
	const struct ibpath_device *devs[64];
	struct ibpath_devlist *list;
	unsigned n, i, j;
	int rc;

	rc = ibpath_devlist_open(&list, NULL, IBPATH_DEVLIST_SORTED);
	if (rc) {
		fprintf(stderr, "ibpath_devlist_open: %s\n", strerror(-rc));
		return 1;
	}
	n = ibpath_devlist_count(list);
	for (i = 0; i < n && i < 64; i++)
		devs[i] = ibpath_devlist_device(list, i);
	qsort(devs, i, sizeof(devs[0]), by_name);
	for (i = 0; i < n && i < 64; i++) {
		const struct ibpath_device *d = devs[i];
		unsigned t = ibpath_device_node_type(d);
		const char *ts = t <= 4 ? type_str[t] : "???";

		printf("%s '%s'\n", ts, ibpath_device_name(d));
		printf("\t%s type: %s\n", ts, ibpath_device_hca_type(d));
		/* libibumad counts ports as the highest port number (0 for a switch) */
		{
			unsigned max = 0;

			for (j = 0; j < ibpath_device_port_count(d); j++)
				if (ibpath_port_num(ibpath_device_port(d, j)) > max)
					max = ibpath_port_num(ibpath_device_port(d, j));
			printf("\tNumber of ports: %u\n", max);
		}
		printf("\tFirmware version: %s\n", ibpath_device_fw_ver(d));
		printf("\tHardware version: %s\n", ibpath_device_hw_rev(d));
		printf("\tNode GUID: 0x%016" PRIx64 "\n", ibpath_device_node_guid(d));
		printf("\tSystem image GUID: 0x%016" PRIx64 "\n", ibpath_device_sys_image_guid(d));
		for (j = 0; j < ibpath_device_port_count(d); j++) {
			const struct ibpath_port *p = ibpath_device_port(d, j);
			unsigned st = ibpath_port_state(p), ph = ibpath_port_phys_state(p);
			unsigned rate = ibpath_port_rate_mbps(p) / 1000;
			const char *rt = ibpath_port_rate_text(p), *fdr10 = rt ? strchr(rt, ')') : NULL;

			printf("\tPort %u:\n", ibpath_port_num(p));
			printf("\t\tState: %s\n", st <= 4 ? state_str[st] : "???");
			printf("\t\tPhysical state: %s\n", ph <= 7 ? phys_str[ph] : "???");
			if (fdr10 && fdr10 - rt >= 5 && !strncasecmp(fdr10 - 5, "fdr10", 5))
				printf("\t\tRate: %u (FDR10)\n", rate);
			else if (rate != 2)
				printf("\t\tRate: %u\n", rate);
			else
				printf("\t\tRate: 2.5\n");
			printf("\t\tBase lid: %u\n", ibpath_port_lid(p));
			printf("\t\tLMC: %u\n", ibpath_port_lmc(p));
			printf("\t\tSM lid: %u\n", ibpath_port_sm_lid(p));
			printf("\t\tCapability mask: 0x%08x\n", ibpath_port_cap_mask(p));
			printf("\t\tPort GUID: 0x%016" PRIx64 "\n", ibpath_port_guid(p));
			printf("\t\tLink layer: %s\n", ibpath_port_link_layer_name(p));
		}
	}
	ibpath_devlist_close(list);
	return 0;
}
