/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program outside the tree that uses libibpath (and, through its header, libibstruct's
 * GID type).  Built from the installed files only by tests/install-check.sh, as C99 and as
 * C++; its last line must be "libibpath <version>".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ibmgmt/ibpath.h>

int main(void)
{
	struct ibpath_path *path = NULL, *back = NULL;
	struct ibpath_devlist *list = NULL;
	char spec[128], err[128];
	int rc;

	if (ibpath_parse("IBPath(DLID=2,SL=2)", 0, &path, err, sizeof(err)) != 0)
		return 1;
	if (ibpath_path_get(path, IBPATH_DLID) != 2 || ibpath_path_get(path, IBPATH_SL) != 2)
		return 2;
	if (ibpath_path_format_spec(path, spec, sizeof(spec)) < 0 ||
	    ibpath_parse(spec, 0, &back, err, sizeof(err)) != 0 || !ibpath_path_equal(path, back))
		return 3;
	ibpath_path_unref(back);
	ibpath_path_unref(path);
	/* a parser error names the bad part and leaves *out alone */
	path = NULL;
	if (ibpath_parse("0,1,x", IBPATH_PARSE_DR, &path, err, sizeof(err)) != -EINVAL ||
	    path != NULL || err[0] == '\0')
		return 4;
	/* no RDMA device under a root that does not exist */
	rc = ibpath_devlist_open(&list, "/nonexistent-sysfs-root", 0);
	if (rc != -ENODEV)
		return 5;
	printf("%s\nlibibpath %s\n", spec, ibpath_version());
	return 0;
}
