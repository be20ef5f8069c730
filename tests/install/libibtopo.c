/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program outside the tree that uses libibtopo without a fabric: an empty topology,
 * directed routes to and from text, a node-name-map read from memory.  Built from the
 * installed files only by tests/install-check.sh (and tests/debian-build.sh), as C99 and as
 * C++; its last line must be "libibtopo <version>".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibtopo.h>

static const char map_text[] = "# a comment\n"
			       "0x0002c90300001234 \"leaf-1\"\n"
			       "0x0008f10400411a08 spine-2\n";

int main(void)
{
	struct ibtopo *topo = NULL;
	struct ibtopo_nodemap *map = NULL;
	struct ibtopo_dr_path path;
	char text[64];
	const char *name;
	int rc = 0;

	if (ibtopo_new(NULL) != -EINVAL)
		return 1;
	if (ibtopo_new(&topo) != 0 || !topo)
		return 2;
	if (ibtopo_node_count(topo, IBTOPO_NODE_ANY) != 0 || ibtopo_error_count(topo) != 0 ||
	    ibtopo_find_node_guid(topo, 0x0002c90300001234ULL) != NULL || ibtopo_from_node(topo) != NULL)
		rc = 3;

	/* "1,3" is "0,1,3": element 0, the local port, may be left out */
	if (!rc && (ibtopo_dr_path_parse("1,3", &path) != 0 || path.hops != 2 || path.port[1] != 1 ||
		    path.port[2] != 3 || path.drslid != 0xffff))
		rc = 4;
	if (!rc && (ibtopo_dr_path_format(&path, text, sizeof(text)) != 5 || strcmp(text, "0,1,3") != 0))
		rc = 5;
	if (!rc && (ibtopo_dr_path_parse("0,1,256", &path) != -ERANGE ||
		    ibtopo_dr_path_parse("0,,1", &path) != -EINVAL))
		rc = 6;

	if (!rc && ibtopo_nodemap_parse(&map, map_text, strlen(map_text), NULL, NULL) != 0)
		rc = 7;
	if (!rc) {
		name = ibtopo_nodemap_lookup(map, 0x0002c90300001234ULL);
		if (ibtopo_nodemap_count(map) != 2 || !name || strcmp(name, "leaf-1") != 0 ||
		    ibtopo_nodemap_lookup(map, 1) != NULL)
			rc = 8;
	}
	/* an unmapped node prints as its description, unprintable characters made spaces */
	if (!rc && (ibtopo_nodemap_name(map, 1, "sw\t1", text, sizeof(text)) != 4 ||
		    strcmp(text, "sw 1") != 0))
		rc = 9;

	ibtopo_nodemap_free(map);
	ibtopo_unref(topo);
	if (rc)
		return rc;
	printf("libibtopo %s\n", ibtopo_version());
	return 0;
}
