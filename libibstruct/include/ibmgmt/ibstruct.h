/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibstruct: InfiniBand Architecture wire structures.
 *
 * Every structure is generated from libibstruct/spec/ into a host-order C struct
 * (struct ibstruct_<name>, see ibstruct-gen.h) with pack/unpack functions and a
 * descriptor (struct ibstruct_desc) that gives field access by dotted name, the SA
 * component mask bits and the printers.
 *
 * Conventions: functions return 0 (or a length) on success and a negative errno on
 * failure; nothing here prints, allocates global state or exits.  Printers write into
 * caller buffers with snprintf() semantics: they return the length the whole text needs
 * (excluding the terminating NUL) and never write more than len bytes.
 */
#ifndef IBMGMT_IBSTRUCT_H
#define IBMGMT_IBSTRUCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ibmgmt/ibstruct-types.h>
#include <ibmgmt/ibstruct-gen.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Descriptors ---------------------------------------------------------------- */

/* Look up by spec name ("SMPNodeInfo") or C name ("smp_node_info"), case-insensitive. */
const struct ibstruct_desc *ibstruct_desc_by_name(const char *name);
/* The attribute of a management class (generic attributes such as ClassPortInfo match
 * any class). */
const struct ibstruct_desc *ibstruct_desc_by_attr(int mgmt_class, uint16_t attr_id);
/* Iterate: index 0.. until NULL. */
const struct ibstruct_desc *ibstruct_desc_at(unsigned index);
unsigned ibstruct_desc_count(void);

const char *ibstruct_desc_name(const struct ibstruct_desc *d);
const char *ibstruct_desc_c_name(const struct ibstruct_desc *d);
const char *ibstruct_desc_description(const struct ibstruct_desc *d);
size_t ibstruct_desc_size(const struct ibstruct_desc *d);      /* wire bytes */
size_t ibstruct_desc_host_size(const struct ibstruct_desc *d); /* sizeof host struct */
int ibstruct_desc_mgmt_class(const struct ibstruct_desc *d);   /* -1: generic/none */
int ibstruct_desc_attr_id(const struct ibstruct_desc *d);      /* -1: not an attribute */
/* Bit (1 << method) set for each request method the attribute allows. */
uint32_t ibstruct_desc_methods(const struct ibstruct_desc *d);
bool ibstruct_desc_allows_method(const struct ibstruct_desc *d, uint8_t method);
bool ibstruct_desc_is_record(const struct ibstruct_desc *d);

/* Generic pack/unpack through a descriptor (same checks as the typed functions):
 * -EINVAL on NULL arguments, -EMSGSIZE if len is shorter than the wire size,
 * -ERANGE (pack) if a value does not fit its field. */
int ibstruct_unpack(const struct ibstruct_desc *d, void *host, const void *buf, size_t len);
int ibstruct_pack(const struct ibstruct_desc *d, const void *host, void *buf, size_t len);

/* ---- Fields by dotted name ------------------------------------------------------- */

enum ibstruct_type {
	IBSTRUCT_TYPE_UINT = 0,
	IBSTRUCT_TYPE_GUID,
	IBSTRUCT_TYPE_GID,
	IBSTRUCT_TYPE_BYTES,
	IBSTRUCT_TYPE_STR,
	IBSTRUCT_TYPE_STRUCT,
};

/* A resolved field path such as "nodeInfo.portGUID" or "PKeyBlock[3]". */
struct ibstruct_field_ref {
	const struct ibstruct_desc *parent; /* struct that holds the leaf */
	unsigned field;                     /* index in parent's field table */
	unsigned elem;                      /* array element (0 for scalars) */
	bool whole_array;                   /* path named an array without [i] */
	uint32_t bit_offset;                /* from the start of the top struct */
	size_t host_offset;                 /* from the start of the top host struct */
	int cm_bit;                         /* SA component mask bit, -1 if none */
};

/* -ENOENT: no such field; -EINVAL: malformed path; -ERANGE: index out of range. */
int ibstruct_field_lookup(const struct ibstruct_desc *d, const char *path,
			  struct ibstruct_field_ref *ref);
/* The top-level fields of a struct, in wire order (index 0 .. count - 1). */
unsigned ibstruct_desc_field_count(const struct ibstruct_desc *d);
int ibstruct_field_at(const struct ibstruct_desc *d, unsigned index, struct ibstruct_field_ref *ref);
const char *ibstruct_field_name(const struct ibstruct_field_ref *ref);
/* The infiniband-diags display name, or NULL. */
const char *ibstruct_field_show_name(const struct ibstruct_field_ref *ref);
enum ibstruct_type ibstruct_field_type(const struct ibstruct_field_ref *ref);
unsigned ibstruct_field_bits(const struct ibstruct_field_ref *ref); /* per element */
unsigned ibstruct_field_count(const struct ibstruct_field_ref *ref);
const struct ibstruct_desc *ibstruct_field_struct(const struct ibstruct_field_ref *ref);
/* How infiniband-diags prints the field (enum ibstruct_diags_fmt, declared below). */
int ibstruct_field_diags_fmt(const struct ibstruct_field_ref *ref);

/* Integer fields (uint, guid) of the host struct. */
int ibstruct_get_uint(const struct ibstruct_desc *d, const void *host, const char *path,
		      uint64_t *val);
int ibstruct_set_uint(const struct ibstruct_desc *d, void *host, const char *path, uint64_t val);

/* Set any leaf from text: numbers (base 0), enum value names ("Active", "4X"),
 * GUIDs (0x0002c90300001492 or 0002:c903:0000:1492), GIDs (fe80::1), strings,
 * bytes as hex.  -EINVAL for text that does not parse, -ERANGE for a value that does
 * not fit. */
int ibstruct_set_text(const struct ibstruct_desc *d, void *host, const char *path,
		      const char *text);
/* "path=value": sets the field and ORs its component mask bit(s) into *comp_mask
 * (comp_mask may be NULL). */
int ibstruct_parse_assignment(const struct ibstruct_desc *d, void *host, const char *assignment,
			      uint64_t *comp_mask);
/* The component mask of a field path (all bits of a nested struct or array). */
int ibstruct_field_comp_mask(const struct ibstruct_desc *d, const char *path, uint64_t *mask);
/* A field's value as text (the form ibstruct_set_text parses). */
int ibstruct_format_value(const struct ibstruct_desc *d, const void *host, const char *path,
			  char *buf, size_t len);

/* ---- Printers ------------------------------------------------------------------- */

/* infiniband-diags style "Name:....value\n" for every field with a display name, in
 * wire order, byte-identical to libibmad's mad_dump_field(). */
int ibstruct_snprint_diags(char *buf, size_t len, const struct ibstruct_desc *d,
			   const void *host);
/* The same for the fields from display name `first` to `last` (inclusive, wire order). */
int ibstruct_snprint_diags_range(char *buf, size_t len, const struct ibstruct_desc *d,
				 const void *host, const char *first, const char *last);
/* One "Name:....value" line (no newline) of the field at `path`; `name` overrides the
 * display name when not NULL. */
int ibstruct_snprint_diags_field(char *buf, size_t len, const struct ibstruct_desc *d,
				 const void *host, const char *path, const char *name);
/* The "Name:....value" line of an arbitrary text value (dots to column 33). */
int ibstruct_snprint_diags_line(char *buf, size_t len, const char *name, const char *value);

enum ibstruct_diags_fmt {
	IBSTRUCT_FMT_NONE = 0,
	IBSTRUCT_FMT_UINT,
	IBSTRUCT_FMT_INT,
	IBSTRUCT_FMT_HEX,
	IBSTRUCT_FMT_RHEX,
	IBSTRUCT_FMT_BITFIELD,
	IBSTRUCT_FMT_ARRAY,
	IBSTRUCT_FMT_STRING,
	IBSTRUCT_FMT_NODE_TYPE,
	IBSTRUCT_FMT_LINKWIDTH,
	IBSTRUCT_FMT_LINKWIDTHSUP,
	IBSTRUCT_FMT_LINKWIDTHEN,
	IBSTRUCT_FMT_LINKSPEED,
	IBSTRUCT_FMT_LINKSPEEDSUP,
	IBSTRUCT_FMT_LINKSPEEDEN,
	IBSTRUCT_FMT_LINKSPEEDEXT,
	IBSTRUCT_FMT_LINKSPEEDEXTSUP,
	IBSTRUCT_FMT_LINKSPEEDEXTEN,
	IBSTRUCT_FMT_LINKSPEEDEXT2,
	IBSTRUCT_FMT_LINKSPEEDEXTSUP2,
	IBSTRUCT_FMT_LINKSPEEDEXTEN2,
	IBSTRUCT_FMT_PORTSTATE,
	IBSTRUCT_FMT_PHYSPORTSTATE,
	IBSTRUCT_FMT_LINKDOWNDEFSTATE,
	IBSTRUCT_FMT_MTU,
	IBSTRUCT_FMT_VLCAP,
	IBSTRUCT_FMT_OPERVLS,
	IBSTRUCT_FMT_PORTCAPMASK,
	IBSTRUCT_FMT_PORTCAPMASK2,
};

/* A value in a libibmad format: integers of `bits` width via `val`, byte arrays and
 * strings via `bytes` (bits/8 bytes). */
int ibstruct_snprint_diags_value(char *buf, size_t len, enum ibstruct_diags_fmt fmt,
				 unsigned bits, uint64_t val, const void *bytes);

/* Packet dump of wire bytes: one line per 32-bit word, "offset: hexword  field=value ..."
 * (two or more zero words in which no field starts share one line: "(zero up to byte N)"),
 * nested structs flattened into dotted names, non-zero reserved bits shown.  `indent`
 * spaces prefix every line. */
int ibstruct_snprint_dump(char *buf, size_t len, const struct ibstruct_desc *d, const void *wire,
			  size_t wire_len, unsigned indent);
/* The same with every offset counted from `base` (the struct's place in a larger packet). */
int ibstruct_snprint_dump_at(char *buf, size_t len, const struct ibstruct_desc *d,
			     const void *wire, size_t wire_len, unsigned indent, size_t base);
/* The record dumps of infiniband-diags' saquery ("NodeRecord dump:" ...), byte for byte,
 * from a record's wire bytes.  node_name replaces a NodeRecord's description (after a
 * node-name-map lookup) when not NULL.  -EOPNOTSUPP for records saquery has no dump for. */
enum {
	IBSTRUCT_SAQ_SHOW_KEYS = 1 << 0, /* -K: show keys instead of "<not displayed>" */
	IBSTRUCT_SAQ_MCAST_TOP = 1 << 1, /* the SA supports MulticastFDBTop (SwitchInfoRecord) */
	IBSTRUCT_SAQ_BRIEF = 1 << 2,     /* the short PortInfoRecord form */
};
int ibstruct_snprint_saquery(char *buf, size_t len, const struct ibstruct_desc *d,
			     const void *wire, size_t wire_len, const char *node_name,
			     unsigned flags);

/* Plain hex dump (offset + 32-bit words, 4 per line) of any bytes. */
int ibstruct_snprint_hex(char *buf, size_t len, const void *data, size_t data_len,
			 unsigned indent);

/* ---- Names ------------------------------------------------------------------------ */

/* NULL when unknown. */
const char *ibstruct_class_name(int mgmt_class);
const char *ibstruct_method_name(uint8_t method);
/* Spec struct name of the attribute ("SMPPortInfo"), NULL when unknown. */
const char *ibstruct_attr_name(int mgmt_class, uint16_t attr_id);
/* The RPC name of a class/method pair ("SubnGet"), NULL when unknown. */
const char *ibstruct_rpc_name(int mgmt_class, uint8_t method);
/* Value name of an enumeration (IBSTRUCT_ENUM_*), NULL when unknown. */
const char *ibstruct_enum_name(int enum_id, uint64_t value);
/* Parse an enumeration value name (case-insensitive). */
int ibstruct_enum_value(int enum_id, const char *name, uint64_t *value);

/* MAD status: bit 0 busy, bit 1 redirect, bits 2-4 invalid-field code, bits 8-15 class
 * specific.  Writes e.g. "busy, method not supported" or "SA: no records". */
int ibstruct_snprint_mad_status(char *buf, size_t len, int mgmt_class, uint16_t status);
/* The generic invalid-field code text (status bits 2-4), NULL for 0. */
const char *ibstruct_mad_status_code_str(unsigned code);
/* Class specific status text (status bits 8-15) for SA and others, NULL when unknown. */
const char *ibstruct_mad_class_status_str(int mgmt_class, unsigned code);

/* ---- GUIDs and GIDs ----------------------------------------------------------------- */

enum ibstruct_guid_style {
	IBSTRUCT_GUID_HEX,   /* 0x0002c90300001492 (libibmad) */
	IBSTRUCT_GUID_COLON, /* 0002:c903:0000:1492 (canonical) */
};

/* Accepts 0x + 1..16 hex digits and four ':'-separated groups of 1..4 hex digits
 * (0002:c903:0000:1492, 2:c903:0:1492).  -EINVAL otherwise. */
int ibstruct_guid_parse(const char *text, uint64_t *guid);
int ibstruct_guid_format(char *buf, size_t len, uint64_t guid, enum ibstruct_guid_style style);
/* IPv6 text form (fe80::2:c903:0:1492) in and out. */
int ibstruct_gid_parse(const char *text, ibstruct_gid_t *gid);
int ibstruct_gid_format(char *buf, size_t len, const ibstruct_gid_t *gid);
uint64_t ibstruct_gid_prefix(const ibstruct_gid_t *gid);
uint64_t ibstruct_gid_guid(const ibstruct_gid_t *gid);
void ibstruct_gid_make(ibstruct_gid_t *gid, uint64_t prefix, uint64_t guid);

/* Library version string ("1.0.0"). */
const char *ibstruct_version(void);

#ifdef __cplusplus
}
#endif

#endif /* IBMGMT_IBSTRUCT_H */
