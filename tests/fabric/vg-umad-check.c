// SPDX-License-Identifier: BSD-3-Clause
/*
 * vg-umad-check.so: preloaded in front of libumad2sim.so by tests/fabric/valgrind-tools.sh.
 * Every buffer written to a umad device (umad2sim's file descriptors are 1024..2047) is first
 * written to /dev/null by a plain write(2) system call, so that valgrind's memcheck checks
 * every byte of it (the ib_user_mad header and the MAD) in the caller's own buffer; then it
 * goes on to umad2sim's write() as before.  Needed because umad2sim copies the MAD into a
 * struct of its own whose unset padding memcheck reports at umad2sim's write, a report that
 * tests/fabric/valgrind.supp suppresses and that would hide the caller's bytes too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*next)(int, const void *, size_t);
	static int devnull = -1;

	if (!next)
		next = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd >= 1024 && fd < 2048) {
		if (devnull < 0)
			devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (devnull >= 0)
			syscall(SYS_write, devnull, buf, count);
	}
	return next(fd, buf, count);
}
