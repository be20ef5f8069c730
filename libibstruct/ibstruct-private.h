/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibstruct internals: descriptor layout and big-endian bit access used by the
 * generated code.  Not installed.
 */
#ifndef IBSTRUCT_PRIVATE_H
#define IBSTRUCT_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ibmgmt/ibstruct.h>

#define IBSTRUCT_EXPORT __attribute__((visibility("default")))

#define IBS_T_UINT IBSTRUCT_TYPE_UINT
#define IBS_T_GUID IBSTRUCT_TYPE_GUID
#define IBS_T_GID IBSTRUCT_TYPE_GID
#define IBS_T_BYTES IBSTRUCT_TYPE_BYTES
#define IBS_T_STR IBSTRUCT_TYPE_STR
#define IBS_T_STRUCT IBSTRUCT_TYPE_STRUCT

#define IBS_FMT_NONE IBSTRUCT_FMT_NONE
#define IBS_FMT_UINT IBSTRUCT_FMT_UINT
#define IBS_FMT_INT IBSTRUCT_FMT_INT
#define IBS_FMT_HEX IBSTRUCT_FMT_HEX
#define IBS_FMT_RHEX IBSTRUCT_FMT_RHEX
#define IBS_FMT_BITFIELD IBSTRUCT_FMT_BITFIELD
#define IBS_FMT_ARRAY IBSTRUCT_FMT_ARRAY
#define IBS_FMT_STRING IBSTRUCT_FMT_STRING
#define IBS_FMT_NODE_TYPE IBSTRUCT_FMT_NODE_TYPE
#define IBS_FMT_LINKWIDTH IBSTRUCT_FMT_LINKWIDTH
#define IBS_FMT_LINKWIDTHSUP IBSTRUCT_FMT_LINKWIDTHSUP
#define IBS_FMT_LINKWIDTHEN IBSTRUCT_FMT_LINKWIDTHEN
#define IBS_FMT_LINKSPEED IBSTRUCT_FMT_LINKSPEED
#define IBS_FMT_LINKSPEEDSUP IBSTRUCT_FMT_LINKSPEEDSUP
#define IBS_FMT_LINKSPEEDEN IBSTRUCT_FMT_LINKSPEEDEN
#define IBS_FMT_LINKSPEEDEXT IBSTRUCT_FMT_LINKSPEEDEXT
#define IBS_FMT_LINKSPEEDEXTSUP IBSTRUCT_FMT_LINKSPEEDEXTSUP
#define IBS_FMT_LINKSPEEDEXTEN IBSTRUCT_FMT_LINKSPEEDEXTEN
#define IBS_FMT_LINKSPEEDEXT2 IBSTRUCT_FMT_LINKSPEEDEXT2
#define IBS_FMT_LINKSPEEDEXTSUP2 IBSTRUCT_FMT_LINKSPEEDEXTSUP2
#define IBS_FMT_LINKSPEEDEXTEN2 IBSTRUCT_FMT_LINKSPEEDEXTEN2
#define IBS_FMT_PORTSTATE IBSTRUCT_FMT_PORTSTATE
#define IBS_FMT_PHYSPORTSTATE IBSTRUCT_FMT_PHYSPORTSTATE
#define IBS_FMT_LINKDOWNDEFSTATE IBSTRUCT_FMT_LINKDOWNDEFSTATE
#define IBS_FMT_MTU IBSTRUCT_FMT_MTU
#define IBS_FMT_VLCAP IBSTRUCT_FMT_VLCAP
#define IBS_FMT_OPERVLS IBSTRUCT_FMT_OPERVLS
#define IBS_FMT_PORTCAPMASK IBSTRUCT_FMT_PORTCAPMASK
#define IBS_FMT_PORTCAPMASK2 IBSTRUCT_FMT_PORTCAPMASK2

enum ibs_disp {
	IBS_DISP_DEFAULT,
	IBS_DISP_DEC,
	IBS_DISP_HEX,
	IBS_DISP_STR,
};

#define IBS_F_RESERVED 0x1

/*
 * The generated tables hold no pointers: every pointer in a const table needs a dynamic
 * relocation, applied at each start of every program, which puts the table in .data.rel.ro
 * and dirties its pages (copy-on-write).  Without them the tables stay in .rodata: shared,
 * clean pages that cost a program nothing until it reads them.  So names are offsets into
 * ibs_strings, a struct's fields a slice of ibs_fields, a nested struct an index into
 * ibs_descs, an enum's values a slice of ibs_enum_entries, and unpack/pack go through a
 * switch on the descriptor's index (ibs_unpack_at(), ibs_pack_at()).  Use the accessors below.
 * The integers are as narrow as the spec allows (the generator checks the limits).
 */

struct ibs_field {
	uint32_t name_off;    /* the field's name in ibs_strings */
	uint32_t show_off;    /* infiniband-diags display name in ibs_strings, 0 = none */
	uint16_t bit_offset;  /* from the start of the struct, MSB first */
	uint16_t bits;        /* per element */
	uint16_t count;       /* array elements, 1 for scalars */
	uint16_t host_offset; /* offsetof() in the host struct */
	uint16_t host_size;   /* bytes of one element in the host struct */
	int16_t cm_bit;       /* component mask bit relative to the struct, -1 none */
	int16_t enum_id;      /* IBSTRUCT_ENUM_* or -1 */
	int16_t diags_alias;  /* infiniband-diags prints this field's line with the value
			       * of field [diags_alias] of the same struct (libibmad quirks),
			       * -1 none */
	int16_t sub_index;    /* nested struct: index in ibs_descs, -1 none */
	uint8_t type;         /* enum ibstruct_type */
	uint8_t fmt;          /* enum ibstruct_diags_fmt */
	uint8_t disp;         /* enum ibs_disp */
	uint8_t flags;        /* IBS_F_* */
};

/* The public handle is a pointer into ibs_descs. */
struct ibstruct_desc {
	uint32_t name_off;    /* spec name ("SMPNodeInfo") in ibs_strings */
	uint32_t c_name_off;  /* C name ("smp_node_info") in ibs_strings */
	uint32_t text_off;    /* description in ibs_strings, 0 = none */
	uint32_t methods;     /* bit n: method n allowed */
	int32_t attr_id;      /* -1: not an attribute */
	int16_t mgmt_class;   /* -1: generic/none */
	uint16_t size;        /* wire bytes */
	uint16_t host_size;   /* sizeof the host struct */
	uint16_t ncm;         /* component mask bits */
	uint16_t first_field; /* the fields are ibs_fields[first_field .. + nfields - 1] */
	uint8_t nfields;
	uint8_t record;       /* an SA record (has a component mask) */
};

struct ibs_enum_entry {
	uint32_t value;
	uint32_t name_off;
};

/* An enum's values: ibs_enum_entries[first .. first + count - 1]. */
struct ibs_enum_table {
	uint32_t name_off;
	uint16_t first;
	uint16_t count;
};

struct ibs_class_entry {
	uint32_t name_off;
	uint32_t desc_off;
	int16_t id;
	uint8_t version;
};

struct ibs_method_entry {
	uint32_t name_off;
	uint8_t code;
};

struct ibs_rpc_entry {
	uint32_t name_off;
	uint8_t method;
	int16_t mgmt_class;
};

/* Declared hidden (as defined) so that the code addresses them directly, not through the GOT
 * (a GOT entry is a relocation too). */
#pragma GCC visibility push(hidden)

/* every name and description of the tables, NUL-separated; offset 0 is the empty string */
extern const char ibs_strings[];
extern const struct ibstruct_desc ibs_descs[];
extern const unsigned ibs_ndescs;
extern const struct ibs_field ibs_fields[];
extern const struct ibs_enum_entry ibs_enum_entries[];
extern const struct ibs_enum_table ibs_enums[];
extern const unsigned ibs_nenums;
extern const struct ibs_class_entry ibs_classes[];
extern const unsigned ibs_nclasses;
extern const struct ibs_method_entry ibs_methods[];
extern const unsigned ibs_nmethods;
extern const struct ibs_rpc_entry ibs_rpcs[];
extern const unsigned ibs_nrpcs;

/* ibstruct_unpack()/ibstruct_pack() of the struct ibs_descs[index] (generated switches) */
int ibs_unpack_at(unsigned index, void *host, const void *buf, size_t len);
int ibs_pack_at(unsigned index, const void *host, void *buf, size_t len);

#pragma GCC visibility pop

static inline const char *ibs_str(uint32_t off)
{
	return ibs_strings + off;
}

/* the position in ibs_descs, which ibs_unpack_at() and ibs_pack_at() take */
static inline unsigned ibs_desc_index(const struct ibstruct_desc *d)
{
	return (unsigned)(d - ibs_descs);
}

static inline const char *ibs_desc_name(const struct ibstruct_desc *d)
{
	return ibs_strings + d->name_off;
}

static inline const char *ibs_desc_c_name(const struct ibstruct_desc *d)
{
	return ibs_strings + d->c_name_off;
}

/* NULL when the struct has no description */
static inline const char *ibs_desc_text(const struct ibstruct_desc *d)
{
	return d->text_off ? ibs_strings + d->text_off : NULL;
}

/* the struct's fields, d->nfields of them */
static inline const struct ibs_field *ibs_desc_fields(const struct ibstruct_desc *d)
{
	return ibs_fields + d->first_field;
}

static inline const char *ibs_field_name(const struct ibs_field *f)
{
	return ibs_strings + f->name_off;
}

/* NULL when the field has no infiniband-diags name */
static inline const char *ibs_field_show(const struct ibs_field *f)
{
	return f->show_off ? ibs_strings + f->show_off : NULL;
}

static inline const struct ibstruct_desc *ibs_field_sub(const struct ibs_field *f)
{
	return f->sub_index >= 0 ? &ibs_descs[f->sub_index] : NULL;
}

/* ---- big-endian access ---------------------------------------------------------- */

static inline uint16_t ibs_be16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap16(v);
#endif
	return v;
}

static inline uint32_t ibs_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline uint64_t ibs_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void ibs_put_be16(uint8_t *p, uint16_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap16(v);
#endif
	memcpy(p, &v, 2);
}

static inline void ibs_put_be32(uint8_t *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, 4);
}

static inline void ibs_put_be64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, 8);
}

static inline uint64_t ibs_load(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* `bits` bits ending `shift` bits above the least significant bit of the n-byte
 * big-endian word at p (n <= 8). */
static inline uint64_t ibs_getbits(const uint8_t *p, unsigned n, unsigned shift, unsigned bits)
{
	uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;

	return (ibs_load(p, n) >> shift) & mask;
}

/* `bits` bits ending `shift` bits above the least significant bit of the 8-byte
 * big-endian word at p (the caller guarantees 8 readable bytes). */
static inline uint64_t ibs_getbits64(const uint8_t *p, unsigned shift, unsigned bits)
{
	uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;

	return (ibs_be64(p) >> shift) & mask;
}

/* OR `v` into the same place (the destination bits must be zero). */
static inline void ibs_orbits(uint8_t *p, unsigned n, unsigned shift, unsigned bits, uint64_t v)
{
	uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
	uint64_t w = (v & mask) << shift;
	unsigned i;

	for (i = 0; i < n; i++)
		p[i] |= (uint8_t)(w >> (8 * (n - 1 - i)));
}

/* Generic bit access at any offset (up to 64 bits, any alignment). */
uint64_t ibs_get_any(const uint8_t *p, uint32_t bit_offset, unsigned bits);

/* The value of a hex digit, -1 for any other character. */
static inline int ibs_hexdigit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads a leaf element of the host struct as an integer (uint/guid). */
uint64_t ibs_host_get(const void *host, const struct ibs_field *f, unsigned elem);
void ibs_host_put(void *host, const struct ibs_field *f, unsigned elem, uint64_t v);

const char *ibs_enum_lookup(int enum_id, uint64_t value);

/* snprintf into buf at *pos, tracking the full length like snprintf does. */
struct ibs_out {
	char *buf;
	size_t len;
	size_t pos;
};

void ibs_out_printf(struct ibs_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ibs_out_str(struct ibs_out *o, const char *s);
int ibs_out_finish(struct ibs_out *o);

#endif /* IBSTRUCT_PRIVATE_H */
