/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sminfo: the SMInfo attribute of a subnet manager, a drop-in replacement for
 * infiniband-diags' sminfo.
 *
 *   sminfo [options] <sm_lid|sm_dr_path> [modifier]
 *
 * Without a target it asks the SM the local port knows (sysfs sm_lid).  A non-zero
 * modifier turns the query into a SubnSet carrying -s/-p/-a (the modifier being the SM
 * control code: 1 handover, 2 acknowledge, 3 disable, 4 standby, 5 discover); without
 * one those options are accepted and ignored, as in the reference.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibdiag.h"

#define SMP_DATA 64

static const char *const state_names[] = {
	"SMINFO_NOTACT",
	"SMINFO_DISCOVER",
	"SMINFO_STANDBY",
	"SMINFO_MASTER",
};

/* What a Set carries: the reference's defaults are activity 0, priority 0, STANDBY. */
static unsigned long set_act;
static unsigned long set_prio;
static unsigned long set_state = 2;

static int process_opt(void *ctx, int letter, char *arg)
{
	(void)ctx;
	switch (letter) {
	case 'a':
		set_act = strtoul(arg, NULL, 0);
		break;
	case 's':
		set_state = strtoul(arg, NULL, 0);
		break;
	case 'p':
		set_prio = strtoul(arg, NULL, 0);
		break;
	default:
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "state", 's', 1, "<0-3>", "set SM state" },
		{ "priority", 'p', 1, "<0-15>", "set SM priority" },
		{ "activity", 'a', 1, NULL, "set activity count" },
		{ NULL, 0, 0, NULL, NULL },
	};
	struct ibstruct_smp_sm_info smi = { 0 };
	struct ibpath_path *path = NULL;
	struct ibdiag_port *port;
	uint8_t in[SMP_DATA] = { 0 }, out[SMP_DATA] = { 0 };
	const uint16_t attr = IBSTRUCT_SMP_SM_INFO_ATTR_ID;
	unsigned lid;
	int first, mod = 0, rc;

	first = ibdiag_process_opts(argc, argv, NULL, "sK", opts, process_opt,
				    "<sm_lid|sm_dr_path> [modifier]", NULL);
	argc -= first;
	argv += first;
	if (argc > 1)
		mod = atoi(argv[1]);

	port = ibdiag_open_port();
	if (argc) {
		if (ibdiag_resolve(port, argv[0], ibd.dest_type, &path) < 0)
			IBEXIT("can't resolve destination port %s", argv[0]);
	} else {
		/* the SM the local port knows, whatever its LID (0 included, as the reference) */
		uint16_t sm_lid;
		uint8_t sm_sl;

		if (ibdiag_self(port, NULL, &sm_lid, &sm_sl) < 0 ||
		    ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
			IBEXIT("can't resolve sm port %s", "(null)");
		ibpath_path_set(path, IBPATH_DLID, sm_lid);
		ibpath_path_set(path, IBPATH_SL, sm_sl);
	}

	/* libibmad's field encoders keep the low bits of what does not fit */
	smi.actCount = (uint32_t)set_act;
	smi.priority = (uint8_t)(set_prio & 0xf);
	smi.SMState = (uint8_t)(set_state & 0xf);
	ibstruct_smp_sm_info_pack(&smi, in, sizeof(in));

	if (mod)
		rc = ibdiag_smp_set(port, path, attr, (uint32_t)mod, in, out, NULL);
	else
		rc = ibdiag_smp_get(port, path, attr, 0, out, NULL);
	if (rc < 0)
		IBEXIT("query");

	ibstruct_smp_sm_info_unpack(&smi, out, sizeof(out));
	/* the reference prints its portid's LID: 0 for a directed route */
	if (ibpath_path_kind(path) == IBPATH_KIND_DR &&
	    ibpath_path_get(path, IBPATH_DR_SLID) == 0xffff)
		lid = 0;
	else
		lid = (unsigned)ibpath_path_get(path, IBPATH_DLID);
	printf("sminfo: sm lid %u sm guid 0x%" PRIx64
	       ", activity count %u priority %d state %d %s\n",
	       lid, smi.GUID, smi.actCount, smi.priority, smi.SMState,
	       smi.SMState < 4 ? state_names[smi.SMState] : "???");

	ibpath_path_unref(path);
	ibdiag_close_port(port);
	return 0;
}
