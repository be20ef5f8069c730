// SPDX-License-Identifier: BSD-3-Clause
/*
 * ibstruct-decode: hex bytes on stdin -> a decoded IBA structure on stdout.
 *
 *   smpdump 1 0x11 | ibstruct-decode SMPNodeInfo
 *   ibstruct-decode --dump SMPPortInfo < bytes.txt
 *   ibstruct-decode --list
 *
 * The input is any text of hex digits; whitespace, "0x" prefixes and smpdump's
 * "SMP status" line are ignored.  Output: the infiniband-diags style field lines, or with
 * --dump the packet dump.  (A precursor of the decode_mad tool; not installed.)
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibstruct.h>

static int usage(FILE *f, const char *prog)
{
	fprintf(f, "Usage: %s [--dump] STRUCT < hex\n       %s --list\n", prog, prog);
	return f == stderr ? 2 : 0;
}

/* Reads hex digits from stdin until EOF or a line that is not hex (e.g. "SMP status"). */
static size_t read_hex(unsigned char *buf, size_t cap)
{
	char line[4096];
	size_t n = 0;
	int hi = -1;

	while (fgets(line, sizeof(line), stdin)) {
		const char *s = line;

		if (strstr(line, "status"))
			continue;
		while (*s) {
			int c = (unsigned char)*s++, v;

			if (c == '0' && (*s == 'x' || *s == 'X')) {
				s++;
				continue;
			}
			if (!isxdigit(c))
				continue;
			v = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
			if (hi < 0) {
				hi = v;
			} else {
				if (n < cap)
					buf[n++] = (unsigned char)(hi << 4 | v);
				hi = -1;
			}
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	const struct ibstruct_desc *d;
	unsigned char wire[4096];
	static char text[1 << 20];
	void *host;
	size_t n;
	int dump = 0, i = 1, rc;

	if (argc > 1 && !strcmp(argv[1], "--list")) {
		unsigned k;

		for (k = 0; k < ibstruct_desc_count(); k++)
			printf("%s\n", ibstruct_desc_name(ibstruct_desc_at(k)));
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return usage(stdout, argv[0]);
	if (argc > i && !strcmp(argv[i], "--dump")) {
		dump = 1;
		i++;
	}
	if (argc != i + 1)
		return usage(stderr, argv[0]);
	d = ibstruct_desc_by_name(argv[i]);
	if (!d) {
		fprintf(stderr, "%s: unknown structure '%s' (see --list)\n", argv[0], argv[i]);
		return 2;
	}
	n = read_hex(wire, sizeof(wire));
	if (dump) {
		rc = ibstruct_snprint_dump(text, sizeof(text), d, wire, n, 0);
	} else {
		host = calloc(1, ibstruct_desc_host_size(d));
		if (!host)
			return 1;
		rc = ibstruct_unpack(d, host, wire, n);
		if (rc == 0)
			rc = ibstruct_snprint_diags(text, sizeof(text), d, host);
		free(host);
	}
	if (rc < 0) {
		fprintf(stderr, "%s: %s: %s (%zu bytes read, %zu needed)\n", argv[0], argv[i],
			strerror(-rc), n, ibstruct_desc_size(d));
		return 1;
	}
	fputs(text, stdout);
	return 0;
}
