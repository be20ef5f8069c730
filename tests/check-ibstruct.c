// SPDX-License-Identifier: BSD-3-Clause
/* libibstruct unit tests: one runner, one suite per area. */
#include <stdlib.h>

#include "check-ibstruct.h"

int main(void)
{
	SRunner *sr = srunner_create(make_codec_suite());
	int failed;

	srunner_add_suite(sr, make_fields_suite());
	srunner_add_suite(sr, make_print_suite());
	srunner_add_suite(sr, make_names_suite());
	srunner_add_suite(sr, make_kat_suite());
	srunner_add_suite(sr, make_kat_classes_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
