// SPDX-License-Identifier: BSD-3-Clause
/* check-ibtopo: libibtopo's unit tests, on a fake fabric behind libibmadrpc's test port. */
#include <stdlib.h>

#include "check-ibtopo.h"

int main(void)
{
	Suite *(*const suites[])(void) = {
		make_model_suite,
		make_walk_suite,
		make_chassis_suite,
		make_nodemap_suite,
		make_cache_suite,
		make_lft_suite,
		make_image_suite,
		make_diff_suite,
		make_export_suite,
	};
	SRunner *sr = srunner_create(NULL);
	int failed;

	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		srunner_add_suite(sr, suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
