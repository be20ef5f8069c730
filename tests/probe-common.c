// SPDX-License-Identifier: BSD-3-Clause
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe-common.h"

int probe_verbose;

int probe_report(struct ibmadrpc_error *err, int rc)
{
	char buf[16384];

	if (err) {
		ibmadrpc_error_format(err, probe_verbose, buf, sizeof(buf));
		fputs(buf, stderr);
		ibmadrpc_error_free(err);
	} else {
		fprintf(stderr, "E: %s\n", strerror(-rc));
	}
	return 1;
}

struct ibpath_path *probe_target(const char *text, unsigned parse_flags)
{
	struct ibpath_path *p;
	char err[256];

	if (ibpath_parse(text, parse_flags, &p, err, sizeof(err))) {
		fprintf(stderr, "bad target: %s\n", err);
		exit(2);
	}
	return p;
}

void probe_xdump(const uint8_t *p)
{
	unsigned i;

	for (i = 0; i < 64; i += 2)
		printf("%02x%02x%s", p[i], p[i + 1], (i + 2) % 16 ? " " : "\n");
}
