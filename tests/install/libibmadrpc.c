/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program outside the tree that uses libibmadrpc's error objects (no fabric needed).
 * Built from the installed files only by tests/install-check.sh, as C99 and as C++; its
 * last line must be "libibmadrpc <version>".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibmadrpc.h>

int main(void)
{
	struct ibmadrpc_error *err, *copy;
	char text[512];

	err = ibmadrpc_error_new(ETIMEDOUT, "RPC to LID %d timed out", 4);
	if (!err)
		return 1;
	ibmadrpc_error_push(err, "Failed getting the node description of LID %d", 4);
	copy = ibmadrpc_error_dup(err);
	ibmadrpc_error_free(err);
	if (!copy || ibmadrpc_error_count(copy) != 2 || ibmadrpc_error_errno(copy) != ETIMEDOUT)
		return 2;
	if (strcmp(ibmadrpc_error_message(copy, 0), "Failed getting the node description of LID 4"))
		return 3;
	if (ibmadrpc_error_format(copy, 1, text, sizeof(text)) < 0)
		return 4;
	ibmadrpc_error_free(copy);
	fputs(text, stdout);
	printf("libibmadrpc %s\n", ibmadrpc_version());
	return 0;
}
