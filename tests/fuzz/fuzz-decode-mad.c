// SPDX-License-Identifier: BSD-3-Clause
/*
 * fuzz-decode-mad: the decode_mad tool (utils/decode_mad.c) whole, on any standard input
 * and its option combinations: the hex/quoted-string parser, the umad/LRH/GRH/BTH/DETH
 * walk and the decode of every management class.  The tool's source is compiled into this
 * file with main() renamed and exit() turned into a jump back here, so an input the tool
 * rejects ends its run like the tool's process would; the buffers it had allocated then are
 * freed here (malloc/realloc/free are counted for that).  Run with -close_fd_mask=3.
 * Input: byte 0 the options (bit 0 -v, bit 1 a second -v, bit 2 -l, bit 3 --umad, bit 4
 * -o <byte 1>), then standard input.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf done;
static int exit_code;
static void *live[16];

static void track(void *old, void *p)
{
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		if (live[i] == old && (old || p)) {
			live[i] = p;
			return;
		}
	}
	if (old || p)
		abort(); /* more buffers at once than the tool ever holds */
}

static void *fz_malloc(size_t n)
{
	void *p = malloc(n);

	if (p)
		track(NULL, p);
	return p;
}

static void *fz_realloc(void *old, size_t n)
{
	void *p = realloc(old, n);

	if (p)
		track(old, p);
	return p;
}

static void fz_free(void *p)
{
	if (p)
		track(p, NULL);
	free(p);
}

static _Noreturn void fz_exit(int code)
{
	exit_code = code;
	longjmp(done, 1);
}

#define main decode_mad_main
#define malloc fz_malloc
#define realloc fz_realloc
#define free fz_free
#define exit fz_exit
#include "decode_mad.c"
#undef main
#undef malloc
#undef realloc
#undef free
#undef exit

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[8], off[8];
	int argc = 0, rc;
	FILE *saved = stdin, *in;
	static const char empty[1];

	if (size < 2)
		return 0;
	argv[argc++] = (char *)"decode_mad";
	if (data[0] & 1)
		argv[argc++] = (char *)"-v";
	if (data[0] & 2)
		argv[argc++] = (char *)"-v";
	if (data[0] & 4)
		argv[argc++] = (char *)"-l";
	if (data[0] & 8)
		argv[argc++] = (char *)"--umad";
	if (data[0] & 16) {
		snprintf(off, sizeof(off), "%u", data[1]);
		argv[argc++] = (char *)"-o";
		argv[argc++] = off;
	}
	argv[argc] = NULL;
	in = size > 2 ? fmemopen((void *)(data + 2), size - 2, "r") : fmemopen((void *)empty, 0 + 1, "r");
	if (!in)
		return 0;
	stdin = in;
	optind = 0; /* getopt starts afresh */
	exit_code = -1;
	if (setjmp(done) == 0)
		rc = decode_mad_main(argc, argv);
	else
		rc = exit_code;
	stdin = saved;
	fclose(in);
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		free(live[i]);
		live[i] = NULL;
	}
	if (rc != 0 && rc != 1)
		abort(); /* 2 is a usage error: none of these option sets is one */
	return 0;
}
