/* SPDX-License-Identifier: BSD-3-Clause */
/* check-ibtopo: one runner, one suite per area (tests/topo/ibtopo-<area>.c). */
#ifndef CHECK_IBTOPO_H
#define CHECK_IBTOPO_H

#include <check.h>

Suite *make_model_suite(void);
Suite *make_walk_suite(void);
Suite *make_chassis_suite(void);
Suite *make_nodemap_suite(void);
Suite *make_cache_suite(void);
Suite *make_lft_suite(void);
Suite *make_image_suite(void);
Suite *make_diff_suite(void);
Suite *make_export_suite(void);

#endif
