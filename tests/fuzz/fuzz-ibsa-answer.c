// SPDX-License-Identifier: BSD-3-Clause
/*
 * fuzz-ibsa-answer: libibsa's reader of SA answers (ibsa_parse_answer() in libibsa/sa.c:
 * AttributeOffset, record count, a table cut inside a record) on any answer, for any record
 * type and method, then every record decoded back and printed.  (The bytes before it, RMPP
 * reassembly and reply matching, are fuzz-rmpp's and fuzz-madrpc's.)
 * Checks: a table answer's records are AttributeOffset * 8 bytes apart and at least a
 * record long, all of them inside the answer (the last one possibly without its padding);
 * a failure says why.
 * Input: bytes 0-1 the record type (any libibstruct structure), byte 2 the method (bits
 * 0-1: Get, GetTable, GetTraceTable, GetMulti), byte 3 bit 0 a wrong data offset, then the
 * MAD.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibsa-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char text[1 << 18];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t methods[] = { IBSTRUCT_METHOD_GET, IBSTRUCT_METHOD_GET_TABLE,
					   IBSTRUCT_METHOD_GET_TRACE_TABLE, IBSTRUCT_METHOD_GET_MULTI };
	struct ibmadrpc_error *err = NULL;
	struct ibsa_result *res = NULL;
	struct ibmadrpc_reply rep;
	const struct ibstruct_desc *d;
	uint8_t method;
	size_t avail;
	int rc;

	if (size < 4 || !ibstruct_desc_count())
		return 0;
	d = ibstruct_desc_at((unsigned)(data[0] | data[1] << 8) % ibstruct_desc_count());
	method = methods[data[2] & 3];
	rep.len = size - 4;
	/* a copy of just the answer's size, so that a read past it is caught */
	rep.mad = malloc(rep.len ? rep.len : 1);
	if (!rep.mad)
		return 0;
	memcpy(rep.mad, data + 4, rep.len);
	rep.data_offset = data[3] & 1 ? 24 : SA_DATA_OFFSET;
	rep.status = rep.len >= 4 ? (uint16_t)(rep.mad[2] << 8 | rep.mad[3]) : 0;
	avail = rep.len > SA_DATA_OFFSET ? rep.len - SA_DATA_OFFSET : 0;
	rc = ibsa_parse_answer(d, method, &rep, &res, &err);
	if (rc) {
		if (rc > 0 || !err)
			abort();
		ibmadrpc_error_format(err, 2, text, sizeof(text));
		ibmadrpc_error_free(err);
	} else {
		if (!res || res->desc != d || res->rec_size < ibstruct_desc_size(d) || err)
			abort();
		if (res->count && (res->count - 1) * res->rec_size + ibstruct_desc_size(d) > avail)
			abort(); /* a record the answer does not hold */
		for (size_t i = 0; i < res->count; i++) {
			ibstruct_snprint_diags(text, sizeof(text), d,
					       (const uint8_t *)res->records + i * ibstruct_desc_host_size(d));
			ibstruct_snprint_dump(text, sizeof(text), d, res->wire + i * res->rec_size,
					      res->rec_size, 0);
		}
		ibsa_result_free(res);
	}
	free(rep.mad);
	return 0;
}
