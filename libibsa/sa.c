/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibsa: the SA client handle, SA queries (Get/GetTable of any record libibstruct knows)
 * and the engine that runs multi-MAD operations synchronously or on libibsched.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsa-private.h"

IBSA_EXPORT const char *ibsa_version(void)
{
	return PACKAGE_VERSION;
}

/* ---- errors ---------------------------------------------------------------------------- */

static int verr(struct ibmadrpc_error **err, int errnum, bool push, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!err)
		return -errnum;
	if (push && *err)
		ibmadrpc_error_push(*err, "%s", msg);
	else {
		ibmadrpc_error_free(*err);
		*err = ibmadrpc_error_new(errnum, "%s", msg);
	}
	return -errnum;
}

/* A new error (replacing *err). */
int ibsa_err(struct ibmadrpc_error **err, int errnum, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = verr(err, errnum, false, fmt, ap);
	va_end(ap);
	return rc;
}

int ibsa_err_push(struct ibmadrpc_error **err, int errnum, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = verr(err, errnum, true, fmt, ap);
	va_end(ap);
	return rc;
}

const char *ibsa_method_name(uint8_t method)
{
	switch (method) {
	case IBSTRUCT_METHOD_GET:
		return "SubnAdmGet";
	case IBSTRUCT_METHOD_SET:
		return "SubnAdmSet";
	case IBSTRUCT_METHOD_GET_TABLE:
		return "SubnAdmGetTable";
	case IBSTRUCT_METHOD_GET_TRACE_TABLE:
		return "SubnAdmGetTraceTable";
	case IBSTRUCT_METHOD_GET_MULTI:
		return "SubnAdmGetMulti";
	case IBSTRUCT_METHOD_DELETE:
		return "SubnAdmDelete";
	default:
		return "SubnAdm method";
	}
}

static bool method_is_table(uint8_t method)
{
	return method == IBSTRUCT_METHOD_GET_TABLE || method == IBSTRUCT_METHOD_GET_TRACE_TABLE ||
	       method == IBSTRUCT_METHOD_GET_MULTI;
}

/* ---- the handle ------------------------------------------------------------------------ */

IBSA_EXPORT int ibsa_new(struct ibsa **out, struct ibmadrpc_port *port)
{
	struct ibsa *sa;

	if (!out || !port)
		return -EINVAL;
	sa = calloc(1, sizeof(*sa));
	if (!sa)
		return -ENOMEM;
	sa->port = port;
	*out = sa;
	return 0;
}

IBSA_EXPORT void ibsa_free(struct ibsa *sa)
{
	if (!sa)
		return;
	/* what the scheduler cancelled without a word */
	while (sa->sched_ops)
		ibsa_op_free(sa->sched_ops);
	ibsa_path_cache_flush(sa);
	free(sa->lid_info);
	ibpath_path_unref(sa->sa_path);
	ibpath_path_unref(sa->default_path);
	free(sa);
}

IBSA_EXPORT int ibsa_set_sa_path(struct ibsa *sa, const struct ibpath_path *path)
{
	if (!sa)
		return -EINVAL;
	if (path && ibpath_path_kind(path) != IBPATH_KIND_IB)
		return -EINVAL;
	ibpath_path_unref(sa->sa_path);
	/* the path is the caller's; libibpath counts references on non-const objects */
	sa->sa_path = path ? ibpath_path_ref((struct ibpath_path *)path) : NULL;
	return 0;
}

IBSA_EXPORT void ibsa_set_smkey(struct ibsa *sa, uint64_t smkey)
{
	if (sa)
		sa->smkey = smkey;
}

IBSA_EXPORT void ibsa_set_sched(struct ibsa *sa, struct ibsched *sched)
{
	if (sa)
		sa->sched = sched;
}

IBSA_EXPORT void ibsa_path_cache_flush(struct ibsa *sa)
{
	if (!sa)
		return;
	ibsa_pr_cache_flush(sa);
	ibsa_subn_cache_flush(sa);
}

/* The path SA requests take: ibsa_set_sa_path()'s, else the port's SM LID and SL (read
 * when first needed, so a port that becomes active later still works). */
const struct ibpath_path *ibsa_path_to_sa(struct ibsa *sa, struct ibmadrpc_error **err)
{
	uint16_t sm_lid;

	if (sa->sa_path)
		return sa->sa_path;
	if (sa->default_path)
		return sa->default_path;
	sm_lid = ibmadrpc_port_sm_lid(sa->port);
	if (!sm_lid || sm_lid > LID_UNICAST_MAX) {
		ibsa_err(err, ENETUNREACH, "no SM LID known on port %s: cannot reach the SA",
			 ibmadrpc_port_name(sa->port));
		return NULL;
	}
	if (ibpath_path_new(&sa->default_path, IBPATH_KIND_IB)) {
		ibsa_err(err, ENOMEM, "out of memory");
		return NULL;
	}
	ibpath_path_set(sa->default_path, IBPATH_DLID, sm_lid);
	ibpath_path_set(sa->default_path, IBPATH_SL, ibmadrpc_port_sm_sl(sa->port));
	ibpath_path_set(sa->default_path, IBPATH_DQPN, 1);
	ibpath_path_set(sa->default_path, IBPATH_QKEY, SA_QKEY);
	return sa->default_path;
}

/* ---- results ----------------------------------------------------------------------------- */

IBSA_EXPORT void ibsa_result_free(struct ibsa_result *res)
{
	if (!res)
		return;
	free(res->wire);
	free(res->records);
	free(res);
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * An answer's records: a Get answer holds one record of the record's wire size; a table
 * answer holds records AttributeOffset * 8 bytes apart.  A table answer that ends inside a
 * record was cut short (truncated); one too short for even one record of a Get is an error.
 */
int ibsa_parse_answer(const struct ibstruct_desc *rec, uint8_t method, const struct ibmadrpc_reply *rep,
		      struct ibsa_result **out, struct ibmadrpc_error **err)
{
	size_t size = ibstruct_desc_size(rec), host = ibstruct_desc_host_size(rec);
	size_t avail, stride, count, i, rest;
	struct ibsa_result *res;
	const uint8_t *data;
	bool truncated = false;

	/* a type without wire bytes is no record (its table stride would be 0: fuzz-ibsa-answer) */
	if (!size)
		return ibsa_err(err, EINVAL, "%s is not an SA record", ibstruct_desc_name(rec));
	if (!rep || !rep->mad || rep->len < SA_DATA_OFFSET || rep->data_offset != SA_DATA_OFFSET)
		return ibsa_err(err, EPROTO, "the SA answer to %s %s is shorter than an SA header",
				ibsa_method_name(method), ibstruct_desc_name(rec));
	data = rep->mad + rep->data_offset;
	avail = rep->len - rep->data_offset;
	if (method_is_table(method)) {
		stride = (size_t)be16(rep->mad + 44) * 8;
		if (!stride) {
			if (avail)
				return ibsa_err(err, EPROTO,
						"the SA answer to %s %s has records but AttributeOffset 0",
						ibsa_method_name(method), ibstruct_desc_name(rec));
			stride = (size + 7) & ~(size_t)7;
		}
		if (stride < size)
			return ibsa_err(err, EPROTO,
					"the SA answer to %s %s has AttributeOffset %zu, less than the record's %zu bytes",
					ibsa_method_name(method), ibstruct_desc_name(rec), stride / 8, size);
		count = avail / stride;
		rest = avail % stride;
		if (rest >= size)
			count++; /* the last record without its padding */
		else if (rest)
			truncated = true;
	} else {
		stride = size;
		if (avail < size)
			return ibsa_err(err, EPROTO,
					"the SA answer to %s %s holds %zu bytes, less than the record's %zu",
					ibsa_method_name(method), ibstruct_desc_name(rec), avail, size);
		count = 1;
	}
	res = calloc(1, sizeof(*res));
	if (!res)
		return ibsa_err(err, ENOMEM, "out of memory");
	res->desc = rec;
	res->count = count;
	res->rec_size = stride;
	res->status = rep->status;
	res->truncated = truncated;
	if (count) {
		res->wire = malloc(count * stride);
		res->records = calloc(count, host);
		if (!res->wire || !res->records) {
			ibsa_result_free(res);
			return ibsa_err(err, ENOMEM, "out of memory for %zu records", count);
		}
		/* the last record may lack its padding: zero it */
		memset(res->wire, 0, count * stride);
		memcpy(res->wire, data, avail < count * stride ? avail : count * stride);
		for (i = 0; i < count; i++) {
			int rc = ibstruct_unpack(rec, (uint8_t *)res->records + i * host,
						 res->wire + i * stride, stride);

			if (rc) {
				ibsa_result_free(res);
				return ibsa_err(err, -rc, "cannot decode %s record %zu of the SA answer: %s",
						ibstruct_desc_name(rec), i, strerror(-rc));
			}
		}
	}
	*out = res;
	return 0;
}

/* ---- requests ------------------------------------------------------------------------------ */

void ibsa_op_set_path(struct sa_op *op, const struct ibpath_path *path)
{
	struct ibpath_path *old = op->req_path;

	op->req_path = ibpath_path_ref((struct ibpath_path *)path);
	op->req.path = op->req_path;
	ibpath_path_unref(old);
}

int ibsa_build_request(struct sa_op *op, uint8_t method, const struct ibstruct_desc *rec,
		       const void *tmpl, uint64_t comp_mask, struct ibmadrpc_error **err)
{
	const struct ibpath_path *path;
	size_t size;
	int rc;

	if (!rec || !ibstruct_desc_is_record(rec) || ibstruct_desc_mgmt_class(rec) != IBSTRUCT_CLASS_SA ||
	    ibstruct_desc_attr_id(rec) < 0)
		return ibsa_err(err, EINVAL, "%s is not an SA record",
				rec ? ibstruct_desc_name(rec) : "(null)");
	if (!ibstruct_desc_allows_method(rec, method))
		return ibsa_err(err, EINVAL, "%s does not allow method 0x%02x (%s)",
				ibstruct_desc_name(rec), method,
				ibstruct_method_name(method) ? ibstruct_method_name(method) : "unknown");
	size = ibstruct_desc_size(rec);
	if (size > sizeof(op->payload))
		return ibsa_err(err, EMSGSIZE, "%s is larger than an SA payload", ibstruct_desc_name(rec));
	memset(op->payload, 0, sizeof(op->payload));
	if (tmpl) {
		rc = ibstruct_pack(rec, tmpl, op->payload, sizeof(op->payload));
		if (rc)
			return ibsa_err(err, -rc, "cannot pack the %s template: %s", ibstruct_desc_name(rec),
					strerror(-rc));
	}
	path = ibsa_path_to_sa(op->sa, err);
	if (!path)
		return -ENETUNREACH;
	memset(&op->req, 0, sizeof(op->req));
	ibsa_op_set_path(op, path);
	op->req.mgmt_class = IBSTRUCT_CLASS_SA;
	op->req.class_version = IBSTRUCT_CLASS_SA_VERSION;
	op->req.method = method;
	op->req.attr_id = (uint16_t)ibstruct_desc_attr_id(rec);
	op->req.data = op->payload;
	op->req.data_len = size;
	op->req.key = op->sa->smkey;
	op->req.comp_mask = comp_mask;
	op->req.flags = method_is_table(method) ? IBMADRPC_F_RMPP : 0;
	return 0;
}

/* ---- running operations ---------------------------------------------------------------- */

void ibsa_op_free(struct sa_op *op)
{
	if (!op)
		return;
	if (op->scheduled) {
		if (op->sched_prev)
			op->sched_prev->sched_next = op->sched_next;
		else
			op->sa->sched_ops = op->sched_next;
		if (op->sched_next)
			op->sched_next->sched_prev = op->sched_prev;
		op->scheduled = false;
	}
	ibpath_path_unref(op->req_path);
	op->req_path = NULL;
	if (op->destroy)
		op->destroy(op);
	else
		free(op);
}

int ibsa_op_run(struct sa_op *op, struct ibmadrpc_error **errp)
{
	for (;;) {
		struct ibmadrpc_error *e = NULL;
		struct ibmadrpc_reply rep;
		int rc;

		rc = ibmadrpc_call(op->sa->port, &op->req, &rep, &e);
		if (rc && !e)
			e = ibmadrpc_error_new(-rc, "%s", strerror(-rc));
		op->mad_status = rc ? ibmadrpc_error_status(e) : 0;
		rc = op->step(op, rc ? NULL : &rep, rc, &e);
		if (rc >= 0) {
			/* the step dealt with the MAD's error */
			ibmadrpc_error_free(e);
			e = NULL;
		}
		if (rc == OP_NEXT)
			continue;
		if (errp)
			*errp = e;
		else
			ibmadrpc_error_free(e);
		return rc;
	}
}

static int op_work_done(struct ibsched *sched, struct ibsched_work *work, const struct ibmadrpc_reply *reply,
			const struct ibmadrpc_error *err, void *user)
{
	struct sa_op *op = user;
	struct ibmadrpc_error *e = NULL;
	int mad_rc = 0, rc, verdict;

	(void)work;
	if (err) {
		mad_rc = -ibmadrpc_error_errno(err);
		if (!mad_rc)
			mad_rc = -EIO;
		/* the scheduler's error lives only as long as this callback: ours to add to */
		e = ibmadrpc_error_dup(err);
	}
	op->mad_status = err ? ibmadrpc_error_status(err) : 0;
	rc = op->step(op, err ? NULL : reply, mad_rc, &e);
	if (rc >= 0) {
		ibmadrpc_error_free(e);
		e = NULL;
	}
	if (rc == OP_NEXT) {
		rc = ibsched_submit(sched, NULL, &op->req, op_work_done, op, NULL);
		if (!rc)
			return IBSCHED_HANDLED;
		ibsa_err(&e, -rc, "could not submit the next request: %s", strerror(-rc));
	}
	verdict = op->finish(op, rc, e);
	ibmadrpc_error_free(e);
	ibsa_op_free(op);
	return verdict;
}

int ibsa_op_submit(struct sa_op *op, struct ibsched_group *group)
{
	int rc = ibsched_submit(op->sa->sched, group, &op->req, op_work_done, op, NULL);

	if (rc == 0) {
		op->sched_prev = NULL;
		op->sched_next = op->sa->sched_ops;
		if (op->sched_next)
			op->sched_next->sched_prev = op;
		op->sa->sched_ops = op;
		op->scheduled = true;
	}
	return rc;
}

/* ---- SA queries ------------------------------------------------------------------------------ */

struct query_op {
	struct sa_op op;
	const struct ibstruct_desc *rec;
	uint8_t method;
	struct ibsa_result *res;
	ibsa_query_fn fn;
	void *user;
};

static int query_step(struct sa_op *op, const struct ibmadrpc_reply *rep, int mad_rc, struct ibmadrpc_error **err)
{
	struct query_op *q = (struct query_op *)op;

	if (mad_rc)
		return ibsa_err_push(err, -mad_rc, "%s %s failed", ibsa_method_name(q->method),
				     ibstruct_desc_name(q->rec));
	return ibsa_parse_answer(q->rec, q->method, rep, &q->res, err);
}

static int query_finish(struct sa_op *op, int rc, const struct ibmadrpc_error *err)
{
	struct query_op *q = (struct query_op *)op;
	struct ibsa_result *res = q->res;

	q->res = NULL;
	return q->fn(op->sa, rc ? NULL : res, err, q->user);
}

static void query_destroy(struct sa_op *op)
{
	struct query_op *q = (struct query_op *)op;

	ibsa_result_free(q->res);
	free(q);
}

static int query_new(struct ibsa *sa, uint8_t method, const struct ibstruct_desc *rec, const void *tmpl,
		     uint64_t comp_mask, struct query_op **out, struct ibmadrpc_error **err)
{
	struct query_op *q = calloc(1, sizeof(*q));
	int rc;

	if (!q)
		return ibsa_err(err, ENOMEM, "out of memory");
	q->op.sa = sa;
	q->op.step = query_step;
	q->op.finish = query_finish;
	q->op.destroy = query_destroy;
	q->rec = rec;
	q->method = method;
	rc = ibsa_build_request(&q->op, method, rec, tmpl, comp_mask, err);
	if (rc) {
		ibsa_op_free(&q->op);
		return rc;
	}
	*out = q;
	return 0;
}

IBSA_EXPORT int ibsa_query(struct ibsa *sa, uint8_t method, const struct ibstruct_desc *rec, const void *tmpl,
			   uint64_t comp_mask, struct ibsa_result **out, struct ibmadrpc_error **err)
{
	struct query_op *q;
	int rc;

	if (err)
		*err = NULL;
	if (!sa || !out)
		return ibsa_err(err, EINVAL, "ibsa_query: missing handle or result pointer");
	rc = query_new(sa, method, rec, tmpl, comp_mask, &q, err);
	if (rc)
		return rc;
	rc = ibsa_op_run(&q->op, err);
	if (!rc) {
		*out = q->res;
		q->res = NULL;
	}
	ibsa_op_free(&q->op);
	return rc;
}

/* The template and mask from "field=value" texts. */
static int template_from_text(const struct ibstruct_desc *rec, const char *const *assignments, unsigned count,
			      void **tmpl, uint64_t *mask, struct ibmadrpc_error **err)
{
	unsigned i;

	*mask = 0;
	if (!rec || !ibstruct_desc_is_record(rec))
		return ibsa_err(err, EINVAL, "%s is not an SA record", rec ? ibstruct_desc_name(rec) : "(null)");
	if (count && !assignments)
		return ibsa_err(err, EINVAL, "no assignments given");
	*tmpl = calloc(1, ibstruct_desc_host_size(rec));
	if (!*tmpl)
		return ibsa_err(err, ENOMEM, "out of memory");
	for (i = 0; i < count; i++) {
		int rc = assignments[i] ? ibstruct_parse_assignment(rec, *tmpl, assignments[i], mask) : -EINVAL;

		if (rc) {
			free(*tmpl);
			*tmpl = NULL;
			return ibsa_err(err, -rc, "bad %s field assignment \"%s\": %s", ibstruct_desc_name(rec),
					assignments[i] ? assignments[i] : "(null)",
					rc == -ENOENT ? "no such field" : strerror(-rc));
		}
	}
	return 0;
}

IBSA_EXPORT int ibsa_query_text(struct ibsa *sa, uint8_t method, const struct ibstruct_desc *rec,
				const char *const *assignments, unsigned count, struct ibsa_result **out,
				struct ibmadrpc_error **err)
{
	uint64_t mask;
	void *tmpl;
	int rc;

	if (err)
		*err = NULL;
	if (!sa || !out)
		return ibsa_err(err, EINVAL, "ibsa_query_text: missing handle or result pointer");
	rc = template_from_text(rec, assignments, count, &tmpl, &mask, err);
	if (rc)
		return rc;
	rc = ibsa_query(sa, method, rec, tmpl, mask, out, err);
	free(tmpl);
	return rc;
}

IBSA_EXPORT int ibsa_query_submit(struct ibsa *sa, struct ibsched_group *group, uint8_t method,
				  const struct ibstruct_desc *rec, const void *tmpl, uint64_t comp_mask,
				  ibsa_query_fn fn, void *user)
{
	struct query_op *q;
	int rc;

	if (!sa || !fn)
		return -EINVAL;
	if (!sa->sched)
		return -ENOTCONN;
	rc = query_new(sa, method, rec, tmpl, comp_mask, &q, NULL);
	if (rc)
		return rc;
	q->fn = fn;
	q->user = user;
	rc = ibsa_op_submit(&q->op, group);
	if (rc)
		ibsa_op_free(&q->op);
	return rc;
}
