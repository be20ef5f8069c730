/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The text files the tools read besides cache files: ibdiag.conf, ibqueryerrors' threshold
 * file and infiniband-diags' node-name map (the reader of ibdiag_nnmap_open()).  Each reader
 * takes an open stream and needs nothing but the C library, so that tests/fuzz can build it
 * alone.
 */
#ifndef IBMGMT_UTILS_CONFFILE_H
#define IBMGMT_UTILS_CONFFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ibdiag_nnmap;

/* which keys an ibdiag.conf gave (struct ibdiag_config.set) */
enum {
	IBDIAG_CONF_CA = 1 << 0,
	IBDIAG_CONF_PORT = 1 << 1,
	IBDIAG_CONF_TIMEOUT = 1 << 2,
	IBDIAG_CONF_MLX_EPI = 1 << 3,
	IBDIAG_CONF_MKEY = 1 << 4,
	IBDIAG_CONF_SAKEY = 1 << 5,
	IBDIAG_CONF_ND_FORMAT = 1 << 6,
};

struct ibdiag_config {
	unsigned set; /* IBDIAG_CONF_* of the keys present; the others are 0/NULL */
	char *ca;
	unsigned port;
	unsigned timeout_ms;
	bool mlx_epi;
	uint64_t mkey;
	uint64_t sakey;
	char *nd_format;
};

/* ibdiag.conf: "key=value" lines read in 1023-byte pieces, "#" comments; keys match by
 * prefix and nothing is trimmed (infiniband-diags' rules); a later line wins.  0, or
 * -ENOMEM with the keys read so far kept.  Free with ibdiag_config_clear(). */
int ibdiag_config_read(FILE *f, struct ibdiag_config *c);
void ibdiag_config_clear(struct ibdiag_config *c);

/* ibqueryerrors' threshold file: "Name=value" lines, "#" comments; a line naming names[i]
 * sets values[i] (a line without a value sets 0) and appends "[Name = value]" to *text,
 * which starts with "Thresholds: ".  Unknown names are ignored.  0 or -ENOMEM. */
int ibdiag_thresholds_read(FILE *f, const char *const *names, unsigned n, uint64_t *values,
			   char **text);

/* The node-name map in f (file: its name for the warnings): lines "<guid> <name>".  A bad
 * line prints infiniband-diags' two WARNING lines on stderr and gives an empty map.  NULL
 * only when out of memory. */
struct ibdiag_nnmap *ibdiag_nnmap_read(FILE *f, const char *file);

#endif /* IBMGMT_UTILS_CONFFILE_H */
