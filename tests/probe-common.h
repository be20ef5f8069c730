/* SPDX-License-Identifier: BSD-3-Clause */
/* What the fabric-test probes (madrpc-probe, sa-probe) share: error reports, targets, dumps. */
#ifndef IBMGMT_TESTS_PROBE_COMMON_H
#define IBMGMT_TESTS_PROBE_COMMON_H

#include <stdint.h>

#include <ibmgmt/ibmadrpc.h>
#include <ibmgmt/ibpath.h>

/* The -v count: how much of an error probe_report() prints. */
extern int probe_verbose;

/* The error (freed) at the probe_verbose level, else strerror(-rc), on stderr; returns 1,
 * the probes' exit status for a failed call. */
int probe_report(struct ibmadrpc_error *err, int rc);
/* ibpath_parse() of a target operand; "bad target: ..." and exit 2 when it does not parse. */
struct ibpath_path *probe_target(const char *text, unsigned parse_flags);
/* 64 data bytes as smpdump prints them. */
void probe_xdump(const uint8_t *p);

#endif /* IBMGMT_TESTS_PROBE_COMMON_H */
