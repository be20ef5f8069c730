// SPDX-License-Identifier: BSD-3-Clause
/*
 * cache-tool: libibtopo's cache file reader and writer for the fabric tests
 * (tests/fabric/topo-cache.sh), without any discovery.
 *
 *   cache-tool resave IN OUT   loads IN with ibtopo_cache_load(), writes it to OUT with
 *                              ibtopo_cache_save()
 *   cache-tool check IN        loads IN; prints the node count, or the reason it is refused
 *
 * Exit: 0 done, 1 IN refused or OUT not written, 2 usage.
 */
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

static int usage(void)
{
	fprintf(stderr, "usage: cache-tool resave IN OUT\n"
			"       cache-tool check IN\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct ibtopo *t = NULL;
	char why[256];
	int rc;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "resave") ? argc != 4 : strcmp(argv[1], "check") || argc != 3)
		return usage();
	rc = ibtopo_cache_load(argv[2], &t, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "cache-tool: %s: %s\n", argv[2], why);
		return 1;
	}
	if (!strcmp(argv[1], "check")) {
		printf("%u nodes\n", ibtopo_node_count(t, IBTOPO_NODE_ANY));
	} else {
		rc = ibtopo_cache_save(t, argv[3]);
		if (rc)
			fprintf(stderr, "cache-tool: cannot write %s: %s\n", argv[3], strerror(-rc));
	}
	ibtopo_unref(t);
	return rc ? 1 : 0;
}
