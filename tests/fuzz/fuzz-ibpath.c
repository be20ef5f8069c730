// SPDX-License-Identifier: BSD-3-Clause
/*
 * libFuzzer target: ibpath_parse() on arbitrary text, then every way a parsed path is used
 * (format, format_spec, reverse, copy), asserting that a spec text parses back to an equal
 * path and that a failed parse leaves *out alone.
 * Input: byte 0 is the parse flags (all 8 bits, unknown ones included), the rest the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibpath.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char text[4096], spec[4096], again[4096], err[256];

/* spec -> parse -> equal, and the spec of the result is the same text */
static void round_trip(const struct ibpath_path *p)
{
	struct ibpath_path *q = NULL;
	int n = ibpath_path_format_spec(p, spec, sizeof(spec));

	if (n <= 0 || (size_t)n >= sizeof(spec))
		abort();
	if (ibpath_parse(spec, 0, &q, err, sizeof(err)) != 0 || !ibpath_path_equal(p, q))
		abort();
	ibpath_path_format_spec(q, again, sizeof(again));
	if (strcmp(spec, again))
		abort();
	ibpath_path_unref(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibpath_path *const sentinel = (struct ibpath_path *)&sentinel;
	struct ibpath_path *p = sentinel, *r = NULL, *c = NULL;
	unsigned flags;
	char *s;
	int rc;

	if (size < 1)
		return 0;
	flags = data[0];
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = 0;
	rc = ibpath_parse(s, flags, &p, err, sizeof(err));
	if (rc) {
		/* failures say why and leave *out alone */
		if (p != sentinel || !err[0] || strlen(err) >= sizeof(err))
			abort();
		free(s);
		return 0;
	}
	if (!p || p == sentinel)
		abort();
	ibpath_path_format(p, text, sizeof(text));
	ibpath_path_format(p, text, 5);
	ibpath_path_format_spec(p, text, 7);
	ibpath_path_mad_timeout_ms(p);
	ibpath_path_needs_resolution(p);
	round_trip(p);
	if (ibpath_path_copy(p, &c) || !ibpath_path_equal(p, c))
		abort();
	ibpath_path_unref(ibpath_path_ref(c));
	if (ibpath_path_reverse(p, &r) == 0) {
		struct ibpath_path *rr = NULL;

		ibpath_path_format(r, text, sizeof(text));
		round_trip(r);
		/* reversing twice gives the path back (a GRH's hop limit becomes 255) */
		if (ibpath_path_reverse(r, &rr))
			abort();
		if (!ibpath_path_has_grh(p) && !ibpath_path_equal(rr, p))
			abort();
		ibpath_path_unref(rr);
		ibpath_path_unref(r);
	} else if (ibpath_path_kind(p) != IBPATH_KIND_DR) {
		abort();
	}
	ibpath_path_unref(c);
	ibpath_path_unref(p);
	free(s);
	return 0;
}
