/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CHECK_IBPATH_H
#define CHECK_IBPATH_H

#include <check.h>
#include <stdint.h>

#include <ibmgmt/ibpath.h>
#include <ibmgmt/ibstruct.h>

/* The shipped fake sysfs trees: SYSFS_DIR/<tree>/class/infiniband{,_mad}/... */
#ifndef SYSFS_DIR
#error "SYSFS_DIR must name tests/data/sysfs"
#endif

Suite *make_sysfs_suite(void);
Suite *make_select_suite(void);
Suite *make_parse_suite(void);
Suite *make_path_suite(void);

/* Opens one of the shipped trees; fails the test if that does not work. */
struct ibpath_devlist *test_open_tree(const char *tree, unsigned flags);

/* xorshift64*: deterministic test data */
static inline uint64_t test_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* 0..n-1 */
static inline unsigned test_rand_below(uint64_t *s, unsigned n)
{
	return (unsigned)((test_rand(s) >> 32) % n);
}

/* A GID from its text form (the test fails on a bad one). */
static inline ibstruct_gid_t gid_from_text(const char *text)
{
	ibstruct_gid_t g;

	ck_assert_msg(ibstruct_gid_parse(text, &g) == 0, "bad test GID %s", text);
	return g;
}

#endif
