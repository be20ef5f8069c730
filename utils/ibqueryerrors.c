/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ibqueryerrors: the PerfMgt error counters of every port of the fabric compared with
 * thresholds, a drop-in replacement for infiniband-diags' ibqueryerrors.
 *
 * The fabric comes from a discovery (libibtopo) or a cache file; each node's PerfMgt agent
 * is asked for its ClassPortInfo, then for PortCounters (and PortCountersExtended where
 * supported) of all ports at once (AllPortSelect) or port by port.  Exit status 1 when a
 * port has a counter above its threshold.
 *
 * The output keeps the reference's quirks that scripts may depend on: --details decodes
 * PortXmitDiscardDetails with the PortRcvErrorDetails field names (and the other way
 * round); a suppressed CounterSelect2 shifts the thresholds of the counters after it; a
 * missing threshold file prints "## (null)".  What the reference gets wrong in ways that
 * crash or hang is not kept: its SL table is indexed by any 16-bit DLID (ours is as large
 * as that), and -G/-S find the node in a discovery from the local port instead of waiting
 * for ever on a combined LID+DR route.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibsched.h>

#include "conffile.h"
#include "ibdiag.h"
#include "ibdiag-topo.h"
#include "linkinfo.h"

#define PM_DATA_SIZE 192
#define ALL_PORTS    0xff
#define SUP_MAX      64
#define DEF_THRESHOLD_FILE "/etc/infiniband-diags/error_thresholds"

/* PerfMgt ClassPortInfo.CapabilityMask and CapabilityMask2 bits */
#define PM_CAP_ALL_PORT_SELECT  (1u << 8)
#define PM_CAP_EXT_WIDTH        (1u << 9)
#define PM_CAP_EXT_WIDTH_NOIETF (1u << 10)
#define PM_CAP_XMIT_WAIT        (1u << 12)
#define PM_CAP2_ADDL_EXT        (1u << 1)

#define PM_ATTR_CLASS_PORT_INFO  0x0001
#define PM_ATTR_PORT_COUNTERS    0x0012
#define PM_ATTR_RCV_ERR_DETAILS  0x0015
#define PM_ATTR_XMIT_DISC_DETAILS 0x0016
#define PM_ATTR_PORT_COUNTERS_EXT 0x001d

enum {
	OPT_NODE_NAME_MAP = 1,
	OPT_DATA,
	OPT_SWITCH,
	OPT_CA,
	OPT_ROUTER,
	OPT_DETAILS,
	OPT_LOAD_CACHE,
	OPT_THRESHOLD_FILE,
	OPT_COUNTERS,
	OPT_SKIP_SL,
	OPT_JSON = IBDIAG_OPT_EXTRA,
};

#define PRINT_SWITCH 0x1
#define PRINT_CA     0x2
#define PRINT_ROUTER 0x4

/* A counter: name and place (MSB-first bit offset and width in the attribute's data). */
struct field {
	const char *name;
	unsigned off, bits;
};

/* PortCounters as libibmad lists it (IB_PC_FIRST_F .. IB_PC_XMT_WAIT_F): the names -s
 * accepts.  Indexes below refer to this table. */
static const struct field pc_fields[] = {
	{"PortSelect", 8, 8},
	{"CounterSelect", 16, 16},
	{"SymbolErrorCounter", 32, 16},
	{"LinkErrorRecoveryCounter", 48, 8},
	{"LinkDownedCounter", 56, 8},
	{"PortRcvErrors", 64, 16},
	{"PortRcvRemotePhysicalErrors", 80, 16},
	{"PortRcvSwitchRelayErrors", 96, 16},
	{"PortXmitDiscards", 112, 16},
	{"PortXmitConstraintErrors", 128, 8},
	{"PortRcvConstraintErrors", 136, 8},
	{"CounterSelect2", 144, 8},
	{"LocalLinkIntegrityErrors", 152, 4},
	{"ExcessiveBufferOverrunErrors", 156, 4},
	{"VL15Dropped", 176, 16},
	{"PortXmitData", 192, 32},
	{"PortRcvData", 224, 32},
	{"PortXmitPkts", 256, 32},
	{"PortRcvPkts", 288, 32},
	{"PortXmitWait", 320, 32},
};
#define PC_COUNT         (sizeof(pc_fields) / sizeof(pc_fields[0]))
#define PC_SYM           2   /* the first error counter */
#define PC_RCV_ERR       5
#define PC_SWITCH_RELAY  7
#define PC_XMIT_DISCARDS 8
#define PC_SELECT2       11
#define PC_VL15          14  /* the last error counter */
#define PC_XMIT_DATA     15
#define PC_RCV_PKTS      18
#define PC_XMIT_WAIT     19

/* PortCountersExtended error counters (IB_PC_EXT_ERR_SYM_F .. IB_PC_EXT_XMT_WAIT_F): the
 * names of the threshold file; the i-th error counter of pc_fields (CounterSelect2 left
 * out) goes with the i-th here. */
static const struct field ext_err_fields[] = {
	{"SymbolErrorCounter", 576, 64},
	{"LinkErrorRecoveryCounter", 640, 64},
	{"LinkDownedCounter", 704, 64},
	{"PortRcvErrors", 768, 64},
	{"PortRcvRemotePhysicalErrors", 832, 64},
	{"PortRcvSwitchRelayErrors", 896, 64},
	{"PortXmitDiscards", 960, 64},
	{"PortXmitConstraintErrors", 1024, 64},
	{"PortRcvConstraintErrors", 1088, 64},
	{"LocalLinkIntegrityErrors", 1152, 64},
	{"ExcessiveBufferOverrunErrors", 1216, 64},
	{"VL15Dropped", 1280, 64},
	{"PortXmitWait", 1344, 64},
};
#define EXT_COUNT   (sizeof(ext_err_fields) / sizeof(ext_err_fields[0]))
#define EXT_XMIT_WAIT 12

/* PortCountersExtended data counters */
static const struct field ext_data_fields[] = {
	{"PortXmitData", 64, 64},
	{"PortRcvData", 128, 64},
	{"PortXmitPkts", 192, 64},
	{"PortRcvPkts", 256, 64},
	{"PortUnicastXmitPkts", 320, 64},
	{"PortUnicastRcvPkts", 384, 64},
	{"PortMulticastXmitPkts", 448, 64},
	{"PortMulticastRcvPkts", 512, 64},
};

/* The detail counters, by the names libibmad gives them */
static const struct field rcv_err_fields[] = {
	{"PortLocalPhysicalErrors", 32, 16},
	{"PortMalformedPktErrors", 48, 16},
	{"PortBufferOverrunErrors", 64, 16},
	{"PortDLIDMappingErrors", 80, 16},
	{"PortVLMappingErrors", 96, 16},
	{"PortLoopingErrors", 112, 16},
};
static const struct field xmit_disc_fields[] = {
	{"PortInactiveDiscards", 32, 16},
	{"PortNeighborMTUDiscards", 48, 16},
	{"PortSwLifetimeLimitDiscards", 64, 16},
	{"PortSwHOQLifetimeLimitDiscards", 80, 16},
};

/* One value reported for a port. */
enum item_kind {
	ITEM_ERROR,  /* above its threshold */
	ITEM_DETAIL, /* --details */
	ITEM_DATA,   /* --data, --counters */
};
struct item {
	const char *name;
	uint64_t val;
	enum item_kind kind;
	bool human; /* printed with its scaled value and unit */
	bool bytes; /* a data counter that counts 4-byte words */
};
#define ITEMS_MAX 64

struct qe {
	/* options */
	const char *node_name_map;
	const char *load_cache;
	const char *threshold_file;
	const char *guid_str;
	const char *dr_path;
	unsigned outstanding;
	unsigned print_types;
	bool data, counters_only, details, report_port, clear_errors, clear_counts, json;
	bool obtain_sl;
	unsigned suppressed[SUP_MAX];
	unsigned sup_total;

	/* thresholds (by ext_err_fields index) and their text ("Thresholds: [..]") */
	uint64_t thresholds[EXT_COUNT];
	char *threshold_str;

	struct {
		int nodes_checked, bad_nodes, ports_checked, bad_ports, pma_failures;
	} summary;

	struct ibdiag_port *port;
	struct ibdiag_nnmap *map;
	uint8_t lid2sl[0x10000];
	bool json_first_node;

	/* answers fetched ahead (prefetch_fabric()); a hash of PF_BUCKETS chains */
	struct pf_entry **pf;
};

/* ---- Options ---------------------------------------------------------------------------- */

static void add_suppressed(struct qe *q, unsigned f)
{
	if (q->sup_total >= SUP_MAX) {
		IBWARN("Maximum (%d) fields have been suppressed; skipping %s", q->sup_total,
		       pc_fields[f].name);
		return;
	}
	q->suppressed[q->sup_total++] = f;
}

static void suppress_list(struct qe *q, const char *text)
{
	char *copy = strdup(text), *name, *save = NULL;

	if (!copy)
		IBPANIC("out of memory");
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
		for (unsigned f = 0; f < PC_COUNT; f++)
			if (!strcmp(name, pc_fields[f].name))
				add_suppressed(q, f);
	free(copy);
}

static bool is_suppressed(const struct qe *q, unsigned f)
{
	for (unsigned i = 0; i < q->sup_total; i++)
		if (q->suppressed[i] == f)
			return true;
	return false;
}

static int process_opt(void *ctx, int ch, char *arg)
{
	struct qe *q = ctx;

	switch (ch) {
	case 's':
		suppress_list(q, arg);
		break;
	case 'c':
		/* the one counter the reference calls common */
		add_suppressed(q, PC_SWITCH_RELAY);
		break;
	case OPT_NODE_NAME_MAP:
		q->node_name_map = arg;
		break;
	case OPT_DATA:
		q->data = true;
		break;
	case OPT_SWITCH:
		q->print_types |= PRINT_SWITCH;
		break;
	case OPT_CA:
		q->print_types |= PRINT_CA;
		break;
	case OPT_ROUTER:
		q->print_types |= PRINT_ROUTER;
		break;
	case OPT_DETAILS:
		q->details = true;
		break;
	case OPT_LOAD_CACHE:
		q->load_cache = arg;
		break;
	case OPT_THRESHOLD_FILE:
		q->threshold_file = arg;
		break;
	case OPT_COUNTERS:
		q->counters_only = true;
		break;
	case OPT_SKIP_SL:
		q->obtain_sl = false;
		break;
	case OPT_JSON:
		q->json = true;
		break;
	case 'G':
	case 'S':
		q->guid_str = arg;
		break;
	case 'D':
		q->dr_path = arg;
		break;
	case 'r':
		q->report_port = true;
		break;
	case 'R': /* obsolete, does nothing */
		break;
	case 'k':
		q->clear_errors = true;
		break;
	case 'K':
		q->clear_counts = true;
		break;
	case 'o':
		q->outstanding = (unsigned)strtoul(arg, NULL, 0);
		break;
	default:
		return -1;
	}
	return 0;
}

/* ---- Thresholds ----------------------------------------------------------------------- */

/* The threshold file (conffile.c reads it): "Name=value" lines, "#" comments.  Unknown names
 * are ignored; a line without "=" sets 0 (the reference crashes on it). */
static void read_thresholds(struct qe *q)
{
	FILE *f = fopen(q->threshold_file, "r");
	const char *names[EXT_COUNT];
	int rc;

	if (!f)
		return;
	for (unsigned i = 0; i < EXT_COUNT; i++)
		names[i] = ext_err_fields[i].name;
	rc = ibdiag_thresholds_read(f, names, EXT_COUNT, q->thresholds, &q->threshold_str);
	fclose(f);
	if (rc) {
		fprintf(stderr, "Failed to allocate memory: %s\n", strerror(-rc));
		exit(1);
	}
}

/* ---- PerfMgt MADs --------------------------------------------------------------------------- */

static uint64_t get_bits(const uint8_t *data, unsigned off, unsigned bits)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bits; i++) {
		unsigned b = off + i;

		v = (v << 1) | ((data[b / 8] >> (7 - b % 8)) & 1u);
	}
	return v;
}

static struct ibpath_path *lid_path(struct qe *q, uint16_t lid)
{
	struct ibpath_path *path;

	if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
		IBPANIC("out of memory");
	ibpath_path_set(path, IBPATH_DLID, lid);
	ibpath_path_set(path, IBPATH_SL, q->lid2sl[lid]);
	return path;
}

/* ---- Answers fetched ahead --------------------------------------------------------------
 * The reference asks one PMA after the other.  Before the report, the Gets it will make for
 * a whole fabric (ClassPortInfo of each node, then the counters of each port, or of all
 * ports at once where AllPortSelect is supported) are sent together through the scheduler;
 * the report then takes each answer from here, once, in its own order.  Only good answers
 * are kept: a Get that failed ahead is made again in the report's turn, so failures, their
 * messages and their -v details are the reference's.  Not with --data or --counters (see
 * main()). */
#define PF_BUCKETS 4096u

struct pf_entry {
	struct pf_entry *next;
	uint16_t lid, attr;
	uint8_t port;
	int state; /* 1 pending, 0 answered, -1 failed, 2 used */
	uint8_t data[PM_DATA_SIZE];
};

static unsigned pf_hash(uint16_t lid, uint16_t attr, uint8_t port)
{
	return ((unsigned)lid * 31u + attr * 7u + port) % PF_BUCKETS;
}

static struct pf_entry *pf_find(struct qe *q, uint16_t lid, uint16_t attr, uint8_t port)
{
	if (!q->pf)
		return NULL;
	for (struct pf_entry *e = q->pf[pf_hash(lid, attr, port)]; e; e = e->next)
		if (e->lid == lid && e->attr == attr && e->port == port && e->state != 2)
			return e;
	return NULL;
}

static int pf_done(struct ibsched *sched, struct ibsched_work *work,
		   const struct ibmadrpc_reply *reply, const struct ibmadrpc_error *err, void *user)
{
	struct pf_entry *e = user;

	(void)sched;
	(void)work;
	(void)err;
	if (reply) {
		ibdiag_reply_data(reply, e->data, PM_DATA_SIZE);
		e->state = 0;
	} else {
		e->state = -1;
	}
	return IBSCHED_HANDLED;
}

static struct ibpath_path *lid_path(struct qe *q, uint16_t lid);

/* Queues a Get of attr for port (PortSelect) of the PMA at lid, unless one is known. */
static void pf_get(struct qe *q, struct ibsched *sched, uint16_t lid, uint16_t attr, int port)
{
	uint8_t req[PM_DATA_SIZE] = {0};
	struct ibmadrpc_request r = {
		.mgmt_class = IBSTRUCT_CLASS_PERF_MGT,
		.method = IBSTRUCT_METHOD_GET,
		.attr_id = attr,
		.data = req,
		.data_len = PM_DATA_SIZE,
	};
	struct ibpath_path *path;
	struct pf_entry *e;
	unsigned h = pf_hash(lid, attr, (uint8_t)port);

	if (!lid || pf_find(q, lid, attr, (uint8_t)port))
		return;
	e = calloc(1, sizeof(*e));
	if (!e)
		return; /* fetched in the report's turn instead */
	e->lid = lid;
	e->attr = attr;
	e->port = (uint8_t)port;
	e->state = 1;
	e->next = q->pf[h];
	q->pf[h] = e;
	req[1] = (uint8_t)port;
	r.path = path = lid_path(q, lid);
	if (ibsched_submit(sched, NULL, &r, pf_done, e, NULL) < 0)
		e->state = -1;
	ibpath_path_unref(path);
}

static void pf_free(struct qe *q)
{
	if (!q->pf)
		return;
	for (unsigned i = 0; i < PF_BUCKETS; i++)
		while (q->pf[i]) {
			struct pf_entry *e = q->pf[i];

			q->pf[i] = e->next;
			free(e);
		}
	free(q->pf);
	q->pf = NULL;
}

static int pma_rpc(struct qe *q, uint16_t lid, uint8_t method, uint16_t attr,
		   const uint8_t req[PM_DATA_SIZE], uint8_t out[PM_DATA_SIZE])
{
	struct ibpath_path *path = lid_path(q, lid);
	struct ibmadrpc_request r = {
		.path = path,
		.mgmt_class = IBSTRUCT_CLASS_PERF_MGT,
		.method = method,
		.attr_id = attr,
		.data = req,
		.data_len = PM_DATA_SIZE,
	};
	struct ibmadrpc_reply reply;
	struct pf_entry *e;
	int rc;

	memset(out, 0, PM_DATA_SIZE);
	if (method == IBSTRUCT_METHOD_GET && (e = pf_find(q, lid, attr, req[1])) && e->state == 0) {
		memcpy(out, e->data, PM_DATA_SIZE);
		e->state = 2;
		ibpath_path_unref(path);
		return 0;
	}
	rc = ibdiag_call(q->port, &r, &reply, NULL);
	if (rc >= 0)
		ibdiag_reply_data(&reply, out, PM_DATA_SIZE);
	ibpath_path_unref(path);
	return rc < 0 ? -1 : 0;
}

/* pma_query_via(): a Get naming the port in PortSelect. */
static int pma_query(struct qe *q, uint16_t lid, int port, uint16_t attr, uint8_t out[PM_DATA_SIZE])
{
	uint8_t req[PM_DATA_SIZE] = {0};

	req[1] = (uint8_t)port;
	return pma_rpc(q, lid, IBSTRUCT_METHOD_GET, attr, req, out);
}

/* performance_reset_via() and the extended reset: a Set with CounterSelect (16 bits) and
 * CounterSelect2 (8 bits at byte 18; 32 bits at byte 4 for PortCountersExtended). */
static int pma_reset(struct qe *q, uint16_t lid, int port, uint32_t mask, uint16_t attr)
{
	uint8_t req[PM_DATA_SIZE] = {0}, out[PM_DATA_SIZE];

	if (!mask)
		mask = ~0u;
	req[1] = (uint8_t)port;
	req[2] = (uint8_t)(mask >> 8);
	req[3] = (uint8_t)mask;
	if (attr == PM_ATTR_PORT_COUNTERS_EXT) {
		uint32_t m2 = mask >> 16;

		req[4] = (uint8_t)(m2 >> 24);
		req[5] = (uint8_t)(m2 >> 16);
		req[6] = (uint8_t)(m2 >> 8);
		req[7] = (uint8_t)m2;
	} else {
		req[18] = (uint8_t)(mask >> 16);
	}
	return pma_rpc(q, lid, IBSTRUCT_METHOD_SET, attr, req, out);
}

static const char *portid_text(struct qe *q, uint16_t lid, char *buf, size_t len)
{
	struct ibpath_path *path = lid_path(q, lid);

	ibdiag_portid_str(path, buf, len);
	ibpath_path_unref(path);
	return buf;
}

/* ---- One node ------------------------------------------------------------------------------ */

struct node_ctx {
	const struct ibtopo_node *node;
	char *name;
	uint16_t lid;
	uint16_t cap_mask;
	uint32_t cap_mask2;
	bool header;  /* "Errors for" / "Data Counters for" printed */
	bool json_open;
};

static void json_node_open(struct qe *q, struct node_ctx *n)
{
	if (n->json_open)
		return;
	printf("%s\n    {\"type\": \"%s\", \"guid\": \"0x%016" PRIx64 "\", \"name\": ",
	       q->json_first_node ? "" : ",",
	       ibtopo_node_type(n->node) == IBTOPO_NODE_SWITCH ? "Switch"
	       : ibtopo_node_type(n->node) == IBTOPO_NODE_CA   ? "CA"
							       : "Router",
	       ibtopo_node_guid(n->node));
	linkinfo_json_str(stdout, n->name);
	printf(", \"ports\": [");
	q->json_first_node = false;
	n->json_open = true;
}

static uint64_t switch_guid(const struct ibtopo_node *node)
{
	const struct ibtopo_port *p0 = ibtopo_node_port(node, 0);

	return p0 ? ibtopo_port_guid(p0) : ibtopo_node_guid(node);
}

static void print_items(const struct item *items, unsigned count)
{
	for (unsigned i = 0; i < count; i++) {
		if (items[i].human) {
			float v;
			const char *unit = linkinfo_human(items[i].val, &v, items[i].bytes);

			printf(" [%s == %" PRIu64 " (%5.3f%s)]", items[i].name, items[i].val, v, unit);
		} else {
			printf(" [%s == %u]", items[i].name, (unsigned)items[i].val);
		}
	}
}

static void json_items(const struct item *items, unsigned count, enum item_kind kind,
		       const char *key)
{
	bool first = true;

	for (unsigned i = 0; i < count; i++) {
		if (items[i].kind != kind)
			continue;
		printf("%s\"%s\": {", first ? ", " : "", key);
		if (first)
			printf("\"%s\": %" PRIu64, items[i].name, items[i].val);
		first = false;
		for (i++; i < count; i++)
			if (items[i].kind == kind)
				printf(", \"%s\": %" PRIu64, items[i].name, items[i].val);
		printf("}");
	}
}

static void json_port(struct qe *q, struct node_ctx *n, int portnum, uint64_t guid,
		      const struct item *items, unsigned count, bool bad, bool *first)
{
	json_node_open(q, n);
	printf("%s\n      {\"port\": ", *first ? "" : ",");
	if (portnum == ALL_PORTS)
		printf("\"ALL\"");
	else
		printf("%d", portnum);
	printf(", \"guid\": \"0x%016" PRIx64 "\", \"exceeds_threshold\": %s", guid,
	       bad ? "true" : "false");
	json_items(items, count, ITEM_ERROR, "errors");
	json_items(items, count, ITEM_DETAIL, "details");
	json_items(items, count, ITEM_DATA, "data");
	printf("}");
	*first = false;
}

static void print_port_config(struct qe *q, const struct ibtopo_node *node, int portnum)
{
	const struct ibtopo_port *port = ibtopo_node_port(node, (unsigned)portnum);
	char link[256], remote[256], ext[16];

	if (!port)
		return;
	linkinfo_link_str(port, link, sizeof(link));
	if (ibtopo_port_remote(port)) {
		if (linkinfo_remote_str(port, q->map, true, remote, sizeof(remote)) > (int)sizeof(remote))
			fprintf(stderr, "WARN: string buffer overflow\n");
	} else {
		snprintf(remote, sizeof(remote), "           [  ] \"\" ( )\n");
	}
	linkinfo_ext_str(port, ext);
	printf("       Link info: %6d", ibtopo_node_type(node) == IBTOPO_NODE_SWITCH
					    ? ibtopo_node_sma_lid(node)
					    : ibtopo_port_base_lid(port));
	printf("%4d[%2s] ==%s==>  %s", portnum, ext, link, remote);
}

/* --details: one detail attribute read and decoded with the given fields (the reference
 * passes the other attribute's fields: kept). */
static void add_details(struct qe *q, struct node_ctx *n, int portnum, const char *attr_name,
			uint16_t attr, const struct field *fields, unsigned nfields,
			struct item *items, unsigned *count)
{
	uint8_t data[PM_DATA_SIZE];
	char pid[128];

	if (pma_query(q, n->lid, portnum, attr, data) < 0) {
		IBWARN("%s query failed on %s, %s port %d", attr_name, n->name,
		       portid_text(q, n->lid, pid, sizeof(pid)), portnum);
		q->summary.pma_failures++;
		return;
	}
	for (unsigned i = 0; i < nfields && *count < ITEMS_MAX; i++) {
		uint64_t v = get_bits(data, fields[i].off, fields[i].bits);

		if (v)
			items[(*count)++] = (struct item){fields[i].name, v, ITEM_DETAIL, false, false};
	}
}

/* One counter against its threshold: an item when above. */
static bool check(struct qe *q, const uint8_t *pc, const uint8_t *pce, unsigned f, unsigned ext_i,
		  struct item *items, unsigned *count)
{
	uint64_t v;
	/* (a shifted index may run past the table: no threshold there, and no counter) */
	uint64_t thr = ext_i < EXT_COUNT ? q->thresholds[ext_i] : 0;

	if (*count >= ITEMS_MAX)
		return false;
	if (pce) {
		if (ext_i >= EXT_COUNT)
			return false;
		v = get_bits(pce, ext_err_fields[ext_i].off, 64);
		if (v > thr) {
			items[(*count)++] = (struct item){ext_err_fields[ext_i].name, v, ITEM_ERROR,
							  true, false};
			return true;
		}
		return false;
	}
	v = get_bits(pc, pc_fields[f].off, pc_fields[f].bits);
	if (v > thr) {
		items[(*count)++] = (struct item){pc_fields[f].name, v, ITEM_ERROR, false, false};
		return true;
	}
	return false;
}

/* print_results(): the counters above their thresholds; returns how many. */
static unsigned report(struct qe *q, struct node_ctx *n, const uint8_t *pc, const uint8_t *pce,
		       int portnum, bool *json_first)
{
	struct item items[ITEMS_MAX];
	unsigned count = 0, errors = 0, f, ext_i;
	/* the extended counters are compared only where the agent says they hold them all */
	const uint8_t *ext = (n->cap_mask2 & PM_CAP2_ADDL_EXT) ? pce : NULL;
	static const uint8_t zero[PM_DATA_SIZE];

	if ((n->cap_mask2 & PM_CAP2_ADDL_EXT) && !ext)
		ext = zero;
	for (f = PC_SYM, ext_i = 0; f <= PC_VL15; f++, ext_i++) {
		if (is_suppressed(q, f))
			continue;
		if (f == PC_SELECT2) {
			/* not a counter (a suppressed one is skipped above without this step
			 * back, which shifts the rest: the reference does so) */
			ext_i--;
			continue;
		}
		if (!check(q, pc, ext, f, ext_i, items, &count))
			continue;
		errors++;
		if (f == PC_XMIT_DISCARDS && q->details)
			add_details(q, n, portnum, "PortXmitDiscardDetails", PM_ATTR_XMIT_DISC_DETAILS,
				    rcv_err_fields, 6, items, &count);
		else if (f == PC_RCV_ERR && q->details)
			add_details(q, n, portnum, "PortRcvErrorDetails", PM_ATTR_RCV_ERR_DETAILS,
				    xmit_disc_fields, 4, items, &count);
	}
	if (!is_suppressed(q, PC_XMIT_WAIT) && check(q, pc, ext, PC_XMIT_WAIT, EXT_XMIT_WAIT, items, &count))
		errors++;
	if (!count)
		return 0;

	if (q->data) {
		const uint8_t *pkt = pc;
		const struct field *fields = &pc_fields[PC_XMIT_DATA];
		unsigned nf = 4;

		if (pce) {
			pkt = pce;
			fields = ext_data_fields;
			nf = (n->cap_mask & PM_CAP_EXT_WIDTH) ? 8 : 4;
		}
		for (unsigned i = 0; i < nf && count < ITEMS_MAX; i++) {
			uint64_t v = get_bits(pkt, fields[i].off, fields[i].bits);

			if (v)
				items[count++] = (struct item){fields[i].name, v, ITEM_DATA, true,
							       i < 2};
		}
	}

	if (!n->header) {
		if (!q->json) {
			if (ibtopo_node_type(n->node) == IBTOPO_NODE_SWITCH)
				printf("Errors for 0x%" PRIx64 " \"%s\"\n", switch_guid(n->node), n->name);
			else
				printf("Errors for \"%s\"\n", n->name);
		}
		n->header = true;
		q->summary.bad_nodes++;
	}
	if (portnum == ALL_PORTS) {
		if (ibtopo_node_type(n->node) == IBTOPO_NODE_SWITCH) {
			if (q->json) {
				json_port(q, n, portnum, switch_guid(n->node), items, count, true,
					  json_first);
			} else {
				printf("   GUID 0x%" PRIx64 " port ALL:", switch_guid(n->node));
				print_items(items, count);
				printf("\n");
			}
		}
	} else {
		const struct ibtopo_port *port = ibtopo_node_port(n->node, (unsigned)portnum);
		uint64_t guid = port ? ibtopo_port_guid(port) : 0;

		if (q->json) {
			json_port(q, n, portnum, guid, items, count, true, json_first);
		} else {
			printf("   GUID 0x%" PRIx64 " port %d:", guid, portnum);
			print_items(items, count);
			printf("\n");
			if (q->report_port)
				print_port_config(q, n->node, portnum);
		}
		q->summary.bad_ports++;
	}
	(void)errors;
	return count;
}

static bool query_cap_mask(struct qe *q, struct node_ctx *n, int portnum)
{
	uint8_t data[PM_DATA_SIZE];
	char pid[128];

	if (pma_query(q, n->lid, portnum, PM_ATTR_CLASS_PORT_INFO, data) < 0) {
		IBWARN("classportinfo query failed on %s, %s port %d", n->name,
		       portid_text(q, n->lid, pid, sizeof(pid)), portnum);
		q->summary.pma_failures++;
		return false;
	}
	n->cap_mask = (uint16_t)(data[2] << 8 | data[3]);
	n->cap_mask2 = ((uint32_t)data[4] << 24 | (uint32_t)data[5] << 16 |
			(uint32_t)data[6] << 8 | data[7]) >> 5;
	return true;
}

/* print_errors(): 0 when nothing was reported (or the query failed). */
static unsigned errors_of(struct qe *q, struct node_ctx *n, int portnum, bool *json_first)
{
	uint8_t pc[PM_DATA_SIZE], pce[PM_DATA_SIZE];
	const uint8_t *ext = NULL;
	char pid[128];

	if (pma_query(q, n->lid, portnum, PM_ATTR_PORT_COUNTERS, pc) < 0) {
		IBWARN("IB_GSI_PORT_COUNTERS query failed on %s, %s port %d", n->name,
		       portid_text(q, n->lid, pid, sizeof(pid)), portnum);
		q->summary.pma_failures++;
		return 0;
	}
	if (n->cap_mask & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_WIDTH_NOIETF)) {
		if (pma_query(q, n->lid, portnum, PM_ATTR_PORT_COUNTERS_EXT, pce) < 0) {
			IBWARN("IB_GSI_PORT_COUNTERS_EXT query failed on %s, %s port %d", n->name,
			       portid_text(q, n->lid, pid, sizeof(pid)), portnum);
			q->summary.pma_failures++;
			return 0;
		}
		ext = pce;
	}
	if (!(n->cap_mask & PM_CAP_XMIT_WAIT))
		memset(pc + 40, 0, 4); /* PortXmitWait unsupported: not a value */
	return report(q, n, pc, ext, portnum, json_first);
}

/* print_data_cnts() */
static void data_counters(struct qe *q, struct node_ctx *n, int portnum, bool *json_first)
{
	uint8_t pc[PM_DATA_SIZE];
	struct item items[ITEMS_MAX];
	const struct field *fields = &pc_fields[PC_XMIT_DATA];
	unsigned nf = 4, count = 0;
	uint16_t attr = PM_ATTR_PORT_COUNTERS;
	const char *attr_name = "IB_GSI_PORT_COUNTERS";
	char pid[128];

	if (n->cap_mask & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_WIDTH_NOIETF)) {
		attr = PM_ATTR_PORT_COUNTERS_EXT;
		attr_name = "IB_GSI_PORT_COUNTERS_EXT";
		fields = ext_data_fields;
		nf = (n->cap_mask & PM_CAP_EXT_WIDTH) ? 8 : 4;
	}
	if (pma_query(q, n->lid, portnum, attr, pc) < 0) {
		IBWARN("%s query failed on %s, %s port %d", attr_name, n->name,
		       portid_text(q, n->lid, pid, sizeof(pid)), portnum);
		q->summary.pma_failures++;
		return;
	}
	for (unsigned i = 0; i < nf; i++)
		items[count++] = (struct item){fields[i].name, get_bits(pc, fields[i].off, fields[i].bits),
					       ITEM_DATA, true, i < 2};
	if (q->json) {
		json_port(q, n, portnum, ibtopo_node_guid(n->node), items, count, false, json_first);
		return;
	}
	if (!n->header) {
		printf("Data Counters for 0x%" PRIx64 " \"%s\"\n", ibtopo_node_guid(n->node), n->name);
		n->header = true;
	}
	if (portnum == ALL_PORTS)
		printf("   GUID 0x%" PRIx64 " port ALL:", ibtopo_node_guid(n->node));
	else
		printf("   GUID 0x%" PRIx64 " port %d:", ibtopo_node_guid(n->node), portnum);
	print_items(items, count);
	printf("\n");
	if (portnum != ALL_PORTS && q->report_port)
		print_port_config(q, n->node, portnum);
}

static void clear_port(struct qe *q, struct node_ctx *n, int portnum)
{
	uint32_t mask = 0;
	char pid[128];

	if (q->clear_errors) {
		mask |= 0xfff;
		if (n->cap_mask & PM_CAP_XMIT_WAIT)
			mask |= 0x10000;
	}
	if (q->clear_counts)
		mask |= 0xf000;
	if (mask && pma_reset(q, n->lid, portnum, mask, PM_ATTR_PORT_COUNTERS) < 0) {
		fflush(stdout);
		fprintf(stderr, "Failed to reset errors %s port %d\n", n->name, portnum);
	}
	if (q->clear_errors && q->details) {
		pma_reset(q, n->lid, portnum, 0xf, PM_ATTR_XMIT_DISC_DETAILS);
		pma_reset(q, n->lid, portnum, 0x3f, PM_ATTR_RCV_ERR_DETAILS);
	}
	if (n->cap_mask & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_WIDTH_NOIETF)) {
		mask = 0;
		if (q->clear_counts)
			mask = (n->cap_mask & PM_CAP_EXT_WIDTH) ? 0xff : 0x0f;
		if (q->clear_errors && (n->cap_mask2 & PM_CAP2_ADDL_EXT)) {
			mask |= 0xfff0000;
			if (n->cap_mask & PM_CAP_XMIT_WAIT)
				mask |= 1u << 28;
		}
		if (mask && pma_reset(q, n->lid, portnum, mask, PM_ATTR_PORT_COUNTERS_EXT) < 0) {
			fflush(stdout);
			fprintf(stderr, "Failed to reset extended data counters %s, %s port %d\n",
				n->name, portid_text(q, n->lid, pid, sizeof(pid)), portnum);
		}
	}
}

static void check_node(struct qe *q, const struct ibtopo_node *node)
{
	struct node_ctx n = {.node = node};
	enum ibtopo_node_type type = ibtopo_node_type(node);
	unsigned nports = ibtopo_node_num_ports(node);
	unsigned want = type == IBTOPO_NODE_SWITCH ? PRINT_SWITCH
			: type == IBTOPO_NODE_CA   ? PRINT_CA
			: type == IBTOPO_NODE_ROUTER ? PRINT_ROUTER
						     : 0;
	int start = 1, p = 0;
	bool all_ports = false, json_first = true;

	if (!(want & q->print_types))
		return;
	if (type == IBTOPO_NODE_SWITCH && ibtopo_node_enhanced_port0(node))
		start = 0;
	n.name = ibdiag_nnmap_name(q->map, ibtopo_node_guid(node), ibtopo_node_desc(node));
	if (type == IBTOPO_NODE_SWITCH) {
		n.lid = ibtopo_node_sma_lid(node);
	} else {
		for (p = 1; p <= (int)nports; p++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, (unsigned)p);

			if (port) {
				n.lid = ibtopo_port_base_lid(port);
				break;
			}
		}
	}
	if (query_cap_mask(q, &n, p) && (n.cap_mask & PM_CAP_ALL_PORT_SELECT))
		all_ports = true;

	if (q->counters_only) {
		for (p = start; p <= (int)nports; p++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, (unsigned)p);

			if (!port)
				continue;
			if (type != IBTOPO_NODE_SWITCH)
				n.lid = ibtopo_port_base_lid(port);
			data_counters(q, &n, p, &json_first);
			q->summary.ports_checked++;
			if (!all_ports)
				clear_port(q, &n, p);
		}
	} else {
		if (all_ports && !errors_of(q, &n, ALL_PORTS, &json_first)) {
			q->summary.ports_checked += (int)nports;
			goto clear;
		}
		for (p = start; p <= (int)nports; p++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, (unsigned)p);

			if (!port)
				continue;
			if (type != IBTOPO_NODE_SWITCH)
				n.lid = ibtopo_port_base_lid(port);
			errors_of(q, &n, p, &json_first);
			q->summary.ports_checked++;
			if (!all_ports)
				clear_port(q, &n, p);
		}
	}
clear:
	q->summary.nodes_checked++;
	if (all_ports)
		clear_port(q, &n, ALL_PORTS);
	if (n.json_open)
		printf("\n    ]}");
	free(n.name);
}

/* What check_node() will ask, sent ahead in two rounds: ClassPortInfo of every node, then
 * (knowing each CapabilityMask) the counters. */
static bool node_wanted(struct qe *q, const struct ibtopo_node *node)
{
	enum ibtopo_node_type type = ibtopo_node_type(node);
	unsigned want = type == IBTOPO_NODE_SWITCH ? PRINT_SWITCH
			: type == IBTOPO_NODE_CA   ? PRINT_CA
			: type == IBTOPO_NODE_ROUTER ? PRINT_ROUTER
						     : 0;

	return want & q->print_types;
}

/* check_node()'s choice of the LID and port of a node's ClassPortInfo query */
static uint16_t node_lid(const struct ibtopo_node *node, int *portnum)
{
	unsigned nports = ibtopo_node_num_ports(node);

	*portnum = 0;
	if (ibtopo_node_type(node) == IBTOPO_NODE_SWITCH)
		return ibtopo_node_sma_lid(node);
	for (unsigned p = 1; p <= nports; p++) {
		const struct ibtopo_port *port = ibtopo_node_port(node, p);

		*portnum = (int)p;
		if (port)
			return ibtopo_port_base_lid(port);
	}
	return 0;
}

static void prefetch_fabric(struct qe *q, const struct ibtopo *fabric)
{
	struct ibsched *sched = ibdiag_sched(q->port);
	unsigned count = ibtopo_node_count(fabric, IBTOPO_NODE_ANY);

	q->pf = calloc(PF_BUCKETS, sizeof(*q->pf));
	if (!q->pf)
		return;
	ibsched_set_max_outstanding(sched, q->outstanding ? q->outstanding : IBTOPO_DEFAULT_OUTSTANDING);
	for (unsigned i = 0; i < count; i++) {
		const struct ibtopo_node *node = ibtopo_node_get(fabric, IBTOPO_NODE_ANY, i);
		int p;
		uint16_t lid;

		if (!node_wanted(q, node))
			continue;
		lid = node_lid(node, &p);
		pf_get(q, sched, lid, PM_ATTR_CLASS_PORT_INFO, p);
	}
	ibsched_run(sched);
	for (unsigned i = 0; i < count; i++) {
		const struct ibtopo_node *node = ibtopo_node_get(fabric, IBTOPO_NODE_ANY, i);
		bool sw = ibtopo_node_type(node) == IBTOPO_NODE_SWITCH;
		unsigned nports = ibtopo_node_num_ports(node);
		struct pf_entry *cpi;
		uint16_t lid, cap;
		int p;
		bool ext;

		if (!node_wanted(q, node))
			continue;
		lid = node_lid(node, &p);
		cpi = pf_find(q, lid, PM_ATTR_CLASS_PORT_INFO, (uint8_t)p);
		if (!cpi || cpi->state != 0)
			continue;
		cap = (uint16_t)(cpi->data[2] << 8 | cpi->data[3]);
		ext = cap & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_WIDTH_NOIETF);
		if (cap & PM_CAP_ALL_PORT_SELECT) {
			/* the per-port queries only follow when ALL reports errors: not fetched */
			pf_get(q, sched, lid, PM_ATTR_PORT_COUNTERS, ALL_PORTS);
			if (ext)
				pf_get(q, sched, lid, PM_ATTR_PORT_COUNTERS_EXT, ALL_PORTS);
			continue;
		}
		for (unsigned pn = sw && ibtopo_node_enhanced_port0(node) ? 0 : 1; pn <= nports; pn++) {
			const struct ibtopo_port *port = ibtopo_node_port(node, pn);
			uint16_t plid = lid;

			if (!port)
				continue;
			if (!sw)
				plid = ibtopo_port_base_lid(port);
			pf_get(q, sched, plid, PM_ATTR_PORT_COUNTERS, (int)pn);
			if (ext)
				pf_get(q, sched, plid, PM_ATTR_PORT_COUNTERS_EXT, (int)pn);
		}
	}
	ibsched_run(sched);
}

/* ---- The SLs: one PathRecord per destination ------------------------------------------------- */

static int path_records(struct qe *q, uint64_t dguid)
{
	struct ibsa_result *res = NULL;
	struct ibmadrpc_error *err = NULL;
	char sgid[64], dgid[64], a_sgid[80], a_dgid[80];
	const char *as[4];
	unsigned n = 0;
	int rc;

	ibstruct_gid_format(sgid, sizeof(sgid), &q->port->gid);
	snprintf(a_sgid, sizeof(a_sgid), "SGID=%s", sgid);
	as[n++] = a_sgid;
	if (dguid) {
		ibstruct_gid_t g;

		ibstruct_gid_make(&g, ibstruct_gid_prefix(&q->port->gid), dguid);
		ibstruct_gid_format(dgid, sizeof(dgid), &g);
		snprintf(a_dgid, sizeof(a_dgid), "DGID=%s", dgid);
		as[n++] = a_dgid;
	}
	as[n++] = "numbPath=1";
	as[n++] = "reversible=1";
	rc = ibsa_query_text(ibdiag_sa(q->port), IBSTRUCT_METHOD_GET_TABLE,
			     ibstruct_sa_path_record_desc(), as, n, &res, &err);
	if (rc == -EREMOTEIO) {
		fprintf(stderr, "ERROR: Query result returned 0x%04X, %s\n",
			ibmadrpc_error_status(err), "SA query failed");
		ibmadrpc_error_free(err);
		return -1;
	}
	if (rc < 0) {
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		fprintf(stderr, "Query SA failed: %s; sa call path_query failed\n", strerror(-rc));
		return -1;
	}
	for (size_t i = 0; i < res->count; i++) {
		const struct ibstruct_sa_path_record *pr =
			(const struct ibstruct_sa_path_record *)res->records + i;

		/* (the reference's table stops at LID 49151 and is overrun by larger ones) */
		q->lid2sl[pr->DLID] = pr->SL;
	}
	ibsa_result_free(res);
	return 0;
}

/* ---- main ----------------------------------------------------------------------------------- */

static void print_summary(struct qe *q)
{
	if (q->json) {
		printf("\n  ],\n  \"summary\": {\"nodes_checked\": %d, \"bad_nodes\": %d, "
		       "\"ports_checked\": %d, \"bad_ports\": %d, \"pma_query_failures\": %d,\n"
		       "    \"thresholds\": {",
		       q->summary.nodes_checked, q->summary.bad_nodes, q->summary.ports_checked,
		       q->summary.bad_ports, q->summary.pma_failures);
		for (unsigned i = 0; i < EXT_COUNT; i++)
			printf("%s\"%s\": %" PRIu64, i ? ", " : "", ext_err_fields[i].name,
			       q->thresholds[i]);
		printf("},\n    \"suppressed\": [");
		for (unsigned i = 0; i < q->sup_total; i++)
			printf("%s\"%s\"", i ? ", " : "", pc_fields[q->suppressed[i]].name);
		printf("]}\n}\n");
		return;
	}
	printf("\n## Summary: %d nodes checked, %d bad nodes found\n", q->summary.nodes_checked,
	       q->summary.bad_nodes);
	printf("##          %d ports checked, %d ports have errors beyond threshold\n",
	       q->summary.ports_checked, q->summary.bad_ports);
	printf("## %s\n", q->threshold_str ? q->threshold_str : "(null)");
	if (q->summary.pma_failures)
		printf("##          %d PMA query failures\n", q->summary.pma_failures);
	printf("## Suppressed:");
	for (unsigned i = 0; i < q->sup_total; i++)
		printf(" %s", pc_fields[q->suppressed[i]].name);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
		{"suppress", 's', 1, "<err1,err2,...>", "suppress errors listed"},
		{"suppress-common", 'c', 0, NULL, "suppress some of the common counters"},
		{"node-name-map", OPT_NODE_NAME_MAP, 1, "<file>", "node name map file"},
		{"port-guid", 'G', 1, "<port_guid>",
		 "report the node containing the port specified by <port_guid>"},
		{"", 'S', 1, "<port_guid>", "Same as \"-G\" for backward compatibility"},
		{"Direct", 'D', 1, "<dr_path>",
		 "report the node containing the port specified by <dr_path>"},
		{"skip-sl", OPT_SKIP_SL, 0, NULL, "don't obtain SL to all destinations"},
		{"report-port", 'r', 0, NULL, "report port link information"},
		{"threshold-file", OPT_THRESHOLD_FILE, 1, NULL,
		 "specify an alternate threshold file, default: " DEF_THRESHOLD_FILE},
		{"GNDN", 'R', 0, NULL, "(This option is obsolete and does nothing)"},
		{"data", OPT_DATA, 0, NULL, "include data counters for ports with errors"},
		{"switch", OPT_SWITCH, 0, NULL, "print data for switches only"},
		{"ca", OPT_CA, 0, NULL, "print data for CA's only"},
		{"router", OPT_ROUTER, 0, NULL, "print data for routers only"},
		{"details", OPT_DETAILS, 0, NULL, "include transmit discard details"},
		{"counters", OPT_COUNTERS, 0, NULL, "print data counters only"},
		{"clear-errors", 'k', 0, NULL, "Clear error counters after read"},
		{"clear-counts", 'K', 0, NULL, "Clear data counters after read"},
		{"load-cache", OPT_LOAD_CACHE, 1, "<file>", "filename of ibnetdiscover cache to load"},
		{"outstanding_smps", 'o', 1, NULL,
		 "specify the number of outstanding SMP's which should be issued during the scan"},
		{"json", OPT_JSON, 0, NULL, NULL},
		{NULL, 0, 0, NULL, NULL},
	};
	struct qe *q = calloc(1, sizeof(*q));
	struct ibtopo *fabric = NULL;
	struct ibpath_path *target = NULL;
	const struct ibtopo_node *node;
	char from[256];
	bool resolved = false, from_dr = false, json_open = false;
	int rc = 0, first;

	if (!q)
		IBPANIC("out of memory");
	q->threshold_file = DEF_THRESHOLD_FILE;
	q->obtain_sl = true;
	q->json_first_node = true;
	first = ibdiag_process_opts(argc, argv, q, "cDGKLnRrSs", opts, process_opt, "", NULL);
	if (!q->print_types)
		q->print_types = PRINT_SWITCH | PRINT_CA | PRINT_ROUTER;

	q->port = ibdiag_try_open_port();
	if (!q->port) {
		free(q);
		/* the reference's message ends with a newline of its own: an empty line follows */
		IBEXIT("Failed to open port; %s:%d\n", ibd.ca ? ibd.ca : "(null)", (int)ibd.ca_port);
	}
	if (q->dr_path && q->load_cache) {
		ibdiag_topo_close(q->port);
		free(q);
		fprintf(stderr, "Cannot specify cache and direct route path\n");
		return 255;
	}
	if (ibdiag_self(q->port, NULL, NULL, NULL) < 0) {
		const char *arg = first < argc ? argv[first] : "(null)";

		ibdiag_topo_close(q->port);
		free(q);
		IBEXIT("can't resolve self port %s", arg);
	}
	q->map = ibdiag_nnmap_open(q->node_name_map);

	if (q->dr_path) {
		if (ibdiag_resolve(q->port, q->dr_path, IBDIAG_DEST_DR, &target) < 0)
			IBWARN("Failed to resolve %s; attempting full scan", q->dr_path);
		else {
			resolved = true;
			from_dr = linkinfo_dr_text(target, from, sizeof(from));
		}
	} else if (q->guid_str) {
		if (ibdiag_resolve(q->port, q->guid_str, IBDIAG_DEST_GUID, &target) < 0) {
			IBWARN("Failed to resolve %s; attempting full scan", q->guid_str);
		} else {
			resolved = true;
			if (q->obtain_sl && ibpath_path_kind(target) == IBPATH_KIND_IB)
				q->lid2sl[ibpath_path_get(target, IBPATH_DLID) & 0xffff] =
					(uint8_t)ibpath_path_get(target, IBPATH_SL);
		}
	}

	if (q->load_cache) {
		fabric = ibdiag_topo_load(q->load_cache, NULL, 0);
		if (!fabric) {
			fprintf(stderr, "loading cached fabric failed\n");
			rc = 255;
			goto out;
		}
	} else {
		unsigned hops = 0;

		if (resolved) {
			hops = 1;
			if (from_dr) {
				fabric = linkinfo_discover(q->port, from, hops, q->outstanding);
			} else {
				/* -G/-S: the node is found in a discovery from the local port (the
				 * simulator drops the reference's combined LID+DR routes) */
				fabric = linkinfo_discover(q->port, NULL, 0, q->outstanding);
				if (fabric && !linkinfo_find_target(fabric, q->guid_str ? q->guid_str : "",
								    target)) {
					ibtopo_unref(fabric);
					fabric = NULL;
				}
			}
			if (!fabric)
				IBWARN("Single node discover failed; attempting full scan");
		}
		if (!fabric)
			fabric = linkinfo_discover(q->port, NULL, hops, q->outstanding);
		if (!fabric) {
			fprintf(stderr, "discover failed\n");
			rc = 255;
			goto out;
		}
	}

	read_thresholds(q);
	if (q->json) {
		printf("{\n  \"nodes\": [");
		json_open = true;
	}

	if (q->guid_str) {
		node = linkinfo_find_target(fabric, q->guid_str, target);
		if (node) {
			check_node(q, node);
		} else {
			fflush(stdout);
			fprintf(stderr, "Failed to find node: %s\n", q->guid_str);
		}
	} else if (q->dr_path) {
		uint8_t ni[64];
		struct ibstruct_smp_node_info info;
		struct ibtopo_port *p;

		if (!resolved ||
		    ibdiag_smp_get(q->port, target, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, ni, NULL) < 0) {
			fflush(stdout);
			fprintf(stderr, "Failed to query local Node Info\n");
			goto out;
		}
		ibstruct_smp_node_info_unpack(&info, ni, sizeof(ni));
		p = ibtopo_find_port_guid(fabric, info.portGUID);
		if (p) {
			if (q->obtain_sl && path_records(q, ibtopo_port_guid(p)) < 0)
				goto out;
			check_node(q, ibtopo_port_node(p));
		} else {
			fflush(stdout);
			fprintf(stderr, "Failed to find node: %s\n", q->dr_path);
		}
	} else {
		if (q->obtain_sl && path_records(q, 0) < 0)
			goto out;
		/* the data counters count the MADs of the run itself: with --data and --counters
		 * the queries go in the reference's order and pace, so the values are its */
		if (!ibd.sa && !q->data && !q->counters_only)
			prefetch_fabric(q, fabric);
		for (unsigned i = 0; i < ibtopo_node_count(fabric, IBTOPO_NODE_ANY); i++)
			check_node(q, ibtopo_node_get(fabric, IBTOPO_NODE_ANY, i));
	}

	print_summary(q);
	json_open = false;
	rc = q->summary.bad_ports ? 1 : 0;

out:
	/* a run that ends early still leaves a complete JSON document, marked as failed */
	if (json_open)
		printf("\n  ],\n  \"failed\": true\n}\n");
	fflush(stdout);
	ibtopo_unref(fabric);
	ibpath_path_unref(target);
	ibdiag_topo_close(q->port);
	ibdiag_nnmap_close(q->map);
	pf_free(q);
	free(q->threshold_str);
	free(q);
	return rc;
}
