// SPDX-License-Identifier: BSD-3-Clause
/*
 * query: any Get/GetTable of any attribute libibstruct knows (python-rdma's ibtool query).
 *
 *   query [options] [METHOD] ATTRIBUTE [TARGET]
 *
 * METHOD is SubnGet, PerformanceGet, SubnAdmGet or SubnAdmGetTable; without it the
 * attribute's class decides (SMP: SubnGet, PerfMgt: PerformanceGet, SA records:
 * SubnAdmGetTable).  ATTRIBUTE is libibstruct's name (SMPNodeInfo, PMPortCounters,
 * SANodeRecord, MADClassPortInfo) or the same without its class prefix (NodeInfo).
 * -f name=value sets a field of the request (dotted names; for SA queries it also sets the
 * component mask), -a the attribute modifier.  The reply prints in infiniband-diags style
 * (smpquery/perfquery field lines, saquery record dumps), or as a packet dump with -dd.
 * TARGET (SMP and PerfMgt only) is any target form; default: the local port.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/ibdiag.h"

#define MAX_FIELDS 64

struct query_opts {
	uint32_t amod;
	uint32_t oui;         /* vendor classes 0x30-0x4f */
	const char *fields[MAX_FIELDS];
	unsigned nfields;
};

/* The Get RPCs (python-rdma's names).  mgmt_class 0: any vendor class, the attribute's own. */
static const struct {
	const char *name;
	uint8_t mgmt_class;
	uint8_t method;
} methods[] = {
    {"SubnGet", IBSTRUCT_CLASS_SMP, IBSTRUCT_METHOD_GET},
    {"PerformanceGet", IBSTRUCT_CLASS_PERF_MGT, IBSTRUCT_METHOD_GET},
    {"SubnAdmGet", IBSTRUCT_CLASS_SA, IBSTRUCT_METHOD_GET},
    {"SubnAdmGetTable", IBSTRUCT_CLASS_SA, IBSTRUCT_METHOD_GET_TABLE},
    {"BMGet", IBSTRUCT_CLASS_BM, IBSTRUCT_METHOD_GET},
    {"DevMgtGet", IBSTRUCT_CLASS_DEV_MGT, IBSTRUCT_METHOD_GET},
    {"CommMgtGet", IBSTRUCT_CLASS_CM, IBSTRUCT_METHOD_GET},
    {"CCGet", IBSTRUCT_CLASS_CC, IBSTRUCT_METHOD_GET},
    {"DevAdmGet", IBSTRUCT_CLASS_DEV_ADM, IBSTRUCT_METHOD_GET},
    {"VendGet", 0, IBSTRUCT_METHOD_GET},
};
#define N_METHODS (sizeof(methods) / sizeof(methods[0]))

/* What main() holds while the request runs; file scope so that an IBEXIT() from a helper
 * leaves no unreachable memory behind (leak checkers). */
static void *req_host;
static struct ibdiag_port *req_port;

static int handle_opt(void *ctx, int letter, char *optarg)
{
	struct query_opts *o = ctx;
	char *end;
	unsigned long v;

	switch (letter) {
	case 'a':
		errno = 0;
		v = strtoul(optarg, &end, 0);
		if (errno || end == optarg || *end || v > UINT32_MAX || optarg[0] == '-')
			IBEXIT("bad attribute modifier '%s'", optarg);
		o->amod = (uint32_t)v;
		return 0;
	case 'o':
		errno = 0;
		v = strtoul(optarg, &end, 0);
		if (errno || end == optarg || *end || v > 0xffffff || optarg[0] == '-')
			IBEXIT("bad OUI '%s'", optarg);
		o->oui = (uint32_t)v;
		return 0;
	case 'f':
		if (o->nfields == MAX_FIELDS)
			IBEXIT("too many -f fields (at most %d)", MAX_FIELDS);
		o->fields[o->nfields++] = optarg;
		return 0;
	default:
		return -1;
	}
}

static int find_method(const char *name)
{
	unsigned i;

	for (i = 0; i < N_METHODS; i++)
		if (!strcasecmp(name, methods[i].name))
			return (int)i;
	return -1;
}

static bool is_vendor_class(int mgmt_class)
{
	return mgmt_class == IBSTRUCT_CLASS_VENDOR || mgmt_class == IBSTRUCT_CLASS_MLX_VENDOR ||
	       (mgmt_class >= 0x30 && mgmt_class <= 0x4f);
}

/* Does the RPC of methods[m] carry attributes of this class? */
static bool method_class(int m, int mgmt_class)
{
	return methods[m].mgmt_class ? methods[m].mgmt_class == mgmt_class
				     : is_vendor_class(mgmt_class);
}

/* An attribute by its name, with or without its class's prefix (SMPNodeInfo, NodeInfo,
 * PMPortCounters, CCCongestionInfo, DMIOUnitInfo, ...).  m -1: any class. */
static const struct ibstruct_desc *find_attr(const char *name, int m)
{
	static const char *const prefixes[] = {"SMP", "PM", "SA", "CC", "DM", "BM", "CM",
					       "SNMP", "Mlx", "OFA", "Vend", "MAD"};
	const struct ibstruct_desc *d = ibstruct_desc_by_name(name);
	char buf[128];
	unsigned i;

	if (d && ibstruct_desc_attr_id(d) >= 0)
		return d;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", prefixes[i], name);
		d = ibstruct_desc_by_name(buf);
		if (!d || ibstruct_desc_attr_id(d) < 0)
			continue;
		/* generic attributes (MADClassPortInfo, class -1) go with every class */
		if (m < 0 || ibstruct_desc_mgmt_class(d) < 0 ||
		    method_class(m, ibstruct_desc_mgmt_class(d)))
			return d;
	}
	return NULL;
}

/* ---- Printing ------------------------------------------------------------------------- */

static void print_text(int need, char *(*fill)(char *buf, size_t len, void *u), void *u)
{
	char *text;

	if (need <= 0)
		return;
	text = malloc((size_t)need + 1);
	if (!text)
		IBPANIC("out of memory");
	fputs(fill(text, (size_t)need + 1, u), stdout);
	free(text);
}

struct print_job {
	const struct ibstruct_desc *d;
	const uint8_t *wire;
	size_t len;
	const void *host;
	int kind; /* 0 dump, 1 diags, 2 saquery */
};

static char *fill_job(char *buf, size_t len, void *u)
{
	struct print_job *j = u;

	switch (j->kind) {
	case 0:
		ibstruct_snprint_dump(buf, len, j->d, j->wire, j->len, 0);
		break;
	case 1: {
		char *mkey;

		ibstruct_snprint_diags(buf, len, j->d, j->host);
		/* as smpquery: the M_Key only with -K */
		mkey = !strncmp(buf, "Mkey:", 5) ? buf : strstr(buf, "\nMkey:");
		if (mkey && !ibd.show_keys) {
			char *dots = mkey + (*mkey == '\n' ? 6 : 5), *eol;

			while (*dots == '.')
				dots++;
			eol = strchr(dots, '\n');
			if (eol && eol - dots >= 15) {
				memcpy(dots, "<not displayed>", 15);
				memmove(dots + 15, eol, strlen(eol) + 1);
			}
		}
		break;
	}
	default:
		ibstruct_snprint_saquery(buf, len, j->d, j->wire, j->len, NULL,
					 ibd.show_keys ? IBSTRUCT_SAQ_SHOW_KEYS : 0);
		break;
	}
	return buf;
}

/* One attribute or record: saquery's dump for SA records, smpquery/perfquery field lines
 * otherwise; the packet dump with -dd or when the structure has no infiniband-diags
 * names. */
static void print_struct(const struct ibstruct_desc *d, const uint8_t *wire, size_t len)
{
	struct print_job j = {.d = d, .wire = wire, .len = len};
	void *host = NULL;
	int need = -1;

	if (ibd.debug < 2 && ibstruct_desc_is_record(d)) {
		j.kind = 2;
		need = ibstruct_snprint_saquery(NULL, 0, d, wire, len, NULL,
						ibd.show_keys ? IBSTRUCT_SAQ_SHOW_KEYS : 0);
	}
	if (need < 0 && ibd.debug < 2) {
		host = calloc(1, ibstruct_desc_host_size(d));
		if (!host)
			IBPANIC("out of memory");
		if (ibstruct_unpack(d, host, wire, len) == 0) {
			j.kind = 1;
			j.host = host;
			need = ibstruct_snprint_diags(NULL, 0, d, host);
		}
	}
	if (need <= 0) {
		j.kind = 0;
		need = ibstruct_snprint_dump(NULL, 0, d, wire, len, 0);
	}
	print_text(need, fill_job, &j);
	free(host);
}

/* ---- The three kinds of query ----------------------------------------------------------- */

static struct ibpath_path *target_path(struct ibdiag_port *p, const char *target, bool smp)
{
	struct ibpath_path *path = NULL;
	char lid[16];

	if (!target) {
		/* the local port: "0" as a DR path for SMPs, the own LID for GMPs */
		if (smp) {
			if (ibdiag_resolve(p, "0", IBDIAG_DEST_DR, &path) < 0)
				IBEXIT("can't resolve the local port");
			return path;
		}
		snprintf(lid, sizeof(lid), "%u", p->lid);
		target = lid;
	}
	if (ibdiag_resolve(p, target, ibd.dest_type, &path) < 0)
		IBEXIT("can't resolve destination port %s", target);
	return path;
}

/* The SA's LID (-s, else the port's SM LID) for requests that are not record queries. */
static struct ibpath_path *sa_path(struct ibdiag_port *p)
{
	struct ibpath_path *path;

	if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
		IBPANIC("out of memory");
	ibpath_path_set(path, IBPATH_DLID,
			ibd.sm_given ? ibd.sm_lid : ibmadrpc_port_sm_lid(p->port));
	ibpath_path_set(path, IBPATH_DQPN, 1);
	ibpath_path_set(path, IBPATH_QKEY, 0x80010000);
	return path;
}

static void query_gmp(struct ibdiag_port *p, const struct query_opts *o, int m,
		      const struct ibstruct_desc *d, const void *host, const char *target)
{
	bool smp = methods[m].mgmt_class == IBSTRUCT_CLASS_SMP;
	struct ibpath_path *path =
	    methods[m].mgmt_class == IBSTRUCT_CLASS_SA ? sa_path(p) : target_path(p, target, smp);
	size_t size = ibstruct_desc_size(d);
	uint8_t data[256] = {0};
	struct ibmadrpc_error *err = NULL;
	char portid[256];
	int rc;

	ibdiag_portid_str(path, portid, sizeof(portid));
	if (size > sizeof(data))
		size = sizeof(data);
	if (smp && !o->nfields) {
		/* through the common helper, so that --sa answers it from SA records */
		rc = ibdiag_smp_get(p, path, (uint16_t)ibstruct_desc_attr_id(d), o->amod, data,
				    &err);
	} else {
		int cls = methods[m].mgmt_class ? methods[m].mgmt_class : ibstruct_desc_mgmt_class(d);
		struct ibmadrpc_request req = {
		    .path = path,
		    .mgmt_class = (uint8_t)cls,
		    .method = methods[m].method,
		    .attr_id = (uint16_t)ibstruct_desc_attr_id(d),
		    .attr_mod = o->amod,
		    .data = data,
		    .data_len = size,
		    .key = smp ? ibd.mkey : 0,
		    .oui = o->oui,
		};

		if ((cls == IBSTRUCT_CLASS_OFA_PING || cls == IBSTRUCT_CLASS_OFA_SYS_STAT) && !req.oui)
			req.oui = 0x001405; /* the OpenFabrics OUI */
		if (cls >= 0x30 && cls <= 0x4f && !req.oui)
			IBEXIT("%s is in vendor class 0x%02x: give its OUI (--oui)", ibstruct_desc_name(d),
			       cls);
		struct ibmadrpc_reply reply;

		if (ibstruct_pack(d, host, data, size) < 0)
			IBEXIT("cannot build the %s request", ibstruct_desc_name(d));
		rc = ibdiag_call(p, &req, &reply, &err);
		if (rc == 0)
			ibdiag_reply_data(&reply, data, size);
	}
	ibpath_path_unref(path);
	if (rc < 0) {
		ibmadrpc_error_free(err);
		IBEXIT("%s %s failed for %s", methods[m].name, ibstruct_desc_name(d), portid);
	}
	printf("# %s: %s\n", ibstruct_desc_name(d), portid);
	print_struct(d, data, size);
}

static void query_sa(struct ibdiag_port *p, int m, const struct ibstruct_desc *d, const void *host,
		     uint64_t comp_mask)
{
	struct ibmadrpc_error *err = NULL;
	struct ibsa_result *res = NULL;
	size_t i;
	int rc;

	rc = ibsa_query(ibdiag_sa(p), methods[m].method, d, host, comp_mask, &res, &err);
	if (rc < 0) {
		char status[128] = "";

		if (err && ibmadrpc_error_status(err))
			ibstruct_snprint_mad_status(status, sizeof(status), IBSTRUCT_CLASS_SA,
						    ibmadrpc_error_status(err));
		ibdiag_show_error(err);
		ibmadrpc_error_free(err);
		if (*status)
			IBEXIT("%s %s failed: %s", methods[m].name, ibstruct_desc_name(d), status);
		IBEXIT("%s %s failed: %s", methods[m].name, ibstruct_desc_name(d), strerror(-rc));
	}
	for (i = 0; i < res->count; i++)
		print_struct(d, res->wire + i * res->rec_size,
			     res->rec_size < ibstruct_desc_size(d) ? res->rec_size
								   : ibstruct_desc_size(d));
	ibsa_result_free(res);
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
	    {"amod", 'a', 1, "<amod>", "attribute modifier of the request"},
	    {"field", 'f', 1, "<n=v>", "set a request field (repeatable)"},
	    {"oui", 'o', 1, "<oui>", "OUI of a vendor class 0x30-0x4f (OFA classes: 0x001405)"},
	    {0},
	};
	static const char *const examples[] = {
	    "NodeInfo 3                        # SubnGet(NodeInfo) of LID 3",
	    "SubnGet SMPPortInfo -D 0,1 -a 1   # PortInfo of port 1, directed route",
	    "PerformanceGet PMPortCounters 3 -f portSelect=1",
	    "SubnAdmGetTable SANodeRecord -f LID=3",
	    "CCGet CongestionInfo 4            # a CC attribute (CC_Key 0)",
	    NULL,
	};
	struct query_opts o = {0};
	const struct ibstruct_desc *d;
	const char *target;
	uint64_t comp_mask = 0;
	struct ibdiag_port *p;
	unsigned i;
	int idx, m = -1;

	idx = ibdiag_process_opts(argc, argv, &o, "", opts, handle_opt,
				  "[METHOD] ATTRIBUTE [TARGET]", examples);
	argc -= idx;
	argv += idx;
	if (argc > 0 && (m = find_method(argv[0])) >= 0) {
		argc--;
		argv++;
	}
	if (argc < 1 || argc > 2)
		ibdiag_show_usage();
	d = find_attr(argv[0], m);
	if (!d && m >= 0 && (d = find_attr(argv[0], -1)) != NULL)
		IBEXIT("%s is not a valid attribute for %s", ibstruct_desc_name(d), methods[m].name);
	if (!d)
		IBEXIT("unknown attribute '%s'", argv[0]);
	if (m < 0) {
		int cls = ibstruct_desc_mgmt_class(d);

		for (i = 0; i < N_METHODS; i++)
			if (cls >= 0 && method_class((int)i, cls) &&
			    ibstruct_desc_allows_method(d, methods[i].method))
				m = (int)i; /* the last match: GetTable for SA records */
		if (m < 0)
			IBEXIT("give the METHOD for %s", ibstruct_desc_name(d));
	}
	/* generic attributes (ClassPortInfo) belong to every class and every Get */
	if (ibstruct_desc_mgmt_class(d) >= 0 &&
	    (!method_class(m, ibstruct_desc_mgmt_class(d)) ||
	     !ibstruct_desc_allows_method(d, methods[m].method)))
		IBEXIT("%s is not a valid attribute for %s", ibstruct_desc_name(d),
		       methods[m].name);
	target = argc > 1 ? argv[1] : NULL;
	if (target && methods[m].mgmt_class == IBSTRUCT_CLASS_SA)
		IBEXIT("SA queries go to the SA: no TARGET (got '%s')", target);

	req_host = calloc(1, ibstruct_desc_host_size(d));
	if (!req_host)
		IBPANIC("out of memory");
	for (i = 0; i < o.nfields; i++) {
		int rc = ibstruct_parse_assignment(d, req_host, o.fields[i], &comp_mask);

		if (rc < 0)
			IBEXIT("bad field assignment '%s' for %s: %s", o.fields[i],
			       ibstruct_desc_name(d),
			       rc == -ENOENT ? "no such field" : strerror(-rc));
	}

	p = req_port = ibdiag_open_port();
	if (methods[m].mgmt_class == IBSTRUCT_CLASS_SA && ibstruct_desc_is_record(d))
		query_sa(p, m, d, req_host, comp_mask);
	else
		query_gmp(p, &o, m, d, req_host, target);
	ibdiag_close_port(p);
	free(req_host);
	return 0;
}
