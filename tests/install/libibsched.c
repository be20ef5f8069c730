/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program outside the tree that uses libibsched (no fabric needed: only argument checks).
 * Built from the installed files only by tests/install-check.sh, as C99 and as C++; its
 * last line must be "libibsched <version>".
 */
#include <errno.h>
#include <stdio.h>

#include <ibmgmt/ibsched.h>

int main(void)
{
	struct ibsched *sched = NULL;

	/* a scheduler needs an open port */
	if (ibsched_new(&sched, NULL) != -EINVAL || sched != NULL)
		return 1;
	if (IBSCHED_DEFAULT_MAX_OUTSTANDING < 1)
		return 2;
	printf("libibsched %s\n", ibsched_version());
	return 0;
}
