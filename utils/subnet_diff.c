/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * subnet_diff: the differences between a stored subnet and another one (python-rdma's
 * ibtool subnet_diff, also known there as ibdiscover.pl).
 *
 *   subnet_diff [options] REFERENCE [CURRENT]
 *
 * REFERENCE and CURRENT are cache files as ibnetdiscover --cache writes them (ours or
 * infiniband-diags'); without CURRENT the subnet is discovered now from the local port.
 * The comparison is libibtopo's set report (ibtopo_diff with IBTOPO_DIFF_F_SETS): end
 * ports, nodes, links, link rates of the links both have, LID assignments.  The text is
 * python-rdma's, with a node description behind each GUID.  Unlike python-rdma every node
 * counts (not only those connected to one port of the subnet) and every common link's
 * rate is compared.
 *
 * Exit status: 0 the subnets are the same, 1 they differ, 2 usage, 255 error (a file that
 * cannot be read, no discovery possible).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

#include "ibdiag-topo.h"

struct sd_print {
	enum ibtopo_diff_set section; /* the section being printed (0: none yet) */
	unsigned a_only;              /* what the section's SET item said */
	bool a_header;                /* the "Reference subnet has N more" line is out */
	unsigned differences;
};

static const char *guid_text(uint64_t guid, char *buf, size_t len)
{
	ibstruct_guid_format(buf, len, guid, IBSTRUCT_GUID_COLON);
	return buf;
}

/* What python-rdma calls the end port of a port: a switch's port 0, else the port. */
static uint64_t end_port_guid(const struct ibtopo_port *port)
{
	const struct ibtopo_node *node = ibtopo_port_node(port);
	const struct ibtopo_port *p0;

	if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH && (p0 = ibtopo_node_port(node, 0)))
		return ibtopo_port_guid(p0);
	return ibtopo_port_guid(port);
}

static const char *speed_text(const uint8_t *pi)
{
	struct ibstruct_smp_port_info p;

	if (!pi || ibstruct_smp_port_info_unpack(&p, pi, IBTOPO_SMP_DATA_SIZE) < 0)
		return "?";
	switch (p.linkSpeedExtActive) {
	case 1: return "FDR";
	case 2: return "EDR";
	case 4: return "HDR";
	case 8: return "NDR";
	}
	switch (p.linkSpeedActive) {
	case 1: return "SDR";
	case 2: return "DDR";
	case 4: return "QDR";
	}
	return "?";
}

static unsigned width_lanes(const uint8_t *pi)
{
	struct ibstruct_smp_port_info p;

	if (!pi || ibstruct_smp_port_info_unpack(&p, pi, IBTOPO_SMP_DATA_SIZE) < 0)
		return 0;
	switch (p.linkWidthActive) {
	case 1: return 1;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	case 16: return 2;
	}
	return 0;
}

static void print_link(const struct ibtopo_port *first)
{
	const struct ibtopo_port *second = ibtopo_port_remote(first);
	char g1[24], g2[24];

	printf("   %s[%u] <=> ", guid_text(end_port_guid(first), g1, sizeof(g1)),
	       ibtopo_port_num(first));
	if (second)
		printf("%s[%u]", guid_text(end_port_guid(second), g2, sizeof(g2)),
		       ibtopo_port_num(second));
	else
		printf("?");
}

/* The nouns of the sections. */
static const char *section_noun(enum ibtopo_diff_set s)
{
	switch (s) {
	case IBTOPO_DIFF_SET_END_PORTS: return "end ports";
	case IBTOPO_DIFF_SET_NODES: return "nodes";
	case IBTOPO_DIFF_SET_LINKS: return "links";
	default: return "";
	}
}

/* The end of the one-sided sections: the line for what only the reference has. */
static void close_section(struct sd_print *sp)
{
	if (sp->section >= IBTOPO_DIFF_SET_END_PORTS && sp->section <= IBTOPO_DIFF_SET_LINKS &&
	    !sp->a_only)
		printf(" All %s in the reference subnet are in the current subnet.\n",
		       section_noun(sp->section));
	sp->section = 0;
}

static void open_section(struct sd_print *sp, const struct ibtopo_diff_item *it)
{
	const char *noun = section_noun(it->set.which);

	close_section(sp);
	sp->section = it->set.which;
	sp->a_only = it->set.a_only;
	sp->a_header = false;
	switch (it->set.which) {
	case IBTOPO_DIFF_SET_END_PORTS:
	case IBTOPO_DIFF_SET_NODES:
	case IBTOPO_DIFF_SET_LINKS:
		printf("Current subnet has %u %s, reference subnet has %u %s\n", it->set.b_count,
		       noun, it->set.a_count, noun);
		if (it->set.b_only)
			printf(" Current subnet has %u more %s than the reference subnet:\n",
			       it->set.b_only, noun);
		else
			printf(" All %s in the current subnet are in the reference subnet.\n", noun);
		break;
	case IBTOPO_DIFF_SET_RATES:
		if (it->set.changed)
			printf(" The subnets have %u different link rates:\n", it->set.changed);
		else
			printf(" All links in the current subnet have the same rate in the "
			       "reference subnet.\n");
		break;
	case IBTOPO_DIFF_SET_LIDS:
		printf("Current subnet has %u LIDs, reference subnet has %u LIDs\n", it->set.b_count,
		       it->set.a_count);
		if (it->set.changed)
			printf(" The subnets have %u different LID assignments (LID: Current "
			       "portGUID, Reference portGUID):\n", it->set.changed);
		else
			printf(" All LIDs in the current subnet are the same as the reference "
			       "subnet.\n");
		break;
	}
}

/* Before the first item only the reference has: its header. */
static void a_side(struct sd_print *sp)
{
	if (sp->a_header)
		return;
	sp->a_header = true;
	printf(" Reference subnet has %u more %s than the current subnet:\n", sp->a_only,
	       section_noun(sp->section));
}

static int print_item(const struct ibtopo_diff_item *it, void *user)
{
	struct sd_print *sp = user;
	const struct ibtopo_port *port;
	const struct ibtopo_node *node;
	char g1[24], g2[24];

	if (it->what == IBTOPO_DIFF_SET) {
		open_section(sp, it);
		return 0;
	}
	sp->differences++;
	switch (it->what) {
	case IBTOPO_DIFF_END_PORT:
	case IBTOPO_DIFF_NODE_ADDED:
	case IBTOPO_DIFF_NODE_REMOVED:
		if (it->a_port || it->a_node)
			a_side(sp);
		if (it->what == IBTOPO_DIFF_END_PORT) {
			port = it->a_port ? it->a_port : it->b_port;
			node = ibtopo_port_node(port);
			guid_text(ibtopo_port_guid(port), g1, sizeof(g1));
		} else {
			node = it->a_node ? it->a_node : it->b_node;
			guid_text(ibtopo_node_guid(node), g1, sizeof(g1));
		}
		printf("   %s \"%s\"\n", g1, ibtopo_node_desc(node));
		break;
	case IBTOPO_DIFF_LINK:
		if (it->a_port)
			a_side(sp);
		print_link(it->a_port ? it->a_port : it->b_port);
		putchar('\n');
		break;
	case IBTOPO_DIFF_LINK_RATE:
		print_link(it->b_port);
		printf(": %s %ux  %s %ux\n", speed_text(ibtopo_port_info(it->b_port)),
		       width_lanes(ibtopo_port_info(it->b_port)),
		       speed_text(ibtopo_port_info(it->a_port)),
		       width_lanes(ibtopo_port_info(it->a_port)));
		break;
	case IBTOPO_DIFF_LID_MAP:
		if (it->b_port)
			guid_text(ibtopo_port_guid(it->b_port), g1, sizeof(g1));
		if (it->a_port)
			guid_text(ibtopo_port_guid(it->a_port), g2, sizeof(g2));
		printf("   %5u: %-19s %-19s\n", it->lid, it->b_port ? g1 : "      !Cur",
		       it->a_port ? g2 : "      !Ref");
		break;
	default:
		break;
	}
	return 0;
}

static struct ibtopo *load(const char *file)
{
	char why[256] = "";
	struct ibtopo *t = ibdiag_topo_load(file, why, sizeof(why));

	if (!t)
		IBEXIT("cannot load the cache file %s: %s", file, *why ? why : "not a cache file");
	return t;
}

static struct ibtopo *discover(void)
{
	struct ibdiag_port *port = ibdiag_topo_open_port();
	struct ibtopo *t = NULL;

	if (!port)
		IBEXIT("cannot open the local port to discover the current subnet");
	ibdiag_topo_discover(port, NULL, &t);
	ibdiag_topo_print_errors(t);
	ibdiag_topo_close(port);
	if (!t)
		IBEXIT("discovery of the current subnet failed");
	return t;
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {
		"ref.cache              # the subnet now against ref.cache",
		"ref.cache now.cache    # two cache files (ibnetdiscover --cache)",
		NULL,
	};
	struct sd_print sp = { 0 };
	struct ibtopo *ref, *cur;
	int first, rc;

	first = ibdiag_process_opts(argc, argv, NULL, "DLGKe", NULL, NULL, "REFERENCE [CURRENT]",
				    examples);
	argc -= first;
	argv += first;
	if (argc < 1 || argc > 2)
		ibdiag_show_usage();

	ref = load(argv[0]);
	cur = argc > 1 ? load(argv[1]) : discover();
	rc = ibtopo_diff(ref, cur, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_SETS, print_item, &sp);
	close_section(&sp);
	ibtopo_unref(ref);
	ibtopo_unref(cur);
	if (rc < 0)
		IBEXIT("comparison failed: %s", strerror(-rc));
	fflush(stdout);
	return sp.differences ? 1 : 0;
}
