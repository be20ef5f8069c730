/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CHECK_IBSTRUCT_H
#define CHECK_IBSTRUCT_H

#include <check.h>
#include <stdint.h>

#include <ibmgmt/ibstruct.h>

Suite *make_codec_suite(void);
Suite *make_fields_suite(void);
Suite *make_print_suite(void);
Suite *make_names_suite(void);
Suite *make_kat_suite(void);
Suite *make_kat_classes_suite(void);

/* xorshift64*: deterministic test data */
static inline uint64_t test_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static inline void test_fill(uint64_t *s, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(test_rand(s) >> 56);
}

#endif
