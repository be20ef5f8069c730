// SPDX-License-Identifier: BSD-3-Clause
/*
 * libFuzzer target: unpack + both printers + pack for every structure, and the text
 * parsers (dotted paths, field=value, GUID, GID) on arbitrary input.
 * Input: byte 0-1 pick the structure, byte 2 picks the mode, the rest is data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ibmgmt/ibstruct.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char text[1 << 18];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ibstruct_desc *d;
	unsigned n = ibstruct_desc_count();
	uint8_t wire[4096], back[4096];
	void *host;
	size_t sz;

	if (size < 3 || !n)
		return 0;
	d = ibstruct_desc_at((unsigned)(data[0] | data[1] << 8) % n);
	sz = ibstruct_desc_size(d);
	host = calloc(1, ibstruct_desc_host_size(d));
	if (!host)
		return 0;
	if (data[2] & 1) {
		/* text: "path=value" against the structure, and the GUID/GID parsers */
		char *s = malloc(size - 2);
		uint64_t cm = 0, g;
		ibstruct_gid_t gid;
		struct ibstruct_field_ref ref;

		if (s) {
			memcpy(s, data + 3, size - 3);
			s[size - 3] = 0;
			ibstruct_parse_assignment(d, host, s, &cm);
			ibstruct_field_lookup(d, s, &ref);
			ibstruct_guid_parse(s, &g);
			ibstruct_gid_parse(s, &gid);
			if (ibstruct_pack(d, host, wire, sizeof(wire)) == 0)
				ibstruct_snprint_dump(text, sizeof(text), d, wire, sz, 0);
			free(s);
		}
	} else {
		size_t len = size - 3;

		/* any length: short buffers must be refused, not read past */
		if (ibstruct_unpack(d, host, data + 3, len) == 0) {
			ibstruct_snprint_diags(text, sizeof(text), d, host);
			if (ibstruct_pack(d, host, back, sizeof(back)) != 0 || memcmp(back, data + 3, sz))
				abort();
		}
		ibstruct_snprint_dump(text, sizeof(text), d, data + 3, len, 0);
		ibstruct_snprint_dump(text, 7, d, data + 3, len, 0);
		ibstruct_snprint_saquery(text, sizeof(text), d, data + 3, len, NULL, data[2] >> 1);
	}
	free(host);
	return 0;
}
