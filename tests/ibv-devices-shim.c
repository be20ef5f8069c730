// SPDX-License-Identifier: BSD-3-Clause
/*
 * Test-only preload for tests/ibv-devices.sh: libibverbs lists a device only when its
 * character device /dev/infiniband/<uverbsN> exists (it stat()s the path; SYSFS_PATH moves
 * sysfs but not /dev).  With IBMGMT_FAKE_DEV=<dir> set, stat() of a path under
 * /dev/infiniband/ looks at <dir>/<rest of the path> instead, so that a fake sysfs tree
 * can have its devices' nodes beside it.  Every other call goes through unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CDEV_DIR "/dev/infiniband/"

int stat(const char *path, struct stat *st)
{
	static int (*next)(const char *, struct stat *);
	const char *fake = getenv("IBMGMT_FAKE_DEV");
	char moved[4096];

	if (!next) {
		next = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
		if (!next) {
			errno = ENOSYS;
			return -1;
		}
	}
	if (fake && path && strncmp(path, CDEV_DIR, strlen(CDEV_DIR)) == 0) {
		int n = snprintf(moved, sizeof(moved), "%s/%s", fake, path + strlen(CDEV_DIR));

		if (n < 0 || (size_t)n >= sizeof(moved)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		path = moved;
	}
	return next(path, st);
}
