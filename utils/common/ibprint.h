/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What ibprintca, ibprintrt and ibprintswitch share: the three infiniband-diags Perl scripts
 * they replace are one program with other words in it.  Each reads the `ibnetdiscover -g`
 * topology that IBswcountlimits.pm caches (utils/common/ibscript.h), finds the nodes of its
 * type whose GUID or description matches the operand and prints their lines.
 */
#ifndef IBMGMT_UTILS_IBPRINT_H
#define IBMGMT_UTILS_IBPRINT_H

#include <stdbool.h>

struct ibprint_kind {
	const char *instead;     /* the tool the deprecation warning names ("ibhosts") */
	const char *operand;     /* in the usage line: "<ca_guid> | <node_name>" */
	const char *what;        /* "ca": "print only the <what> specified ..." */
	const char *list_what;   /* "cas": "-l list <list_what>" */
	const char *header_re;   /* the node line; group 1 the GUID, group 2 the description */
	const char *leave_re[2]; /* lines that end a node of this type (NULL: none) */
	bool flush_at_end;       /* the ports of a node still open at the end are printed */
	const char *not_found;   /* what comes before "\"<operand>\" not found" ("Switch ") */
	bool not_found_down;     /* "If still not found the node is probably down." follows */
	const char *several;     /* "CA's": "WARNING: Found N <several> with the name ..." */
};

/* The whole tool: options, the cache, -l (the node-list tool of the type on the cache
 * file), the search.  Returns the exit status (or exits, as the scripts do). */
int ibprint_main(int argc, char **argv, const struct ibprint_kind *k);

#endif /* IBMGMT_UTILS_IBPRINT_H */
