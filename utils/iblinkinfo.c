/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iblinkinfo: every port of the fabric with its link state and the port at the other end,
 * a drop-in replacement for infiniband-diags' iblinkinfo.
 *
 * The fabric comes from a discovery (libibtopo) or a cache file; -S/-G/-D show one node,
 * --diff compares with a cache file, --filterdownports hides ports that a cache file
 * already knew down.  Extras: --json (what would be printed, as JSON), --sa, any target
 * form for -S/-G.
 *
 * Where the reference hangs (-S/-G on the simulator: libibnetdisc waits for ever for a
 * combined LID+DR route that ibsim drops), this tool finds the node in a discovery from
 * the local port instead, and uses only directed routes from there.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ibdiag.h"
#include "ibdiag-topo.h"
#include "linkinfo.h"

/* --diffcheck keys */
#define DIFF_PORT  0x01
#define DIFF_STATE 0x02
#define DIFF_LID   0x04
#define DIFF_DESC  0x08

enum {
	OPT_NODE_NAME_MAP = 1,
	OPT_LOAD_CACHE,
	OPT_DIFF,
	OPT_DIFFCHECK,
	OPT_FILTERDOWNPORTS,
	OPT_SWITCHES_ONLY,
	OPT_CAS_ONLY,
	OPT_JSON = IBDIAG_OPT_EXTRA,
};

struct linkinfo {
	const char *node_name_map;
	const char *load_cache;
	const char *diff_cache;
	const char *filter_cache;
	unsigned diffcheck;
	const char *guid_str;  /* -S/-G */
	const char *dr_path;   /* -D */
	bool all, down_only, line, additional, json;
	unsigned max_hops;
	unsigned outstanding;
	enum ibtopo_node_type only; /* IBTOPO_NODE_ANY: every type */

	/* while printing */
	struct ibdiag_nnmap *map;
	struct ibtopo *filter;
	bool json_first_node;
};

static int process_opt(void *ctx, int ch, char *arg)
{
	struct linkinfo *li = ctx;
	char *copy, *key, *save = NULL;

	switch (ch) {
	case OPT_NODE_NAME_MAP:
		li->node_name_map = arg;
		break;
	case OPT_LOAD_CACHE:
		li->load_cache = arg;
		break;
	case OPT_DIFF:
		li->diff_cache = arg;
		break;
	case OPT_DIFFCHECK:
		li->diffcheck = 0;
		copy = strdup(arg);
		if (!copy)
			IBPANIC("out of memory");
		for (key = strtok_r(copy, ",", &save); key; key = strtok_r(NULL, ",", &save)) {
			if (!strcasecmp(key, "port"))
				li->diffcheck |= DIFF_PORT;
			else if (!strcasecmp(key, "state"))
				li->diffcheck |= DIFF_STATE;
			else if (!strcasecmp(key, "lid"))
				li->diffcheck |= DIFF_LID;
			else if (!strcasecmp(key, "nodedesc"))
				li->diffcheck |= DIFF_DESC;
			else {
				fprintf(stderr, "invalid diff check key: %s\n", key);
				free(copy);
				return -1;
			}
		}
		free(copy);
		break;
	case OPT_FILTERDOWNPORTS:
		li->filter_cache = arg;
		break;
	case OPT_SWITCHES_ONLY:
		li->only = IBTOPO_NODE_SWITCH;
		break;
	case OPT_CAS_ONLY:
		li->only = IBTOPO_NODE_CA;
		break;
	case OPT_JSON:
		li->json = true;
		break;
	case 'S':
	case 'G':
		li->guid_str = arg;
		break;
	case 'D':
		li->dr_path = arg;
		break;
	case 'a':
		li->all = true;
		break;
	case 'n':
		li->max_hops = (unsigned)strtoul(arg, NULL, 0);
		break;
	case 'd':
		li->down_only = true;
		break;
	case 'l':
		li->line = true;
		break;
	case 'p':
		li->additional = true;
		break;
	case 'o':
		li->outstanding = (unsigned)strtoul(arg, NULL, 0);
		break;
	default:
		return -1;
	}
	return 0;
}

/* ---- Text ------------------------------------------------------------------------------ */

static unsigned port_state(const struct ibtopo_port *port)
{
	struct ibstruct_smp_port_info pi;

	linkinfo_port_info(port, &pi);
	return pi.portState;
}

/* --filterdownports: the port is down and was down in the cache file too. */
static bool filtered(const struct linkinfo *li, const struct ibtopo_node *node,
		     const struct ibtopo_port *port)
{
	const struct ibtopo_node *old;
	const struct ibtopo_port *oport;
	unsigned num = ibtopo_port_num(port);

	if (!li->filter)
		return false;
	old = ibtopo_find_node_guid(li->filter, ibtopo_node_guid(node));
	if (!old || num > ibtopo_node_num_ports(old))
		return false;
	oport = ibtopo_node_port(old, num);
	return oport && port_state(oport) == LINKINFO_STATE_DOWN;
}

static void print_port(const struct linkinfo *li, const struct ibtopo_node *node,
		       const struct ibtopo_port *port, const char *prefix)
{
	struct ibstruct_smp_port_info pi;
	char link[256], remote[256], ext[16];
	int n;

	if (!port)
		return;
	linkinfo_port_info(port, &pi);
	if (pi.portState == LINKINFO_STATE_DOWN && filtered(li, node, port))
		return;

	n = linkinfo_link_str(port, link, sizeof(link));
	if (li->additional && pi.portState != LINKINFO_STATE_DOWN && n >= 0 &&
	    (size_t)n < sizeof(link))
		snprintf(link + n, sizeof(link) - (size_t)n, " (HOQ:%d VL_Stall:%d)", pi.HOQLife,
			 pi.VLStallCount);

	if (ibtopo_port_remote(port)) {
		/* (the reference's 256-byte buffer, and its complaint when a name overflows it) */
		if (linkinfo_remote_str(port, li->map, li->line, remote, sizeof(remote)) >
		    (int)sizeof(remote))
			fprintf(stderr, "WARN: string buffer overflow\n");
	} else if (pi.portState == LINKINFO_STATE_DOWN) {
		snprintf(remote, sizeof(remote), "           [  ] \"\" ( )\n");
	} else {
		snprintf(remote, sizeof(remote), "    \"Port not available\"\n");
	}
	linkinfo_ext_str(port, ext);

	if (li->line) {
		char *name = ibdiag_nnmap_name(li->map, ibtopo_node_guid(node), ibtopo_node_desc(node));

		printf("%s0x%016" PRIx64 " \"%30s\" ", prefix ? prefix : "", ibtopo_port_guid(port),
		       name ? name : "");
		free(name);
	} else {
		printf("%s      ", prefix ? prefix : "");
	}
	if (ibtopo_node_type(ibtopo_port_node(port)) != IBTOPO_NODE_SWITCH) {
		if (!li->line)
			printf("0x%016" PRIx64 " ", ibtopo_port_guid(port));
		printf("%6d %4u[%2s] ==%s==>  %s", ibtopo_port_base_lid(port), ibtopo_port_num(port),
		       ext, link, remote);
	} else {
		printf("%6d %4u[%2s] ==%s==>  %s", ibtopo_node_sma_lid(node), ibtopo_port_num(port),
		       ext, link, remote);
	}
}

static const char *type_name(enum ibtopo_node_type type)
{
	switch (type) {
	case IBTOPO_NODE_SWITCH:
		return "Switch";
	case IBTOPO_NODE_CA:
		return "CA";
	case IBTOPO_NODE_ROUTER:
		return "Router";
	default:
		return "??";
	}
}

static uint64_t switch_port0_guid(const struct ibtopo_node *node)
{
	const struct ibtopo_port *p0 = ibtopo_node_port(node, 0);
	struct ibstruct_smp_node_info ni = {0};

	if (p0)
		return ibtopo_port_guid(p0);
	if (ibtopo_node_info(node))
		ibstruct_smp_node_info_unpack(&ni, ibtopo_node_info(node), IBTOPO_SMP_DATA_SIZE);
	return ni.portGUID;
}

/* The node's header line, once per node (printed says whether it was; NULL: always). */
static void print_header(const struct linkinfo *li, const struct ibtopo_node *node, int *printed,
			 const char *prefix)
{
	char *name;

	if ((printed && *printed) || li->line)
		return;
	name = ibdiag_nnmap_name(li->map, ibtopo_node_guid(node), ibtopo_node_desc(node));
	if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH)
		printf("%s%s: 0x%016" PRIx64 " %s:\n", prefix ? prefix : "",
		       type_name(ibtopo_node_type(node)), switch_port0_guid(node), name ? name : "");
	else
		printf("%s%s: %s:\n", prefix ? prefix : "", type_name(ibtopo_node_type(node)),
		       name ? name : "");
	free(name);
	/* (the reference dereferences a NULL counter here and crashes: see --diff) */
	if (printed)
		(*printed)++;
}

static bool shown_port(const struct linkinfo *li, const struct ibtopo_port *port)
{
	return !li->down_only || port_state(port) == LINKINFO_STATE_DOWN;
}

static void print_node(const struct linkinfo *li, const struct ibtopo_node *node,
		       const char *prefix)
{
	int printed = 0;

	for (unsigned i = 1; i <= ibtopo_node_num_ports(node); i++) {
		const struct ibtopo_port *port = ibtopo_node_port(node, i);

		if (!port || !shown_port(li, port))
			continue;
		print_header(li, node, &printed, prefix);
		print_port(li, node, port, prefix);
	}
}

/* ---- --diff ----------------------------------------------------------------------------- */

static bool same_desc(const struct ibtopo_node *a, const struct ibtopo_node *b)
{
	const uint8_t *da = ibtopo_node_desc_raw(a), *db = ibtopo_node_desc_raw(b);
	static const uint8_t none[IBTOPO_SMP_DATA_SIZE];

	return !memcmp(da ? da : none, db ? db : none, IBTOPO_SMP_DATA_SIZE);
}

static void diff_ports(const struct linkinfo *li, const struct ibtopo_node *n1,
		       const struct ibtopo_node *n2, int *printed, unsigned flags, const char *pre1,
		       const char *pre2)
{
	for (unsigned i = 1; i <= ibtopo_node_num_ports(n1); i++) {
		const struct ibtopo_port *p1 = ibtopo_node_port(n1, i);
		const struct ibtopo_port *p2 = ibtopo_node_port(n2, i);
		const struct ibtopo_port *r1, *r2;
		bool differ = false;

		if (!p1 && !p2)
			continue;
		r1 = p1 ? ibtopo_port_remote(p1) : NULL;
		r2 = p2 ? ibtopo_port_remote(p2) : NULL;
		if ((flags & DIFF_PORT) &&
		    (!p1 || !p2 || !r1 != !r2 ||
		     (r1 && r2 && ibtopo_port_guid(r1) != ibtopo_port_guid(r2))))
			differ = true;
		if ((flags & DIFF_STATE) && p1 && p2 && port_state(p1) != port_state(p2))
			differ = true;
		if ((flags & DIFF_PORT) && (flags & DIFF_LID) && r1 && r2 &&
		    ibtopo_port_base_lid(r1) != ibtopo_port_base_lid(r2))
			differ = true;
		if ((flags & DIFF_PORT) && (flags & DIFF_DESC) && r1 && r2 &&
		    !same_desc(ibtopo_port_node(r1), ibtopo_port_node(r2)))
			differ = true;
		if (!differ)
			continue;
		if (p1) {
			print_header(li, n1, printed, NULL);
			print_port(li, n1, p1, pre1);
		}
		if (p2) {
			print_header(li, n1, printed, NULL);
			print_port(li, n2, p2, pre2);
		}
	}
}

/* One node of fabric 1 against fabric 2 (the reference's diff_node_iter()). */
static void diff_one(const struct linkinfo *li, const struct ibtopo_node *n1,
		     const struct ibtopo *f2, unsigned flags, const char *pre1, const char *pre2)
{
	const struct ibtopo_node *n2 = ibtopo_find_node_guid(f2, ibtopo_node_guid(n1));
	int printed = 0;

	if (!n2) {
		print_node(li, n1, pre1);
		return;
	}
	if (!(flags & (DIFF_PORT | DIFF_STATE | DIFF_LID | DIFF_DESC)))
		return;
	if ((ibtopo_node_type(n1) == IBTOPO_NODE_SWITCH && (flags & DIFF_LID) &&
	     ibtopo_node_sma_lid(n1) != ibtopo_node_sma_lid(n2)) ||
	    ((flags & DIFF_DESC) && !same_desc(n1, n2))) {
		print_header(li, n1, NULL, pre1);
		print_header(li, n2, NULL, pre2);
		printed++;
	}
	if (ibtopo_node_num_ports(n1) != ibtopo_node_num_ports(n2)) {
		print_header(li, n1, &printed, NULL);
		printf("%snumports = %u\n", pre1, ibtopo_node_num_ports(n1));
		printf("%snumports = %u\n", pre2, ibtopo_node_num_ports(n2));
		return;
	}
	diff_ports(li, n1, n2, &printed, flags, pre1, pre2);
}

static void diff_all(const struct linkinfo *li, const struct ibtopo_node *node,
		     const struct ibtopo *orig, const struct ibtopo *now)
{
	/* the second pass only looks for nodes the cache file lacks */
	unsigned second = li->diffcheck & ~(DIFF_PORT | DIFF_STATE | DIFF_LID | DIFF_DESC);

	if (node) {
		diff_one(li, node, now, li->diffcheck, "< ", "> ");
		diff_one(li, node, orig, second, "> ", "< ");
		return;
	}
	for (unsigned i = 0; i < ibtopo_node_count(orig, li->only); i++)
		diff_one(li, ibtopo_node_get(orig, li->only, i), now, li->diffcheck, "< ", "> ");
	for (unsigned i = 0; i < ibtopo_node_count(now, li->only); i++)
		diff_one(li, ibtopo_node_get(now, li->only, i), orig, second, "> ", "< ");
}

/* ---- --json ----------------------------------------------------------------------------- */

static void json_port(const struct linkinfo *li, const struct ibtopo_node *node,
		      const struct ibtopo_port *port, bool *first)
{
	struct ibstruct_smp_port_info pi;
	const struct ibtopo_port *remote = ibtopo_port_remote(port);
	char buf[64], wmsg[256], smsg[256];

	linkinfo_port_info(port, &pi);
	if (pi.portState == LINKINFO_STATE_DOWN && filtered(li, node, port))
		return;
	printf("%s\n      {\"port\": %u, \"ext_port\": %u, \"guid\": \"0x%016" PRIx64 "\", \"lid\": %u",
	       *first ? "" : ",", ibtopo_port_num(port), ibtopo_port_ext_num(port),
	       ibtopo_port_guid(port),
	       ibtopo_node_type(node) == IBTOPO_NODE_SWITCH ? ibtopo_node_sma_lid(node)
							    : ibtopo_port_base_lid(port));
	*first = false;
	printf(", \"state\": ");
	linkinfo_json_str(stdout, linkinfo_fmt(IBSTRUCT_FMT_PORTSTATE, pi.portState, buf, sizeof(buf)));
	printf(", \"phys_state\": ");
	linkinfo_json_str(stdout, linkinfo_fmt(IBSTRUCT_FMT_PHYSPORTSTATE, pi.portPhysicalState, buf,
					       sizeof(buf)));
	if (pi.portState != LINKINFO_STATE_DOWN) {
		char w[64], s[64];

		linkinfo_width_speed(port, w, s, sizeof(w));
		printf(", \"width\": ");
		linkinfo_json_str(stdout, w);
		printf(", \"speed\": ");
		linkinfo_json_str(stdout, s);
		if (li->additional)
			printf(", \"hoq_life\": %u, \"vl_stall_count\": %u", pi.HOQLife, pi.VLStallCount);
	}
	if (remote) {
		const struct ibtopo_node *rnode = ibtopo_port_node(remote);
		char *name = ibdiag_nnmap_name(li->map, ibtopo_node_guid(rnode), ibtopo_node_desc(rnode));

		linkinfo_max_msg(port, wmsg, smsg, sizeof(wmsg));
		printf(",\n       \"remote\": {\"node_guid\": \"0x%016" PRIx64 "\", \"guid\": \"0x%016" PRIx64
		       "\", \"lid\": %u, \"port\": %u, \"ext_port\": %u, \"type\": \"%s\", \"name\": ",
		       ibtopo_node_guid(rnode), ibtopo_port_guid(remote), linkinfo_remote_lid(remote),
		       ibtopo_port_num(remote), ibtopo_port_ext_num(remote),
		       type_name(ibtopo_node_type(rnode)));
		linkinfo_json_str(stdout, name);
		printf("}, \"could_be\": {\"width\": ");
		linkinfo_json_str(stdout, wmsg[0] ? wmsg + strlen("Could be ") : "");
		printf(", \"speed\": ");
		linkinfo_json_str(stdout, smsg[0] ? smsg + strlen("Could be ") : "");
		printf("}");
		free(name);
	} else {
		printf(", \"remote\": null");
	}
	printf("}");
}

static void json_node(struct linkinfo *li, const struct ibtopo_node *node)
{
	bool first = true;
	char *name;

	for (unsigned i = 1; i <= ibtopo_node_num_ports(node); i++) {
		const struct ibtopo_port *port = ibtopo_node_port(node, i);

		if (!port || !shown_port(li, port))
			continue;
		if (first) {
			name = ibdiag_nnmap_name(li->map, ibtopo_node_guid(node), ibtopo_node_desc(node));
			printf("%s\n    {\"type\": \"%s\", \"guid\": \"0x%016" PRIx64 "\", \"name\": ",
			       li->json_first_node ? "" : ",", type_name(ibtopo_node_type(node)),
			       ibtopo_node_guid(node));
			linkinfo_json_str(stdout, name);
			free(name);
			printf(", \"ports\": [");
			li->json_first_node = false;
		}
		json_port(li, node, port, &first);
	}
	if (!first)
		printf("\n    ]}");
}

/* ---- main ------------------------------------------------------------------------------- */

static struct ibtopo *load_or_exit(const char *file, const char *what)
{
	struct ibtopo *t = ibdiag_topo_load(file, NULL, 0);

	if (!t)
		IBEXIT("loading cached fabric for %s failed\n", what);
	return t;
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{"node-name-map", OPT_NODE_NAME_MAP, 1, "<file>", "node name map file"},
		{"switch", 'S', 1, "<port_guid>",
		 "start partial scan at the port specified by <port_guid> (hex format)"},
		{"port-guid", 'G', 1, "<port_guid>", "(same as -S)"},
		{"Direct", 'D', 1, "<dr_path>",
		 "start partial scan at the port specified by <dr_path>"},
		{"all", 'a', 0, NULL, "print all nodes found in a partial fabric scan"},
		{"hops", 'n', 1, "<hops>", "Number of hops to include away from specified node"},
		{"down", 'd', 0, NULL, "print only down links"},
		{"line", 'l', 0, NULL,
		 "(line mode) print all information for each link on a single line"},
		{"additional", 'p', 0, NULL,
		 "print additional port settings (PktLifeTime, HoqLife, VLStallCount)"},
		{"load-cache", OPT_LOAD_CACHE, 1, "<file>", "filename of ibnetdiscover cache to load"},
		{"diff", OPT_DIFF, 1, "<file>", "filename of ibnetdiscover cache to diff"},
		{"diffcheck", OPT_DIFFCHECK, 1, "<key(s)>", "specify checks to execute for --diff"},
		{"filterdownports", OPT_FILTERDOWNPORTS, 1, "<file>",
		 "filename of ibnetdiscover cache to filter downports"},
		{"outstanding_smps", 'o', 1, NULL,
		 "specify the number of outstanding SMP's which should be issued during the scan"},
		{"switches-only", OPT_SWITCHES_ONLY, 0, NULL, "Output only switches"},
		{"cas-only", OPT_CAS_ONLY, 0, NULL, "Output only CAs"},
		{"json", OPT_JSON, 0, NULL, NULL},
		{NULL, 0, 0, NULL, NULL},
	};
	struct linkinfo li = {.diffcheck = DIFF_PORT | DIFF_STATE, .json_first_node = true};
	struct ibtopo *fabric = NULL, *diff = NULL;
	struct ibpath_path *target = NULL;
	const struct ibtopo_node *node = NULL;
	struct ibdiag_port *port;
	char from[256];
	bool resolved = false, from_dr = false;
	uint64_t dr_guid = 0;
	int rc = 0;

	ibdiag_process_opts(argc, argv, &li, "aDdGgKLlnpRS", opts, process_opt, "", NULL);

	port = ibdiag_try_open_port();
	if (!port) {
		fprintf(stderr, "Failed to open %s port %d\n", ibd.ca ? ibd.ca : "(null)", (int)ibd.ca_port);
		return 1;
	}
	li.map = ibdiag_nnmap_open(li.node_name_map);
	if (li.dr_path && li.load_cache) {
		ibdiag_topo_close(port);
		ibdiag_nnmap_close(li.map);
		fprintf(stderr, "Cannot specify cache and direct route path\n");
		return 1;
	}

	if (li.dr_path) {
		if (ibdiag_resolve(port, li.dr_path, IBDIAG_DEST_DR, &target) < 0)
			IBWARN("Failed to resolve %s; attempting full scan", li.dr_path);
		else {
			resolved = true;
			from_dr = linkinfo_dr_text(target, from, sizeof(from));
		}
	} else if (li.guid_str) {
		if (ibdiag_resolve(port, li.guid_str, IBDIAG_DEST_GUID, &target) < 0)
			IBWARN("Failed to resolve %s; attempting full scan\n", li.guid_str);
		else
			resolved = true;
	}

	if (!li.all && li.dr_path) {
		uint8_t ni[64];
		struct ibstruct_smp_node_info info;

		if (!resolved ||
		    ibdiag_smp_get(port, target, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, ni, NULL) < 0) {
			ibpath_path_unref(target);
			ibdiag_topo_close(port);
			ibdiag_nnmap_close(li.map);
			fprintf(stderr, "Failed to get local Node Info\n");
			return 1;
		}
		ibstruct_smp_node_info_unpack(&info, ni, sizeof(ni));
		dr_guid = info.portGUID;
	}

	if (li.diff_cache)
		diff = load_or_exit(li.diff_cache, "diff");
	if (li.filter_cache)
		li.filter = load_or_exit(li.filter_cache, "filterdownports");

	if (li.load_cache) {
		fabric = ibdiag_topo_load(li.load_cache, NULL, 0);
		if (!fabric) {
			fprintf(stderr, "loading cached fabric failed\n");
			rc = 1;
			goto out;
		}
	} else {
		if (resolved) {
			unsigned hops = li.max_hops ? li.max_hops : 1;

			li.max_hops = hops;
			if (from_dr) {
				fabric = linkinfo_discover(port, from, hops, li.outstanding);
			} else {
				/* A LID-routed start (-S/-G, or -D given another target form):
				 * find the node from here, then scan around it by its directed
				 * route (the simulator drops combined LID+DR routes). */
				struct ibtopo *whole = linkinfo_discover(port, NULL, 0, li.outstanding);
				const struct ibtopo_node *n =
					whole ? linkinfo_find_target(whole, li.guid_str ? li.guid_str : "",
								     target)
					      : NULL;

				if (n && !li.all) {
					fabric = whole;
					whole = NULL;
				} else if (n && ibtopo_dr_path_format(ibtopo_node_dr_path(n), from,
								      sizeof(from)) > 0) {
					fabric = linkinfo_discover(port, from, hops, li.outstanding);
				}
				ibtopo_unref(whole);
			}
			if (!fabric)
				IBWARN("Partial fabric scan failed; attempting full scan\n");
		}
		if (!fabric)
			fabric = linkinfo_discover(port, NULL, li.max_hops, li.outstanding);
		if (!fabric) {
			fprintf(stderr, "discover failed\n");
			rc = 1;
			goto out;
		}
	}

	if (li.json && diff) {
		IBEXIT("--json cannot be combined with --diff");
	}
	if (li.json)
		printf("{\"nodes\": [");

	if (!li.all && (li.guid_str || li.dr_path)) {
		struct ibtopo_port *p = NULL;

		if (li.guid_str) {
			node = linkinfo_find_target(fabric, li.guid_str, target);
		} else {
			p = ibtopo_find_port_guid(fabric, dr_guid);
			node = p ? ibtopo_port_node(p) : NULL;
		}
		if (node && (li.only == IBTOPO_NODE_ANY || ibtopo_node_type(node) == li.only)) {
			if (li.json)
				json_node(&li, node);
			else if (diff)
				diff_all(&li, node, diff, fabric);
			else
				print_node(&li, node, NULL);
		} else {
			fflush(stdout);
			fprintf(stderr, "Failed to find port: %s\n",
				li.guid_str ? li.guid_str : li.dr_path);
		}
	} else if (diff) {
		diff_all(&li, NULL, diff, fabric);
	} else {
		for (unsigned i = 0; i < ibtopo_node_count(fabric, li.only); i++) {
			if (li.json)
				json_node(&li, ibtopo_node_get(fabric, li.only, i));
			else
				print_node(&li, ibtopo_node_get(fabric, li.only, i), NULL);
		}
	}
	if (li.json)
		printf("\n]}\n");

out:
	ibtopo_unref(fabric);
	ibtopo_unref(diff);
	ibtopo_unref(li.filter);
	ibpath_path_unref(target);
	ibdiag_topo_close(port);
	ibdiag_nnmap_close(li.map);
	return rc;
}
