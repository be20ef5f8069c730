// SPDX-License-Identifier: BSD-3-Clause
/*
 * Names of classes, methods, attributes, enumerated values and MAD status codes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ibstruct-private.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

IBSTRUCT_EXPORT const char *ibstruct_version(void)
{
	return PACKAGE_VERSION;
}

IBSTRUCT_EXPORT const char *ibstruct_class_name(int mgmt_class)
{
	unsigned i;

	for (i = 0; i < ibs_nclasses; i++)
		if (ibs_classes[i].id == mgmt_class)
			return ibs_str(ibs_classes[i].name_off);
	return NULL;
}

IBSTRUCT_EXPORT const char *ibstruct_method_name(uint8_t method)
{
	unsigned i;

	for (i = 0; i < ibs_nmethods; i++)
		if (ibs_methods[i].code == method)
			return ibs_str(ibs_methods[i].name_off);
	return NULL;
}

IBSTRUCT_EXPORT const char *ibstruct_attr_name(int mgmt_class, uint16_t attr_id)
{
	return ibstruct_desc_name(ibstruct_desc_by_attr(mgmt_class, attr_id));
}

IBSTRUCT_EXPORT const char *ibstruct_rpc_name(int mgmt_class, uint8_t method)
{
	unsigned i;

	for (i = 0; i < ibs_nrpcs; i++)
		if (ibs_rpcs[i].mgmt_class == mgmt_class && ibs_rpcs[i].method == method)
			return ibs_str(ibs_rpcs[i].name_off);
	return NULL;
}

const char *ibs_enum_lookup(int enum_id, uint64_t value)
{
	const struct ibs_enum_table *t;
	unsigned i;

	if (enum_id < 0 || (unsigned)enum_id >= ibs_nenums)
		return NULL;
	t = &ibs_enums[enum_id];
	for (i = t->first; i < t->first + t->count; i++)
		if (ibs_enum_entries[i].value == value)
			return ibs_str(ibs_enum_entries[i].name_off);
	return NULL;
}

IBSTRUCT_EXPORT const char *ibstruct_enum_name(int enum_id, uint64_t value)
{
	return ibs_enum_lookup(enum_id, value);
}

IBSTRUCT_EXPORT int ibstruct_enum_value(int enum_id, const char *name, uint64_t *value)
{
	const struct ibs_enum_table *t;
	unsigned i;

	if (enum_id < 0 || (unsigned)enum_id >= ibs_nenums || !name || !value)
		return -EINVAL;
	t = &ibs_enums[enum_id];
	for (i = t->first; i < t->first + t->count; i++)
		if (!strcasecmp(ibs_str(ibs_enum_entries[i].name_off), name)) {
			*value = ibs_enum_entries[i].value;
			return 0;
		}
	return -ENOENT;
}

/* IBA 13.4.7, table 117: status bits 2-4. */
IBSTRUCT_EXPORT const char *ibstruct_mad_status_code_str(unsigned code)
{
	switch (code) {
	case 0:
		return NULL;
	case 1:
		return "bad base or class version";
	case 2:
		return "method not supported";
	case 3:
		return "method/attribute combination not supported";
	case 7:
		return "invalid attribute or attribute modifier value";
	default:
		return "reserved invalid field code";
	}
}

/* Class specific codes in status bits 8-15. */
IBSTRUCT_EXPORT const char *ibstruct_mad_class_status_str(int mgmt_class, unsigned code)
{
	/* text in place, no pointers: no relocations (see ibstruct-private.h) */
	static const char sa[][32] = {
		"",
		"ERR_NO_RESOURCES",
		"ERR_REQ_INVALID",
		"ERR_NO_RECORDS",
		"ERR_TOO_MANY_RECORDS",
		"ERR_REQ_INVALID_GID",
		"ERR_REQ_INSUFFICIENT_COMPONENTS",
		"ERR_REQ_DENIED",
	};

	if (mgmt_class == IBSTRUCT_CLASS_SA && code < sizeof(sa) / sizeof(sa[0]))
		return sa[code][0] ? sa[code] : NULL;
	if (mgmt_class == IBSTRUCT_CLASS_SA && code == 0x80)
		return "ERR_REQ_PRIORITY_SUGGESTED";
	return NULL;
}

IBSTRUCT_EXPORT int ibstruct_snprint_mad_status(char *buf, size_t len, int mgmt_class, uint16_t status)
{
	struct ibs_out o = { buf, buf ? len : 0, 0 };
	const char *sep = "";
	unsigned code = (status >> 2) & 7, cls = status >> 8;

	if (o.len)
		buf[0] = 0;
	/* the directed-route D bit is not part of the status */
	if (mgmt_class == IBSTRUCT_CLASS_SMP_DIRECTED)
		cls &= 0x7f;
	if (status & 1) {
		ibs_out_str(&o, "busy");
		sep = ", ";
	}
	if (status & 2) {
		ibs_out_printf(&o, "%sredirect required", sep);
		sep = ", ";
	}
	if (code) {
		ibs_out_printf(&o, "%s%s", sep, ibstruct_mad_status_code_str(code));
		sep = ", ";
	}
	if (cls) {
		const char *s = ibstruct_mad_class_status_str(mgmt_class, cls);
		const char *cn = ibstruct_class_name(mgmt_class);

		if (s)
			ibs_out_printf(&o, "%s%s %s", sep, cn ? cn : "class", s);
		else
			ibs_out_printf(&o, "%sclass specific error %u", sep, cls);
		sep = ", ";
	}
	if (!*sep)
		ibs_out_str(&o, "success");
	return ibs_out_finish(&o);
}
