// SPDX-License-Identifier: BSD-3-Clause
/*
 * Descriptor lookup, field access by dotted name, text values, component masks.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ibstruct-private.h"

IBSTRUCT_EXPORT const struct ibstruct_desc *ibstruct_desc_at(unsigned index)
{
	return index < ibs_ndescs ? &ibs_descs[index] : NULL;
}

IBSTRUCT_EXPORT unsigned ibstruct_desc_count(void)
{
	return ibs_ndescs;
}

IBSTRUCT_EXPORT const struct ibstruct_desc *ibstruct_desc_by_name(const char *name)
{
	unsigned i;

	if (!name)
		return NULL;
	for (i = 0; i < ibs_ndescs; i++)
		if (!strcasecmp(ibs_desc_name(&ibs_descs[i]), name) ||
		    !strcasecmp(ibs_desc_c_name(&ibs_descs[i]), name))
			return &ibs_descs[i];
	return NULL;
}

IBSTRUCT_EXPORT const struct ibstruct_desc *ibstruct_desc_by_attr(int mgmt_class, uint16_t attr_id)
{
	const struct ibstruct_desc *generic = NULL;
	unsigned i;

	for (i = 0; i < ibs_ndescs; i++) {
		const struct ibstruct_desc *d = &ibs_descs[i];

		if (d->attr_id != attr_id)
			continue;
		if (d->mgmt_class == mgmt_class)
			return d;
		if (d->mgmt_class < 0 && !generic)
			generic = d;
	}
	/* The directed-route SMP class shares the LID-routed class's attributes. */
	if (!generic && mgmt_class == IBSTRUCT_CLASS_SMP_DIRECTED)
		return ibstruct_desc_by_attr(IBSTRUCT_CLASS_SMP, attr_id);
	return generic;
}

IBSTRUCT_EXPORT const char *ibstruct_desc_name(const struct ibstruct_desc *d)
{
	return d ? ibs_desc_name(d) : NULL;
}

IBSTRUCT_EXPORT const char *ibstruct_desc_c_name(const struct ibstruct_desc *d)
{
	return d ? ibs_desc_c_name(d) : NULL;
}

IBSTRUCT_EXPORT const char *ibstruct_desc_description(const struct ibstruct_desc *d)
{
	return d ? ibs_desc_text(d) : NULL;
}

IBSTRUCT_EXPORT size_t ibstruct_desc_size(const struct ibstruct_desc *d)
{
	return d ? d->size : 0;
}

IBSTRUCT_EXPORT size_t ibstruct_desc_host_size(const struct ibstruct_desc *d)
{
	return d ? d->host_size : 0;
}

IBSTRUCT_EXPORT int ibstruct_desc_mgmt_class(const struct ibstruct_desc *d)
{
	return d ? d->mgmt_class : -1;
}

IBSTRUCT_EXPORT int ibstruct_desc_attr_id(const struct ibstruct_desc *d)
{
	return d ? d->attr_id : -1;
}

IBSTRUCT_EXPORT uint32_t ibstruct_desc_methods(const struct ibstruct_desc *d)
{
	return d ? d->methods : 0;
}

IBSTRUCT_EXPORT bool ibstruct_desc_allows_method(const struct ibstruct_desc *d, uint8_t method)
{
	return d && method < 32 && (d->methods >> method) & 1;
}

IBSTRUCT_EXPORT bool ibstruct_desc_is_record(const struct ibstruct_desc *d)
{
	return d && d->record;
}

IBSTRUCT_EXPORT int ibstruct_unpack(const struct ibstruct_desc *d, void *host, const void *buf,
				    size_t len)
{
	if (!d)
		return -EINVAL;
	return ibs_unpack_at(ibs_desc_index(d), host, buf, len);
}

IBSTRUCT_EXPORT int ibstruct_pack(const struct ibstruct_desc *d, const void *host, void *buf,
				  size_t len)
{
	if (!d)
		return -EINVAL;
	return ibs_pack_at(ibs_desc_index(d), host, buf, len);
}

/* ---- bit and host access ---------------------------------------------------------- */

uint64_t ibs_get_any(const uint8_t *p, uint32_t bit_offset, unsigned bits)
{
	uint64_t v = 0;
	unsigned i;

	/* bit by bit is slow but only used off the fast path (dump, generic access) */
	for (i = 0; i < bits; i++) {
		uint32_t b = bit_offset + i;

		v = v << 1 | ((p[b >> 3] >> (7 - (b & 7))) & 1);
	}
	return v;
}

uint64_t ibs_host_get(const void *host, const struct ibs_field *f, unsigned elem)
{
	const uint8_t *p = (const uint8_t *)host + f->host_offset + (size_t)elem * f->host_size;

	switch (f->host_size) {
	case 1:
		return *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return v;
	}
	case 8: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
	return 0;
}

void ibs_host_put(void *host, const struct ibs_field *f, unsigned elem, uint64_t v)
{
	uint8_t *p = (uint8_t *)host + f->host_offset + (size_t)elem * f->host_size;

	switch (f->host_size) {
	case 1:
		*p = (uint8_t)v;
		break;
	case 2: {
		uint16_t x = (uint16_t)v;

		memcpy(p, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;

		memcpy(p, &x, 4);
		break;
	}
	case 8:
		memcpy(p, &v, 8);
		break;
	}
}

/* ---- path resolution ----------------------------------------------------------------- */

IBSTRUCT_EXPORT int ibstruct_field_lookup(const struct ibstruct_desc *d, const char *path,
					  struct ibstruct_field_ref *ref)
{
	const char *s = path;
	uint32_t bit = 0;
	size_t host = 0;
	int cm = 0;
	bool cm_ok = true;

	if (!d || !path || !ref)
		return -EINVAL;
	for (;;) {
		const char *e = s;
		const struct ibs_field *fields, *f = NULL;
		unsigned i, elem = 0;
		bool indexed = false;
		size_t n;

		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		n = (size_t)(e - s);
		if (!n)
			return -EINVAL;
		/* s[0 .. n - 1] holds no NUL: a name equal to it over n bytes is at least n
		 * long, and the same name if it ends there; most differ in the first byte */
		fields = ibs_desc_fields(d);
		for (i = 0; i < d->nfields; i++) {
			const char *name = ibs_field_name(&fields[i]);

			if (name[0] == s[0] && !strncmp(name, s, n) && !name[n]) {
				f = &fields[i];
				break;
			}
		}
		if (!f) {
			/* also accept the case-insensitive spelling (python-rdma style) */
			for (i = 0; i < d->nfields; i++) {
				const char *name = ibs_field_name(&fields[i]);

				if (!strncasecmp(name, s, n) && !name[n]) {
					f = &fields[i];
					break;
				}
			}
		}
		if (!f)
			return -ENOENT;
		if (*e == '[') {
			char *end;
			unsigned long v;

			if (!isdigit((unsigned char)e[1]))
				return -EINVAL;
			errno = 0;
			v = strtoul(e + 1, &end, 10);
			if (*end != ']' || errno)
				return -EINVAL;
			if (v >= f->count)
				return -ERANGE;
			elem = (unsigned)v;
			indexed = true;
			e = end + 1;
		}
		bit += f->bit_offset + elem * f->bits;
		host += f->host_offset + (size_t)elem * f->host_size;
		if (f->cm_bit < 0)
			cm_ok = false;
		else
			cm += f->cm_bit + (int)elem * (f->type == IBSTRUCT_TYPE_STRUCT && ibs_field_sub(f) ?
						     ibs_field_sub(f)->ncm : 1);
		if (*e == '.') {
			if (f->type != IBSTRUCT_TYPE_STRUCT || (f->count > 1 && !indexed))
				return -EINVAL;
			d = ibs_field_sub(f);
			s = e + 1;
			continue;
		}
		if (*e)
			return -EINVAL;
		ref->parent = d;
		ref->field = i;
		ref->elem = elem;
		ref->whole_array = f->count > 1 && !indexed;
		ref->bit_offset = bit;
		ref->host_offset = host;
		ref->cm_bit = cm_ok ? cm : -1;
		return 0;
	}
}

IBSTRUCT_EXPORT unsigned ibstruct_desc_field_count(const struct ibstruct_desc *d)
{
	return d ? d->nfields : 0;
}

IBSTRUCT_EXPORT int ibstruct_field_at(const struct ibstruct_desc *d, unsigned index,
				      struct ibstruct_field_ref *ref)
{
	const struct ibs_field *f;

	if (!d || !ref)
		return -EINVAL;
	if (index >= d->nfields)
		return -ENOENT;
	f = &ibs_desc_fields(d)[index];
	ref->parent = d;
	ref->field = index;
	ref->elem = 0;
	ref->whole_array = f->count > 1;
	ref->bit_offset = f->bit_offset;
	ref->host_offset = f->host_offset;
	ref->cm_bit = f->cm_bit;
	return 0;
}

static const struct ibs_field *ref_field(const struct ibstruct_field_ref *ref)
{
	return &ibs_desc_fields(ref->parent)[ref->field];
}

IBSTRUCT_EXPORT const char *ibstruct_field_name(const struct ibstruct_field_ref *ref)
{
	return ref ? ibs_field_name(ref_field(ref)) : NULL;
}

IBSTRUCT_EXPORT const char *ibstruct_field_show_name(const struct ibstruct_field_ref *ref)
{
	return ref ? ibs_field_show(ref_field(ref)) : NULL;
}

IBSTRUCT_EXPORT enum ibstruct_type ibstruct_field_type(const struct ibstruct_field_ref *ref)
{
	return (enum ibstruct_type)ref_field(ref)->type;
}

IBSTRUCT_EXPORT unsigned ibstruct_field_bits(const struct ibstruct_field_ref *ref)
{
	return ref_field(ref)->bits;
}

IBSTRUCT_EXPORT unsigned ibstruct_field_count(const struct ibstruct_field_ref *ref)
{
	return ref_field(ref)->count;
}

IBSTRUCT_EXPORT const struct ibstruct_desc *ibstruct_field_struct(const struct ibstruct_field_ref *ref)
{
	return ref ? ibs_field_sub(ref_field(ref)) : NULL;
}

IBSTRUCT_EXPORT int ibstruct_field_diags_fmt(const struct ibstruct_field_ref *ref)
{
	return ref ? ref_field(ref)->fmt : IBSTRUCT_FMT_NONE;
}

/* The address of the referenced element in the host struct. */
static void *ref_host(const struct ibstruct_field_ref *ref, const void *host)
{
	return (uint8_t *)(uintptr_t)host + ref->host_offset;
}

static bool is_int_field(const struct ibs_field *f)
{
	return f->type == IBSTRUCT_TYPE_UINT || f->type == IBSTRUCT_TYPE_GUID;
}

IBSTRUCT_EXPORT int ibstruct_get_uint(const struct ibstruct_desc *d, const void *host,
				      const char *path, uint64_t *val)
{
	struct ibstruct_field_ref ref;
	struct ibs_field tmp;
	int rc;

	if (!host || !val)
		return -EINVAL;
	rc = ibstruct_field_lookup(d, path, &ref);
	if (rc)
		return rc;
	tmp = *ref_field(&ref);
	if (!is_int_field(&tmp) || ref.whole_array || !tmp.bits)
		return -EINVAL;
	tmp.host_offset = 0;
	*val = ibs_host_get(ref_host(&ref, host), &tmp, 0);
	return 0;
}

IBSTRUCT_EXPORT int ibstruct_set_uint(const struct ibstruct_desc *d, void *host, const char *path,
				      uint64_t val)
{
	struct ibstruct_field_ref ref;
	struct ibs_field tmp;
	int rc;

	if (!host)
		return -EINVAL;
	rc = ibstruct_field_lookup(d, path, &ref);
	if (rc)
		return rc;
	tmp = *ref_field(&ref);
	if (!is_int_field(&tmp) || ref.whole_array || !tmp.bits)
		return -EINVAL;
	if (tmp.bits < 64 && val >> tmp.bits)
		return -ERANGE;
	tmp.host_offset = 0;
	ibs_host_put(ref_host(&ref, host), &tmp, 0, val);
	return 0;
}

static int parse_u64(const char *text, uint64_t *v)
{
	char *end;

	if (!*text || isspace((unsigned char)*text) || *text == '-' || *text == '+')
		return -EINVAL;
	errno = 0;
	*v = strtoull(text, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

IBSTRUCT_EXPORT int ibstruct_set_text(const struct ibstruct_desc *d, void *host, const char *path,
				      const char *text)
{
	struct ibstruct_field_ref ref;
	const struct ibs_field *f;
	uint8_t *p;
	uint64_t v;
	int rc;

	if (!host || !text)
		return -EINVAL;
	rc = ibstruct_field_lookup(d, path, &ref);
	if (rc)
		return rc;
	f = ref_field(&ref);
	if (ref.whole_array || !f->bits)
		return -EINVAL;
	p = ref_host(&ref, host);
	switch (f->type) {
	case IBSTRUCT_TYPE_UINT:
		if (parse_u64(text, &v)) {
			/* 64-bit values (GID prefixes, keys) also take the GUID text form */
			if (f->bits == 64 && !ibstruct_guid_parse(text, &v))
				break;
			if (f->enum_id < 0 || ibstruct_enum_value(f->enum_id, text, &v))
				return -EINVAL;
		}
		break;
	case IBSTRUCT_TYPE_GUID:
		if (ibstruct_guid_parse(text, &v))
			return -EINVAL;
		break;
	case IBSTRUCT_TYPE_GID:
		return ibstruct_gid_parse(text, (ibstruct_gid_t *)p);
	case IBSTRUCT_TYPE_STR: {
		size_t n = f->bits / 8, l = strlen(text);

		if (l > n)
			return -ERANGE;
		memset(p, 0, n);
		memcpy(p, text, l);
		return 0;
	}
	case IBSTRUCT_TYPE_BYTES: {
		size_t n = f->bits / 8, i, l;
		uint8_t tmp[512];

		if (!strncasecmp(text, "0x", 2))
			text += 2;
		l = strlen(text);
		if (l % 2 || l / 2 > n || n > sizeof(tmp))
			return l / 2 > n ? -ERANGE : -EINVAL;
		memset(tmp, 0, n);
		for (i = 0; i < l / 2; i++) {
			int hi = ibs_hexdigit(text[2 * i]), lo = ibs_hexdigit(text[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return -EINVAL;
			tmp[i] = (uint8_t)(hi << 4 | lo);
		}
		memcpy(p, tmp, n);
		return 0;
	}
	default:
		return -EINVAL;
	}
	if (f->bits < 64 && v >> f->bits)
		return -ERANGE;
	{
		struct ibs_field tmp = *f;

		tmp.host_offset = 0;
		ibs_host_put(p, &tmp, 0, v);
	}
	return 0;
}

IBSTRUCT_EXPORT int ibstruct_field_comp_mask(const struct ibstruct_desc *d, const char *path,
					     uint64_t *mask)
{
	struct ibstruct_field_ref ref;
	const struct ibs_field *f;
	unsigned nbits;
	int rc;

	if (!mask)
		return -EINVAL;
	rc = ibstruct_field_lookup(d, path, &ref);
	if (rc)
		return rc;
	if (ref.cm_bit < 0)
		return -ENOENT;
	f = ref_field(&ref);
	nbits = f->type == IBSTRUCT_TYPE_STRUCT && ibs_field_sub(f) ? (unsigned)ibs_field_sub(f)->ncm : 1;
	if (ref.whole_array)
		nbits *= f->count;
	if (ref.cm_bit + nbits > 64)
		return -ERANGE;
	*mask = (nbits >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << nbits) - 1)) << ref.cm_bit;
	return 0;
}

IBSTRUCT_EXPORT int ibstruct_parse_assignment(const struct ibstruct_desc *d, void *host,
					      const char *assignment, uint64_t *comp_mask)
{
	const char *eq;
	char path[256];
	size_t n;
	int rc;

	if (!d || !host || !assignment)
		return -EINVAL;
	eq = strchr(assignment, '=');
	if (!eq)
		return -EINVAL;
	n = (size_t)(eq - assignment);
	if (!n || n >= sizeof(path))
		return -EINVAL;
	memcpy(path, assignment, n);
	path[n] = 0;
	rc = ibstruct_set_text(d, host, path, eq + 1);
	if (rc)
		return rc;
	if (comp_mask) {
		uint64_t m;

		if (!ibstruct_field_comp_mask(d, path, &m))
			*comp_mask |= m;
	}
	return 0;
}
