// SPDX-License-Identifier: BSD-3-Clause
/*
 * libFuzzer target: libibtopo's JSON reader (ibtopo_import_json()) on arbitrary text.
 * Whatever it accepts is exported again (JSON and dot), the JSON read back, and that
 * second topology exported: the two exports must be the same bytes, and ibtopo_diff() must
 * see the copy as the original (the sets: no difference; the node walk: as many as between
 * the original and itself, which is not 0 when a GUID is there twice).  Whatever it
 * refuses must come with a reason, a negative errno and no topology.
 * Built and run by tests/fuzz/run-fuzz.sh; seeds are tests/data/topo/json-corpus/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "fuzz-ibtopo-json: %s:%d: %s\n", __FILE__, __LINE__, \
				#cond);                                                    \
			abort();                                                           \
		}                                                                          \
	} while (0)

static char *export(const struct ibtopo *t, bool dot, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CHECK(f);
	CHECK((dot ? ibtopo_export_dot(t, f) : ibtopo_export_json(t, f)) == 0);
	CHECK(fclose(f) == 0);
	return buf;
}

static int count_items(const struct ibtopo_diff_item *it, void *user)
{
	if (it->what != IBTOPO_DIFF_SET)
		++*(unsigned *)user;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibtopo *const sentinel = (struct ibtopo *)&sentinel;
	struct ibtopo *t = sentinel, *u = sentinel;
	char err[256];
	size_t len1, len2, dlen;
	char *j1, *j2, *dot;
	unsigned items = 0;
	int rc;

	err[0] = '\0';
	rc = ibtopo_import_json((const char *)data, size, &t, err, sizeof(err));
	if (rc) {
		CHECK(rc == -EINVAL || rc == -ERANGE || rc == -EPROTO || rc == -ENOMEM);
		CHECK(t == NULL);
		CHECK(strncmp(err, "offset ", 7) == 0);
		return 0;
	}
	CHECK(t && t != sentinel);
	j1 = export(t, false, &len1);
	dot = export(t, true, &dlen);
	CHECK(strlen(dot) == dlen && strncmp(dot, "graph ibtopo {\n", 15) == 0);
	rc = ibtopo_import_json(j1, len1, &u, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "fuzz-ibtopo-json: re-import failed: %s\n", err);
		abort();
	}
	j2 = export(u, false, &len2);
	CHECK(len1 == len2 && memcmp(j1, j2, len1) == 0);
	/* the node walk matches nodes by GUID, so with a GUID twice a topology differs from
	 * itself: the copy must differ from it just as much */
	CHECK(ibtopo_diff(t, u, IBTOPO_NODE_ANY, 0, NULL, NULL) ==
	      ibtopo_diff(t, t, IBTOPO_NODE_ANY, 0, NULL, NULL));
	CHECK(ibtopo_diff(u, t, IBTOPO_NODE_ANY, IBTOPO_DIFF_F_SETS, count_items, &items) == 0);
	CHECK(items == 0);
	free(j1);
	free(j2);
	free(dot);
	ibtopo_unref(u);
	ibtopo_unref(t);
	return 0;
}
