/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibsa: SubnGet answered by the SA.  An SMP attribute of the node a path leads to is
 * fetched as the SA record that contains it (one SubnAdmGet with the record's key fields
 * in the component mask, so the answer fits one MAD) and returned as the 64 bytes of SMP
 * data.  DR paths are first resolved to the LID of the port they end at (NodeInfo, then
 * PortInfo over the DR path), GID targets through a PathRecord; the node type of a LID,
 * needed where CAs and switches key their records differently, comes from a NodeRecord.
 * All of these are cached (ibsa_path_cache_flush() forgets them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsa-private.h"

/* from pathrec.c */
int ibsa_pr_lookup(struct ibsa *sa, const struct ibpath_path *target, struct ibstruct_sa_path_record *rec);
int ibsa_pr_build(struct sa_op *op, const struct ibpath_path *target, struct ibmadrpc_error **err);
int ibsa_pr_answer(struct ibsa *sa, const struct ibpath_path *target, const struct ibmadrpc_reply *rep,
		   struct ibstruct_sa_path_record *rec, struct ibmadrpc_error **err);

#define NODE_TYPE_CA 1
#define NODE_TYPE_SWITCH 2

/* ---- the attribute -> record table ------------------------------------------------------ */

struct subn_map {
	uint16_t attr_id;
	const char *name;
	const struct ibstruct_desc *(*rec)(void);
	const char *field; /* the embedded attribute in the record */
};

static const struct subn_map maps[] = {
	{ IBSTRUCT_SMP_NODE_DESCRIPTION_ATTR_ID, "NodeDescription", ibstruct_sa_node_record_desc, "nodeDescription" },
	{ IBSTRUCT_SMP_NODE_INFO_ATTR_ID, "NodeInfo", ibstruct_sa_node_record_desc, "nodeInfo" },
	{ IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, "SwitchInfo", ibstruct_sa_switch_info_record_desc, "switchInfo" },
	{ IBSTRUCT_SMP_GUID_INFO_ATTR_ID, "GUIDInfo", ibstruct_sa_guid_info_record_desc, "GUIDInfo" },
	{ IBSTRUCT_SMP_PORT_INFO_ATTR_ID, "PortInfo", ibstruct_sa_port_info_record_desc, "portInfo" },
	{ IBSTRUCT_SMP_PKEY_TABLE_ATTR_ID, "P_KeyTable", ibstruct_sa_pkey_table_record_desc, "PKeyTable" },
	{ IBSTRUCT_SMP_SL2VL_MAPPING_TABLE_ATTR_ID, "SLtoVLMappingTable", ibstruct_sa_sl2vl_mapping_table_record_desc,
	  "SLToVLMappingTable" },
	{ IBSTRUCT_SMP_VLARB_TABLE_ATTR_ID, "VLArbitrationTable", ibstruct_sa_vlarb_table_record_desc,
	  "VLArbitrationTable" },
	{ IBSTRUCT_SMP_LINEAR_FORWARDING_TABLE_ATTR_ID, "LinearForwardingTable",
	  ibstruct_sa_linear_forwarding_table_record_desc, "linearForwardingTable" },
	{ IBSTRUCT_SMP_MULTICAST_FORWARDING_TABLE_ATTR_ID, "MulticastForwardingTable",
	  ibstruct_sa_multicast_forwarding_table_record_desc, "multicastForwardingTable" },
	{ IBSTRUCT_SMP_SM_INFO_ATTR_ID, "SMInfo", ibstruct_sa_sm_info_record_desc, "SMInfo" },
};

static const struct subn_map *map_find(uint16_t attr_id)
{
	size_t i;

	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (maps[i].attr_id == attr_id)
			return &maps[i];
	return NULL;
}

/* Attributes whose record key depends on the node type: a CA's record names the port that
 * owns the LID, a switch's the port in the attribute modifier. */
static bool needs_node_type(uint16_t attr_id, uint32_t attr_mod)
{
	switch (attr_id) {
	case IBSTRUCT_SMP_PORT_INFO_ATTR_ID:
		return (attr_mod & 0xff) == 0;
	case IBSTRUCT_SMP_PKEY_TABLE_ATTR_ID:
	case IBSTRUCT_SMP_SL2VL_MAPPING_TABLE_ATTR_ID:
	case IBSTRUCT_SMP_VLARB_TABLE_ATTR_ID:
		return true;
	default:
		return false;
	}
}

/* ---- caches ------------------------------------------------------------------------------ */

uint16_t ibsa_lid_info_get(const struct ibsa *sa, uint16_t lid)
{
	return sa->lid_info && lid && lid <= LID_UNICAST_MAX ? sa->lid_info[lid] : 0;
}

void ibsa_lid_info_set(struct ibsa *sa, uint16_t lid, uint8_t node_type, uint8_t local_port)
{
	if (!lid || lid > LID_UNICAST_MAX || !node_type || node_type > 3)
		return;
	if (!sa->lid_info) {
		sa->lid_info = calloc(LID_UNICAST_MAX + 1, sizeof(*sa->lid_info));
		if (!sa->lid_info)
			return; /* only a cache */
	}
	sa->lid_info[lid] = (uint16_t)(0x8000 | node_type << 8 | local_port);
}

static unsigned dr_hash(uint16_t dr_slid, const uint8_t *ports, unsigned n)
{
	uint32_t h = 2166136261u ^ dr_slid;
	unsigned i;

	for (i = 1; i < n; i++) /* element 0 is not part of the route */
		h = (h ^ ports[i]) * 16777619u;
	h = (h ^ n) * 16777619u;
	return h % CACHE_BUCKETS;
}

static struct dr_entry *dr_lookup(struct ibsa *sa, const struct ibpath_path *path)
{
	uint16_t dr_slid = (uint16_t)ibpath_path_get(path, IBPATH_DR_SLID);
	const uint8_t *ports;
	unsigned n = ibpath_path_dr_ports(path, &ports);
	struct dr_entry *e;

	for (e = sa->dr_cache[dr_hash(dr_slid, ports, n)]; e; e = e->next)
		if (e->dr_slid == dr_slid && e->nports == n && !memcmp(e->ports + 1, ports + 1, n ? n - 1 : 0))
			return e;
	return NULL;
}

static void dr_store(struct ibsa *sa, const struct ibpath_path *path, const struct node_at *at)
{
	uint16_t dr_slid = (uint16_t)ibpath_path_get(path, IBPATH_DR_SLID);
	const uint8_t *ports;
	unsigned n = ibpath_path_dr_ports(path, &ports), b;
	struct dr_entry *e = dr_lookup(sa, path);

	if (e) {
		e->at = *at;
		return;
	}
	if (n > IBPATH_MAX_HOPS + 1)
		return;
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->dr_slid = dr_slid;
	e->nports = (uint8_t)n;
	memcpy(e->ports, ports, n);
	e->ports[0] = 0; /* element 0 is not part of the route */
	e->at = *at;
	b = dr_hash(dr_slid, ports, n);
	e->next = sa->dr_cache[b];
	sa->dr_cache[b] = e;
}

void ibsa_subn_cache_flush(struct ibsa *sa)
{
	unsigned b;

	for (b = 0; b < CACHE_BUCKETS; b++) {
		while (sa->dr_cache[b]) {
			struct dr_entry *e = sa->dr_cache[b];

			sa->dr_cache[b] = e->next;
			free(e);
		}
	}
	if (sa->lid_info)
		memset(sa->lid_info, 0, (LID_UNICAST_MAX + 1) * sizeof(*sa->lid_info));
}

/* ---- the operation -------------------------------------------------------------------------- */

enum subn_state {
	ST_PATHREC = 0,  /* PathRecord for a GID target */
	ST_DR_NODEINFO,  /* SMP NodeInfo over the DR path */
	ST_DR_PORTINFO,  /* SMP PortInfo over the DR path: the LID */
	ST_NODE_TYPE,    /* NodeRecord of the LID: node type and port */
	ST_RECORD,       /* the record holding the attribute */
};

struct subn_op {
	struct sa_op op;
	const struct subn_map *map;
	uint32_t attr_mod;
	struct ibpath_path *target;
	enum subn_state state;
	uint16_t lid;
	uint8_t node_type;  /* 0 until known */
	uint8_t local_port;
	bool mft_check;     /* no MFT record: empty if the LID is a switch's */
	bool from_dr;       /* the DR NodeInfo says which port the request enters */
	uint8_t dr_local_port;
	uint8_t data[IBSA_SMP_DATA_SIZE];
	ibsa_subn_fn fn;
	void *user;
	char what[200];     /* "PortInfo (modifier 0x3) of LID 4" */
};

static void describe_target(const struct ibpath_path *path, char *buf, size_t len)
{
	if (ibpath_path_kind(path) == IBPATH_KIND_DR) {
		const uint8_t *ports;
		unsigned n = ibpath_path_dr_ports(path, &ports), i;
		size_t off;

		off = (size_t)snprintf(buf, len, "DR path 0");
		for (i = 1; i < n && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, ",%u", ports[i]);
	} else if (ibpath_path_get(path, IBPATH_DLID)) {
		snprintf(buf, len, "LID %u", (unsigned)ibpath_path_get(path, IBPATH_DLID));
	} else {
		ibstruct_gid_t gid;
		char g[64];

		ibpath_path_dgid(path, &gid);
		ibstruct_gid_format(g, sizeof(g), &gid);
		snprintf(buf, len, "GID %s", g);
	}
}

/* An SMP Get of NodeInfo or PortInfo over the DR path. */
static void build_smp(struct subn_op *s, uint16_t attr_id, uint32_t attr_mod)
{
	memset(&s->op.req, 0, sizeof(s->op.req));
	ibsa_op_set_path(&s->op, s->target);
	s->op.req.mgmt_class = IBSTRUCT_CLASS_SMP;
	s->op.req.method = IBSTRUCT_METHOD_GET;
	s->op.req.attr_id = attr_id;
	s->op.req.attr_mod = attr_mod;
}

static int build_node_record(struct subn_op *s, struct ibmadrpc_error **err)
{
	struct ibstruct_sa_node_record nr;

	memset(&nr, 0, sizeof(nr));
	nr.LID = s->lid;
	return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, ibstruct_sa_node_record_desc(), &nr,
				  IBSTRUCT_SA_NODE_RECORD_CM_LID, err);
}

/* The record's key fields from the LID, the attribute modifier and the node type. */
static int build_record(struct subn_op *s, struct ibmadrpc_error **err)
{
	uint32_t mod = s->attr_mod;
	bool sw = s->node_type == NODE_TYPE_SWITCH;
	const struct ibstruct_desc *d = s->map->rec();

	switch (s->map->attr_id) {
	case IBSTRUCT_SMP_NODE_DESCRIPTION_ATTR_ID:
	case IBSTRUCT_SMP_NODE_INFO_ATTR_ID:
		return build_node_record(s, err);
	case IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID: {
		struct ibstruct_sa_switch_info_record r = { .LID = s->lid };

		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r, IBSTRUCT_SA_SWITCH_INFO_RECORD_CM_LID, err);
	}
	case IBSTRUCT_SMP_GUID_INFO_ATTR_ID: {
		struct ibstruct_sa_guid_info_record r = { .LID = s->lid, .blockNum = (uint8_t)mod };

		if (mod > 0xff)
			return ibsa_err(err, EINVAL, "GUIDInfo block %u is out of range", mod);
		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r,
					  IBSTRUCT_SA_GUID_INFO_RECORD_CM_LID | IBSTRUCT_SA_GUID_INFO_RECORD_CM_BLOCKNUM,
					  err);
	}
	case IBSTRUCT_SMP_PORT_INFO_ATTR_ID: {
		struct ibstruct_sa_port_info_record r = { .endportLID = s->lid, .portNum = (uint8_t)(mod & 0xff) };

		if (!r.portNum && !sw)
			r.portNum = s->local_port; /* a CA answers for the port the SMP entered */
		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r,
					  IBSTRUCT_SA_PORT_INFO_RECORD_CM_ENDPORTLID |
						  IBSTRUCT_SA_PORT_INFO_RECORD_CM_PORTNUM,
					  err);
	}
	case IBSTRUCT_SMP_PKEY_TABLE_ATTR_ID: {
		struct ibstruct_sa_pkey_table_record r = { .LID = s->lid, .blockNum = (uint16_t)(mod & 0xffff) };

		r.portNum = sw ? (uint8_t)(mod >> 16) : s->local_port;
		if (sw && mod >> 16 > 0xff)
			return ibsa_err(err, EINVAL, "P_KeyTable port %u is out of range", mod >> 16);
		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r,
					  IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_LID | IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_BLOCKNUM |
						  IBSTRUCT_SA_PKEY_TABLE_RECORD_CM_PORTNUM,
					  err);
	}
	case IBSTRUCT_SMP_SL2VL_MAPPING_TABLE_ATTR_ID: {
		struct ibstruct_sa_sl2vl_mapping_table_record r = { .LID = s->lid };
		uint64_t mask = IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_LID |
				IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_OUTPUTPORTNUM;

		if (sw) {
			/* IBA 14.2.5.8: bits 15-8 the input port, bits 7-0 the output port */
			r.inputPortNum = (uint8_t)(mod >> 8);
			r.outputPortNum = (uint8_t)mod;
			mask |= IBSTRUCT_SA_SL2VL_MAPPING_TABLE_RECORD_CM_INPUTPORTNUM;
		} else {
			r.outputPortNum = s->local_port;
		}
		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r, mask, err);
	}
	case IBSTRUCT_SMP_VLARB_TABLE_ATTR_ID: {
		struct ibstruct_sa_vlarb_table_record r = { .LID = s->lid, .blockNum = (uint8_t)(mod >> 16) };

		if (mod >> 16 > 0xff)
			return ibsa_err(err, EINVAL, "VLArbitrationTable block %u is out of range", mod >> 16);
		r.outputPortNum = sw ? (uint8_t)(mod & 0xff) : s->local_port;
		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r,
					  IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_LID | IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_OUTPUTPORTNUM |
						  IBSTRUCT_SA_VLARB_TABLE_RECORD_CM_BLOCKNUM,
					  err);
	}
	case IBSTRUCT_SMP_LINEAR_FORWARDING_TABLE_ATTR_ID: {
		struct ibstruct_sa_linear_forwarding_table_record r = { .LID = s->lid, .blockNum = (uint16_t)mod };

		if (mod > 0xffff)
			return ibsa_err(err, EINVAL, "LinearForwardingTable block %u is out of range", mod);
		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r,
					  IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_CM_LID |
						  IBSTRUCT_SA_LINEAR_FORWARDING_TABLE_RECORD_CM_BLOCKNUM,
					  err);
	}
	case IBSTRUCT_SMP_MULTICAST_FORWARDING_TABLE_ATTR_ID: {
		/* IBA 14.2.5.12: bits 31-28 the position (16 ports each), bits 8-0 the block */
		struct ibstruct_sa_multicast_forwarding_table_record r = {
			.LID = s->lid, .position = (uint8_t)(mod >> 28), .blockNum = (uint16_t)(mod & 0x1ff)
		};

		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r,
					  IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_CM_LID |
						  IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_CM_POSITION |
						  IBSTRUCT_SA_MULTICAST_FORWARDING_TABLE_RECORD_CM_BLOCKNUM,
					  err);
	}
	case IBSTRUCT_SMP_SM_INFO_ATTR_ID: {
		struct ibstruct_sa_sm_info_record r = { .LID = s->lid };

		return ibsa_build_request(&s->op, IBSTRUCT_METHOD_GET, d, &r, IBSTRUCT_SA_SM_INFO_RECORD_CM_LID, err);
	}
	default:
		return ibsa_err(err, EOPNOTSUPP, "no SA record holds attribute 0x%04x", s->map->attr_id);
	}
}

/* The next request once the LID is known, or the first one on the way to it. */
static int advance(struct subn_op *s, struct ibmadrpc_error **err)
{
	int rc;

	if (!s->lid) {
		if (ibpath_path_kind(s->target) == IBPATH_KIND_DR) {
			struct dr_entry *e = dr_lookup(s->op.sa, s->target);

			if (!e) {
				s->state = ST_DR_NODEINFO;
				build_smp(s, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0);
				return OP_NEXT;
			}
			s->lid = e->at.lid;
			s->node_type = e->at.node_type;
			s->local_port = e->at.node_type == NODE_TYPE_SWITCH ? 0 : e->at.local_port;
			s->from_dr = true;
			s->dr_local_port = e->at.local_port;
		} else {
			struct ibstruct_sa_path_record pr;

			if (ibsa_pr_lookup(s->op.sa, s->target, &pr)) {
				s->state = ST_PATHREC;
				rc = ibsa_pr_build(&s->op, s->target, err);
				return rc ? rc : OP_NEXT;
			}
			s->lid = pr.DLID;
		}
	}
	if (!s->node_type && needs_node_type(s->map->attr_id, s->attr_mod)) {
		uint16_t info = ibsa_lid_info_get(s->op.sa, s->lid);

		if (!info) {
			s->state = ST_NODE_TYPE;
			rc = build_node_record(s, err);
			return rc ? rc : OP_NEXT;
		}
		s->node_type = (uint8_t)(info >> 8 & 0x3);
		s->local_port = (uint8_t)info;
	}
	s->state = ST_RECORD;
	rc = build_record(s, err);
	return rc ? rc : OP_NEXT;
}

static int fail(struct subn_op *s, int errnum, struct ibmadrpc_error **err)
{
	return ibsa_err_push(err, errnum, "Failed getting %s from the SA", s->what);
}

static int take_record(struct subn_op *s, const struct ibmadrpc_reply *rep, struct ibmadrpc_error **err)
{
	const struct ibstruct_desc *d = s->map->rec();
	struct ibstruct_field_ref ref;
	struct ibsa_result *res;
	size_t off, len;
	int rc;

	rc = ibsa_parse_answer(d, IBSTRUCT_METHOD_GET, rep, &res, err);
	if (rc)
		return fail(s, -rc, err);
	rc = ibstruct_field_lookup(d, s->map->field, &ref);
	if (rc || ref.bit_offset % 8) {
		ibsa_result_free(res);
		return fail(s, EPROTO, err); /* a broken table entry: not reached */
	}
	off = ref.bit_offset / 8;
	len = ibstruct_desc_size(ibstruct_field_struct(&ref));
	if (len > IBSA_SMP_DATA_SIZE)
		len = IBSA_SMP_DATA_SIZE;
	memset(s->data, 0, sizeof(s->data));
	memcpy(s->data, res->wire + off, len);
	if (d == ibstruct_sa_node_record_desc()) {
		const struct ibstruct_sa_node_record *nr = res->records;

		ibsa_lid_info_set(s->op.sa, s->lid, nr->nodeInfo.nodeType, nr->nodeInfo.localPortNum);
		if (s->map->attr_id == IBSTRUCT_SMP_NODE_INFO_ATTR_ID && s->from_dr &&
		    nr->nodeInfo.nodeType == NODE_TYPE_SWITCH) {
			/* the SA knows a switch by port 0; a DR SMP enters by an external port,
			 * which the resolution's NodeInfo told us */
			struct ibstruct_smp_node_info ni = nr->nodeInfo;

			ni.localPortNum = s->dr_local_port;
			ibstruct_smp_node_info_pack(&ni, s->data, sizeof(s->data));
		}
	} else if (d == ibstruct_sa_port_info_record_desc() && s->from_dr && s->node_type == NODE_TYPE_SWITCH) {
		/* PortInfo.LocalPortNum of a switch is the port the SMP entered, too */
		struct ibstruct_sa_port_info_record *pir = res->records;

		pir->portInfo.localPortNum = s->dr_local_port;
		ibstruct_smp_port_info_pack(&pir->portInfo, s->data, sizeof(s->data));
	}
	ibsa_result_free(res);
	return OP_DONE;
}

/* No MulticastForwardingTableRecord: a switch's block that no group uses is empty. */
static int mft_empty(struct subn_op *s, struct ibmadrpc_error **err)
{
	if (s->node_type != NODE_TYPE_SWITCH) {
		ibsa_err(err, EPROTO, "LID %u is not a switch's: it has no multicast forwarding table", s->lid);
		return fail(s, EPROTO, err);
	}
	ibmadrpc_error_free(*err);
	*err = NULL;
	memset(s->data, 0, sizeof(s->data));
	return OP_DONE;
}

static int subn_step(struct sa_op *op, const struct ibmadrpc_reply *rep, int mad_rc, struct ibmadrpc_error **err)
{
	struct subn_op *s = (struct subn_op *)op;
	char t[160];

	switch (s->state) {
	case ST_PATHREC: {
		struct ibstruct_sa_path_record pr;
		int rc;

		if (mad_rc)
			return fail(s, -mad_rc, err);
		rc = ibsa_pr_answer(op->sa, s->target, rep, &pr, err);
		if (rc)
			return fail(s, -rc, err);
		s->lid = pr.DLID;
		break;
	}
	case ST_DR_NODEINFO: {
		struct ibstruct_smp_node_info ni;

		describe_target(s->target, t, sizeof(t));
		if (mad_rc) {
			ibsa_err_push(err, -mad_rc, "Failed resolving %s to a LID", t);
			return fail(s, -mad_rc, err);
		}
		if (rep->len < rep->data_offset ||
		    ibstruct_smp_node_info_unpack(&ni, rep->mad + rep->data_offset, rep->len - rep->data_offset)) {
			ibsa_err(err, EPROTO, "the NodeInfo answer from %s is too short", t);
			return fail(s, EPROTO, err);
		}
		s->node_type = ni.nodeType;
		s->dr_local_port = ni.localPortNum;
		s->local_port = ni.nodeType == NODE_TYPE_SWITCH ? 0 : ni.localPortNum;
		s->from_dr = true;
		s->state = ST_DR_PORTINFO;
		build_smp(s, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, s->local_port);
		return OP_NEXT;
	}
	case ST_DR_PORTINFO: {
		struct ibstruct_smp_port_info pi;
		struct node_at at;

		describe_target(s->target, t, sizeof(t));
		if (mad_rc) {
			ibsa_err_push(err, -mad_rc, "Failed resolving %s to a LID", t);
			return fail(s, -mad_rc, err);
		}
		if (rep->len < rep->data_offset ||
		    ibstruct_smp_port_info_unpack(&pi, rep->mad + rep->data_offset, rep->len - rep->data_offset)) {
			ibsa_err(err, EPROTO, "the PortInfo answer from %s is too short", t);
			return fail(s, EPROTO, err);
		}
		if (!pi.LID || pi.LID > LID_UNICAST_MAX) {
			ibsa_err(err, EADDRNOTAVAIL, "port %u at %s has no LID (0x%x): the SA cannot name it",
				 s->local_port, t, pi.LID);
			return fail(s, EADDRNOTAVAIL, err);
		}
		s->lid = pi.LID;
		at.lid = pi.LID;
		at.node_type = s->node_type;
		at.local_port = s->dr_local_port;
		dr_store(op->sa, s->target, &at);
		ibsa_lid_info_set(op->sa, pi.LID, s->node_type, s->local_port);
		break;
	}
	case ST_NODE_TYPE: {
		const struct ibstruct_sa_node_record *nr;
		struct ibsa_result *res;
		int rc;

		if (mad_rc)
			return fail(s, -mad_rc, err);
		rc = ibsa_parse_answer(ibstruct_sa_node_record_desc(), IBSTRUCT_METHOD_GET, rep, &res, err);
		if (rc)
			return fail(s, -rc, err);
		nr = res->records;
		s->node_type = nr->nodeInfo.nodeType;
		s->local_port = nr->nodeInfo.localPortNum;
		ibsa_lid_info_set(op->sa, s->lid, s->node_type, s->local_port);
		ibsa_result_free(res);
		if (!s->node_type)
			s->node_type = NODE_TYPE_CA; /* keep going: nothing to learn again */
		if (s->mft_check)
			return mft_empty(s, err);
		break;
	}
	case ST_RECORD:
		if (mad_rc == -EREMOTEIO && op->mad_status == SA_STATUS_NO_RECORDS &&
		    s->map->attr_id == IBSTRUCT_SMP_MULTICAST_FORWARDING_TABLE_ATTR_ID) {
			/* the SM keeps MFT records only for blocks that multicast groups use */
			uint16_t info = ibsa_lid_info_get(op->sa, s->lid);

			s->mft_check = true;
			if (!s->node_type && info)
				s->node_type = (uint8_t)(info >> 8 & 0x3);
			if (s->node_type)
				return mft_empty(s, err);
			ibmadrpc_error_free(*err);
			*err = NULL;
			s->state = ST_NODE_TYPE;
			{
				int rc = build_node_record(s, err);

				return rc ? fail(s, -rc, err) : OP_NEXT;
			}
		}
		if (mad_rc)
			return fail(s, -mad_rc, err);
		return take_record(s, rep, err);
	}
	{
		int rc = advance(s, err);

		return rc < 0 ? fail(s, -rc, err) : rc;
	}
}

static int subn_finish(struct sa_op *op, int rc, const struct ibmadrpc_error *err)
{
	struct subn_op *s = (struct subn_op *)op;

	return s->fn(op->sa, rc ? NULL : s->data, err, s->user);
}

static void subn_destroy(struct sa_op *op)
{
	struct subn_op *s = (struct subn_op *)op;

	ibpath_path_unref(s->target);
	free(s);
}

/* A new operation and its first request. */
static int subn_start(struct ibsa *sa, const struct ibpath_path *path, uint16_t attr_id, uint32_t attr_mod,
		      struct subn_op **out, struct ibmadrpc_error **err)
{
	const struct subn_map *map = map_find(attr_id);
	struct subn_op *s;
	char t[160];
	int rc;

	if (!path)
		return ibsa_err(err, EINVAL, "no target path");
	if (!map) {
		const char *name = ibstruct_attr_name(IBSTRUCT_CLASS_SMP, attr_id);

		return ibsa_err(err, EOPNOTSUPP, "the SA has no record for SMP attribute %s (0x%04x)",
				name ? name : "unknown", attr_id);
	}
	if (ibpath_path_kind(path) == IBPATH_KIND_IB && !ibpath_path_get(path, IBPATH_DLID) &&
	    !ibpath_path_needs_resolution(path))
		return ibsa_err(err, EINVAL, "the target path names neither a LID nor a GID");
	s = calloc(1, sizeof(*s));
	if (!s)
		return ibsa_err(err, ENOMEM, "out of memory");
	s->op.sa = sa;
	s->op.step = subn_step;
	s->op.finish = subn_finish;
	s->op.destroy = subn_destroy;
	s->map = map;
	s->attr_mod = attr_mod;
	s->target = ibpath_path_ref((struct ibpath_path *)path);
	if (ibpath_path_kind(path) == IBPATH_KIND_IB)
		s->lid = (uint16_t)ibpath_path_get(path, IBPATH_DLID);
	describe_target(path, t, sizeof(t));
	if (attr_mod)
		snprintf(s->what, sizeof(s->what), "%s (modifier 0x%x) of %s", map->name, attr_mod, t);
	else
		snprintf(s->what, sizeof(s->what), "%s of %s", map->name, t);
	rc = advance(s, err);
	if (rc < 0) {
		fail(s, -rc, err);
		ibsa_op_free(&s->op);
		return rc;
	}
	*out = s;
	return 0;
}

IBSA_EXPORT int ibsa_subn_get(struct ibsa *sa, const struct ibpath_path *path, uint16_t attr_id, uint32_t attr_mod,
			      uint8_t data[IBSA_SMP_DATA_SIZE], struct ibmadrpc_error **err)
{
	struct subn_op *s;
	int rc;

	if (err)
		*err = NULL;
	if (!sa || !data)
		return ibsa_err(err, EINVAL, "ibsa_subn_get: missing handle or buffer");
	rc = subn_start(sa, path, attr_id, attr_mod, &s, err);
	if (rc)
		return rc;
	rc = ibsa_op_run(&s->op, err);
	if (!rc)
		memcpy(data, s->data, IBSA_SMP_DATA_SIZE);
	ibsa_op_free(&s->op);
	return rc;
}

IBSA_EXPORT int ibsa_subn_get_submit(struct ibsa *sa, struct ibsched_group *group, const struct ibpath_path *path,
				     uint16_t attr_id, uint32_t attr_mod, ibsa_subn_fn fn, void *user)
{
	struct subn_op *s;
	int rc;

	if (!sa || !fn)
		return -EINVAL;
	if (!sa->sched)
		return -ENOTCONN;
	rc = subn_start(sa, path, attr_id, attr_mod, &s, NULL);
	if (rc)
		return rc;
	s->fn = fn;
	s->user = user;
	rc = ibsa_op_submit(&s->op, group);
	if (rc)
		ibsa_op_free(&s->op);
	return rc;
}
