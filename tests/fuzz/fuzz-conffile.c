// SPDX-License-Identifier: BSD-3-Clause
/*
 * fuzz-conffile: the tools' own text files (utils/common/conffile.c) on any bytes: the same
 * input read as an ibdiag.conf, as ibqueryerrors' threshold file and as infiniband-diags'
 * node-name map (ibdiag_nnmap_read(), used by the tools that do not go through libibtopo).
 * Besides the sanitizers it checks what the readers promise: a key is marked set exactly when
 * its value is there, values never hold the line's newline, the thresholds' text starts
 * "Thresholds: " and lists one "[Name = v]" per line naming a counter, and a mapped name is
 * never empty and never holds '"', '#' or a newline.  Run with -close_fd_mask=2: a bad map
 * line prints two WARNING lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conffile.h"
#include "ibdiag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "SymbolErrorCounter", "LinkDownedCounter", "PortRcvErrors",
				     "VL15Dropped", "PortXmitWait" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

static FILE *input(const uint8_t *data, size_t size)
{
	/* fmemopen() of 0 bytes is refused by some C libraries: an empty file then */
	static const char empty[1];

	return size ? fmemopen((void *)data, size, "r") : fmemopen((void *)empty, 1, "r");
}

static void check_text(const char *s)
{
	if (s && strchr(s, '\n'))
		abort();
}

static void config(const uint8_t *data, size_t size)
{
	struct ibdiag_config c = { 0 };
	FILE *f = input(data, size);

	if (!f)
		return;
	ibdiag_config_read(f, &c);
	fclose(f);
	if (!(c.set & IBDIAG_CONF_CA) != !c.ca || !(c.set & IBDIAG_CONF_ND_FORMAT) != !c.nd_format)
		abort();
	if (c.set & ~0x7fu)
		abort();
	check_text(c.ca);
	check_text(c.nd_format);
	ibdiag_config_clear(&c);
	if (c.set || c.ca || c.nd_format)
		abort();
}

static void thresholds(const uint8_t *data, size_t size)
{
	uint64_t values[NNAMES] = { 0 };
	char *text = NULL;
	FILE *f = input(data, size);
	size_t items = 0;

	if (!f)
		return;
	if (ibdiag_thresholds_read(f, names, NNAMES, values, &text) == 0) {
		if (!text || strncmp(text, "Thresholds: ", 12))
			abort();
		check_text(text);
		for (const char *p = text + 12; (p = strchr(p, '[')); p++) {
			size_t k;

			for (k = 0; k < NNAMES; k++)
				if (!strncmp(p + 1, names[k], strlen(names[k])) &&
				    !strncmp(p + 1 + strlen(names[k]), " = ", 3))
					break;
			if (k == NNAMES)
				abort();
			items++;
		}
		if (items > size / 12 + 1)
			abort(); /* every item needs a line naming a counter */
	}
	free(text);
	fclose(f);
}

static void nnmap(const uint8_t *data, size_t size)
{
	static const uint64_t guids[] = { 0, 1, 0x2c90300001492ull, UINT64_MAX };
	struct ibdiag_nnmap *m;
	FILE *f = input(data, size);

	if (!f)
		return;
	m = ibdiag_nnmap_read(f, "fuzz-map");
	fclose(f);
	if (!m)
		return;
	for (size_t i = 0; i < sizeof(guids) / sizeof(guids[0]); i++) {
		char *name = ibdiag_nnmap_name(m, guids[i], "desc\x01\xff");

		if (!name || strpbrk(name, "\"#\n"))
			abort();
		free(name);
	}
	ibdiag_nnmap_close(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	config(data, size);
	thresholds(data, size);
	nnmap(data, size);
	return 0;
}
