/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibsa: PathRecord resolution.  A target that names a LID or a GID (a port GUID parses
 * to a link-local GID) becomes a LID-routed path built from the SA's PathRecord from the
 * local port to it: DLID, SLID, SL, MTU, rate, packet life time, P_Key, and a GRH only
 * when the record asks for one (HopLimit > 1) or the target is in another subnet.  This is
 * what infiniband-diags does for -G (DLID and SL from the PathRecord), with the rest of
 * the record kept as well.  Records are cached per destination.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsa-private.h"

#define LINK_LOCAL_PREFIX UINT64_C(0xfe80000000000000)

int ibsa_pr_lookup(struct ibsa *sa, const struct ibpath_path *target, struct ibstruct_sa_path_record *rec);
int ibsa_pr_build(struct sa_op *op, const struct ibpath_path *target, struct ibmadrpc_error **err);
int ibsa_pr_answer(struct ibsa *sa, const struct ibpath_path *target, const struct ibmadrpc_reply *rep,
		   struct ibstruct_sa_path_record *rec, struct ibmadrpc_error **err);

static bool gid_is_zero(const ibstruct_gid_t *g)
{
	static const ibstruct_gid_t zero;

	return !memcmp(g->raw, zero.raw, sizeof(zero.raw));
}

/* The cache key of a target: its DLID, else its DGID. */
static void target_key(const struct ibpath_path *target, uint16_t *dlid, ibstruct_gid_t *dgid)
{
	*dlid = (uint16_t)ibpath_path_get(target, IBPATH_DLID);
	memset(dgid, 0, sizeof(*dgid));
	if (!*dlid)
		ibpath_path_dgid(target, dgid);
}

static unsigned pr_hash(uint16_t dlid, const ibstruct_gid_t *dgid)
{
	uint32_t h = 2166136261u ^ dlid;
	unsigned i;

	for (i = 0; i < sizeof(dgid->raw); i++)
		h = (h ^ dgid->raw[i]) * 16777619u;
	return h % CACHE_BUCKETS;
}

static struct pr_entry *pr_find(struct ibsa *sa, uint16_t dlid, const ibstruct_gid_t *dgid)
{
	struct pr_entry *e;

	for (e = sa->pr_cache[pr_hash(dlid, dgid)]; e; e = e->next)
		if (e->dlid == dlid && !memcmp(e->dgid.raw, dgid->raw, sizeof(dgid->raw)))
			return e;
	return NULL;
}

int ibsa_pr_lookup(struct ibsa *sa, const struct ibpath_path *target, struct ibstruct_sa_path_record *rec)
{
	ibstruct_gid_t dgid;
	struct pr_entry *e;
	uint16_t dlid;

	target_key(target, &dlid, &dgid);
	e = pr_find(sa, dlid, &dgid);
	if (!e)
		return -ENOENT;
	*rec = e->rec;
	return 0;
}

static void pr_store(struct ibsa *sa, const struct ibpath_path *target, const struct ibstruct_sa_path_record *rec)
{
	ibstruct_gid_t dgid;
	struct pr_entry *e;
	uint16_t dlid;
	unsigned b;

	target_key(target, &dlid, &dgid);
	e = pr_find(sa, dlid, &dgid);
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return; /* only a cache */
		e->dlid = dlid;
		e->dgid = dgid;
		b = pr_hash(dlid, &dgid);
		e->next = sa->pr_cache[b];
		sa->pr_cache[b] = e;
	}
	e->rec = *rec;
}

void ibsa_pr_cache_flush(struct ibsa *sa)
{
	unsigned b;

	for (b = 0; b < CACHE_BUCKETS; b++)
		while (sa->pr_cache[b]) {
			struct pr_entry *e = sa->pr_cache[b];

			sa->pr_cache[b] = e->next;
			free(e);
		}
}

static void describe(const struct ibpath_path *target, char *buf, size_t len)
{
	uint16_t dlid = (uint16_t)ibpath_path_get(target, IBPATH_DLID);
	ibstruct_gid_t g;
	char text[64];

	if (dlid) {
		snprintf(buf, len, "LID %u", dlid);
		return;
	}
	ibpath_path_dgid(target, &g);
	ibstruct_gid_format(text, sizeof(text), &g);
	snprintf(buf, len, "GID %s", text);
}

/* The PathRecord query: from the local port (SGID, else SLID) to the target (DLID, else
 * DGID), one reversible path. */
int ibsa_pr_build(struct sa_op *op, const struct ibpath_path *target, struct ibmadrpc_error **err)
{
	struct ibstruct_sa_path_record pr;
	ibstruct_gid_t local;
	uint64_t mask = IBSTRUCT_SA_PATH_RECORD_CM_NUMBPATH | IBSTRUCT_SA_PATH_RECORD_CM_REVERSIBLE;
	uint16_t dlid = (uint16_t)ibpath_path_get(target, IBPATH_DLID);
	uint16_t my_lid = ibmadrpc_port_lid(op->sa->port);

	memset(&pr, 0, sizeof(pr));
	pr.numbPath = 1;
	pr.reversible = 1;
	ibmadrpc_port_gid(op->sa->port, &local);
	if (dlid) {
		pr.DLID = dlid;
		mask |= IBSTRUCT_SA_PATH_RECORD_CM_DLID;
	} else {
		ibpath_path_dgid(target, &pr.DGID);
		if (gid_is_zero(&pr.DGID))
			return ibsa_err(err, EINVAL, "the target names neither a LID nor a GID");
		/* a port GUID parses to a link-local GID: use the subnet's prefix */
		if (ibstruct_gid_prefix(&pr.DGID) == LINK_LOCAL_PREFIX && ibstruct_gid_prefix(&local))
			ibstruct_gid_make(&pr.DGID, ibstruct_gid_prefix(&local), ibstruct_gid_guid(&pr.DGID));
		mask |= IBSTRUCT_SA_PATH_RECORD_CM_DGID;
	}
	if (dlid && my_lid) {
		pr.SLID = my_lid;
		mask |= IBSTRUCT_SA_PATH_RECORD_CM_SLID;
	} else if (ibstruct_gid_guid(&local)) {
		pr.SGID = local;
		mask |= IBSTRUCT_SA_PATH_RECORD_CM_SGID;
	} else if (my_lid) {
		pr.SLID = my_lid;
		mask |= IBSTRUCT_SA_PATH_RECORD_CM_SLID;
	} else {
		return ibsa_err(err, ENETUNREACH, "port %s has neither a LID nor a GID to query paths from",
				ibmadrpc_port_name(op->sa->port));
	}
	return ibsa_build_request(op, IBSTRUCT_METHOD_GET, ibstruct_sa_path_record_desc(), &pr, mask, err);
}

int ibsa_pr_answer(struct ibsa *sa, const struct ibpath_path *target, const struct ibmadrpc_reply *rep,
		   struct ibstruct_sa_path_record *rec, struct ibmadrpc_error **err)
{
	struct ibsa_result *res;
	char t[96];
	int rc;

	describe(target, t, sizeof(t));
	rc = ibsa_parse_answer(ibstruct_sa_path_record_desc(), IBSTRUCT_METHOD_GET, rep, &res, err);
	if (rc)
		return ibsa_err_push(err, -rc, "Failed getting the path record for %s", t);
	*rec = *(const struct ibstruct_sa_path_record *)res->records;
	ibsa_result_free(res);
	if (!rec->DLID || rec->DLID > LID_UNICAST_MAX)
		return ibsa_err(err, EPROTO, "the path record for %s has no unicast DLID (0x%x)", t, rec->DLID);
	pr_store(sa, target, rec);
	return 0;
}

/* A copy of the target routed by the record. */
static int path_from_record(struct ibsa *sa, const struct ibpath_path *target,
			    const struct ibstruct_sa_path_record *rec, struct ibpath_path **out,
			    struct ibmadrpc_error **err)
{
	struct ibpath_path *p;
	ibstruct_gid_t local, dgid;
	bool other_subnet = false;
	int rc;

	memset(&dgid, 0, sizeof(dgid));
	ibmadrpc_port_gid(sa->port, &local);
	if (!ibpath_path_get(target, IBPATH_DLID) && ibpath_path_has_grh(target)) {
		uint64_t prefix;

		ibpath_path_dgid(target, &dgid);
		prefix = ibstruct_gid_prefix(&dgid);
		other_subnet = prefix != LINK_LOCAL_PREFIX && prefix != ibstruct_gid_prefix(&local);
	}
	rc = ibpath_path_copy(target, &p);
	if (rc)
		return ibsa_err(err, -rc, "cannot copy the target path: %s", strerror(-rc));
	ibpath_path_clear_grh(p);
	if (ibpath_path_set(p, IBPATH_DLID, rec->DLID) || ibpath_path_set(p, IBPATH_SLID, rec->SLID) ||
	    ibpath_path_set(p, IBPATH_SL, rec->SL) || ibpath_path_set(p, IBPATH_PKEY, rec->PKey) ||
	    ibpath_path_set(p, IBPATH_MTU, rec->MTU) || ibpath_path_set(p, IBPATH_RATE, rec->rate) ||
	    ibpath_path_set(p, IBPATH_PACKET_LIFE_TIME, rec->packetLifeTime)) {
		ibpath_path_unref(p);
		return ibsa_err(err, ERANGE, "the path record has values a path cannot hold");
	}
	if (rec->hopLimit > 1 || other_subnet) {
		ibpath_path_set_sgid(p, &rec->SGID);
		ibpath_path_set_dgid(p, gid_is_zero(&rec->DGID) ? &dgid : &rec->DGID);
		ibpath_path_set(p, IBPATH_HOP_LIMIT, rec->hopLimit > 1 ? rec->hopLimit : 255);
		ibpath_path_set(p, IBPATH_TRAFFIC_CLASS, rec->TClass);
		ibpath_path_set(p, IBPATH_FLOW_LABEL, rec->flowLabel);
	}
	*out = p;
	return 0;
}

struct pr_op {
	struct sa_op op;
	const struct ibpath_path *target;
	struct ibstruct_sa_path_record rec;
};

static int pr_step(struct sa_op *op, const struct ibmadrpc_reply *rep, int mad_rc, struct ibmadrpc_error **err)
{
	struct pr_op *p = (struct pr_op *)op;

	if (mad_rc) {
		char t[96];

		describe(p->target, t, sizeof(t));
		return ibsa_err_push(err, -mad_rc, "Failed getting the path record for %s", t);
	}
	return ibsa_pr_answer(op->sa, p->target, rep, &p->rec, err);
}

IBSA_EXPORT int ibsa_resolve_path(struct ibsa *sa, const struct ibpath_path *target, struct ibpath_path **out,
				  struct ibmadrpc_error **err)
{
	struct pr_op *p;
	int rc;

	if (err)
		*err = NULL;
	if (!sa || !target || !out)
		return ibsa_err(err, EINVAL, "ibsa_resolve_path: missing argument");
	if (ibpath_path_kind(target) != IBPATH_KIND_IB)
		return ibsa_err(err, EINVAL, "a directed route has no path record");
	if (!ibpath_path_get(target, IBPATH_DLID) && !ibpath_path_has_grh(target))
		return ibsa_err(err, EINVAL, "the target names neither a LID nor a GID");
	p = calloc(1, sizeof(*p));
	if (!p)
		return ibsa_err(err, ENOMEM, "out of memory");
	p->op.sa = sa;
	p->op.step = pr_step;
	p->target = target;
	if (ibsa_pr_lookup(sa, target, &p->rec)) {
		rc = ibsa_pr_build(&p->op, target, err);
		if (!rc)
			rc = ibsa_op_run(&p->op, err);
		if (rc) {
			ibsa_op_free(&p->op);
			return rc;
		}
	}
	rc = path_from_record(sa, target, &p->rec, out, err);
	ibsa_op_free(&p->op);
	return rc;
}
