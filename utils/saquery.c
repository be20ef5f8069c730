// SPDX-License-Identifier: BSD-3-Clause
/*
 * saquery: query the Subnet Administrator for its records, a drop-in replacement for
 * infiniband-diags' saquery (same options, output, messages and exit statuses).
 *
 * Every query is one SubnAdmGet (ClassPortInfo) or SubnAdmGetTable sent with libibmadrpc to
 * the SM LID the local port reports.  The record dumps come from libibstruct's
 * ibstruct_snprint_saquery(); the short forms (-L -l -G -O -U -D -s -g -m) are printed here.
 *
 * What the reference does, surprising or not, and what we therefore do too:
 *  - The number of records in an answer is (MAD length - 56) / (AttributeOffset * 8),
 *    computed from the length of what was received.  Where an answer is cut short (the
 *    simulator delivers only the first 256 bytes of a multi-MAD answer), the records that
 *    fit are printed, whatever the tail bytes hold.
 *  - Errors are not IBEXITs: a transport failure prints "Query SA failed: <strerror>" and
 *    exits with that errno, an SA status prints "ERROR: Query result returned ..." and exits
 *    5 (EIO), a name that no NodeRecord carries exits 64 (ENONET).
 *  - Query values are copied into the request with the reference's integer widths, so
 *    e.g. --flow_label keeps only its low 8 bits and a port of 255 means "not given".
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibdiag.h"

#define SA_CLASS	      0x03
#define SA_CLASS_VERSION      2
#define SA_DATA_OFFS	      56
#define SA_QKEY		      0x80010000u
#define SA_DEFAULT_TIMEOUT_MS 1000 /* saquery's own default, not libibmad's */
#define METHOD_GET	      0x01
#define METHOD_GET_TABLE      0x12

#define ATTR_CLASS_PORT_INFO	   0x0001
#define CAP_MASK2_IS_MCAST_TOP_SUP (1u << 3)
#define PORT_CAP_IS_SM		   0x00000002u
#define PORT_CAP_SM_DISABLED	   0x00000400u

/* Component mask bits as infiniband-diags sets them (its MFTRecord "position" bit is 1,
 * not the 2 of IBA, and it is the request that OpenSM answers, so we send the same). */
#define CM(bit)		  (UINT64_C(1) << (bit))
#define PR_CM_SERVICEID	  (CM(0) | CM(1))
#define PR_CM_DGID	  CM(2)
#define PR_CM_SGID	  CM(3)
#define PR_CM_DLID	  CM(4)
#define PR_CM_SLID	  CM(5)
#define PR_CM_FLOWLABEL	  CM(8)
#define PR_CM_HOPLIMIT	  CM(9)
#define PR_CM_TCLASS	  CM(10)
#define PR_CM_REVERSIBLE  CM(11)
#define PR_CM_NUMBPATH	  CM(12)
#define PR_CM_PKEY	  CM(13)
#define PR_CM_QOS_CLASS	  CM(14)
#define PR_CM_SL	  CM(15)
#define PR_CM_MTU	  (CM(16) | CM(17))
#define PR_CM_RATE	  (CM(18) | CM(19))
#define PR_CM_PKTLIFETIME (CM(20) | CM(21))
#define MCR_CM_MGID	  CM(0)
#define MCR_CM_PORT_GID	  CM(1)
#define MCR_CM_QKEY	  CM(2)
#define MCR_CM_MLID	  CM(3)
#define MCR_CM_MTU	  (CM(4) | CM(5))
#define MCR_CM_TCLASS	  CM(6)
#define MCR_CM_PKEY	  CM(7)
#define MCR_CM_RATE	  (CM(8) | CM(9))
#define MCR_CM_LIFE	  (CM(10) | CM(11))
#define MCR_CM_SL	  CM(12)
#define MCR_CM_FLOW	  CM(13)
#define MCR_CM_HOP	  CM(14)
#define MCR_CM_SCOPE	  CM(15)
#define MCR_CM_JOIN_STATE CM(16)
#define MCR_CM_PROXY	  CM(17)
#define MFTR_CM_POSITION  CM(1)
#define MFTR_CM_BLOCK	  CM(3)

/* Wire sizes of the request templates (the reference's structs). */
#define NR_SIZE	   108
#define PIR_SIZE   68
#define SL2VL_SIZE 16
#define PKTR_SIZE  72
#define VLAR_SIZE  72
#define IIR_SIZE   64
#define LR_SIZE	   8
#define PR_SIZE	   64
#define MCMR_SIZE  56
#define LFTR_SIZE  72
#define MFTR_SIZE  72
#define GIR_SIZE   72
#define SWIR_SIZE  24
#define SMIR_SIZE  32

struct query_params {
	uint64_t service_id;
	uint8_t sgid[16], dgid[16], gid[16], mgid[16];
	uint16_t slid, dlid, mlid;
	uint32_t flow_label;
	int hop_limit;
	uint8_t tclass;
	int reversible, numb_path;
	uint16_t pkey;
	int qos_class, sl;
	uint8_t mtu, rate, pkt_life;
	uint32_t qkey;
	uint8_t scope;
	uint8_t join_state;
	int proxy_join;
	uint8_t cpi[72]; /* the SA's ClassPortInfo, when it was asked for */
};

/* One answer: the MAD as received (zero padded behind), its records. */
struct sa_result {
	uint8_t *mad;
	size_t len;
	size_t stride; /* AttributeOffset * 8 */
	unsigned count;
	uint16_t status;
};

struct query_cmd {
	const char *name, *alias;
	uint16_t attr_id;
	const char *usage;
	int (*handler)(const struct query_cmd *q, struct query_params *p, int argc, char **argv);
	const struct rec_template *tmpl; /* the request record of the "lid/port" queries */
};

enum node_print {
	PRINT_ALL,
	PRINT_LID_ONLY,
	PRINT_UNIQUE_LID_ONLY,
	PRINT_GUID_ONLY,
	PRINT_ALL_DESC,
	PRINT_NAME_OF_LID,
	PRINT_NAME_OF_GUID,
};

enum saquery_command {
	CMD_QUERY,
	CMD_NODE_RECORD,
	CMD_CLASS_PORT_INFO,
	CMD_ISSM,
	CMD_MCGROUPS,
	CMD_MCMEMBERS,
};

static struct ibdiag_port *port;
static struct ibpath_path *sa_path;
static struct ibdiag_nnmap *node_name_map;
static char *node_name_map_file;

static enum node_print node_print_desc = PRINT_ALL;
static enum saquery_command command = CMD_QUERY;
static uint16_t query_type;
static char *requested_name;
static uint16_t requested_lid;
static bool requested_lid_flag;
static uint64_t requested_guid;
static bool requested_guid_flag;
static char *src_lid, *dst_lid;

/* ---- Wire helpers ---------------------------------------------------------------------- */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static bool gid_is_set(const uint8_t gid[16])
{
	static const uint8_t zero[16];

	return memcmp(gid, zero, 16) != 0;
}

static const char *gid_text(const uint8_t *raw, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, raw, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

/* ---- SA queries -------------------------------------------------------------------------- */

static void sa_result_free(struct sa_result *res)
{
	free(res->mad);
	res->mad = NULL;
}

static const uint8_t *sa_record(const struct sa_result *res, unsigned i)
{
	return res->mad + SA_DATA_OFFS + (size_t)i * res->stride;
}

/* The reference's sa_query(): 0 and the answer (which may carry an error status), or the
 * errno of a transport failure. */
static int sa_query(uint8_t method, uint16_t attr_id, uint32_t attr_mod, uint64_t comp_mask,
		    const void *data, size_t data_len, struct sa_result *res)
{
	struct ibmadrpc_request req;
	struct ibmadrpc_reply reply;
	struct ibmadrpc_error *err = NULL;
	size_t len;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&req, 0, sizeof(req));
	req.path = sa_path;
	req.mgmt_class = SA_CLASS;
	req.class_version = SA_CLASS_VERSION;
	req.method = method;
	req.attr_id = attr_id;
	req.attr_mod = attr_mod;
	req.data = data;
	req.data_len = data_len;
	req.key = ibd.sakey;
	req.comp_mask = comp_mask;
	/* the reference neither retries BUSY nor follows redirects: it reports the status */
	req.flags = IBMADRPC_F_RMPP | IBMADRPC_F_NO_RETRY_BUSY | IBMADRPC_F_NO_REDIRECT;
	rc = ibdiag_call(port, &req, &reply, &err);
	if (rc < 0) {
		uint16_t status = err ? ibmadrpc_error_status(err) : 0;

		ibmadrpc_error_free(err);
		if (!status)
			return -rc;
		res->status = status;
		return 0;
	}
	len = reply.len;
	/* zero padding behind the answer: the last record may be printed past its end, as the
	 * reference reads its zeroed receive buffer */
	res->mad = calloc(1, len + 512);
	if (!res->mad)
		return ENOMEM;
	memcpy(res->mad, reply.mad, len);
	res->len = len;
	res->status = reply.status;
	res->stride = (size_t)get16(res->mad + 44) * 8;
	if (res->status || len < SA_DATA_OFFS)
		res->count = 0;
	else if ((res->mad[3] & 0x7f) != METHOD_GET_TABLE)
		res->count = 1;
	else if (!res->stride)
		res->count = 0;
	else
		res->count = (unsigned)((len - SA_DATA_OFFS) / res->stride);
	return 0;
}

static const char *const sa_error_names[] = {
    "SA_NO_ERROR",
    "SA_ERR_NO_RESOURCES",
    "SA_ERR_REQ_INVALID",
    "SA_ERR_NO_RECORDS",
    "SA_ERR_TOO_MANY_RECORDS",
    "SA_ERR_REQ_INVALID_GID",
    "SA_ERR_REQ_INSUFFICIENT_COMPONENTS",
    "SA_ERR_REQ_DENIED",
    "SA_ERR_STATUS_PRIO_SUGGESTED",
    "SA_ERR_UNKNOWN",
};

static const char *const mad_field_errors[] = {
    "MAD No invalid fields",
    "MAD Bad version",
    "MAD Method specified is not supported",
    "MAD Method/Attribute combination is not supported",
    "MAD Reserved",
    "MAD Reserved",
    "MAD Reserved",
    "MAD Invalid value in Attribute field(s) or Attribute Modifier",
    "MAD UNKNOWN ERROR",
};

/* "ERROR: Query result returned 0x0200,  SA(SA_ERR_REQ_INVALID)": note the two spaces when
 * the low byte is clear (an empty MAD part). */
static void sa_report_err(uint16_t status)
{
	char mad_err[128] = "", sa_err[64] = "";
	unsigned st = status & 0xff;

	if (st)
		snprintf(mad_err, sizeof(mad_err), " (%s; %s; %s)", st & 0x1 ? "BUSY" : "",
			 st & 0x2 ? "Redirection Required" : "",
			 mad_field_errors[st >> 2 > 8 ? 8 : st >> 2]);
	st = status >> 8;
	if (st)
		snprintf(sa_err, sizeof(sa_err), " SA(%s)", sa_error_names[st > 9 ? 9 : st]);
	fprintf(stderr, "ERROR: Query result returned 0x%04x, %s%s\n", status, mad_err, sa_err);
}

/* A GetTable whose failures are reported: 0, or the status to exit with. */
static int get_any_records(uint16_t attr_id, uint32_t attr_mod, uint64_t comp_mask,
			   const void *data, size_t data_len, struct sa_result *res)
{
	int rc = sa_query(METHOD_GET_TABLE, attr_id, attr_mod, comp_mask, data, data_len, res);

	if (rc) {
		fprintf(stderr, "Query SA failed: %s\n", strerror(rc));
		return rc;
	}
	if (res->status) {
		sa_report_err(res->status);
		sa_result_free(res);
		return EIO;
	}
	return 0;
}

static int get_all_records(uint16_t attr_id, struct sa_result *res)
{
	return get_any_records(attr_id, 0, 0, NULL, 0, res);
}

/* ---- Printing ---------------------------------------------------------------------------- */

static void print_saquery_record(const struct ibstruct_desc *d, const uint8_t *rec,
				 const char *name, unsigned flags)
{
	char small[4096], *buf = small;
	int n;

	n = ibstruct_snprint_saquery(small, sizeof(small), d, rec, ibstruct_desc_size(d), name,
				     flags);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf)
			return;
		ibstruct_snprint_saquery(buf, (size_t)n + 1, d, rec, ibstruct_desc_size(d), name,
					 flags);
	}
	fputs(buf, stdout);
	if (buf != small)
		free(buf);
}

static unsigned record_flags(void)
{
	return ibd.show_keys ? IBSTRUCT_SAQ_SHOW_KEYS : 0;
}

static void dump_results(const struct sa_result *res, const struct ibstruct_desc *d, unsigned flags)
{
	unsigned i;

	for (i = 0; i < res->count; i++)
		print_saquery_record(d, sa_record(res, i), NULL, flags);
}

/* The NodeRecord's name: the node-name-map's, else its cleaned description (64 bytes at
 * most, as remap_node_name() reads it). */
static char *node_record_name(const uint8_t *nr)
{
	char desc[65];
	char *name;

	memcpy(desc, nr + 44, 64);
	desc[64] = '\0';
	name = ibdiag_nnmap_name(node_name_map, get64(nr + 16), desc);
	if (!name)
		IBPANIC("out of memory");
	return name;
}

/* The description as the reference compares it: cleaned (non-printable bytes become
 * spaces), at most 64 bytes. */
static void node_record_desc(const uint8_t *nr, char desc[65])
{
	memcpy(desc, nr + 44, 64);
	desc[64] = '\0';
	ibdiag_clean_nodedesc(desc);
}

static void print_node_record(const uint8_t *nr)
{
	char *name;

	switch (node_print_desc) {
	case PRINT_LID_ONLY:
	case PRINT_UNIQUE_LID_ONLY:
		printf("%u\n", get16(nr));
		return;
	case PRINT_GUID_ONLY:
		printf("0x%016" PRIx64 "\n", get64(nr + 24));
		return;
	case PRINT_NAME_OF_LID:
	case PRINT_NAME_OF_GUID:
		name = node_record_name(nr);
		printf("%s\n", name);
		free(name);
		return;
	default:
		break;
	}
	name = node_record_name(nr);
	print_saquery_record(ibstruct_sa_node_record_desc(), nr, name, 0);
	free(name);
}

/* ---- Names and LIDs -------------------------------------------------------------------- */

static int get_lid_from_name(const char *name, uint16_t *lid)
{
	struct sa_result res;
	unsigned i;
	int rc;

	rc = get_all_records(IBSTRUCT_SA_NODE_RECORD_ATTR_ID, &res);
	if (rc)
		return rc;
	rc = ENONET;
	for (i = 0; i < res.count; i++) {
		const uint8_t *nr = sa_record(&res, i);
		char desc[65];

		memcpy(desc, nr + 44, 64);
		desc[64] = '\0';
		if (strncmp(name, desc, 64) == 0) {
			*lid = get16(nr);
			rc = 0;
			break;
		}
	}
	sa_result_free(&res);
	return rc;
}

/* A name (starting with a letter: looked up in the NodeRecords) or a LID. */
static uint16_t get_lid(const char *name)
{
	uint16_t lid = 0;
	long val;
	int rc;

	if (!name)
		return 0;
	if (isalpha((unsigned char)name[0])) {
		rc = get_lid_from_name(name, &lid);
		if (rc) {
			fprintf(stderr, "Failed to find lid for \"%s\": %s\n", name, strerror(rc));
			exit(rc);
		}
		return lid;
	}
	errno = 0;
	val = strtol(name, NULL, 0);
	if (errno != 0 || val <= 0 || val > UINT16_MAX) {
		fprintf(stderr, "Invalid lid specified: \"%s\"\n", name);
		exit(EINVAL);
	}
	return (uint16_t)val;
}

/* "lid/port1/port2": missing or unparsable ports are -1 (the text is split in place). */
static void parse_lid_and_ports(char *str, int *lid, int *port1, int *port2)
{
	char *p, *e;

	if (port1)
		*port1 = -1;
	if (port2)
		*port2 = -1;
	p = strchr(str, '/');
	if (p)
		*p = '\0';
	if (lid)
		*lid = get_lid(str);
	if (!p)
		return;
	str = p + 1;
	p = strchr(str, '/');
	if (p)
		*p = '\0';
	if (port1) {
		*port1 = (int)strtoul(str, &e, 0);
		if (e == str)
			*port1 = -1;
	}
	if (!p)
		return;
	str = p + 1;
	if (port2) {
		*port2 = (int)strtoul(str, &e, 0);
		if (e == str)
			*port2 = -1;
	}
}

/* ---- Query handlers --------------------------------------------------------------------- */

static int get_and_dump(uint16_t attr_id, uint64_t comp_mask, const uint8_t *rec, size_t size,
			const struct ibstruct_desc *d, unsigned flags)
{
	struct sa_result res;
	int rc = get_any_records(attr_id, 0, comp_mask, rec, size, &res);

	if (rc)
		return rc;
	dump_results(&res, d, flags);
	sa_result_free(&res);
	return 0;
}

static int query_class_port_info(const struct query_cmd *q, struct query_params *p, int argc,
				 char **argv)
{
	(void)q;
	(void)argc;
	(void)argv;
	print_saquery_record(ibstruct_mad_class_port_info_desc(), p->cpi, NULL, 0);
	return 0;
}

/* Most records are selected by "lid/port1/port2" operands (LinkRecord: two of them).  Each
 * part has its field in the request record: the reference copies the part into a field of 8
 * or 16 bits and, cast to that width, compares it with the value that means "not given" (0
 * for a LID, -1 otherwise), so that e.g. a port of 255 is not given either. */
struct arg_field {
	uint8_t bits; /* 8 or 16; 0: the part selects nothing */
	uint8_t offs;
	int8_t unset;
	uint64_t cm;
};

#define TMPL_MAX_SIZE NR_SIZE /* the largest of those records */

struct rec_template {
	size_t size; /* of the request record, 0: none is sent */
	const struct ibstruct_desc *(*desc)(void);
	bool show_keys;		    /* the dump shows the record's keys with -K */
	struct arg_field first[3];  /* lid, port1, port2 of argv[0] */
	struct arg_field second[3]; /* of argv[1] (LinkRecord's "to" end) */
};

/* A request record and its component mask, filled field by field: a field goes in, with
 * its component mask bits, only when the reference's test (written by the caller, with the
 * reference's casts) says its value is given. */
struct rec_builder {
	uint8_t *rec;
	uint64_t comp_mask;
};

static void set_field(struct rec_builder *b, bool given, size_t offs, size_t bytes, uint64_t v,
		      uint64_t cm)
{
	if (!given)
		return;
	if (bytes == 1)
		b->rec[offs] = (uint8_t)v;
	else if (bytes == 2)
		put16(b->rec + offs, (uint16_t)v);
	else if (bytes == 4)
		put32(b->rec + offs, (uint32_t)v);
	else
		put64(b->rec + offs, v);
	b->comp_mask |= cm;
}

static void set_gid(struct rec_builder *b, size_t offs, const uint8_t gid[16], uint64_t cm)
{
	if (!gid_is_set(gid))
		return;
	memcpy(b->rec + offs, gid, 16);
	b->comp_mask |= cm;
}

static void put_arg(struct rec_builder *b, const struct arg_field *f, int v)
{
	bool given = f->bits == 8 ? (int8_t)v != f->unset : (int16_t)v != f->unset;

	if (f->bits)
		set_field(b, given, f->offs, f->bits / 8, (uint64_t)v, f->cm);
}

/* The request record from the operands; returns its component mask.  first: the parts of
 * argv[0] as parsed (LID 0, ports -1 when absent), for the fields a template cannot place. */
static uint64_t fill_template(const struct rec_template *t, uint8_t *rec, int argc, char **argv,
			      int first[3])
{
	struct rec_builder b = {rec, 0};
	int a, i;

	memset(rec, 0, t->size);
	for (a = 0; a < 2; a++) {
		const struct arg_field *f = a ? t->second : t->first;
		int v[3] = {0, -1, -1};

		if (argc > a && f[0].bits)
			parse_lid_and_ports(argv[a], &v[0], &v[1], &v[2]);
		for (i = 0; i < 3; i++)
			put_arg(&b, &f[i], v[i]);
		if (a == 0 && first)
			memcpy(first, v, sizeof(v));
	}
	return b.comp_mask;
}

static int query_template(const struct query_cmd *q, unsigned flags, int argc, char **argv)
{
	uint8_t rec[TMPL_MAX_SIZE];
	uint64_t comp_mask = fill_template(q->tmpl, rec, argc, argv, NULL);

	return get_and_dump(q->attr_id, comp_mask, q->tmpl->size ? rec : NULL, q->tmpl->size,
			    q->tmpl->desc(), flags);
}

static int query_records(const struct query_cmd *q, struct query_params *p, int argc, char **argv)
{
	(void)p;
	return query_template(q, q->tmpl->show_keys ? record_flags() : 0, argc, argv);
}

static int query_node_records(const struct query_cmd *q, struct query_params *p, int argc,
			      char **argv)
{
	struct sa_result res;
	uint8_t nr[TMPL_MAX_SIZE];
	uint64_t comp_mask = fill_template(q->tmpl, nr, argc, argv, NULL);
	unsigned i;
	int rc;

	(void)p;
	rc = get_any_records(q->attr_id, 0, comp_mask, nr, q->tmpl->size, &res);
	if (rc)
		return rc;
	for (i = 0; i < res.count; i++) {
		const uint8_t *rec = sa_record(&res, i);
		char *name = node_record_name(rec);

		print_saquery_record(q->tmpl->desc(), rec, name, 0);
		free(name);
	}
	sa_result_free(&res);
	return 0;
}

/* MFTRecord: position and block share a 16-bit word (block 9 bits, position from bit 12). */
static int query_mft_records(const struct query_cmd *q, struct query_params *p, int argc,
			     char **argv)
{
	uint8_t rec[TMPL_MAX_SIZE];
	int v[3];
	uint64_t comp_mask = fill_template(q->tmpl, rec, argc, argv, v);
	int position = v[1], block = v[2];
	uint16_t pos_block = 0, pos = 0;

	(void)p;
	if ((int16_t)block != -1) {
		pos_block = (uint16_t)block;
		comp_mask |= MFTR_CM_BLOCK;
	}
	pos_block &= 0x1ff;
	if ((int8_t)position != -1) {
		pos = (uint8_t)position;
		comp_mask |= MFTR_CM_POSITION;
	}
	put16(rec + 2, (uint16_t)(pos_block | (uint16_t)(pos << 12)));
	return get_and_dump(q->attr_id, comp_mask, rec, q->tmpl->size, q->tmpl->desc(), 0);
}

static int query_switchinfo_records(const struct query_cmd *q, struct query_params *p, int argc,
				    char **argv)
{
	/* MulticastFDBTop is shown when the SA's CapabilityMask2 says it supports it */
	unsigned cap2 = get32(p->cpi + 4) >> 5;

	return query_template(q, cap2 & CAP_MASK2_IS_MCAST_TOP_SUP ? IBSTRUCT_SAQ_MCAST_TOP : 0,
			      argc, argv);
}

static int query_inform_info_records(const struct query_cmd *q, struct query_params *p, int argc,
				     char **argv)
{
	uint8_t rec[IIR_SIZE] = {0};
	uint64_t comp_mask = 0;

	(void)q;
	(void)p;
	if (argc > 0) {
		comp_mask = CM(0);
		if (inet_pton(AF_INET6, argv[0], rec) < 1) {
			fprintf(stderr, "Invalid SubscriberGID specified: \"%s\"\n", argv[0]);
			exit(EINVAL);
		}
	}
	return get_and_dump(IBSTRUCT_SA_INFORM_INFO_RECORD_ATTR_ID, comp_mask, rec, sizeof(rec),
			    ibstruct_sa_inform_info_record_desc(), record_flags());
}

static int query_path_records(const struct query_cmd *q, struct query_params *p, int argc,
			      char **argv)
{
	uint8_t pr[PR_SIZE] = {0};
	struct rec_builder b = {pr, 0};
	uint32_t hop_flow = 0;
	uint8_t flow = 0, reversible = 0;
	uint16_t qos_class_sl = 0, qos_class = 0;

	(void)q;
	(void)argc;
	(void)argv;
	set_field(&b, p->service_id != 0, 0, 8, p->service_id, PR_CM_SERVICEID);
	set_gid(&b, 24, p->sgid, PR_CM_SGID);
	set_gid(&b, 8, p->dgid, PR_CM_DGID);
	set_field(&b, (int16_t)p->slid != 0, 42, 2, p->slid, PR_CM_SLID);
	set_field(&b, (int16_t)p->dlid != 0, 40, 2, p->dlid, PR_CM_DLID);
	/* the whole 32-bit word takes the hop limit, and only 8 bits of the flow label go in */
	if (p->hop_limit != -1) {
		hop_flow = (uint32_t)p->hop_limit;
		b.comp_mask |= PR_CM_HOPLIMIT;
	}
	if ((int8_t)p->flow_label != 0) {
		flow = (uint8_t)p->flow_label;
		b.comp_mask |= PR_CM_FLOWLABEL;
	}
	put32(pr + 44, hop_flow | (uint32_t)flow << 8);
	set_field(&b, (int8_t)p->tclass != 0, 48, 1, p->tclass, PR_CM_TCLASS);
	if ((int8_t)p->reversible != -1) {
		reversible = (uint8_t)p->reversible;
		b.comp_mask |= PR_CM_REVERSIBLE;
	}
	set_field(&b, (int8_t)p->numb_path != -1, 49, 1, (uint8_t)p->numb_path, PR_CM_NUMBPATH);
	pr[49] |= (uint8_t)(reversible << 7);
	set_field(&b, (int16_t)p->pkey != 0, 50, 2, p->pkey, PR_CM_PKEY);
	if ((int16_t)p->sl != -1) {
		qos_class_sl = (uint16_t)p->sl;
		b.comp_mask |= PR_CM_SL;
	}
	if (p->qos_class != -1) {
		qos_class = (uint16_t)p->qos_class;
		b.comp_mask |= PR_CM_QOS_CLASS;
	}
	/* the QoS class always overwrites all but the 4 SL bits */
	put16(pr + 52, (uint16_t)((qos_class_sl & 0xf) | (uint16_t)(qos_class << 4)));
	set_field(&b, p->mtu != 0, 54, 1, p->mtu, PR_CM_MTU);
	set_field(&b, p->rate != 0, 55, 1, p->rate, PR_CM_RATE);
	set_field(&b, p->pkt_life != 0, 56, 1, p->pkt_life, PR_CM_PKTLIFETIME);
	return get_and_dump(IBSTRUCT_SA_PATH_RECORD_ATTR_ID, b.comp_mask, pr, sizeof(pr),
			    ibstruct_sa_path_record_desc(), 0);
}

static int query_mcmember_records(const struct query_cmd *q, struct query_params *p, int argc,
				  char **argv)
{
	uint8_t mr[MCMR_SIZE] = {0};
	struct rec_builder b = {mr, 0};
	uint8_t sl = 0, flow = 0, hop = 0, scope = 0;

	(void)q;
	(void)argc;
	(void)argv;
	set_gid(&b, 0, p->mgid, MCR_CM_MGID);
	set_gid(&b, 16, p->gid, MCR_CM_PORT_GID);
	set_field(&b, (int16_t)p->mlid != 0, 36, 2, p->mlid, MCR_CM_MLID);
	set_field(&b, p->qkey != 0, 32, 4, p->qkey, MCR_CM_QKEY);
	set_field(&b, p->mtu != 0, 38, 1, p->mtu, MCR_CM_MTU);
	set_field(&b, p->rate != 0, 42, 1, p->rate, MCR_CM_RATE);
	set_field(&b, p->pkt_life != 0, 43, 1, p->pkt_life, MCR_CM_LIFE);
	set_field(&b, (int8_t)p->tclass != 0, 39, 1, p->tclass, MCR_CM_TCLASS);
	set_field(&b, (int16_t)p->pkey != 0, 40, 2, p->pkey, MCR_CM_PKEY);
	if ((int8_t)p->sl != -1) {
		sl = (uint8_t)p->sl;
		b.comp_mask |= MCR_CM_SL;
	}
	if ((int8_t)p->flow_label != 0) {
		flow = (uint8_t)p->flow_label;
		b.comp_mask |= MCR_CM_FLOW;
	}
	if ((int8_t)p->hop_limit != -1) {
		hop = (uint8_t)p->hop_limit;
		b.comp_mask |= MCR_CM_HOP;
	}
	put32(mr + 44, (uint32_t)sl << 28 | (uint32_t)flow << 8 | hop);
	if ((int8_t)p->scope != 0) {
		scope = p->scope;
		b.comp_mask |= MCR_CM_SCOPE;
	}
	set_field(&b, (int8_t)p->join_state != 0, 48, 1, p->join_state, MCR_CM_JOIN_STATE);
	mr[48] |= (uint8_t)(scope << 4);
	/* ProxyJoin is a one-bit C bit-field in the reference: bit 0 of its byte on x86 */
	set_field(&b, (int8_t)p->proxy_join != -1, 49, 1, (uint8_t)(p->proxy_join & 1),
		  MCR_CM_PROXY);
	return get_and_dump(IBSTRUCT_SA_MCMEMBER_RECORD_ATTR_ID, b.comp_mask, mr, sizeof(mr),
			    ibstruct_sa_mcmember_record_desc(), 0);
}

/* The "lid/port" queries' request records; the parts' fields as {bits, offset, "not given"
 * value, component mask}. */
static const struct rec_template nr_tmpl = {
    .size = NR_SIZE,
    .desc = ibstruct_sa_node_record_desc,
    .first = {{16, 0, 0, IBSTRUCT_SA_NODE_RECORD_CM_LID}},
};
static const struct rec_template pir_tmpl = {
    .size = PIR_SIZE,
    .desc = ibstruct_sa_port_info_record_desc,
    .show_keys = true,
    .first = {{16, 0, 0, CM(0)}, {8, 2, -1, CM(1)}, {8, 3, -1, CM(2)}},
};
static const struct rec_template sl2vl_tmpl = {
    .size = SL2VL_SIZE,
    .desc = ibstruct_sa_sl2vl_mapping_table_record_desc,
    .first = {{16, 0, 0, CM(0)}, {8, 2, -1, CM(1)}, {8, 3, -1, CM(2)}},
};
static const struct rec_template pktr_tmpl = {
    .size = PKTR_SIZE,
    .desc = ibstruct_sa_pkey_table_record_desc,
    .first = {{16, 0, 0, CM(0)}, {8, 4, -1, CM(2)}, {16, 2, -1, CM(1)}},
};
static const struct rec_template vlar_tmpl = {
    .size = VLAR_SIZE,
    .desc = ibstruct_sa_vlarb_table_record_desc,
    .first = {{16, 0, 0, CM(0)}, {8, 2, -1, CM(1)}, {8, 3, -1, CM(2)}},
};
static const struct rec_template lr_tmpl = {
    .size = LR_SIZE,
    .desc = ibstruct_sa_link_record_desc,
    .first = {{16, 0, 0, CM(0)}, {8, 2, -1, CM(1)}},
    .second = {{16, 4, 0, CM(3)}, {8, 3, -1, CM(2)}},
};
static const struct rec_template sr_tmpl = {
    .desc = ibstruct_sa_service_record_desc,
    .show_keys = true,
};
static const struct rec_template lftr_tmpl = {
    .size = LFTR_SIZE,
    .desc = ibstruct_sa_linear_forwarding_table_record_desc,
    .first = {{16, 0, 0, CM(0)}, {16, 2, -1, CM(1)}},
};
/* position and block: see query_mft_records() */
static const struct rec_template mftr_tmpl = {
    .size = MFTR_SIZE,
    .desc = ibstruct_sa_multicast_forwarding_table_record_desc,
    .first = {{16, 0, 0, CM(0)}},
};
static const struct rec_template gir_tmpl = {
    .size = GIR_SIZE,
    .desc = ibstruct_sa_guid_info_record_desc,
    .first = {{16, 0, 0, CM(0)}, {8, 2, -1, CM(1)}},
};
static const struct rec_template swir_tmpl = {
    .size = SWIR_SIZE,
    .desc = ibstruct_sa_switch_info_record_desc,
    .first = {{16, 0, 0, CM(0)}},
};
static const struct rec_template smir_tmpl = {
    .size = SMIR_SIZE,
    .desc = ibstruct_sa_sm_info_record_desc,
    .first = {{16, 0, 0, CM(0)}},
};

static const struct query_cmd query_cmds[] = {
    {"ClassPortInfo", "CPI", ATTR_CLASS_PORT_INFO, NULL, query_class_port_info, NULL},
    {"NodeRecord", "NR", IBSTRUCT_SA_NODE_RECORD_ATTR_ID, "[lid]", query_node_records, &nr_tmpl},
    {"PortInfoRecord", "PIR", IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID, "[[lid]/[port]/[options]]",
     query_records, &pir_tmpl},
    {"SL2VLTableRecord", "SL2VL", IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_ATTR_ID,
     "[[lid]/[in_port]/[out_port]]", query_records, &sl2vl_tmpl},
    {"PKeyTableRecord", "PKTR", IBSTRUCT_SA_PKEY_TABLE_RECORD_ATTR_ID, "[[lid]/[port]/[block]]",
     query_records, &pktr_tmpl},
    {"VLArbitrationTableRecord", "VLAR", IBSTRUCT_SA_VLARB_TABLE_RECORD_ATTR_ID,
     "[[lid]/[port]/[block]]", query_records, &vlar_tmpl},
    {"InformInfoRecord", "IIR", IBSTRUCT_SA_INFORM_INFO_RECORD_ATTR_ID, "[subscriber_gid]",
     query_inform_info_records, NULL},
    {"LinkRecord", "LR", IBSTRUCT_SA_LINK_RECORD_ATTR_ID,
     "[[from_lid]/[from_port]] [[to_lid]/[to_port]]", query_records, &lr_tmpl},
    {"ServiceRecord", "SR", IBSTRUCT_SA_SERVICE_RECORD_ATTR_ID, NULL, query_records, &sr_tmpl},
    {"PathRecord", "PR", IBSTRUCT_SA_PATH_RECORD_ATTR_ID, NULL, query_path_records, NULL},
    {"MCMemberRecord", "MCMR", IBSTRUCT_SA_MCMEMBER_RECORD_ATTR_ID, NULL, query_mcmember_records,
     NULL},
    {"LFTRecord", "LFTR", IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_ATTR_ID, "[[lid]/[block]]",
     query_records, &lftr_tmpl},
    {"MFTRecord", "MFTR", IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_ATTR_ID,
     "[[mlid]/[position]/[block]]", query_mft_records, &mftr_tmpl},
    {"GUIDInfoRecord", "GIR", IBSTRUCT_SA_GUID_INFO_RECORD_ATTR_ID, "[[lid]/[block]]",
     query_records, &gir_tmpl},
    {"SwitchInfoRecord", "SWIR", IBSTRUCT_SA_SWITCH_INFO_RECORD_ATTR_ID, "[lid]",
     query_switchinfo_records, &swir_tmpl},
    {"SMInfoRecord", "SMIR", IBSTRUCT_SA_SM_INFO_RECORD_ATTR_ID, "[lid]", query_records,
     &smir_tmpl},
    {NULL, NULL, 0, NULL, NULL, NULL},
};

static const struct query_cmd *find_query(const char *name)
{
	const struct query_cmd *q;

	for (q = query_cmds; q->name; q++)
		if (!strcasecmp(name, q->name) || (q->alias && !strcasecmp(name, q->alias)))
			return q;
	return NULL;
}

static const struct query_cmd *find_query_by_type(uint16_t type)
{
	const struct query_cmd *q;

	for (q = query_cmds; q->name; q++)
		if (q->attr_id == type)
			return q;
	return NULL;
}

/* ---- The other commands ------------------------------------------------------------------ */

static int print_node_records(void)
{
	struct sa_result res;
	unsigned i;
	int rc;

	rc = get_all_records(IBSTRUCT_SA_NODE_RECORD_ATTR_ID, &res);
	if (rc)
		return rc;
	if (node_print_desc == PRINT_ALL_DESC) {
		printf("   LID \"name\"\n");
		printf("================\n");
	}
	for (i = 0; i < res.count; i++) {
		const uint8_t *nr = sa_record(&res, i);

		if (node_print_desc == PRINT_ALL_DESC) {
			if (nr[6] == 1) { /* channel adapters only */
				char *name = node_record_name(nr);

				printf("%6d  \"%s\"\n", get16(nr), name);
				free(name);
			}
		} else if (node_print_desc == PRINT_NAME_OF_LID) {
			if (requested_lid == get16(nr))
				print_node_record(nr);
		} else if (node_print_desc == PRINT_NAME_OF_GUID) {
			if (requested_guid == get64(nr + 24))
				print_node_record(nr);
		} else {
			char *name = node_record_name(nr);
			char desc[65];

			node_record_desc(nr, desc);
			if (!requested_name || strncmp(requested_name, desc, 64) == 0 ||
			    strncmp(requested_name, name, 64) == 0) {
				print_node_record(nr);
				if (node_print_desc == PRINT_UNIQUE_LID_ONLY) {
					free(name);
					sa_result_free(&res);
					exit(0);
				}
			}
			free(name);
		}
	}
	sa_result_free(&res);
	return 0;
}

static int get_issm_records(uint32_t capability_mask, struct sa_result *res)
{
	uint8_t pir[PIR_SIZE] = {0};

	put32(pir + 4 + 20, capability_mask);
	return get_any_records(IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID, 1u << 31,
			       IBSTRUCT_SA_PORT_INFO_RECORD_CM_PORTINFO_CAPABILITYMASK, pir,
			       sizeof(pir), res);
}

static int print_issm_records(void)
{
	struct sa_result res;
	int rc;

	rc = get_issm_records(PORT_CAP_IS_SM, &res);
	if (rc)
		return rc;
	printf("IsSM ports\n");
	dump_results(&res, ibstruct_sa_port_info_record_desc(), IBSTRUCT_SAQ_BRIEF);
	sa_result_free(&res);

	rc = get_issm_records(PORT_CAP_SM_DISABLED, &res);
	if (rc)
		return rc;
	printf("\nIsSMdisabled ports\n");
	dump_results(&res, ibstruct_sa_port_info_record_desc(), IBSTRUCT_SAQ_BRIEF);
	sa_result_free(&res);
	return 0;
}

static void dump_multicast_member_record(const uint8_t *mr, const struct sa_result *nrs)
{
	char gid[64], mgid[64];
	uint16_t mlid = get16(mr + 36);
	char *node_name = NULL;
	unsigned i;

	/* the member's name: the NodeRecord whose port GUID is the GID's interface ID */
	for (i = 0; i < nrs->count; i++) {
		const uint8_t *nr = sa_record(nrs, i);

		if (memcmp(nr + 24, mr + 24, 8) == 0) {
			node_name = node_record_name(nr);
			break;
		}
	}
	if (!node_name)
		node_name = strdup("<unknown>");
	if (!node_name)
		IBPANIC("out of memory");
	if (requested_name) {
		if (strtol(requested_name, NULL, 0) == mlid)
			printf("\t\tPortGid.................%s (%s)\n",
			       gid_text(mr + 16, gid, sizeof(gid)), node_name);
	} else {
		printf("MCMemberRecord member dump:\n"
		       "\t\tMGID....................%s\n"
		       "\t\tMlid....................0x%X\n"
		       "\t\tPortGid.................%s\n"
		       "\t\tScopeState..............0x%X\n"
		       "\t\tProxyJoin...............0x%X\n"
		       "\t\tNodeDescription.........%s\n",
		       gid_text(mr, mgid, sizeof(mgid)), mlid, gid_text(mr + 16, gid, sizeof(gid)),
		       mr[48], mr[49] & 1, node_name);
	}
	free(node_name);
}

static int print_multicast_member_records(void)
{
	struct sa_result mcr, nrs;
	unsigned i;
	int rc;

	rc = get_all_records(IBSTRUCT_SA_MCMEMBER_RECORD_ATTR_ID, &mcr);
	if (rc)
		return rc;
	rc = get_all_records(IBSTRUCT_SA_NODE_RECORD_ATTR_ID, &nrs);
	if (rc == 0) {
		for (i = 0; i < mcr.count; i++)
			dump_multicast_member_record(sa_record(&mcr, i), &nrs);
		sa_result_free(&nrs);
	}
	sa_result_free(&mcr);
	return rc;
}

static int print_multicast_group_records(void)
{
	struct sa_result res;
	char mgid[64];
	unsigned i;
	int rc;

	rc = get_all_records(IBSTRUCT_SA_MCMEMBER_RECORD_ATTR_ID, &res);
	if (rc)
		return rc;
	for (i = 0; i < res.count; i++) {
		const uint8_t *mr = sa_record(&res, i);

		printf("MCMemberRecord group dump:\n"
		       "\t\tMGID....................%s\n"
		       "\t\tMlid....................0x%X\n"
		       "\t\tMtu.....................0x%X\n"
		       "\t\tpkey....................0x%X\n"
		       "\t\tRate....................0x%X\n"
		       "\t\tSL......................0x%X\n",
		       gid_text(mr, mgid, sizeof(mgid)), get16(mr + 36), mr[38], get16(mr + 40),
		       mr[42], get32(mr + 44) >> 28);
	}
	sa_result_free(&res);
	return 0;
}

static int query_sa_cpi(struct query_params *p)
{
	struct sa_result res;
	int rc = sa_query(METHOD_GET, ATTR_CLASS_PORT_INFO, 0, 0, NULL, 0, &res);

	if (rc) {
		fprintf(stderr, "Query SA failed: %s\n", strerror(rc));
		return rc;
	}
	if (res.status) {
		sa_report_err(res.status);
		rc = EIO;
	} else {
		memcpy(p->cpi, sa_record(&res, 0), sizeof(p->cpi));
	}
	sa_result_free(&res);
	return rc;
}

/* ---- Options ------------------------------------------------------------------------------ */

enum {
	OPT_SRC_TO_DST = 1,
	OPT_SGID_TO_DGID = 2,
	OPT_NODE_NAME_MAP = 3,
	OPT_SMKEY = 4,
	OPT_SLID = 5,
	OPT_DLID = 6,
	OPT_MLID = 7,
	OPT_SGID = 14,
	OPT_DGID = 15,
	OPT_GID = 16,
	OPT_MGID = 17,
	OPT_PKEY = 18,
	OPT_SL = 19,
	OPT_PKT_LIFETIME = 20,
	OPT_SCOPE = 21,
	OPT_SERVICE_ID = 22,
};

static const struct ibdiag_opt saquery_opts[] = {
    {"p", 'p', 0, NULL, "get PathRecord info"},
    {"N", 'N', 0, NULL, "get NodeRecord info"},
    {"L", 'L', 0, NULL, "return the Lids of the name specified"},
    {"l", 'l', 0, NULL, "return the unique Lid of the name specified"},
    {"G", 'G', 0, NULL, "return the Guids of the name specified"},
    {"O", 'O', 0, NULL, "return name for the Lid specified"},
    {"U", 'U', 0, NULL, "return name for the Guid specified"},
    {"s", 's', 0, NULL,
     "return the PortInfoRecords with isSM or isSMdisabled capability mask bit on"},
    {"g", 'g', 0, NULL, "get multicast group info"},
    {"m", 'm', 0, NULL,
     "get multicast member info (if multicast group specified, list member GIDs only for "
     "group specified, for example 'saquery -m 0xC000')"},
    {"x", 'x', 0, NULL, "get LinkRecord info"},
    {"c", 'c', 0, NULL, "get the SA's class port info"},
    {"S", 'S', 0, NULL, "get ServiceRecord info"},
    {"I", 'I', 0, NULL, "get InformInfoRecord (subscription) info"},
    {"list", 'D', 0, NULL, "the node desc of the CA's"},
    {"src-to-dst", OPT_SRC_TO_DST, 1, "<src:dst>",
     "get a PathRecord for <src:dst> where src and dst are either node names or LIDs"},
    {"sgid-to-dgid", OPT_SGID_TO_DGID, 1, "<sgid-dgid>",
     "get a PathRecord for <sgid-dgid> where sgid and dgid are addresses in IPv6 format"},
    {"node-name-map", OPT_NODE_NAME_MAP, 1, "<file>", "specify a node name map file"},
    {"smkey", OPT_SMKEY, 1, "<val>",
     "SA SM_Key value for the query. If non-numeric value (like 'x') is specified then "
     "saquery will prompt for a value.  Default (when not specified here or in ibdiag.conf) "
     "is to  use SM_Key == 0 (or \"untrusted\")"},
    {"slid", OPT_SLID, 1, "<lid>", "Source LID (PathRecord)"},
    {"dlid", OPT_DLID, 1, "<lid>", "Destination LID (PathRecord)"},
    {"mlid", OPT_MLID, 1, "<lid>", "Multicast LID (MCMemberRecord)"},
    {"sgid", OPT_SGID, 1, "<gid>", "Source GID (IPv6 format) (PathRecord)"},
    {"dgid", OPT_DGID, 1, "<gid>", "Destination GID (IPv6 format) (PathRecord)"},
    {"gid", OPT_GID, 1, "<gid>", "Port GID (MCMemberRecord)"},
    {"mgid", OPT_MGID, 1, "<gid>", "Multicast GID (MCMemberRecord)"},
    {"reversible", 'r', 1, NULL, "Reversible path (PathRecord)"},
    {"numb_path", 'n', 1, NULL, "Number of paths (PathRecord)"},
    {"pkey", OPT_PKEY, 1, NULL,
     "P_Key (PathRecord, MCMemberRecord). If non-numeric value (like 'x') is specified then "
     "saquery will prompt for a value"},
    {"qos_class", 'Q', 1, NULL, "QoS Class (PathRecord)"},
    {"sl", OPT_SL, 1, NULL, "Service level (PathRecord, MCMemberRecord)"},
    {"mtu", 'M', 1, NULL, "MTU and selector (PathRecord, MCMemberRecord)"},
    {"rate", 'R', 1, NULL, "Rate and selector (PathRecord, MCMemberRecord)"},
    {"pkt_lifetime", OPT_PKT_LIFETIME, 1, NULL,
     "Packet lifetime and selector (PathRecord, MCMemberRecord)"},
    {"qkey", 'q', 1, NULL,
     "Q_Key (MCMemberRecord). If non-numeric value (like 'x') is specified then saquery "
     "will prompt for a value"},
    {"tclass", 'T', 1, NULL, "Traffic Class (PathRecord, MCMemberRecord)"},
    {"flow_label", 'F', 1, NULL, "Flow Label (PathRecord, MCMemberRecord)"},
    {"hop_limit", 'H', 1, NULL, "Hop limit (PathRecord, MCMemberRecord)"},
    {"scope", OPT_SCOPE, 1, NULL, "Scope (MCMemberRecord)"},
    {"join_state", 'J', 1, NULL, "Join state (MCMemberRecord)"},
    {"proxy_join", 'X', 1, NULL, "Proxy join (MCMemberRecord)"},
    {"service_id", OPT_SERVICE_ID, 1, NULL, "ServiceID (PathRecord)"},
    {NULL, 0, 0, NULL, NULL},
};

/* A key value, or one typed at a "<name>: " getpass() prompt when the text does not start
 * with a hex digit; NULL, after "cannot get <name>", when none could be read. */
static const char *key_text(const char *arg, const char *name)
{
	char prompt[16];
	const char *key;

	if (isxdigit((unsigned char)*arg))
		return arg;
	snprintf(prompt, sizeof(prompt), "%s: ", name);
	key = getpass(prompt);
	if (!key)
		fprintf(stderr, "cannot get %s\n", name);
	return key;
}

static int process_opt(void *ctx, int ch, char *arg)
{
	struct query_params *p = ctx;
	const char *key;
	char *s;

	switch (ch) {
	case OPT_SRC_TO_DST:
		free(src_lid);
		src_lid = strdup(arg);
		if (!src_lid)
			IBPANIC("out of memory");
		dst_lid = strchr(src_lid, ':');
		if (!dst_lid)
			return -1;
		*dst_lid++ = '\0';
		p->numb_path = 0x7f;
		query_type = IBSTRUCT_SA_PATH_RECORD_ATTR_ID;
		break;
	case OPT_SGID_TO_DGID: {
		char *dst;
		bool ok;

		s = strdup(arg);
		if (!s)
			IBPANIC("out of memory");
		dst = strchr(s, '-');
		if (dst)
			*dst++ = '\0';
		ok = dst && inet_pton(AF_INET6, s, p->sgid) > 0 &&
		     inet_pton(AF_INET6, dst, p->dgid) > 0;
		free(s);
		if (!ok)
			return -1;
		p->numb_path = 0x7f;
		query_type = IBSTRUCT_SA_PATH_RECORD_ATTR_ID;
		break;
	}
	case OPT_NODE_NAME_MAP:
		free(node_name_map_file);
		node_name_map_file = strdup(arg);
		if (!node_name_map_file)
			IBEXIT("out of memory, strdup for node_name_map_file name failed");
		break;
	case OPT_SMKEY:
		key = key_text(arg, "SM_Key");
		if (!key)
			return -1;
		ibd.sakey = strtoull(key, NULL, 0);
		break;
	case 'p':
		query_type = IBSTRUCT_SA_PATH_RECORD_ATTR_ID;
		break;
	case 'D':
		node_print_desc = PRINT_ALL_DESC;
		command = CMD_NODE_RECORD;
		break;
	case 'c':
		command = CMD_CLASS_PORT_INFO;
		break;
	case 'S':
		query_type = IBSTRUCT_SA_SERVICE_RECORD_ATTR_ID;
		break;
	case 'I':
		query_type = IBSTRUCT_SA_INFORM_INFO_RECORD_ATTR_ID;
		break;
	case 'N':
		command = CMD_NODE_RECORD;
		break;
	case 'L':
		node_print_desc = PRINT_LID_ONLY;
		command = CMD_NODE_RECORD;
		break;
	case 'l':
		node_print_desc = PRINT_UNIQUE_LID_ONLY;
		command = CMD_NODE_RECORD;
		break;
	case 'G':
		node_print_desc = PRINT_GUID_ONLY;
		command = CMD_NODE_RECORD;
		break;
	case 'O':
		node_print_desc = PRINT_NAME_OF_LID;
		command = CMD_NODE_RECORD;
		break;
	case 'U':
		node_print_desc = PRINT_NAME_OF_GUID;
		command = CMD_NODE_RECORD;
		break;
	case 's':
		command = CMD_ISSM;
		break;
	case 'g':
		command = CMD_MCGROUPS;
		break;
	case 'm':
		command = CMD_MCMEMBERS;
		break;
	case 'x':
		query_type = IBSTRUCT_SA_LINK_RECORD_ATTR_ID;
		break;
	case OPT_SLID:
		p->slid = (uint16_t)strtoul(arg, NULL, 0);
		break;
	case OPT_DLID:
		p->dlid = (uint16_t)strtoul(arg, NULL, 0);
		break;
	case OPT_MLID:
		p->mlid = (uint16_t)strtoul(arg, NULL, 0);
		break;
	case OPT_SGID:
		if (inet_pton(AF_INET6, arg, p->sgid) <= 0)
			return -1;
		break;
	case OPT_DGID:
		if (inet_pton(AF_INET6, arg, p->dgid) <= 0)
			return -1;
		break;
	case OPT_GID:
		if (inet_pton(AF_INET6, arg, p->gid) <= 0)
			return -1;
		break;
	case OPT_MGID:
		if (inet_pton(AF_INET6, arg, p->mgid) <= 0)
			return -1;
		break;
	case 'r':
		p->reversible = (int)strtoul(arg, NULL, 0);
		break;
	case 'n':
		p->numb_path = (int)strtoul(arg, NULL, 0);
		break;
	case OPT_PKEY:
		key = key_text(arg, "P_Key");
		if (!key)
			return -1;
		p->pkey = (uint16_t)strtoul(key, NULL, 0);
		break;
	case 'Q':
		p->qos_class = (int)strtoul(arg, NULL, 0);
		break;
	case OPT_SL:
		p->sl = (int)strtoul(arg, NULL, 0);
		break;
	case 'M':
		p->mtu = (uint8_t)strtoul(arg, NULL, 0);
		break;
	case 'R':
		p->rate = (uint8_t)strtoul(arg, NULL, 0);
		break;
	case OPT_PKT_LIFETIME:
		p->pkt_life = (uint8_t)strtoul(arg, NULL, 0);
		break;
	case 'q':
		key = key_text(arg, "Q_Key");
		if (!key)
			return -1;
		p->qkey = (uint32_t)strtoul(key, NULL, 0);
		break;
	case 'T':
		p->tclass = (uint8_t)strtoul(arg, NULL, 0);
		break;
	case 'F':
		p->flow_label = (uint32_t)strtoul(arg, NULL, 0);
		break;
	case 'H':
		p->hop_limit = (int)strtoul(arg, NULL, 0);
		break;
	case OPT_SCOPE:
		p->scope = (uint8_t)strtoul(arg, NULL, 0);
		break;
	case 'J':
		p->join_state = (uint8_t)strtoul(arg, NULL, 0);
		break;
	case 'X':
		p->proxy_join = (int)strtoul(arg, NULL, 0);
		break;
	case OPT_SERVICE_ID:
		p->service_id = strtoull(arg, NULL, 0);
		break;
	default:
		return -1;
	}
	return 0;
}

/* "[query-name] ...", then the query names with their arguments. */
static char *make_usage_args(void)
{
	const struct query_cmd *q;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		IBPANIC("out of memory");
	fprintf(f,
		"[query-name] [<name> | <lid> | <guid>]\n\nSupported query names (and aliases):\n");
	for (q = query_cmds; q->name; q++)
		fprintf(f, "  %s (%s) %s\n", q->name, q->alias ? q->alias : "",
			q->usage ? q->usage : "");
	fprintf(f, "\n  Queries node records by default.");
	if (fclose(f) != 0 || !text)
		IBPANIC("out of memory");
	return text;
}

/* The SA is the SM the local port reports (sysfs sm_lid/sm_sl of the port -C/-P select), looked
 * up before the port is opened, with -P cut to 8 bits as the reference's resolve_sm_portid()
 * takes it (-P -1 asks for port 255). */
static bool find_sm(uint16_t *sm_lid, uint8_t *sm_sl)
{
	struct ibpath_devlist *list;
	const struct ibpath_port *end_port;
	char why[256];
	bool found = false;

	if (ibpath_devlist_open(&list, getenv("IBMGMT_SYSFS_ROOT"), 0) < 0)
		return false;
	if (ibpath_devlist_select_ca_port(list, ibd.ca, (uint8_t)ibd.ca_port, &end_port, why,
					  sizeof(why)) == 0) {
		*sm_lid = ibpath_port_sm_lid(end_port);
		*sm_sl = ibpath_port_sm_sl(end_port);
		found = *sm_lid != 0;
	}
	ibpath_devlist_close(list);
	return found;
}

static struct ibpath_path *make_sa_path(uint16_t sm_lid, uint8_t sm_sl)
{
	unsigned timeout = ibd.timeout_ms ? ibd.timeout_ms : SA_DEFAULT_TIMEOUT_MS;
	struct ibpath_path *path;

	if (ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
		IBPANIC("out of memory");
	ibpath_path_set(path, IBPATH_DLID, sm_lid);
	ibpath_path_set(path, IBPATH_SL, sm_sl);
	ibpath_path_set(path, IBPATH_DQPN, 1);
	ibpath_path_set(path, IBPATH_QKEY, SA_QKEY);
	ibpath_path_set(path, IBPATH_TIMEOUT_MS, timeout);
	/* one attempt, as the reference's umad_send(..., timeout, 0): a path's retries of 0
	 * mean "the port's default", so the port's default is made 0 */
	ibmadrpc_port_set_default_timeout(port->port, timeout, 0);
	return path;
}

int main(int argc, char **argv)
{
	struct query_params params;
	const struct query_cmd *q = NULL;
	char *usage_args;
	uint16_t sm_lid = 0;
	uint8_t sm_sl = 0;
	int status, first;

	memset(&params, 0, sizeof(params));
	params.hop_limit = -1;
	params.reversible = -1;
	params.numb_path = -1;
	params.qos_class = -1;
	params.sl = -1;
	params.proxy_join = -1;

	usage_args = make_usage_args();
	first = ibdiag_process_opts(argc, argv, &params, "DGLsy", saquery_opts, process_opt,
				    usage_args, NULL);
	argc -= first;
	argv += first;

	if (!query_type && command == CMD_QUERY) {
		if (!argc || !(q = find_query(argv[0]))) {
			query_type = IBSTRUCT_SA_NODE_RECORD_ATTR_ID;
		} else {
			query_type = q->attr_id;
			argc--;
			argv++;
		}
	}

	if (argc) {
		if (node_print_desc == PRINT_NAME_OF_LID) {
			requested_lid = (uint16_t)strtoul(argv[0], NULL, 0);
			requested_lid_flag = true;
		} else if (node_print_desc == PRINT_NAME_OF_GUID) {
			requested_guid = strtoul(argv[0], NULL, 0);
			requested_guid_flag = true;
		} else {
			requested_name = argv[0];
		}
	}
	if ((node_print_desc == PRINT_LID_ONLY || node_print_desc == PRINT_UNIQUE_LID_ONLY ||
	     node_print_desc == PRINT_GUID_ONLY) &&
	    !requested_name) {
		fprintf(stderr, "ERROR: name not specified\n");
		ibdiag_show_usage();
	}
	if (node_print_desc == PRINT_NAME_OF_LID && !requested_lid_flag) {
		fprintf(stderr, "ERROR: lid not specified\n");
		ibdiag_show_usage();
	}
	if (node_print_desc == PRINT_NAME_OF_GUID && !requested_guid_flag) {
		fprintf(stderr, "ERROR: guid not specified\n");
		ibdiag_show_usage();
	}
	/* LID 0 is not a LID (IBA 4.1.3) */
	if (node_print_desc == PRINT_NAME_OF_LID && !requested_lid) {
		fprintf(stderr, "ERROR: lid invalid\n");
		ibdiag_show_usage();
	}

	/* the reference binds its SA handle: the SM from sysfs, then the port (-P 65536 finds
	 * the SM of port 0 but opens no port); a failure of either is a panic with the errno
	 * of its failed sysfs look-up (and, for the SM, a libibmad debug line "No SM/SA
	 * found") */
	if (find_sm(&sm_lid, &sm_sl))
		port = ibdiag_try_open_port();
	if (!port) {
		errno = ENOENT;
		IBPANIC("Failed to bind to the SA");
	}
	/* as the reference's SA agent (rmpp_version 1): the kernel reassembles multi-MAD
	 * answers, and under the simulator the one MAD that arrives is taken as it is */
	ibmadrpc_port_set_kernel_rmpp(port->port, true);
	sa_path = make_sa_path(sm_lid, sm_sl);

	node_name_map = ibdiag_nnmap_open(node_name_map_file);

	if (src_lid && *src_lid)
		params.slid = get_lid(src_lid);
	if (dst_lid && *dst_lid)
		params.dlid = get_lid(dst_lid);

	if (command == CMD_CLASS_PORT_INFO || query_type == ATTR_CLASS_PORT_INFO ||
	    query_type == IBSTRUCT_SA_SWITCH_INFO_RECORD_ATTR_ID) {
		status = query_sa_cpi(&params);
		if (status) {
			fprintf(stderr, "Failed to query SA:ClassPortInfo\n");
			goto out;
		}
	}

	switch (command) {
	case CMD_NODE_RECORD:
		status = print_node_records();
		break;
	case CMD_CLASS_PORT_INFO:
		print_saquery_record(ibstruct_mad_class_port_info_desc(), params.cpi, NULL, 0);
		status = 0;
		break;
	case CMD_ISSM:
		status = print_issm_records();
		break;
	case CMD_MCGROUPS:
		status = print_multicast_group_records();
		break;
	case CMD_MCMEMBERS:
		status = print_multicast_member_records();
		break;
	default:
		if ((!q && !(q = find_query_by_type(query_type))) || !q->handler) {
			fprintf(stderr, "Unknown query type %d\n", query_type);
			status = EINVAL;
		} else {
			status = q->handler(q, &params, argc, argv);
		}
		break;
	}

out:
	free(src_lid);
	free(node_name_map_file);
	free(usage_args);
	ibpath_path_unref(sa_path);
	ibdiag_close_port(port);
	ibdiag_nnmap_close(node_name_map);
	return status;
}
