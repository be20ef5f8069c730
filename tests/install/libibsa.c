/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program outside the tree that uses libibsa and, through the Requires: chain of its
 * pkg-config module, the record types of libibstruct (no fabric needed).  Built from the
 * installed files only by tests/install-check.sh, as C99 and as C++; its last line must be
 * "libibsa <version>".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibsa.h>

int main(void)
{
	struct ibstruct_sa_node_record rec;
	struct ibsa *sa = NULL;
	uint64_t mask = 0;

	if (ibsa_new(&sa, NULL) != -EINVAL || sa != NULL)
		return 1;
	/* what ibsa_query_text() does with "LID=4", by hand */
	memset(&rec, 0, sizeof(rec));
	if (ibstruct_parse_assignment(ibstruct_sa_node_record_desc(), &rec, "LID=4", &mask) != 0 ||
	    rec.LID != 4 || mask != IBSTRUCT_SA_NODE_RECORD_CM_LID)
		return 2;
	printf("libibsa %s\n", ibsa_version());
	return 0;
}
