// SPDX-License-Identifier: BSD-3-Clause
/* libibpath unit tests: one runner, one suite per area. */
#include <stdio.h>
#include <stdlib.h>

#include "check-ibpath.h"

struct ibpath_devlist *test_open_tree(const char *tree, unsigned flags)
{
	struct ibpath_devlist *list = NULL;
	char root[1024];
	int rc;

	snprintf(root, sizeof(root), "%s/%s", SYSFS_DIR, tree);
	rc = ibpath_devlist_open(&list, root, flags);
	ck_assert_msg(rc == 0, "ibpath_devlist_open(%s): %d", root, rc);
	ck_assert_ptr_nonnull(list);
	return list;
}

int main(void)
{
	SRunner *sr = srunner_create(make_sysfs_suite());
	int failed;

	srunner_add_suite(sr, make_select_suite());
	srunner_add_suite(sr, make_parse_suite());
	srunner_add_suite(sr, make_path_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
