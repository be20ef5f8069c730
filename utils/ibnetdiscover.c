/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibnetdiscover: discover the subnet and print its topology, a drop-in replacement for
 * infiniband-diags' ibnetdiscover.
 *
 *   ibnetdiscover [options] [topology-file]
 *
 * The walk is libibtopo's (utils/common/ibdiag-topo.c sets it up from the common options);
 * what is printed, and in which order, is what infiniband-diags 44 prints from
 * libibnetdisc's fabric: switches, then CAs, then routers, each list newest node first.
 * Extras (long options only): --json and --dot write the topology in libibtopo's export
 * formats instead of the text format, --sa discovers from the SA's records.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ibdiag.h"
#include "ibdiag-topo.h"

enum {
	OPT_NODE_NAME_MAP = 1,
	OPT_CACHE,
	OPT_LOAD_CACHE,
	OPT_DIFF,
	OPT_DIFFCHECK,
	OPT_JSON = IBDIAG_OPT_EXTRA,
	OPT_DOT,
};

#define LIST_CA (1u << IBTOPO_NODE_CA)
#define LIST_SWITCH (1u << IBTOPO_NODE_SWITCH)
#define LIST_ROUTER (1u << IBTOPO_NODE_ROUTER)

/* --diffcheck keys */
#define CHECK_SW 0x01u
#define CHECK_CA 0x02u
#define CHECK_ROUTER 0x04u
#define CHECK_PORT 0x08u
#define CHECK_LID 0x10u
#define CHECK_DESC 0x20u
#define CHECK_DEFAULT (CHECK_SW | CHECK_CA | CHECK_ROUTER | CHECK_PORT)

enum export_format { EXPORT_NONE, EXPORT_JSON, EXPORT_DOT };

struct nd {
	FILE *f;                 /* the topology file or stdout */
	struct ibdiag_nnmap *map;
	const char *map_file;
	const char *cache_file;
	const char *load_cache_file;
	const char *diff_file;
	unsigned diffcheck;
	unsigned list;           /* LIST_* */
	unsigned outstanding;    /* -o */
	bool full, show, group, ports_report, max_hops;
	enum export_format export;
};

static const uint8_t no_data[IBTOPO_SMP_DATA_SIZE];

static int process_opt(void *ctx, int letter, char *arg)
{
	struct nd *nd = ctx;

	switch (letter) {
	case OPT_NODE_NAME_MAP:
		nd->map_file = arg;
		break;
	case OPT_CACHE:
		nd->cache_file = arg;
		break;
	case OPT_LOAD_CACHE:
		nd->load_cache_file = arg;
		break;
	case OPT_DIFF:
		nd->diff_file = arg;
		break;
	case OPT_DIFFCHECK: {
		static const struct {
			const char *key;
			unsigned flag;
		} keys[] = {
			{ "sw", CHECK_SW },     { "ca", CHECK_CA },   { "router", CHECK_ROUTER },
			{ "port", CHECK_PORT }, { "lid", CHECK_LID }, { "nodedesc", CHECK_DESC },
		};
		char *save = NULL;

		nd->diffcheck = 0;
		for (char *k = strtok_r(arg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
			size_t i;

			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (!strcasecmp(k, keys[i].key))
					break;
			if (i == sizeof(keys) / sizeof(keys[0])) {
				fprintf(stderr, "invalid diff check key: %s\n", k);
				return -1;
			}
			nd->diffcheck |= keys[i].flag;
		}
		break;
	}
	case OPT_JSON:
		nd->export = EXPORT_JSON;
		break;
	case OPT_DOT:
		nd->export = EXPORT_DOT;
		break;
	case 's':
		nd->show = true;
		break;
	case 'f':
		nd->full = true;
		break;
	case 'l':
		nd->list = LIST_CA | LIST_SWITCH | LIST_ROUTER;
		break;
	case 'g':
		nd->group = true;
		break;
	case 'S':
		nd->list = LIST_SWITCH;
		break;
	case 'H':
		nd->list = LIST_CA;
		break;
	case 'R':
		nd->list = LIST_ROUTER;
		break;
	case 'p':
		nd->ports_report = true;
		break;
	case 'm':
		nd->max_hops = true;
		break;
	case 'o':
		/* libibnetdisc's max_smps: 0 means its default */
		nd->outstanding = (unsigned)strtoul(arg, NULL, 0);
		break;
	default:
		return -1;
	}
	return 0;
}

/* ---- Field access ----------------------------------------------------------------------- */

static const uint8_t *pinfo(const struct ibtopo_port *port)
{
	const uint8_t *info = port ? ibtopo_port_info(port) : NULL;

	return info ? info : no_data;
}

static struct ibstruct_smp_node_info node_info(const struct ibtopo_node *node)
{
	struct ibstruct_smp_node_info ni = { 0 };
	const uint8_t *raw = ibtopo_node_info(node);

	ibstruct_smp_node_info_unpack(&ni, raw ? raw : no_data, IBTOPO_SMP_DATA_SIZE);
	return ni;
}

static struct ibstruct_smp_port_info port_info(const uint8_t *raw)
{
	struct ibstruct_smp_port_info pi = { 0 };

	ibstruct_smp_port_info_unpack(&pi, raw, IBTOPO_SMP_DATA_SIZE);
	return pi;
}

/* Mellanox ExtendedPortInfo LinkSpeedActive bit 0: FDR10 */
static unsigned fdr10_active(const struct ibtopo_port *port)
{
	struct ibstruct_mlnx_ext_port_info epi = { 0 };
	const uint8_t *raw = ibtopo_port_ext_info(port);

	if (!raw)
		return 0;
	ibstruct_mlnx_ext_port_info_unpack(&epi, raw, IBTOPO_SMP_DATA_SIZE);
	return epi.linkSpeedActive & 1;
}

static const char *width_str(unsigned w)
{
	switch (w) {
	case 1: return "1x";
	case 2: return "4x";
	case 4: return "8x";
	case 8: return "12x";
	case 16: return "2x";
	}
	return "??";
}

static const char *speed_str(unsigned s)
{
	switch (s) {
	case 1: return "SDR";
	case 2: return "DDR";
	case 4: return "QDR";
	}
	return "???";
}

/* The speed infiniband-diags 44 prints: LinkSpeedExtActive counts where the port that
 * carries the capability mask (a switch's port 0) has IsExtendedSpeedsSupported. */
static const char *link_speed(const uint8_t *cap, const struct ibtopo_port *port, unsigned *speed)
{
	struct ibstruct_smp_port_info pi = port_info(pinfo(port));
	unsigned espeed = 0;

	if (cap && (port_info(cap).capabilityMask & (1u << 14)))
		espeed = pi.linkSpeedExtActive;
	if (!cap)
		*speed = 0;
	if (*speed != 4 && !espeed)
		return speed_str(*speed);
	switch (espeed) {
	case 0: return fdr10_active(port) ? "FDR10" : speed_str(*speed);
	case 1: return "FDR";
	case 2: return "EDR";
	case 4: return "HDR";
	case 8: return "NDR";
	}
	return "???";
}

/* The PortInfo of the node's port 0, NULL when it has none (a CA; a switch whose port 0
 * never answered its NodeInfo) */
static const uint8_t *port0_info(const struct ibtopo_port *port)
{
	const struct ibtopo_port *p0 = ibtopo_node_port(ibtopo_port_node(port), 0);

	return p0 ? pinfo(p0) : NULL;
}

/* The port whose capability mask tells about a port's speeds: a switch's port 0 */
static const uint8_t *cap_info(const struct ibtopo_port *port)
{
	if (ibtopo_node_type(ibtopo_port_node(port)) == IBTOPO_NODE_SWITCH)
		return port0_info(port);
	return pinfo(port);
}

static char *node_name(const struct nd *nd, const struct ibtopo_node *node)
{
	char *name = ibdiag_nnmap_name(nd->map, ibtopo_node_guid(node), ibtopo_node_desc(node));

	if (!name)
		IBPANIC("out of memory");
	return name;
}

/* clean_nodedesc() of the node's description, into buf (65 bytes) */
static const char *clean_desc(const struct ibtopo_node *node, char *buf)
{
	snprintf(buf, 65, "%s", ibtopo_node_desc(node));
	return ibdiag_clean_nodedesc(buf);
}

/* "S-0000000000200001" with its quotes */
static const char *quoted_id(const struct ibtopo_node *node, char *buf, size_t len)
{
	static const char letter[] = { '?', 'H', 'S', 'R' };
	unsigned type = ibtopo_node_type(node);

	snprintf(buf, len, "\"%c-%016" PRIx64 "\"", type < 4 ? letter[type] : '?', ibtopo_node_guid(node));
	return buf;
}

static uint16_t shown_lid(const struct ibtopo_port *port)
{
	const struct ibtopo_node *node = ibtopo_port_node(port);

	return ibtopo_node_type(node) == IBTOPO_NODE_SWITCH ? ibtopo_node_sma_lid(node) :
							       ibtopo_port_base_lid(port);
}

static const char *ext_str(const struct nd *nd, const struct ibtopo_port *port, bool group, char *buf,
			   size_t len)
{
	(void)nd;
	if (!group)
		return NULL;
	return ibtopo_port_ext_str(port, buf, len);
}

/* ---- The topology text ------------------------------------------------------------------ */

static void out_ids(struct nd *nd, const struct ibtopo_node *node, bool group, const char *chname,
		    const char *prefix)
{
	struct ibstruct_smp_node_info ni = node_info(node);
	const struct ibtopo_chassis *ch = ibtopo_node_chassis(node);
	bool in_chassis = group && ch && ibtopo_chassis_num(ch);

	prefix = prefix ? prefix : "";
	fprintf(nd->f, "\n%svendid=0x%x\n", prefix, ni.vendorID);
	fprintf(nd->f, "%sdevid=0x%x\n", prefix, ni.deviceID);
	if (ni.systemImageGUID)
		fprintf(nd->f, "%ssysimgguid=0x%" PRIx64, prefix, ni.systemImageGUID);
	if (in_chassis) {
		const struct ibtopo_port *p1 = ibtopo_node_port(node, 1);

		fprintf(nd->f, "\t\t# Chassis %u", ibtopo_chassis_num(ch));
		if (chname) {
			char buf[65];

			snprintf(buf, sizeof(buf), "%s", chname);
			fprintf(nd->f, " (%s)", ibdiag_clean_nodedesc(buf));
		}
		if (ibtopo_is_xsigo_tca(ibtopo_node_guid(node)) && p1 && ibtopo_port_remote(p1))
			fprintf(nd->f, " slot %u", ibtopo_port_num(ibtopo_port_remote(p1)));
	}
	if (ni.systemImageGUID || in_chassis)
		fprintf(nd->f, "\n");
}

static void out_switch_detail(struct nd *nd, const struct ibtopo_node *node, const char *prefix)
{
	char *name = node_name(nd, node);
	char id[32];

	fprintf(nd->f, "%sSwitch\t%u %s\t\t# \"%s\" %s port 0 lid %u lmc %u", prefix ? prefix : "",
		ibtopo_node_num_ports(node), quoted_id(node, id, sizeof(id)), name,
		ibtopo_node_enhanced_port0(node) ? "enhanced" : "base", ibtopo_node_sma_lid(node),
		ibtopo_node_sma_lmc(node));
	free(name);
}

static void out_switch(struct nd *nd, const struct ibtopo_node *node, bool group, const char *chname,
		       const char *id_prefix, const char *sw_prefix)
{
	out_ids(nd, node, group, chname, id_prefix);
	fprintf(nd->f, "%sswitchguid=0x%" PRIx64 "(%" PRIx64 ")", id_prefix ? id_prefix : "",
		ibtopo_node_guid(node), node_info(node).portGUID);
	if (group) {
		const char *type = ibtopo_chassis_type_str(node);
		char slot[256];

		fprintf(nd->f, "\t# ");
		if (type)
			fprintf(nd->f, "%s ", type);
		if (ibtopo_node_chassis_slot_str(node, slot, sizeof(slot)))
			fprintf(nd->f, "%s", slot);
	}
	fprintf(nd->f, "\n");
	out_switch_detail(nd, node, sw_prefix);
	fprintf(nd->f, "\n");
}

static void out_ca_detail(struct nd *nd, const struct ibtopo_node *node, const char *prefix)
{
	enum ibtopo_node_type type = ibtopo_node_type(node);
	char id[32], desc[65];

	fprintf(nd->f, "%s%s\t%u %s\t\t# \"%s\"", prefix ? prefix : "",
		type == IBTOPO_NODE_CA ? "Ca" : type == IBTOPO_NODE_ROUTER ? "Rt" : "???",
		ibtopo_node_num_ports(node), quoted_id(node, id, sizeof(id)), clean_desc(node, desc));
}

static void out_ca(struct nd *nd, const struct ibtopo_node *node, bool group, const char *chname,
		   const char *id_prefix, const char *ca_prefix)
{
	enum ibtopo_node_type type = ibtopo_node_type(node);

	out_ids(nd, node, group, chname, id_prefix);
	fprintf(nd->f, "%s%sguid=0x%" PRIx64 "\n", id_prefix ? id_prefix : "",
		type == IBTOPO_NODE_CA ? "ca" : type == IBTOPO_NODE_ROUTER ? "rt" : "???",
		ibtopo_node_guid(node));
	out_ca_detail(nd, node, ca_prefix);
	if (group && ibtopo_is_xsigo_hca(ibtopo_node_guid(node)))
		fprintf(nd->f, " (scp)");
	fprintf(nd->f, "\n");
}

/* A port without a link: infiniband-diags dereferences the missing remote port here (a
 * --diff of such a port crashes it); we say so instead. */
static bool out_unlinked(struct nd *nd, const struct ibtopo_port *port, const char *prefix)
{
	if (port && ibtopo_port_remote(port))
		return false;
	if (port)
		fprintf(nd->f, "%s[%u]\t\t# no link\n", prefix ? prefix : "", ibtopo_port_num(port));
	return true;
}

static void out_full(struct nd *nd, const struct ibstruct_smp_port_info *pi, unsigned speed)
{
	if (nd->full)
		fprintf(nd->f, " s=%u w=%u v=%u", speed, pi->linkWidthActive, pi->VLCap);
}

static void out_switch_port(struct nd *nd, const struct ibtopo_port *port, bool group, const char *prefix)
{
	struct ibstruct_smp_port_info pi;
	const struct ibtopo_port *rem;
	const struct ibtopo_node *rnode;
	const char *ext, *speed;
	char buf[32], rbuf[32], id[32];
	unsigned ispeed;
	char *rname;

	if (out_unlinked(nd, port, prefix))
		return;
	rem = ibtopo_port_remote(port);
	rnode = ibtopo_port_node(rem);
	pi = port_info(pinfo(port));
	ispeed = pi.linkSpeedActive;
	fprintf(nd->f, "%s[%u]", prefix ? prefix : "", ibtopo_port_num(port));
	ext = ext_str(nd, port, group, buf, sizeof(buf));
	if (ext)
		fprintf(nd->f, "%s", ext);
	rname = node_name(nd, rnode);
	ext = ext_str(nd, rem, group, rbuf, sizeof(rbuf));
	/* a switch port's line, also for a CA in a chassis slot (which has no port 0) */
	speed = link_speed(port0_info(port), port, &ispeed);
	fprintf(nd->f, "\t%s[%u]%s", quoted_id(rnode, id, sizeof(id)), ibtopo_port_num(rem), ext ? ext : "");
	if (ibtopo_node_type(rnode) != IBTOPO_NODE_SWITCH)
		fprintf(nd->f, "(%" PRIx64 ") ", ibtopo_port_guid(rem));
	fprintf(nd->f, "\t\t# \"%s\" lid %u %s%s", rname, shown_lid(rem), width_str(pi.linkWidthActive), speed);
	out_full(nd, &pi, ispeed);
	if (ibtopo_is_xsigo_tca(ibtopo_port_guid(rem)))
		fprintf(nd->f, " slot %u", ibtopo_port_num(port));
	else if (ibtopo_is_xsigo_hca(ibtopo_port_guid(rem)))
		fprintf(nd->f, " (scp)");
	fprintf(nd->f, "\n");
	free(rname);
}

static void out_ca_port(struct nd *nd, const struct ibtopo_port *port, bool group, const char *prefix)
{
	struct ibstruct_smp_port_info pi;
	const struct ibtopo_port *rem;
	const struct ibtopo_node *rnode;
	const char *ext, *speed;
	char buf[32], id[32];
	unsigned ispeed;
	char *rname;

	if (out_unlinked(nd, port, prefix))
		return;
	rem = ibtopo_port_remote(port);
	rnode = ibtopo_port_node(rem);
	pi = port_info(pinfo(port));
	ispeed = pi.linkSpeedActive;
	fprintf(nd->f, "%s[%u]", prefix ? prefix : "", ibtopo_port_num(port));
	if (ibtopo_node_type(ibtopo_port_node(port)) != IBTOPO_NODE_SWITCH)
		fprintf(nd->f, "(%" PRIx64 ") ", ibtopo_port_guid(port));
	fprintf(nd->f, "\t%s[%u]", quoted_id(rnode, id, sizeof(id)), ibtopo_port_num(rem));
	ext = ext_str(nd, rem, group, buf, sizeof(buf));
	if (ext)
		fprintf(nd->f, "%s", ext);
	if (ibtopo_node_type(rnode) != IBTOPO_NODE_SWITCH)
		fprintf(nd->f, " (%" PRIx64 ") ", ibtopo_port_guid(rem));
	rname = node_name(nd, rnode);
	speed = link_speed(pinfo(port), port, &ispeed);
	fprintf(nd->f, "\t\t# lid %u lmc %u \"%s\" lid %u %s%s", ibtopo_port_base_lid(port),
		ibtopo_port_lmc(port), rname, shown_lid(rem), width_str(pi.linkWidthActive), speed);
	out_full(nd, &pi, ispeed);
	fprintf(nd->f, "\n");
	free(rname);
}

/* The ports with a link, as switch ports (sw) or CA ports */
static void out_linked_ports(struct nd *nd, const struct ibtopo_node *node, bool sw, bool group,
			     const char *prefix)
{
	for (unsigned p = 1; p <= ibtopo_node_num_ports(node); p++) {
		const struct ibtopo_port *port = ibtopo_node_port(node, p);

		if (!port || !ibtopo_port_remote(port))
			continue;
		if (sw)
			out_switch_port(nd, port, group, prefix);
		else
			out_ca_port(nd, port, group, prefix);
	}
}

static bool in_numbered_chassis(const struct ibtopo_node *node)
{
	const struct ibtopo_chassis *ch = ibtopo_node_chassis(node);

	return ch && ibtopo_chassis_num(ch);
}

/* A node of a chassis slot or a chassis switch: printed as a switch, whatever it is (a
 * Voltaire router module in a slot is a CA) */
static void out_chassis_switch(struct nd *nd, const struct ibtopo_node *node, const char *chname)
{
	if (!node)
		return;
	out_switch(nd, node, true, chname, NULL, NULL);
	out_linked_ports(nd, node, true, true, NULL);
}

static void out_chassis(struct nd *nd, const struct ibtopo *t, const struct ibtopo_chassis *ch)
{
	const struct ibtopo_chassis *first = ibtopo_chassis_find_num(t, ibtopo_chassis_num(ch));
	uint64_t guid = first ? ibtopo_chassis_guid(first) : 0;
	const char *chname = NULL;
	unsigned n = ibtopo_chassis_node_count(ch);

	fprintf(nd->f, "\nChassis %u", ibtopo_chassis_num(ch));
	if (guid)
		fprintf(nd->f, " (guid 0x%" PRIx64 ")", guid);
	fprintf(nd->f, "\n");
	if (ibtopo_is_xsigo_guid(guid)) {
		for (unsigned i = 0; i < n; i++) {
			const struct ibtopo_node *node = ibtopo_chassis_node(ch, i);
			char buf[65];

			if (!ibtopo_is_xsigo_hca(ibtopo_node_guid(node)))
				continue;
			chname = ibtopo_node_desc(node);
			fprintf(nd->f, "Hostname: %s\n", clean_desc(node, buf));
		}
	}
	fprintf(nd->f, "\n# Spine Nodes");
	for (unsigned s = 1; s <= IBTOPO_CHASSIS_SPINES; s++)
		out_chassis_switch(nd, ibtopo_chassis_spine(ch, s), chname);
	fprintf(nd->f, "\n# Line Nodes");
	for (unsigned l = 1; l <= IBTOPO_CHASSIS_LINES; l++)
		out_chassis_switch(nd, ibtopo_chassis_line(ch, l), chname);
	fprintf(nd->f, "\n# Chassis Switches");
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *node = ibtopo_chassis_node(ch, i);

		if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH)
			out_chassis_switch(nd, node, chname);
	}
	fprintf(nd->f, "\n# Chassis CAs");
	for (unsigned i = 0; i < n; i++) {
		const struct ibtopo_node *node = ibtopo_chassis_node(ch, i);

		if (ibtopo_node_type(node) == IBTOPO_NODE_CA) {
			out_ca(nd, node, true, chname, NULL, NULL);
			out_linked_ports(nd, node, false, true, NULL);
		}
	}
}

/* Every node of a type outside numbered chassis (all of them without -g) */
static void out_nodes(struct nd *nd, const struct ibtopo *t, enum ibtopo_node_type type, bool group)
{
	bool sw = type == IBTOPO_NODE_SWITCH;

	for (unsigned i = 0; i < ibtopo_node_count(t, type); i++) {
		const struct ibtopo_node *node = ibtopo_node_get(t, type, i);

		if (group && in_numbered_chassis(node))
			continue;
		if (sw)
			out_switch(nd, node, group, NULL, NULL, NULL);
		else
			out_ca(nd, node, group, NULL, NULL, NULL);
		out_linked_ports(nd, node, sw, group, NULL);
	}
}

static void dump_topology(struct nd *nd, const struct ibtopo *t)
{
	const struct ibtopo_node *from = ibtopo_from_node(t);
	time_t now = time(NULL);
	bool group = nd->group;

	fprintf(nd->f, "#\n# Topology file: generated on %s#\n", ctime(&now));
	if (nd->max_hops)
		fprintf(nd->f, "# Reported max hops discovered: %u\n# Total MADs used: %u\n",
			ibtopo_max_hops_discovered(t), (unsigned)ibtopo_mads_used(t));
	fprintf(nd->f, "# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n",
		from ? ibtopo_node_guid(from) : 0, from ? node_info(from).portGUID : 0);

	if (group) {
		for (unsigned i = 0; i < ibtopo_chassis_count(t); i++) {
			const struct ibtopo_chassis *ch = ibtopo_chassis_get(t, i);

			if (ibtopo_chassis_num(ch))
				out_chassis(nd, t, ch);
		}
		fprintf(nd->f, "\nNon-Chassis Nodes\n");
	}
	out_nodes(nd, t, IBTOPO_NODE_SWITCH, group);
	out_nodes(nd, t, IBTOPO_NODE_CA, group);
	out_nodes(nd, t, IBTOPO_NODE_ROUTER, group);
}

/* ---- Lists and the ports report --------------------------------------------------------- */

static void list_nodes(struct nd *nd, const struct ibtopo *t)
{
	static const enum ibtopo_node_type order[] = { IBTOPO_NODE_CA, IBTOPO_NODE_SWITCH, IBTOPO_NODE_ROUTER };
	static const char *const names[] = { "???", "Ca", "Switch", "Router" };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		if (!(nd->list & (1u << order[k])))
			continue;
		for (unsigned i = 0; i < ibtopo_node_count(t, order[k]); i++) {
			const struct ibtopo_node *node = ibtopo_node_get(t, order[k], i);
			struct ibstruct_smp_node_info ni = node_info(node);
			char *name = node_name(nd, node);

			fprintf(nd->f, "%s\t : 0x%016" PRIx64 " ports %u devid 0x%x vendid 0x%x \"%s\"\n",
				names[order[k]], ibtopo_node_guid(node), ibtopo_node_num_ports(node), ni.deviceID,
				ni.vendorID, name);
			free(name);
		}
	}
}

static const char *type_abbrev(const struct ibtopo_node *node)
{
	switch (ibtopo_node_type(node)) {
	case IBTOPO_NODE_SWITCH: return "SW";
	case IBTOPO_NODE_CA: return "CA";
	case IBTOPO_NODE_ROUTER: return "RT";
	default: return "??";
	}
}

/* -p: every port of every node, highest port first; always on stdout, as the reference */
static void ports_report(struct nd *nd, const struct ibtopo *t)
{
	for (unsigned i = 0; i < ibtopo_node_count(t, IBTOPO_NODE_ANY); i++) {
		const struct ibtopo_node *node = ibtopo_node_get(t, IBTOPO_NODE_ANY, i);
		char *name = node_name(nd, node);

		for (unsigned p = ibtopo_node_num_ports(node); p > 0; p--) {
			const struct ibtopo_port *port = ibtopo_node_port(node, p);
			const struct ibtopo_port *rem;
			struct ibstruct_smp_port_info pi;
			const uint8_t *cap;
			const char *speed;
			unsigned ispeed;

			if (!port)
				continue;
			pi = port_info(pinfo(port));
			cap = cap_info(port);
			ispeed = pi.linkSpeedActive;
			if (!cap)
				pi.linkWidthActive = 0;
			speed = link_speed(cap, port, &ispeed);
			printf("%2s %5u %2u 0x%016" PRIx64 " %s %s", type_abbrev(node), shown_lid(port),
			       ibtopo_port_num(port), ibtopo_port_guid(port), width_str(pi.linkWidthActive), speed);
			rem = ibtopo_port_remote(port);
			if (rem) {
				const struct ibtopo_node *rnode = ibtopo_port_node(rem);
				char *rname = node_name(nd, rnode);

				printf(" - %2s %5u %2u 0x%016" PRIx64 " ( '%s' - '%s' )\n", type_abbrev(rnode),
				       shown_lid(rem), ibtopo_port_num(rem), ibtopo_port_guid(rem), name, rname);
				free(rname);
			} else {
				printf("%36s'%s'\n", "", name);
			}
		}
		free(name);
	}
	(void)nd;
}

/* ---- --diff ------------------------------------------------------------------------------ */

struct diff_state {
	struct nd *nd;
	const struct ibtopo_node *header_for; /* the a-node whose plain header is out */
};

static void diff_header(struct nd *nd, const struct ibtopo_node *node, const char *id_prefix,
			const char *prefix)
{
	if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH)
		out_switch(nd, node, false, NULL, id_prefix, prefix);
	else
		out_ca(nd, node, false, NULL, id_prefix, prefix);
}

static void diff_port(struct nd *nd, const struct ibtopo_port *port, const char *prefix)
{
	if (ibtopo_node_type(ibtopo_port_node(port)) == IBTOPO_NODE_SWITCH)
		out_switch_port(nd, port, false, prefix);
	else
		out_ca_port(nd, port, false, prefix);
}

static void diff_plain_header(struct diff_state *st, const struct ibtopo_node *node)
{
	if (st->header_for != node) {
		diff_header(st->nd, node, NULL, NULL);
		st->header_for = node;
	}
}

static int diff_item(const struct ibtopo_diff_item *it, void *user)
{
	struct diff_state *st = user;
	struct nd *nd = st->nd;
	const struct ibtopo_node *node = it->a_node ? it->a_node : it->b_node;
	const char *prefix = it->a_node ? "< " : "> ";

	switch (it->what) {
	case IBTOPO_DIFF_NODE_REMOVED:
	case IBTOPO_DIFF_NODE_ADDED:
		diff_header(nd, node, prefix, prefix);
		for (unsigned p = 1; p <= ibtopo_node_num_ports(node); p++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, p);

			if (port && ibtopo_port_remote(port))
				diff_port(nd, port, prefix);
		}
		break;
	case IBTOPO_DIFF_NODE_CHANGED:
		diff_header(nd, it->a_node, NULL, "< ");
		if (ibtopo_node_type(it->b_node) == IBTOPO_NODE_SWITCH)
			out_switch_detail(nd, it->b_node, "> ");
		else
			out_ca_detail(nd, it->b_node, "> ");
		fprintf(nd->f, "\n");
		st->header_for = it->a_node;
		break;
	case IBTOPO_DIFF_NUM_PORTS:
		diff_plain_header(st, it->a_node);
		fprintf(nd->f, "< numports = %u\n", ibtopo_node_num_ports(it->a_node));
		fprintf(nd->f, "> numports = %u\n", ibtopo_node_num_ports(it->b_node));
		break;
	case IBTOPO_DIFF_PORT: {
		unsigned c = it->changes;
		bool conn_a = c & (IBTOPO_DIFF_C_PORT_A_ONLY | IBTOPO_DIFF_C_LINK_A_ONLY);
		bool conn_b = !conn_a && (c & (IBTOPO_DIFF_C_PORT_B_ONLY | IBTOPO_DIFF_C_LINK_B_ONLY));
		bool other = !conn_a && !conn_b && (c & (IBTOPO_DIFF_C_PORT_GUID | IBTOPO_DIFF_C_REMOTE_GUID));
		bool both = c & (IBTOPO_DIFF_C_LID | IBTOPO_DIFF_C_REMOTE_LID | IBTOPO_DIFF_C_REMOTE_DESC);

		if (conn_a || other || both) {
			diff_plain_header(st, it->a_node);
			diff_port(nd, it->a_port, "< ");
		}
		if (conn_b || other || both) {
			diff_plain_header(st, it->a_node);
			diff_port(nd, it->b_port, "> ");
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

static void diff(struct nd *nd, const struct ibtopo *old, const struct ibtopo *cur)
{
	static const struct {
		unsigned check;
		enum ibtopo_node_type type;
	} passes[] = {
		{ CHECK_SW, IBTOPO_NODE_SWITCH },
		{ CHECK_CA, IBTOPO_NODE_CA },
		{ CHECK_ROUTER, IBTOPO_NODE_ROUTER },
	};
	unsigned flags = IBTOPO_DIFF_F_NODES;
	struct diff_state st = { .nd = nd };

	if (nd->diffcheck & CHECK_PORT)
		flags |= IBTOPO_DIFF_F_LINKS;
	if (nd->diffcheck & CHECK_LID)
		flags |= IBTOPO_DIFF_F_LIDS;
	if (nd->diffcheck & CHECK_DESC)
		flags |= IBTOPO_DIFF_F_DESC;
	for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]); i++) {
		if (!(nd->diffcheck & passes[i].check))
			continue;
		st.header_for = NULL;
		if (ibtopo_diff(old, cur, passes[i].type, flags, diff_item, &st) < 0)
			IBEXIT("diff failed");
	}
}

/* ---- -s: libibnetdisc's show_progress lines --------------------------------------------- */

static void show_node(struct ibtopo_discovery *disc, const struct ibtopo_dr_path *path,
		      struct ibtopo_node *node, struct ibtopo_port *port, bool is_new, void *user)
{
	static const char *const types[] = { "?(0)", "Channel Adapter", "Switch", "Router" };
	enum ibtopo_node_type type = ibtopo_node_type(node);
	unsigned lid = ibtopo_port_base_lid(port);
	char dr[4 * IBTOPO_MAX_HOPS + 8];

	(void)disc;
	(void)user;
	ibtopo_dr_path_format(path, dr, sizeof(dr));
	if (path->lid)
		printf("Lid %u%s", path->lid, path->hops ? " " : "");
	if (!path->lid || path->hops)
		printf("DR path slid %u; dlid %u; %s", path->drslid, path->drdlid, dr);
	printf(" -> %s %s {%016" PRIx64 "} portnum %u lid %u-%u \"%s\"\n", is_new ? "new" : "known",
	       (unsigned)type < 4 ? types[type] : "?", ibtopo_node_guid(node),
	       type == IBTOPO_NODE_SWITCH ? 0 : ibtopo_port_num(port), lid,
	       lid + (1u << ibtopo_port_lmc(port)) - 1, ibtopo_node_desc(node));
}

/* ---- main --------------------------------------------------------------------------------- */

static struct ibtopo *load(const char *file)
{
	char why[256] = "";

	return ibdiag_topo_load(file, why, sizeof(why));
}

/* The topology file named on the command line: a write that failed (a full disk, /dev/full)
 * is an error, and a regular file that could not be written whole is removed rather than
 * left half written.  (infiniband-diags 44 never checks, and exits 0 with a short file.) */
static void close_topology_file(FILE *f, const char *name)
{
	struct stat st;
	bool regular = !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
	int err = 0;

	errno = 0;
	if (fflush(f) == EOF || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return;
	if (regular)
		unlink(name);
	IBEXIT("can't write file %s: %s", name, strerror(err));
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{ "full", 'f', 0, NULL, "show full information (ports' speed and width, vlcap)" },
		{ "show", 's', 0, NULL, "show more information" },
		{ "list", 'l', 0, NULL, "list of connected nodes" },
		{ "grouping", 'g', 0, NULL, "show grouping" },
		{ "Hca_list", 'H', 0, NULL, "list of connected CAs" },
		{ "Switch_list", 'S', 0, NULL, "list of connected switches" },
		{ "Router_list", 'R', 0, NULL, "list of connected routers" },
		{ "node-name-map", OPT_NODE_NAME_MAP, 1, "<file>", "node name map file" },
		{ "cache", OPT_CACHE, 1, "<file>", "filename to cache ibnetdiscover data to" },
		{ "load-cache", OPT_LOAD_CACHE, 1, "<file>", "filename of ibnetdiscover cache to load" },
		{ "diff", OPT_DIFF, 1, "<file>", "filename of ibnetdiscover cache to diff" },
		{ "diffcheck", OPT_DIFFCHECK, 1, "<key(s)>", "specify checks to execute for --diff" },
		{ "ports", 'p', 0, NULL, "obtain a ports report" },
		{ "max_hops", 'm', 0, NULL, "report max hops discovered by the library" },
		{ "outstanding_smps", 'o', 1, NULL,
		  "specify the number of outstanding SMP's which should be issued during the scan" },
		/* extras: not in the reference's --help */
		{ "json", OPT_JSON, 0, NULL, NULL },
		{ "dot", OPT_DOT, 0, NULL, NULL },
		{ NULL, 0, 0, NULL, NULL },
	};
	struct nd nd = { .f = stdout, .diffcheck = CHECK_DEFAULT };
	struct ibtopo *t = NULL, *old = NULL;
	struct ibdiag_port *port = NULL;
	struct ibdiag_sighold hold;
	int first;

	first = ibdiag_process_opts(argc, argv, &nd, "DGKLs", opts, process_opt, "[topology-file]", NULL);
	argc -= first;
	argv += first;

	if (argc && !(nd.f = fopen(argv[0], "w")))
		IBEXIT("can't open file %s for writing", argv[0]);
	nd.map = ibdiag_nnmap_open(nd.map_file);

	if (nd.diff_file && !(old = load(nd.diff_file)))
		IBEXIT("loading cached fabric for diff failed\n");
	if (nd.load_cache_file) {
		t = load(nd.load_cache_file);
		if (!t)
			IBEXIT("loading cached fabric failed\n");
	} else {
		struct ibdiag_topo_opts o = {
			.outstanding = nd.outstanding > 128 ? 128 : nd.outstanding,
			.node_seen = nd.show ? show_node : NULL,
		};
		int rc;

		port = ibdiag_topo_open_port();
		if (!port)
			IBEXIT("discover failed\n");
		rc = ibdiag_topo_discover(port, &o, &t);
		/* libibnetdisc fails before its walk when its own port does not answer
		 * (ib_resolve_self_via()) */
		if (!ibdiag_topo_self_resolved(t)) {
			ibtopo_unref(t);
			t = NULL;
			rc = -EIO;
			fprintf(stderr, "./libibnetdisc/ibnetdisc.c:811; Failed to resolve self\n");
		}
		ibdiag_topo_print_errors(t);
		if (rc < 0 && (!t || !ibtopo_from_node(t)))
			IBEXIT("discover failed\n");
		fflush(stdout);
	}

	/* FILE: written whole or (killed before this) left empty as the reference leaves it,
	 * never partial when a signal comes in the middle */
	ibdiag_signals_hold(NULL, nd.f != stdout ? fileno(nd.f) : -1, &hold);
	if (nd.ports_report)
		ports_report(&nd, t);
	else if (nd.list)
		list_nodes(&nd, t);
	else if (old)
		diff(&nd, old, t);
	else if (nd.export == EXPORT_JSON)
		ibtopo_export_json(t, nd.f);
	else if (nd.export == EXPORT_DOT)
		ibtopo_export_dot(t, nd.f);
	else
		dump_topology(&nd, t);
	if (nd.f != stdout)
		close_topology_file(nd.f, argv[0]);
	else
		fflush(nd.f);
	ibdiag_signals_release(&hold);

	/* --cache: the old file or the new one, and no temporary file, whatever signal comes
	 * (SIGKILL: see libibtopo's cache.c) */
	if (nd.cache_file) {
		int rc;

		ibdiag_signals_hold(nd.cache_file, -1, &hold);
		rc = ibtopo_cache_save(t, nd.cache_file);
		ibdiag_signals_release(&hold);
		if (rc < 0)
			IBEXIT("caching ibnetdiscover data failed\n");
	}

	ibtopo_unref(t);
	ibtopo_unref(old);
	ibdiag_nnmap_close(nd.map);
	if (port)
		ibdiag_topo_close(port);
	return 0;
}
