/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibsa: Subnet Administration queries, SubnGet answered from SA records, and PathRecord
 * resolution.  Uses libibsched (scheduled interface), libibmadrpc (transport), libibpath
 * and libibstruct.  Never prints; errors are negative errnos plus an ibmadrpc_error.
 */
#ifndef IBMGMT_IBSA_H
#define IBMGMT_IBSA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibmgmt/ibsched.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibsa;

/* An SA client over an open port (the port stays the caller's).  The SA is reached at the
 * port's SM LID/SL unless ibsa_set_sa_path() says otherwise. */
int ibsa_new(struct ibsa **out, struct ibmadrpc_port *port);
/* Frees the client, and the scheduled queries whose work was cancelled (their callbacks never
 * run).  Not while a scheduled query may still complete: finish or cancel them first. */
void ibsa_free(struct ibsa *sa);
/* Replace the path to the SA (e.g. infiniband-diags' -s <sm lid>); the path is referenced. */
int ibsa_set_sa_path(struct ibsa *sa, const struct ibpath_path *path);
/* SM_Key sent with every query (default 0). */
void ibsa_set_smkey(struct ibsa *sa, uint64_t smkey);
/* Use this scheduler for the *_submit functions (its port must be the SA's). */
void ibsa_set_sched(struct ibsa *sa, struct ibsched *sched);

/* ---- SA queries ----------------------------------------------------------------------- */

/* The records of one answer, in wire format (each record `rec_size` bytes: the answer's
 * AttributeOffset * 8, or the record's size for a Get), and decoded into host structs of
 * the record's libibstruct type (ibstruct_desc_host_size() bytes each). */
struct ibsa_result {
	const struct ibstruct_desc *desc; /* the record type */
	size_t count;
	size_t rec_size;   /* wire bytes per record */
	uint8_t *wire;     /* count * rec_size bytes */
	void *records;     /* count host structs */
	uint16_t status;   /* MAD status of the answer (0 on success) */
	/* A table answer that ends inside a record: it was cut (e.g. to one MAD under the
	 * simulator, which carries no RMPP); the `count` records before the cut are whole. */
	bool truncated;
};
void ibsa_result_free(struct ibsa_result *res);

/* Get (IBSTRUCT_METHOD_GET) or GetTable (IBSTRUCT_METHOD_GET_TABLE) of an SA record type;
 * `tmpl` is a host struct of that type (NULL: all zero) and comp_mask selects its fields.
 * Other methods the record allows (Set, Delete, GetTraceTable, GetMulti) work the same way.
 * An SA error status gives -EREMOTEIO (as libibmadrpc does) with the status in *err
 * (ibmadrpc_error_status()); an answer that cannot be read gives -EPROTO. */
int ibsa_query(struct ibsa *sa, uint8_t method, const struct ibstruct_desc *rec,
	       const void *tmpl, uint64_t comp_mask, struct ibsa_result **out,
	       struct ibmadrpc_error **err);
/* The same with the template and mask built from "field=value" texts (dotted names as
 * ibstruct_parse_assignment() takes them, e.g. "LID=4", "portInfo.capabilityMask=0x10"). */
int ibsa_query_text(struct ibsa *sa, uint8_t method, const struct ibstruct_desc *rec,
		    const char *const *assignments, unsigned count, struct ibsa_result **out,
		    struct ibmadrpc_error **err);

/* Scheduled query (ibsa_set_sched() first): fn runs from the scheduler with the result (the
 * callback owns it) or the error; its return value is the ibsched one (IBSCHED_HANDLED ...). */
typedef int (*ibsa_query_fn)(struct ibsa *sa, struct ibsa_result *res,
			     const struct ibmadrpc_error *err, void *user);
int ibsa_query_submit(struct ibsa *sa, struct ibsched_group *group, uint8_t method,
		      const struct ibstruct_desc *rec, const void *tmpl, uint64_t comp_mask,
		      ibsa_query_fn fn, void *user);

/* ---- SubnGet answered by the SA ------------------------------------------------------- */

#define IBSA_SMP_DATA_SIZE 64

/* The SMP attribute `attr_id` (NodeInfo, NodeDescription, PortInfo, SwitchInfo, GUIDInfo,
 * P_KeyTable, SLtoVLMappingTable, VLArbitrationTable, LinearForwardingTable,
 * MulticastForwardingTable, SMInfo) of the node `path` leads to, with the SMP attribute
 * modifier, answered from the matching SA record and returned as the 64 bytes of SMP data
 * a SubnGet would have returned.  DR paths are resolved to a LID first (NodeInfo over the
 * DR path).  -EOPNOTSUPP for attributes the SA has no record for. */
int ibsa_subn_get(struct ibsa *sa, const struct ibpath_path *path, uint16_t attr_id,
		  uint32_t attr_mod, uint8_t data[IBSA_SMP_DATA_SIZE], struct ibmadrpc_error **err);

typedef int (*ibsa_subn_fn)(struct ibsa *sa, const uint8_t *data,
			    const struct ibmadrpc_error *err, void *user);
int ibsa_subn_get_submit(struct ibsa *sa, struct ibsched_group *group,
			 const struct ibpath_path *path, uint16_t attr_id, uint32_t attr_mod,
			 ibsa_subn_fn fn, void *user);

/* ---- PathRecord resolution ------------------------------------------------------------ */

/* A LID-routed path to `target` (a path that names a LID, a port GUID or a GID, e.g. from
 * ibpath_parse()) from the SA's PathRecord for it: DLID, SL, MTU, rate, packet life time,
 * pkey, GIDs; reversible (ibpath_path_reverse()).  Answers are cached per destination until
 * ibsa_path_cache_flush(). */
int ibsa_resolve_path(struct ibsa *sa, const struct ibpath_path *target, struct ibpath_path **out,
		      struct ibmadrpc_error **err);
/* Forgets every cached answer: PathRecords, DR path -> LID and LID -> node type. */
void ibsa_path_cache_flush(struct ibsa *sa);

/* Library version string. */
const char *ibsa_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBSA_H */
