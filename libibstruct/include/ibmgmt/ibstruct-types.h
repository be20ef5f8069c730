/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Basic types shared by libibstruct's hand-written and generated headers.
 */
#ifndef IBMGMT_IBSTRUCT_TYPES_H
#define IBMGMT_IBSTRUCT_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A 128-bit GID in wire (network) byte order: raw[0..7] prefix, raw[8..15] interface ID. */
typedef struct ibstruct_gid {
	uint8_t raw[16];
} ibstruct_gid_t;

/* Describes one generated wire structure; static storage, never freed. */
struct ibstruct_desc;

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBSTRUCT_TYPES_H */
