// SPDX-License-Identifier: BSD-3-Clause
/*
 * libibsa unit tests on libibmadrpc's test port.  The port's sends go to a hook that plays a
 * small SA and SMA: it records every request and writes the answer into a socketpair that
 * stands in for the umad fd, so synchronous calls and the scheduler receive it as they
 * would from the kernel.  Covered: request building (class, version, method, attribute,
 * SM_Key, component mask, payload), answers with several records split by AttributeOffset,
 * truncated tables, errors (SA status -> -EREMOTEIO with the status, short answers -> -EPROTO), every SA
 * record type, the SubnGet transactor for every attribute (record type, mask, key fields,
 * the 64 bytes returned), DR -> LID resolution and its cache, PathRecord resolution and its
 * cache, and the scheduled interfaces.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "ibmadrpc-private.h"
#include "ibsa-private.h"

/* ---- the fake fabric -------------------------------------------------------------------- */

/*
 * libibmadrpc's receive path reads the port's fd with umad_recv().  This build of
 * libibumad reports the MAD length as the bytes read minus umad_size() (56 here), while the
 * MAD starts after a 64-byte header (UMAD_HDR), so lengths read from a plain socket would
 * come out 8 bytes long.  The test links libibmadrpc statically: this definition replaces
 * libibumad's and reports what was written after the header, as the simulator does.
 */
int umad_recv(int fd, void *umad, int *length, int timeout_ms)
{
	ssize_t n;

	(void)timeout_ms;
	n = read(fd, umad, UMAD_HDR + (size_t)*length);
	if (n < 0)
		return -errno;
	*length = n > UMAD_HDR ? (int)(n - UMAD_HDR) : 0;
	return 0;
}

#define MAXSENT 64

static uint8_t sent[MAXSENT][IBMADRPC_MAD_SIZE];
static unsigned nsent, nsa, nsmp;
static int sv[2] = { -1, -1 };

/* what the fake SA answers */
static uint16_t force_status;       /* MAD status of every SA answer */
static size_t force_len;            /* answer length (0: natural) */
static unsigned table_count = 3;    /* records of a GetTable answer */
static uint16_t attr_offset;        /* AttributeOffset of table answers (0: natural) */
static struct ibstruct_sa_path_record path_answer;
static bool mft_no_records;
/* what the fake SMA answers to DR NodeInfo/PortInfo */
static uint8_t dr_node_type = 2, dr_local_port = 5;
static uint16_t dr_lid = 3;

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* LIDs 1 and 3 are switches, the others CAs whose LID's port is lid % 2 + 1 */
static uint8_t type_of(uint16_t lid)
{
	return lid == 1 || lid == 3 ? 2 : 1;
}

static uint8_t port_of(uint16_t lid)
{
	return type_of(lid) == 2 ? 0 : (uint8_t)(lid % 2 + 1);
}

/* the embedded attribute of a record type, as the transactor expects it */
static const char *embedded(uint16_t rec_attr)
{
	switch (rec_attr) {
	case IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID: return "portInfo";
	case IBSTRUCT_SA_SWITCH_INFO_RECORD_ATTR_ID: return "switchInfo";
	case IBSTRUCT_SA_GUID_INFO_RECORD_ATTR_ID: return "GUIDInfo";
	case IBSTRUCT_SA_PKEY_TABLE_RECORD_ATTR_ID: return "PKeyTable";
	case IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_ATTR_ID: return "SLToVLMappingTable";
	case IBSTRUCT_SA_VLARB_TABLE_RECORD_ATTR_ID: return "VLArbitrationTable";
	case IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_ATTR_ID: return "linearForwardingTable";
	case IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_ATTR_ID: return "multicastForwardingTable";
	case IBSTRUCT_SA_SM_INFO_RECORD_ATTR_ID: return "SMInfo";
	default: return NULL;
	}
}

/* The pattern the fake SA puts in a record's embedded attribute. */
static uint8_t pattern(uint16_t rec_attr, size_t i)
{
	return (uint8_t)(0x40 + rec_attr * 3 + i);
}

/* One record answering the request's payload: its key fields kept, the rest filled. */
static void make_record(const struct ibstruct_desc *d, const uint8_t *req_payload, uint8_t *rec, size_t index)
{
	uint16_t attr = (uint16_t)ibstruct_desc_attr_id(d);
	size_t size = ibstruct_desc_size(d);
	const char *field = embedded(attr);

	memcpy(rec, req_payload, size);
	if (attr == IBSTRUCT_SA_NODE_RECORD_ATTR_ID) {
		struct ibstruct_sa_node_record nr;

		ibstruct_sa_node_record_unpack(&nr, req_payload, size);
		if (!nr.LID)
			nr.LID = (uint16_t)(index + 1);
		nr.nodeInfo.baseVersion = 1;
		nr.nodeInfo.classVersion = 1;
		nr.nodeInfo.nodeType = type_of(nr.LID);
		nr.nodeInfo.numPorts = 8;
		nr.nodeInfo.nodeGUID = 0x1000 + nr.LID;
		nr.nodeInfo.portGUID = 0x2000 + nr.LID;
		nr.nodeInfo.localPortNum = port_of(nr.LID);
		snprintf(nr.nodeDescription.nodeString, sizeof(nr.nodeDescription.nodeString), "node %u", nr.LID);
		ibstruct_sa_node_record_pack(&nr, rec, size);
	} else if (attr == IBSTRUCT_SA_PATH_RECORD_ATTR_ID) {
		ibstruct_sa_path_record_pack(&path_answer, rec, size);
	} else if (attr == IBSTRUCT_SA_LINK_RECORD_ATTR_ID) {
		rec[1] = (uint8_t)(index + 1); /* fromLID */
		rec[2] = (uint8_t)(index + 10); /* fromPort */
	} else if (field) {
		struct ibstruct_field_ref ref;
		size_t off, len, i;

		ck_assert_int_eq(ibstruct_field_lookup(d, field, &ref), 0);
		off = ref.bit_offset / 8;
		len = ibstruct_desc_size(ibstruct_field_struct(&ref));
		for (i = 0; i < len; i++)
			rec[off + i] = pattern(attr, i);
	}
}

static void answer_sa(const uint8_t *req, uint8_t *rep, size_t *len)
{
	const struct ibstruct_desc *d = ibstruct_desc_by_attr(3, (uint16_t)(req[16] << 8 | req[17]));
	size_t size, stride, i, n;

	rep[4] = (uint8_t)(force_status >> 8);
	rep[5] = (uint8_t)force_status;
	*len = 56;
	if (force_status || !d)
		return;
	size = ibstruct_desc_size(d);
	stride = attr_offset ? attr_offset * 8u : (size + 7) & ~(size_t)7;
	rep[44] = (uint8_t)(stride / 8 >> 8);
	rep[45] = (uint8_t)(stride / 8);
	if (req[16] << 8 == 0 && req[17] == IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_ATTR_ID &&
	    mft_no_records) {
		rep[4] = 0x03;
		return;
	}
	n = req[3] == IBSTRUCT_METHOD_GET ? 1 : table_count;
	for (i = 0; i < n && 56 + i * stride + size <= IBMADRPC_MAD_SIZE; i++) {
		uint8_t rec[IBMADRPC_MAD_SIZE];

		memset(rec, 0, sizeof(rec));
		make_record(d, req + 56, rec, i);
		memcpy(rep + 56 + i * stride, rec, size);
		*len = 56 + i * stride + size;
	}
	if (req[3] != IBSTRUCT_METHOD_GET) {
		if (i < n) {
			/* the simulator's cut: the first MAD of the answer, the next record partly in it */
			uint8_t rec[IBMADRPC_MAD_SIZE];

			make_record(d, req + 56, rec, i);
			memcpy(rep + 56 + i * stride, rec, IBMADRPC_MAD_SIZE - 56 - i * stride);
			*len = IBMADRPC_MAD_SIZE;
		} else {
			*len = 56 + n * stride;
		}
	}
}

static void answer_smp(const uint8_t *req, uint8_t *rep, size_t *len)
{
	uint16_t attr = (uint16_t)(req[16] << 8 | req[17]);

	*len = IBMADRPC_MAD_SIZE;
	rep[4] = 0x80; /* the D bit of a DR answer */
	if (attr == IBSTRUCT_SMP_NODE_INFO_ATTR_ID) {
		struct ibstruct_smp_node_info ni = { .baseVersion = 1, .classVersion = 1, .nodeType = dr_node_type,
						     .numPorts = 8, .localPortNum = dr_local_port };

		ibstruct_smp_node_info_pack(&ni, rep + 64, 64);
	} else if (attr == IBSTRUCT_SMP_PORT_INFO_ATTR_ID) {
		struct ibstruct_smp_port_info pi;

		memset(&pi, 0, sizeof(pi));
		pi.LID = dr_lid;
		pi.localPortNum = (uint8_t)be32(req + 20);
		ibstruct_smp_port_info_pack(&pi, rep + 64, 64);
	}
}

static int hook(struct ibmadrpc_port *port, const uint8_t *umad, size_t len)
{
	uint8_t buf[UMAD_HDR + IBMADRPC_MAD_SIZE];
	const uint8_t *req = umad + UMAD_HDR;
	uint8_t *rep = buf + UMAD_HDR;
	size_t rlen = 0;

	(void)port;
	ck_assert_uint_ge(len, UMAD_HDR + IBMADRPC_MAD_SIZE);
	if (req[3] & 0x80 || (req[1] == 3 && req[25] > 1))
		return 0; /* not a request (an RMPP ACK) */
	ck_assert_uint_lt(nsent, MAXSENT);
	memcpy(sent[nsent++], req, IBMADRPC_MAD_SIZE);
	memset(buf, 0, sizeof(buf));
	memcpy(rep, req, IBMADRPC_MAD_SIZE);
	memset(rep + 56, 0, IBMADRPC_MAD_SIZE - 56);
	rep[3] = (uint8_t)(req[3] | 0x80);
	if (req[1] == 3) {
		nsa++;
		answer_sa(req, rep, &rlen);
	} else {
		nsmp++;
		answer_smp(req, rep, &rlen);
	}
	if (force_len && req[1] == 3)
		rlen = force_len;
	ck_assert_int_eq((int)write(sv[1], buf, UMAD_HDR + rlen), (int)(UMAD_HDR + rlen));
	return 0;
}

static struct ibmadrpc_port *port;
static struct ibsa *sa;
static struct ibpath_path *sa_path;

static void setup(void)
{
	nsent = nsa = nsmp = 0;
	force_status = 0;
	force_len = 0;
	table_count = 3;
	attr_offset = 0;
	mft_no_records = false;
	dr_node_type = 2;
	dr_local_port = 5;
	dr_lid = 3;
	memset(&path_answer, 0, sizeof(path_answer));
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	port = ibmadrpc_test_port_new(hook);
	ck_assert_ptr_nonnull(port);
	port->fd = sv[0];
	port->lid = 2;
	ibstruct_gid_make(&port->gid, 0xfe80000000000000ull, 0x2002);
	ck_assert_int_eq(ibsa_new(&sa, port), 0);
	ck_assert_int_eq(ibpath_path_new(&sa_path, IBPATH_KIND_IB), 0);
	ibpath_path_set(sa_path, IBPATH_DLID, 1);
	ibpath_path_set(sa_path, IBPATH_DQPN, 1);
	ibpath_path_set(sa_path, IBPATH_QKEY, 0x80010000u);
	ibpath_path_set(sa_path, IBPATH_TIMEOUT_MS, 200);
	ibpath_path_set(sa_path, IBPATH_RETRIES, 0);
	ck_assert_int_eq(ibsa_set_sa_path(sa, sa_path), 0);
}

static void teardown(void)
{
	ibsa_free(sa);
	ibpath_path_unref(sa_path);
	port->fd = -1;
	ibmadrpc_port_close(port);
	close(sv[0]);
	close(sv[1]);
}

static struct ibpath_path *lid_path(uint16_t lid)
{
	struct ibpath_path *p;

	ck_assert_int_eq(ibpath_path_new(&p, IBPATH_KIND_IB), 0);
	ibpath_path_set(p, IBPATH_DLID, lid);
	ibpath_path_set(p, IBPATH_TIMEOUT_MS, 200);
	ibpath_path_set(p, IBPATH_RETRIES, 0);
	return p;
}

static struct ibpath_path *dr_path(const char *text)
{
	struct ibpath_path *p;
	char err[128];

	ck_assert_int_eq(ibpath_parse(text, IBPATH_PARSE_DR, &p, err, sizeof(err)), 0);
	ibpath_path_set(p, IBPATH_TIMEOUT_MS, 200);
	ibpath_path_set(p, IBPATH_RETRIES, 0);
	return p;
}

/* ---- SA queries ---------------------------------------------------------------------------- */

START_TEST(test_request)
{
	struct ibstruct_sa_node_record nr;
	struct ibsa_result *res;
	struct ibmadrpc_error *err;
	const struct ibstruct_sa_node_record *got;

	memset(&nr, 0, sizeof(nr));
	nr.LID = 4;
	ibsa_set_smkey(sa, 0x0102030405060708ull);
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), &nr,
				    IBSTRUCT_SA_NODE_RECORD_CM_LID, &res, &err), 0);
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(nsent, 1);
	ck_assert_uint_eq(sent[0][1], 0x03);                       /* SubnAdm */
	ck_assert_uint_eq(sent[0][2], 2);                          /* version 2 */
	ck_assert_uint_eq(sent[0][3], IBSTRUCT_METHOD_GET);
	ck_assert_uint_eq(sent[0][16] << 8 | sent[0][17], IBSTRUCT_SA_NODE_RECORD_ATTR_ID);
	ck_assert_uint_eq(be64(sent[0] + 36), 0x0102030405060708ull); /* SM_Key */
	ck_assert_uint_eq(be64(sent[0] + 48), IBSTRUCT_SA_NODE_RECORD_CM_LID);
	ck_assert_uint_eq(sent[0][56] << 8 | sent[0][57], 4);      /* the LID in the payload */
	ck_assert_ptr_eq(res->desc, ibstruct_sa_node_record_desc());
	ck_assert_uint_eq(res->count, 1);
	ck_assert_uint_eq(res->rec_size, IBSTRUCT_SA_NODE_RECORD_SIZE);
	ck_assert(!res->truncated);
	got = res->records;
	ck_assert_uint_eq(got->LID, 4);
	ck_assert_uint_eq(got->nodeInfo.nodeGUID, 0x1004);
	ck_assert_str_eq(got->nodeDescription.nodeString, "node 4");
	ck_assert_uint_eq(res->wire[0] << 8 | res->wire[1], 4);
	ibsa_result_free(res);
}
END_TEST

START_TEST(test_table)
{
	const struct ibstruct_sa_link_record *lr;
	struct ibsa_result *res;
	struct ibmadrpc_error *err;
	size_t i;

	/* LinkRecords (8 bytes) at AttributeOffset 1 */
	table_count = 5;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_link_record_desc(), NULL, 0, &res,
				    &err), 0);
	ck_assert_uint_eq(sent[0][3], IBSTRUCT_METHOD_GET_TABLE);
	ck_assert_uint_eq(be64(sent[0] + 48), 0);
	ck_assert_uint_eq(res->count, 5);
	ck_assert_uint_eq(res->rec_size, 8);
	lr = res->records;
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(lr[i].fromLID, i + 1);
		ck_assert_uint_eq(lr[i].fromPort, i + 10);
	}
	ibsa_result_free(res);

	/* a wider AttributeOffset than the record: records 16 bytes apart */
	attr_offset = 2;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_link_record_desc(), NULL, 0, &res,
				    &err), 0);
	ck_assert_uint_eq(res->count, 5);
	ck_assert_uint_eq(res->rec_size, 16);
	lr = res->records;
	ck_assert_uint_eq(lr[4].fromLID, 5);
	ck_assert_uint_eq(lr[4].fromPort, 14);
	ibsa_result_free(res);

	/* NodeRecords (108 bytes, offset 14 = 112): the second does not fit one MAD */
	attr_offset = 0;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_node_record_desc(), NULL, 0, &res,
				    &err), 0);
	ck_assert_uint_eq(res->count, 1);
	ck_assert_uint_eq(res->rec_size, 112);
	ck_assert(res->truncated);
	ck_assert_uint_eq(((const struct ibstruct_sa_node_record *)res->records)->LID, 1);
	ibsa_result_free(res);

	/* an empty table */
	table_count = 0;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_link_record_desc(), NULL, 0, &res,
				    &err), 0);
	ck_assert_uint_eq(res->count, 0);
	ck_assert(!res->truncated);
	ibsa_result_free(res);
}
END_TEST

START_TEST(test_query_text)
{
	const char *a[] = { "LID=7", "nodeInfo.nodeType=2" };
	const char *bad[] = { "noSuchField=1" };
	const char *badval[] = { "LID=0x10000" };
	struct ibsa_result *res;
	struct ibmadrpc_error *err;

	ck_assert_int_eq(ibsa_query_text(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), a, 2, &res, &err),
			 0);
	ck_assert_uint_eq(be64(sent[0] + 48),
			  IBSTRUCT_SA_NODE_RECORD_CM_LID | IBSTRUCT_SA_NODE_RECORD_CM_NODEINFO_NODETYPE);
	ck_assert_uint_eq(sent[0][56] << 8 | sent[0][57], 7);
	ck_assert_uint_eq(sent[0][56 + 6], 2); /* nodeInfo.nodeType */
	ck_assert_uint_eq(res->count, 1);
	ibsa_result_free(res);

	ck_assert_int_lt(ibsa_query_text(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), bad, 1, &res, &err),
			 0);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(ibmadrpc_error_message(err, 0), "noSuchField"));
	ibmadrpc_error_free(err);
	ck_assert_int_eq(ibsa_query_text(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), badval, 1, &res,
					 &err), -ERANGE);
	ibmadrpc_error_free(err);
	ck_assert_uint_eq(nsent, 1); /* nothing sent for bad texts */
}
END_TEST

START_TEST(test_errors)
{
	struct ibsa_result *res = NULL;
	struct ibmadrpc_error *err;

	/* an SA status: -EREMOTEIO, the status in the error, our message on top */
	force_status = 0x0300;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), NULL, 0, &res, &err),
			 -EREMOTEIO);
	ck_assert_ptr_null(res);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(ibmadrpc_error_status(err), 0x0300);
	ck_assert_uint_ge(ibmadrpc_error_count(err), 2);
	ck_assert_str_eq(ibmadrpc_error_message(err, 0), "SubnAdmGet SANodeRecord failed");
	ibmadrpc_error_free(err);
	force_status = 0;

	/* a Get answer shorter than the record */
	force_len = 56 + 10;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), NULL, 0, &res, &err),
			 -EPROTO);
	ck_assert_ptr_nonnull(strstr(ibmadrpc_error_message(err, 0), "holds 10 bytes"));
	ibmadrpc_error_free(err);
	force_len = 0;

	/* AttributeOffset smaller than the record */
	attr_offset = 1;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_node_record_desc(), NULL, 0, &res,
				    &err), -EPROTO);
	ck_assert_ptr_nonnull(strstr(ibmadrpc_error_message(err, 0), "AttributeOffset"));
	ibmadrpc_error_free(err);
	attr_offset = 0;

	/* not a record, a method the record does not allow: nothing is sent */
	nsent = 0;
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET, ibstruct_smp_node_info_desc(), NULL, 0, &res, &err),
			 -EINVAL);
	ibmadrpc_error_free(err);
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_DELETE, ibstruct_sa_path_record_desc(), NULL, 0, &res, &err),
			 -EINVAL);
	ibmadrpc_error_free(err);
	ck_assert_uint_eq(nsent, 0);

	/* no SA path and no SM LID on the port */
	ibsa_set_sa_path(sa, NULL);
	ck_assert_int_eq(ibsa_query(sa, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), NULL, 0, &res, &err),
			 -ENETUNREACH);
	ibmadrpc_error_free(err);
}
END_TEST

START_TEST(test_every_record)
{
	unsigned i, records = 0;
	const struct ibstruct_desc *d;

	for (i = 0; (d = ibstruct_desc_at(i)); i++) {
		struct ibsa_result *res;
		struct ibmadrpc_error *err;
		void *tmpl;
		uint8_t method;

		if (!ibstruct_desc_is_record(d) || ibstruct_desc_mgmt_class(d) != 3 || ibstruct_desc_attr_id(d) < 0)
			continue;
		records++;
		tmpl = calloc(1, ibstruct_desc_host_size(d));
		ck_assert_ptr_nonnull(tmpl);
		for (method = 1; method < 0x20; method++) {
			if (!ibstruct_desc_allows_method(d, method) ||
			    (method != IBSTRUCT_METHOD_GET && method != IBSTRUCT_METHOD_GET_TABLE))
				continue;
			nsent = 0;
			table_count = 1;
			ck_assert_msg(ibsa_query(sa, method, d, tmpl, 1, &res, &err) == 0, "%s method %u",
				      ibstruct_desc_name(d), method);
			ck_assert_uint_eq(nsent, 1);
			ck_assert_uint_eq(sent[0][3], method);
			ck_assert_int_eq(sent[0][16] << 8 | sent[0][17], ibstruct_desc_attr_id(d));
			ck_assert_uint_eq(be64(sent[0] + 48), 1);
			ck_assert_uint_eq(res->count, 1);
			ck_assert_ptr_eq(res->desc, d);
			ibsa_result_free(res);
		}
		free(tmpl);
	}
	ck_assert_uint_ge(records, 15);
}
END_TEST

/* ---- the transactor -------------------------------------------------------------------------- */

struct map_case {
	uint16_t lid;
	uint16_t attr;
	uint32_t mod;
	uint16_t rec_attr;
	uint64_t mask;
	const char *keys; /* "field=value,..." expected in the request's record */
};

static const struct map_case map_cases[] = {
	{ 4, 0x11, 0, IBSTRUCT_SA_NODE_RECORD_ATTR_ID, IBSTRUCT_SA_NODE_RECORD_CM_LID, "LID=4" },
	{ 4, 0x10, 0, IBSTRUCT_SA_NODE_RECORD_ATTR_ID, IBSTRUCT_SA_NODE_RECORD_CM_LID, "LID=4" },
	{ 1, 0x15, 0, IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID,
	  IBSTRUCT_SA_PORT_INFO_RECORD_CM_ENDPORTLID | IBSTRUCT_SA_PORT_INFO_RECORD_CM_PORTNUM, "endportLID=1,portNum=0" },
	{ 1, 0x15, 7, IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID,
	  IBSTRUCT_SA_PORT_INFO_RECORD_CM_ENDPORTLID | IBSTRUCT_SA_PORT_INFO_RECORD_CM_PORTNUM, "endportLID=1,portNum=7" },
	{ 5, 0x15, 0, IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID, /* a CA: the LID's port (5 % 2 + 1) */
	  IBSTRUCT_SA_PORT_INFO_RECORD_CM_ENDPORTLID | IBSTRUCT_SA_PORT_INFO_RECORD_CM_PORTNUM, "endportLID=5,portNum=2" },
	{ 1, 0x12, 0, IBSTRUCT_SA_SWITCH_INFO_RECORD_ATTR_ID, IBSTRUCT_SA_SWITCH_INFO_RECORD_CM_LID, "LID=1" },
	{ 4, 0x14, 3, IBSTRUCT_SA_GUID_INFO_RECORD_ATTR_ID,
	  IBSTRUCT_SA_GUID_INFO_RECORD_CM_LID | IBSTRUCT_SA_GUID_INFO_RECORD_CM_BLOCKNUM, "LID=4,blockNum=3" },
	{ 1, 0x16, 0x70002, IBSTRUCT_SA_PKEY_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_LID | IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_BLOCKNUM |
		  IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_PORTNUM, "LID=1,blockNum=2,portNum=7" },
	{ 4, 0x16, 0x70001, IBSTRUCT_SA_PKEY_TABLE_RECORD_ATTR_ID, /* a CA ignores the port bits */
	  IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_LID | IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_BLOCKNUM |
		  IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_PORTNUM, "LID=4,blockNum=1,portNum=1" },
	{ 1, 0x17, 0x0304, IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_LID | IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_INPUTPORTNUM |
		  IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_OUTPUTPORTNUM, "LID=1,inputPortNum=3,outputPortNum=4" },
	{ 4, 0x17, 0, IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_LID | IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_OUTPUTPORTNUM,
	  "LID=4,inputPortNum=0,outputPortNum=1" },
	{ 1, 0x18, 0x30006, IBSTRUCT_SA_VLARB_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_LID | IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_OUTPUTPORTNUM |
		  IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_BLOCKNUM, "LID=1,outputPortNum=6,blockNum=3" },
	{ 5, 0x18, 0x20000, IBSTRUCT_SA_VLARB_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_LID | IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_OUTPUTPORTNUM |
		  IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_BLOCKNUM, "LID=5,outputPortNum=2,blockNum=2" },
	{ 1, 0x19, 5, IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_CM_LID | IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_CM_BLOCKNUM,
	  "LID=1,blockNum=5" },
	{ 1, 0x1b, 0x20000011, IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_ATTR_ID,
	  IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_CM_LID | IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_CM_POSITION |
		  IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_CM_BLOCKNUM, "LID=1,position=2,blockNum=17" },
	{ 1, 0x20, 0, IBSTRUCT_SA_SM_INFO_RECORD_ATTR_ID, IBSTRUCT_SA_SM_INFO_RECORD_CM_LID, "LID=1" },
};

/* The expected 64 bytes: the embedded attribute of the fake SA's record. */
static void expected_data(const struct map_case *c, uint8_t *exp)
{
	const struct ibstruct_desc *d = ibstruct_desc_by_attr(3, c->rec_attr);
	struct ibstruct_field_ref ref;
	uint8_t req[256], rec[256];
	const char *field = embedded(c->rec_attr);
	size_t len;

	memset(exp, 0, 64);
	if (c->rec_attr == IBSTRUCT_SA_NODE_RECORD_ATTR_ID) {
		struct ibstruct_sa_node_record nr = { .LID = c->lid };

		ibstruct_sa_node_record_pack(&nr, req, sizeof(req));
		make_record(d, req, rec, 0);
		field = c->attr == 0x11 ? "nodeInfo" : "nodeDescription";
	} else {
		memset(req, 0, sizeof(req));
		make_record(d, req, rec, 0);
	}
	ck_assert_int_eq(ibstruct_field_lookup(d, field, &ref), 0);
	len = ibstruct_desc_size(ibstruct_field_struct(&ref));
	memcpy(exp, rec + ref.bit_offset / 8, len > 64 ? 64 : len);
}

/* the record request (the last SA MAD) carries the case's key fields */
static void check_keys(const struct map_case *c, const uint8_t *mad)
{
	const struct ibstruct_desc *d = ibstruct_desc_by_attr(3, c->rec_attr);
	void *host = calloc(1, ibstruct_desc_host_size(d));
	char keys[128], *k, *save = NULL;

	ck_assert_uint_eq(mad[1], 3);
	ck_assert_uint_eq(mad[3], IBSTRUCT_METHOD_GET);
	ck_assert_uint_eq(mad[16] << 8 | mad[17], c->rec_attr);
	ck_assert_msg(be64(mad + 48) == c->mask, "attr 0x%x mod 0x%x: mask 0x%llx, expected 0x%llx", c->attr,
		      c->mod, (unsigned long long)be64(mad + 48), (unsigned long long)c->mask);
	ck_assert_int_eq(ibstruct_unpack(d, host, mad + 56, 200), 0);
	snprintf(keys, sizeof(keys), "%s", c->keys);
	for (k = strtok_r(keys, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(k, '=');
		uint64_t v;

		*eq = 0;
		ck_assert_int_eq(ibstruct_get_uint(d, host, k, &v), 0);
		ck_assert_msg(v == strtoull(eq + 1, NULL, 0), "attr 0x%x: %s = %llu, expected %s", c->attr, k,
			      (unsigned long long)v, eq + 1);
	}
	free(host);
}

START_TEST(test_transactor_map)
{
	size_t i;

	for (i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
		const struct map_case *c = &map_cases[i];
		struct ibpath_path *p = lid_path(c->lid);
		struct ibmadrpc_error *err;
		uint8_t data[64], exp[64];

		nsent = 0;
		ibsa_path_cache_flush(sa);
		ck_assert_msg(ibsa_subn_get(sa, p, c->attr, c->mod, data, &err) == 0, "attr 0x%x", c->attr);
		ck_assert_ptr_null(err);
		check_keys(c, sent[nsent - 1]);
		expected_data(c, exp);
		ck_assert_msg(!memcmp(data, exp, 64), "attr 0x%x mod 0x%x: data differs", c->attr, c->mod);
		ibpath_path_unref(p);
	}
}
END_TEST

START_TEST(test_transactor_node_type)
{
	struct ibpath_path *p = lid_path(5);
	struct ibmadrpc_error *err;
	uint8_t data[64];

	/* the node type comes from a NodeRecord once, then from the cache */
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x16, 0, data, &err), 0);
	ck_assert_uint_eq(nsa, 2);
	ck_assert_uint_eq(sent[0][17], IBSTRUCT_SA_NODE_RECORD_ATTR_ID);
	ck_assert_uint_eq(sent[1][17], IBSTRUCT_SA_PKEY_TABLE_RECORD_ATTR_ID);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x17, 0, data, &err), 0);
	ck_assert_uint_eq(nsa, 3);
	/* NodeInfo fills the cache too */
	ibpath_path_unref(p);
	p = lid_path(7);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x11, 0, data, &err), 0);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x15, 0, data, &err), 0);
	ck_assert_uint_eq(nsa, 5);
	ck_assert_uint_eq(sent[4][56 + 2], 2); /* PortInfoRecord.portNum = 7 % 2 + 1 */
	ibpath_path_unref(p);

	/* unsupported attributes and targets */
	p = lid_path(4);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x1a, 0, data, &err), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(ibmadrpc_error_message(err, 0), "SMPRandomForwardingTable"));
	ibmadrpc_error_free(err);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x14, 0x100, data, &err), -EINVAL);
	ibmadrpc_error_free(err);
	/* an SA error reaches the caller with the status and our message */
	force_status = 0x0300;
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x12, 0, data, &err), -EREMOTEIO);
	ck_assert_uint_eq(ibmadrpc_error_status(err), 0x0300);
	ck_assert_str_eq(ibmadrpc_error_message(err, 0), "Failed getting SwitchInfo of LID 4 from the SA");
	ibmadrpc_error_free(err);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_transactor_mft_empty)
{
	struct ibpath_path *p = lid_path(1);
	struct ibmadrpc_error *err;
	uint8_t data[64], zero[64] = { 0 };

	mft_no_records = true;
	memset(data, 0xff, sizeof(data));
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x1b, 0, data, &err), 0);
	ck_assert(!memcmp(data, zero, 64));
	ck_assert_uint_eq(nsa, 2); /* the MFT record, then the NodeRecord: a switch */
	ibpath_path_unref(p);
	p = lid_path(4);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x1b, 0, data, &err), -EPROTO);
	ck_assert_ptr_nonnull(strstr(ibmadrpc_error_message(err, 1), "not a switch"));
	ibmadrpc_error_free(err);
	ibpath_path_unref(p);
}
END_TEST

START_TEST(test_dr_resolution)
{
	struct ibpath_path *p = dr_path("0,1,3");
	struct ibstruct_smp_node_info ni;
	struct ibmadrpc_error *err;
	uint8_t data[64];

	/* a switch: NodeInfo, PortInfo of port 0, then the SA with its LID */
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x11, 0, data, &err), 0);
	ck_assert_uint_eq(nsmp, 2);
	ck_assert_uint_eq(sent[0][1], 0x81);
	ck_assert_uint_eq(sent[0][17], 0x11);
	ck_assert_uint_eq(sent[1][17], 0x15);
	ck_assert_uint_eq(be32(sent[1] + 20), 0);
	ck_assert_uint_eq(sent[2][1], 3);
	ck_assert_uint_eq(sent[2][56] << 8 | sent[2][57], 3); /* the NodeRecord of LID 3 */
	/* LocalPortNum is the port the DR SMP entered */
	ck_assert_int_eq(ibstruct_smp_node_info_unpack(&ni, data, 64), 0);
	ck_assert_uint_eq(ni.nodeType, 2);
	ck_assert_uint_eq(ni.localPortNum, 5);
	/* cached: only the SA now */
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x12, 0, data, &err), 0);
	ck_assert_uint_eq(nsmp, 2);
	ck_assert_uint_eq(nsent, 4);
	ck_assert_uint_eq(sent[3][56] << 8 | sent[3][57], 3);
	/* flushed: resolved again */
	ibsa_path_cache_flush(sa);
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x12, 0, data, &err), 0);
	ck_assert_uint_eq(nsmp, 4);
	ibpath_path_unref(p);

	/* a CA: PortInfo of the port the SMP entered */
	dr_node_type = 1;
	dr_local_port = 2;
	dr_lid = 9;
	p = dr_path("0,1,3,4");
	nsent = 0;
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x15, 0, data, &err), 0);
	ck_assert_uint_eq(be32(sent[1] + 20), 2);
	ck_assert_uint_eq(sent[2][17], IBSTRUCT_SA_PORT_INFO_RECORD_ATTR_ID); /* no NodeRecord needed */
	ck_assert_uint_eq(sent[2][56] << 8 | sent[2][57], 9);
	ck_assert_uint_eq(sent[2][58], 2);
	ibpath_path_unref(p);

	/* a port without a LID */
	dr_lid = 0;
	p = dr_path("0,2");
	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x11, 0, data, &err), -EADDRNOTAVAIL);
	ck_assert_ptr_nonnull(strstr(ibmadrpc_error_message(err, 1), "has no LID"));
	ibmadrpc_error_free(err);
	ibpath_path_unref(p);
}
END_TEST

/* ---- PathRecords ------------------------------------------------------------------------------- */

START_TEST(test_resolve_path)
{
	struct ibpath_path *t = lid_path(4), *r, *back;
	struct ibmadrpc_error *err;
	ibstruct_gid_t g;
	char text[128];

	path_answer.DLID = 4;
	path_answer.SLID = 2;
	path_answer.SL = 3;
	path_answer.MTU = 4;
	path_answer.rate = 6;
	path_answer.packetLifeTime = 18;
	path_answer.PKey = 0x8001;
	path_answer.reversible = 1;
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), 0);
	ck_assert_uint_eq(sent[0][17], IBSTRUCT_SA_PATH_RECORD_ATTR_ID);
	ck_assert_uint_eq(be64(sent[0] + 48), IBSTRUCT_SA_PATH_RECORD_CM_SLID | IBSTRUCT_SA_PATH_RECORD_CM_DLID |
						      IBSTRUCT_SA_PATH_RECORD_CM_NUMBPATH |
						      IBSTRUCT_SA_PATH_RECORD_CM_REVERSIBLE);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DLID), 4);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_SLID), 2);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_SL), 3);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_MTU), 4);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_RATE), 6);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_PACKET_LIFE_TIME), 18);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_PKEY), 0x8001);
	ck_assert(!ibpath_path_has_grh(r));
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_TIMEOUT_MS), 200); /* the target's own settings */
	ck_assert_int_eq(ibpath_path_reverse(r, &back), 0);
	ck_assert_uint_eq(ibpath_path_get(back, IBPATH_DLID), 2);
	ibpath_path_unref(back);
	ibpath_path_unref(r);
	/* cached */
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), 0);
	ck_assert_uint_eq(nsent, 1);
	ibpath_path_unref(r);
	ibsa_path_cache_flush(sa);
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), 0);
	ck_assert_uint_eq(nsent, 2);
	ibpath_path_unref(r);
	ibpath_path_unref(t);

	/* a GUID target: DGID with the subnet prefix, SGID ours */
	ck_assert_int_eq(ibpath_parse("0x0000000000001234", IBPATH_PARSE_GUID, &t, text, sizeof(text)), 0);
	ck_assert(ibpath_path_needs_resolution(t));
	path_answer.DLID = 12;
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), 0);
	ck_assert_uint_eq(be64(sent[2] + 48), IBSTRUCT_SA_PATH_RECORD_CM_DGID | IBSTRUCT_SA_PATH_RECORD_CM_SGID |
						      IBSTRUCT_SA_PATH_RECORD_CM_NUMBPATH |
						      IBSTRUCT_SA_PATH_RECORD_CM_REVERSIBLE);
	ck_assert_uint_eq(be64(sent[2] + 56 + 8 + 8), 0x1234);  /* DGID interface ID */
	ck_assert_uint_eq(be64(sent[2] + 56 + 24 + 8), 0x2002); /* SGID interface ID */
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_DLID), 12);
	ck_assert(!ibpath_path_has_grh(r));
	ibpath_path_unref(r);
	ibpath_path_unref(t);

	/* hop limit > 1: a GRH from the record */
	ck_assert_int_eq(ibpath_parse("fe80::99", IBPATH_PARSE_GID, &t, text, sizeof(text)), 0);
	path_answer.hopLimit = 4;
	ibstruct_gid_make(&path_answer.DGID, 0xfe80000000000000ull, 0x99);
	ibstruct_gid_make(&path_answer.SGID, 0xfe80000000000000ull, 0x2002);
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), 0);
	ck_assert(ibpath_path_has_grh(r));
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_HOP_LIMIT), 4);
	ibpath_path_dgid(r, &g);
	ck_assert_uint_eq(ibstruct_gid_guid(&g), 0x99);
	ibpath_path_unref(r);
	ibpath_path_unref(t);

	/* another subnet's GID: a GRH although the hop limit says nothing */
	ck_assert_int_eq(ibpath_parse("fec0::1:5", IBPATH_PARSE_GID, &t, text, sizeof(text)), 0);
	path_answer.hopLimit = 0;
	memset(&path_answer.DGID, 0, sizeof(path_answer.DGID));
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), 0);
	ck_assert(ibpath_path_has_grh(r));
	ibpath_path_dgid(r, &g);
	ck_assert_uint_eq(ibstruct_gid_prefix(&g), 0xfec0000000000000ull);
	ck_assert_uint_eq(ibpath_path_get(r, IBPATH_HOP_LIMIT), 255);
	ibpath_path_unref(r);

	/* an SA error */
	force_status = 0x0300;
	ibsa_path_cache_flush(sa);
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), -EREMOTEIO);
	ck_assert_str_eq(ibmadrpc_error_message(err, 0), "Failed getting the path record for GID fec0::1:5");
	ibmadrpc_error_free(err);
	ibpath_path_unref(t);

	/* DR paths have no path record */
	t = dr_path("0,1");
	ck_assert_int_eq(ibsa_resolve_path(sa, t, &r, &err), -EINVAL);
	ibmadrpc_error_free(err);
	ibpath_path_unref(t);
}
END_TEST

/* ---- the scheduled interfaces --------------------------------------------------------------------- */

struct got {
	unsigned calls, errors;
	uint8_t data[8][64];
	struct ibsa_result *res;
	uint16_t status;
};

static int subn_cb(struct ibsa *s, const uint8_t *data, const struct ibmadrpc_error *err, void *user)
{
	struct got *g = user;

	(void)s;
	if (data)
		memcpy(g->data[g->calls], data, 64);
	else
		g->errors++;
	if (err)
		g->status = ibmadrpc_error_status(err);
	g->calls++;
	return IBSCHED_HANDLED;
}

static int query_cb(struct ibsa *s, struct ibsa_result *res, const struct ibmadrpc_error *err, void *user)
{
	struct got *g = user;

	(void)s;
	g->calls++;
	g->res = res;
	if (err)
		g->errors++;
	return IBSCHED_HANDLED;
}

START_TEST(test_scheduled)
{
	struct ibsched *sched;
	struct ibpath_path *p = dr_path("0,1,3"), *l = lid_path(4);
	struct ibmadrpc_error *err;
	struct got g;
	uint8_t sync_dr[64], sync_lid[64];

	ck_assert_int_eq(ibsa_subn_get(sa, p, 0x11, 0, sync_dr, &err), 0);
	ck_assert_int_eq(ibsa_subn_get(sa, l, 0x15, 0, sync_lid, &err), 0);
	ibsa_path_cache_flush(sa);
	ck_assert_int_eq(ibsa_subn_get_submit(sa, NULL, p, 0x11, 0, subn_cb, &g), -ENOTCONN);
	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ibsa_set_sched(sa, sched);
	memset(&g, 0, sizeof(g));
	nsent = 0;
	ck_assert_int_eq(ibsa_subn_get_submit(sa, NULL, p, 0x11, 0, subn_cb, &g), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_uint_eq(g.calls, 1);
	ck_assert_uint_eq(nsent, 3); /* NodeInfo, PortInfo, NodeRecord */
	ck_assert(!memcmp(g.data[0], sync_dr, 64));
	ck_assert_int_eq(ibsa_subn_get_submit(sa, NULL, l, 0x15, 0, subn_cb, &g), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_uint_eq(g.calls, 2);
	ck_assert(!memcmp(g.data[1], sync_lid, 64));
	/* an error reaches the callback */
	force_status = 0x0300;
	ck_assert_int_eq(ibsa_subn_get_submit(sa, NULL, l, 0x12, 0, subn_cb, &g), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_uint_eq(g.errors, 1);
	ck_assert_uint_eq(g.status, 0x0300); /* the MAD status comes along with the error */
	force_status = 0;
	/* a query */
	memset(&g, 0, sizeof(g));
	table_count = 4;
	ck_assert_int_eq(ibsa_query_submit(sa, NULL, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_link_record_desc(), NULL,
					   0, query_cb, &g), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_uint_eq(g.calls, 1);
	ck_assert_ptr_nonnull(g.res);
	ck_assert_uint_eq(g.res->count, 4);
	ibsa_result_free(g.res);
	ibsa_set_sched(sa, NULL);
	ibsched_free(sched);
	ibpath_path_unref(p);
	ibpath_path_unref(l);
}
END_TEST

/* Queries whose work is cancelled with their group never call back: the client frees them
 * (the sanitizer build's leak check sees it; here: nothing runs, nothing crashes). */
START_TEST(test_scheduled_cancel)
{
	struct ibsched *sched;
	struct ibsched_group *group;
	struct ibpath_path *l = lid_path(4);
	struct got g;

	ck_assert_int_eq(ibsched_new(&sched, port), 0);
	ibsa_set_sched(sa, sched);
	memset(&g, 0, sizeof(g));
	ck_assert_int_eq(ibsched_group_new(sched, NULL, IBSCHED_COLLECT, NULL, NULL, &group), 0);
	ck_assert_int_eq(ibsa_query_submit(sa, group, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_link_record_desc(),
					   NULL, 0, query_cb, &g), 0);
	ck_assert_int_eq(ibsa_subn_get_submit(sa, group, l, 0x15, 0, subn_cb, &g), 0);
	ck_assert_ptr_nonnull(sa->sched_ops);
	ck_assert_int_eq(ibsched_group_cancel(sched, group), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_uint_eq(g.calls, 0);
	/* the two operations are still the client's, ibsa_free() (teardown) frees them */
	ck_assert_ptr_nonnull(sa->sched_ops);
	ck_assert_ptr_nonnull(sa->sched_ops->sched_next);
	ck_assert_ptr_null(sa->sched_ops->sched_next->sched_next);
	/* a query that completes leaves the list */
	ck_assert_int_eq(ibsa_query_submit(sa, NULL, IBSTRUCT_METHOD_GET_TABLE, ibstruct_sa_link_record_desc(), NULL,
					   0, query_cb, &g), 0);
	ck_assert_int_eq(ibsched_run(sched), 0);
	ck_assert_uint_eq(g.calls, 1);
	ibsa_result_free(g.res);
	ck_assert_ptr_null(sa->sched_ops->sched_next->sched_next);
	ibsa_set_sched(sa, NULL);
	ibsched_free(sched);
	ibpath_path_unref(l);
}
END_TEST

static Suite *ibsa_suite(void)
{
	Suite *s = suite_create("ibsa");
	TCase *q = tcase_create("query"), *t = tcase_create("transactor"), *r = tcase_create("pathrecord"),
	      *sc = tcase_create("scheduled");

	tcase_add_checked_fixture(q, setup, teardown);
	tcase_add_test(q, test_request);
	tcase_add_test(q, test_table);
	tcase_add_test(q, test_query_text);
	tcase_add_test(q, test_errors);
	tcase_add_test(q, test_every_record);
	suite_add_tcase(s, q);
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_transactor_map);
	tcase_add_test(t, test_transactor_node_type);
	tcase_add_test(t, test_transactor_mft_empty);
	tcase_add_test(t, test_dr_resolution);
	suite_add_tcase(s, t);
	tcase_add_checked_fixture(r, setup, teardown);
	tcase_add_test(r, test_resolve_path);
	suite_add_tcase(s, r);
	tcase_add_checked_fixture(sc, setup, teardown);
	tcase_add_test(sc, test_scheduled);
	tcase_add_test(sc, test_scheduled_cancel);
	suite_add_tcase(s, sc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ibsa_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
