// SPDX-License-Identifier: BSD-3-Clause
/*
 * fuzz-ibtopo-nodemap: libibtopo's node-name-map parser (libibtopo/nodemap.c) on any bytes.
 * Besides the sanitizers, every input is checked against tests/topo/nodemap-oracle.h,
 * rdma-core's reading loop on the C library's fgets()/strtoull()/strtok(): the same entries
 * with the same names, -EILSEQ exactly when there is a NUL byte, warnings with sane line
 * numbers, and ibtopo_nodemap_name() as remap_node_name() for any buffer size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

#include "nodemap-oracle.h"

static unsigned lines_in_input;

static void warn(void *user, unsigned line, const char *what)
{
	(void)user;
	if (!what || !*what || strlen(what) > 255 || line < 1 || line > lines_in_input)
		abort();
}

/* remap_node_name() for an unmapped node, done the obvious way */
static size_t clean_desc(const char *desc, char *out)
{
	size_t n = strnlen(desc, 64);

	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)desc[i] >= 0x20 && (unsigned char)desc[i] <= 0x7e ? desc[i] : ' ';
	out[n] = '\0';
	return n;
}

static void check_name(const struct ibtopo_nodemap *m, const struct oracle *o, uint64_t guid,
		       const char *desc)
{
	const char *mapped = oracle_lookup(o, guid);
	char want[300], buf[300];
	size_t n = mapped ? strlen(mapped) : clean_desc(desc, want);

	if (mapped) {
		if (n >= sizeof(want))
			abort();
		memcpy(want, mapped, n + 1);
	}
	for (unsigned k = 0; k < 6; k++) {
		size_t len = (size_t[]){ 0, 1, 2, n / 2, n, n + 1 }[k];

		memset(buf, 0x5a, sizeof(buf));
		if (ibtopo_nodemap_name(m, guid, desc, len ? buf : NULL, len) != (int)n)
			abort();
		if (len && (memcmp(buf, want, len - 1 < n ? len - 1 : n) || buf[len - 1 < n ? len - 1 : n] != '\0'))
			abort();
		if (len < sizeof(buf) && len && buf[len] != 0x5a)
			abort(); /* wrote past len */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct ibtopo_nodemap *m = (struct ibtopo_nodemap *)1;
	struct oracle o;
	char desc[65];
	int rc;

	lines_in_input = 1;
	for (size_t i = 0; i < size; i++)
		lines_in_input += data[i] == '\n';
	rc = ibtopo_nodemap_parse(&m, text, size, warn, NULL);
	if (memchr(data, '\0', size)) {
		if (rc != -EILSEQ || m)
			abort();
		return 0;
	}
	if (rc || !m)
		abort();
	if (oracle_parse(&o, text, size)) {
		ibtopo_nodemap_free(m);
		return 0; /* out of memory in the oracle */
	}
	if (ibtopo_nodemap_count(m) != o.n)
		abort();
	for (unsigned i = 0; i < o.n; i++) {
		const char *got = ibtopo_nodemap_lookup(m, o.e[i].guid);

		if (!got || strcmp(got, o.e[i].name))
			abort();
	}
	/* look-ups of GUIDs the map may or may not hold, and the printed name */
	memset(desc, 0, sizeof(desc));
	memcpy(desc, data, size < 64 ? size : 64);
	for (size_t i = 0; i + 8 <= size && i < 64 * 8; i += 8) {
		uint64_t guid;

		memcpy(&guid, data + i, 8);
		if ((ibtopo_nodemap_lookup(m, guid) == NULL) != (oracle_lookup(&o, guid) == NULL))
			abort();
		if (i < 4 * 8)
			check_name(m, &o, guid, desc);
	}
	if (o.n)
		check_name(m, &o, o.e[o.n - 1].guid, desc);
	check_name(NULL, &(struct oracle){ 0 }, 0, desc);
	oracle_free(&o);
	ibtopo_nodemap_free(m);
	return 0;
}
