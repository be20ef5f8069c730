/* SPDX-License-Identifier: BSD-3-Clause */
/* SCAFFOLD: replaced by the libibsa implementation (issue 5). */
#include <errno.h>
#include <stdlib.h>

#include "ibsa-private.h"

struct ibsa {
	struct ibmadrpc_port *port;
};

IBSA_EXPORT const char *ibsa_version(void) { return PACKAGE_VERSION; }
IBSA_EXPORT int ibsa_new(struct ibsa **out, struct ibmadrpc_port *port)
{
	struct ibsa *sa = calloc(1, sizeof(*sa));
	if (!sa)
		return -ENOMEM;
	sa->port = port;
	*out = sa;
	return 0;
}
IBSA_EXPORT void ibsa_free(struct ibsa *sa) { free(sa); }
IBSA_EXPORT int ibsa_set_sa_path(struct ibsa *sa, const struct ibpath_path *path) { (void)sa; (void)path; return -ENOSYS; }
IBSA_EXPORT void ibsa_set_smkey(struct ibsa *sa, uint64_t smkey) { (void)sa; (void)smkey; }
IBSA_EXPORT void ibsa_set_sched(struct ibsa *sa, struct ibsched *sched) { (void)sa; (void)sched; }
IBSA_EXPORT void ibsa_result_free(struct ibsa_result *res) { free(res); }
IBSA_EXPORT int ibsa_query(struct ibsa *sa, uint8_t method, const struct ibstruct_desc *rec,
			   const void *tmpl, uint64_t comp_mask, struct ibsa_result **out,
			   struct ibmadrpc_error **err)
{ (void)sa; (void)method; (void)rec; (void)tmpl; (void)comp_mask; (void)out; (void)err; return -ENOSYS; }
IBSA_EXPORT int ibsa_subn_get(struct ibsa *sa, const struct ibpath_path *path, uint16_t attr_id,
			      uint32_t attr_mod, uint8_t data[IBSA_SMP_DATA_SIZE], struct ibmadrpc_error **err)
{ (void)sa; (void)path; (void)attr_id; (void)attr_mod; (void)data; (void)err; return -ENOSYS; }
IBSA_EXPORT int ibsa_resolve_path(struct ibsa *sa, const struct ibpath_path *target, struct ibpath_path **out,
				  struct ibmadrpc_error **err)
{ (void)sa; (void)target; (void)out; (void)err; return -ENOSYS; }
IBSA_EXPORT void ibsa_path_cache_flush(struct ibsa *sa) { (void)sa; }
