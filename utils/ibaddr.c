// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibaddr: the GID and LID range of a port, as infiniband-diags' ibaddr prints them.
 *
 *   ibaddr [-g] [-l|-L] [<lid|dr_path|guid> [portnum]]
 *
 * Two SMPs: NodeInfo (for the port GUID of the port the query arrives at) and PortInfo of
 * `portnum` (GID prefix, LID, LMC).  Without a target the local port is asked by its own LID.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ibdiag.h"

/* What to print: show_lid > 0 hex, < 0 decimal (as in the reference, -L wins over any -l
 * count because it sets a large negative value that later -l's cannot lift above 0). */
static int show_lid;
static bool show_gid;

static int handle_opt(void *ctx, int letter, char *optarg)
{
	(void)ctx;
	(void)optarg;
	switch (letter) {
	case 'g':
		show_gid = true;
		break;
	case 'l':
		show_lid++;
		break;
	case 'L':
		show_lid = -100;
		break;
	default:
		return -1;
	}
	return 0;
}

/* The port number of the local end port ("ibsim0/1" -> 1), for the no-target form. */
static unsigned local_port_num(const struct ibdiag_port *p)
{
	const char *name = ibmadrpc_port_name(p->port);
	const char *slash = name ? strrchr(name, '/') : NULL;

	if (slash)
		return (unsigned)strtoul(slash + 1, NULL, 10);
	return ibd.ca_port;
}

/* The local port as the reference's resolve_self() addresses it: by its LID from sysfs (a
 * port without a LID yet is reached by the empty directed route). */
static struct ibpath_path *self_path(struct ibdiag_port *p)
{
	struct ibpath_path *path = NULL;
	char text[16];

	if (p->lid) {
		snprintf(text, sizeof(text), "%u", (unsigned)p->lid);
		if (ibdiag_resolve(p, text, IBDIAG_DEST_LID, &path) < 0)
			return NULL;
	} else if (ibdiag_resolve(p, "0", IBDIAG_DEST_DR, &path) < 0) {
		return NULL;
	}
	return path;
}

/* The common layer prints a failure's details itself (with -vv). */
static int query(struct ibdiag_port *p, const struct ibpath_path *path, uint16_t attr, uint32_t mod,
		 uint8_t data[64])
{
	return ibdiag_smp_get(p, path, attr, mod, data, NULL);
}

static int show_address(struct ibdiag_port *p, const struct ibpath_path *path, unsigned portnum)
{
	struct ibstruct_smp_node_info ni;
	struct ibstruct_smp_port_info pi;
	uint8_t data[64];
	ibstruct_gid_t gid;
	char text[INET6_ADDRSTRLEN];
	unsigned last;

	if (query(p, path, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data) < 0 ||
	    ibstruct_smp_node_info_unpack(&ni, data, sizeof(data)) < 0)
		return -1;
	if (query(p, path, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, portnum, data) < 0 ||
	    ibstruct_smp_port_info_unpack(&pi, data, sizeof(data)) < 0)
		return -1;

	/* The GID mixes two ports when portnum is another port of an HCA: the prefix is the
	 * asked port's, the GUID the one of the port the SMP arrived at (reference). */
	ibstruct_gid_make(&gid, pi.GIDPrefix, ni.portGUID);
	if (show_gid) {
		/* inet_ntop() as the reference, e.g. "::0.16.0.1" for a zero prefix. */
		inet_ntop(AF_INET6, gid.raw, text, sizeof(text));
		printf("GID %s ", text);
	}
	last = pi.LID + (1u << pi.LMC) - 1;
	if (show_lid > 0)
		printf("LID start 0x%x end 0x%x", pi.LID, last);
	else if (show_lid < 0)
		printf("LID start %u end %u", pi.LID, last);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{"gid_show", 'g', 0, NULL, "show gid address only"},
		{"lid_show", 'l', 0, NULL, "show lid range only"},
		{"Lid_show", 'L', 0, NULL, "show lid range (in decimal) only"},
		{0},
	};
	static const char *const examples[] = {
		"\t\t# local port's address",
		"32\t\t# show lid range and gid of lid 32",
		"-G 0x8f1040023\t# same but using guid address",
		"-l 32\t\t# show lid range only",
		"-L 32\t\t# show decimal lid range only",
		"-g 32\t\t# show gid address only",
		NULL,
	};
	struct ibdiag_port *p;
	struct ibpath_path *path = NULL;
	unsigned portnum = 0;
	int first, nargs;

	/* "KL": no -K, and -L is --Lid_show here, not "the target is a LID". */
	first = ibdiag_process_opts(argc, argv, NULL, "KL", opts, handle_opt,
				    "[<lid|dr_path|guid>]", examples);
	argv += first;
	nargs = argc - first;

	if (nargs > 1)
		portnum = (unsigned)strtoul(argv[1], NULL, 0);
	if (!show_lid && !show_gid) {
		show_lid = 1;
		show_gid = true;
	}

	p = ibdiag_open_port();
	if (nargs > 0) {
		if (ibdiag_resolve(p, argv[0], ibd.dest_type, &path) < 0)
			IBEXIT("can't resolve destination port %s", argv[0]);
	} else {
		path = ibdiag_self(p, NULL, NULL, NULL) < 0 ? NULL : self_path(p);
		if (!path)
			IBEXIT("can't resolve self port (null)");
		portnum = local_port_num(p);
	}

	if (show_address(p, path, portnum) < 0)
		IBEXIT("can't resolve requested address");

	ibpath_path_unref(path);
	ibdiag_close_port(p);
	return 0;
}
