// SPDX-License-Identifier: BSD-3-Clause
/*
 * Printers: the infiniband-diags "Name:....value" style (the output of libibmad's
 * mad_dump_* formatters, reproduced byte for byte) and the packet dump.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ibstruct-private.h"

/* ---- output buffer with snprintf semantics ------------------------------------------ */

void ibs_out_printf(struct ibs_out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->pos < o->len ? o->len - o->pos : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

void ibs_out_str(struct ibs_out *o, const char *s)
{
	size_t l = strlen(s);

	if (o->pos < o->len) {
		size_t room = o->len - o->pos - 1, c = l < room ? l : room;

		memcpy(o->buf + o->pos, s, c);
		o->buf[o->pos + c] = 0;
	}
	o->pos += l;
}

int ibs_out_finish(struct ibs_out *o)
{
	if (o->len)
		o->buf[o->pos < o->len ? o->pos : o->len - 1] = 0;
	return o->pos > INT32_MAX ? -EOVERFLOW : (int)o->pos;
}

static void out_init(struct ibs_out *o, char *buf, size_t len)
{
	o->buf = buf;
	o->len = buf ? len : 0;
	o->pos = 0;
	if (o->len)
		buf[0] = 0;
}

/* ---- libibmad value formats ---------------------------------------------------------- */

/*
 * The name tables of this file hold their text in place (char arrays, not pointers), so that
 * they need no relocation at start-up (see ibstruct-private.h); "" marks a missing name.
 */

/* One value of a sparse enumeration; libibmad prints "undefined (N)" for the others. */
struct named {
	unsigned value;
	char name[20];
};

static const struct named width_names[] = {
	{ 1, "1X" }, { 2, "4X" }, { 4, "8X" }, { 8, "12X" }, { 16, "2X" }, { 0, "" },
};
static const struct named speed_names[] = {
	{ 0, "Extended speed" }, { 1, "2.5 Gbps" }, { 2, "5.0 Gbps" }, { 4, "10.0 Gbps" },
	{ 0, "" },
};
static const struct named speed_ext_names[] = {
	{ 0, "No Extended Speed" }, { 1, "14.0625 Gbps" }, { 2, "25.78125 Gbps" },
	{ 4, "53.125 Gbps" }, { 8, "106.25 Gbps" }, { 0, "" },
};
static const struct named speed_ext2_names[] = {
	{ 0, "No Extended Speed 2" }, { 1, "212.5 Gbps" }, { 0, "" },
};

static void fmt_named(struct ibs_out *o, unsigned v, const struct named *names)
{
	for (; names->name[0]; names++)
		if (names->value == v) {
			ibs_out_str(o, names->name);
			return;
		}
	ibs_out_printf(o, "undefined (%d)", (int)v);
}

/* The names of the bits set in v, joined by " or "; false if none. */
static bool fmt_bits(struct ibs_out *o, unsigned v, const struct named *names)
{
	bool any = false;

	for (; names->name[0]; names++)
		if (names->value && (v & names->value)) {
			ibs_out_printf(o, "%s%s", any ? " or " : "", names->name);
			any = true;
		}
	return any;
}

static void fmt_linkwidth_list(struct ibs_out *o, unsigned w)
{
	bool any = fmt_bits(o, w, width_names);

	if (w == 0 || (w >> 5))
		ibs_out_printf(o, "%sundefined (%d)", any ? " or " : "", (int)w);
}

static void fmt_linkspeed_list(struct ibs_out *o, unsigned s)
{
	bool any = fmt_bits(o, s, speed_names);

	if (s == 0 || (s >> 3))
		ibs_out_printf(o, "%sundefined (%d)", any ? " or " : "", (int)s);
	/* libibmad marks every combination but 1, 3, 5, 7 as an extension */
	if (!(s >> 3) && s != 1 && s != 3 && s != 5 && s != 7)
		ibs_out_str(o, " (IBA extension)");
}

static void fmt_linkspeedext_list(struct ibs_out *o, unsigned s)
{
	bool any;

	if (s == 0) {
		ibs_out_str(o, "0");
		return;
	}
	any = fmt_bits(o, s, speed_ext_names);
	if (s >> 4)
		ibs_out_printf(o, "%sundefined (%d)", any ? " or " : "", (int)s);
}

static void fmt_linkspeedext2_list(struct ibs_out *o, unsigned s)
{
	/* libibmad writes the "undefined" text over the speed name, at the start */
	if (s == 0)
		ibs_out_str(o, "0");
	else if (s >> 1)
		ibs_out_printf(o, " undefined (%d)", (int)s);
	else
		ibs_out_str(o, "212.5 Gbps");
}

/* bytes per name in the state tables of fmt_value(), NUL included */
#define STATE_NAME_MAX 26

static void fmt_table(struct ibs_out *o, unsigned v, const char (*names)[STATE_NAME_MAX],
		      unsigned n)
{
	if (v < n && names[v][0])
		ibs_out_str(o, names[v]);
	else
		ibs_out_printf(o, "?(%d)", (int)v);
}

/* bytes per capability name, NUL included */
#define CAPMASK_NAME_MAX 40

static const char capmask_names[32][CAPMASK_NAME_MAX] = {
	[1] = "IsSM",
	[2] = "IsNoticeSupported",
	[3] = "IsTrapSupported",
	[4] = "IsOptionalIPDSupported",
	[5] = "IsAutomaticMigrationSupported",
	[6] = "IsSLMappingSupported",
	[7] = "IsMKeyNVRAM",
	[8] = "IsPKeyNVRAM",
	[9] = "IsLedInfoSupported",
	[10] = "IsSMdisabled",
	[11] = "IsSystemImageGUIDsupported",
	[12] = "IsPkeySwitchExternalPortTrapSupported",
	[14] = "IsExtendedSpeedsSupported",
	[15] = "IsCapabilityMask2Supported",
	[16] = "IsCommunicatonManagementSupported",
	[17] = "IsSNMPTunnelingSupported",
	[18] = "IsReinitSupported",
	[19] = "IsDeviceManagementSupported",
	[20] = "IsVendorClassSupported",
	[21] = "IsDRNoticeSupported",
	[22] = "IsCapabilityMaskNoticeSupported",
	[23] = "IsBootManagementSupported",
	[24] = "IsLinkRoundTripLatencySupported",
	[25] = "IsClientRegistrationSupported",
	[26] = "IsOtherLocalChangesNoticeSupported",
	[27] = "IsLinkSpeedWidthPairsTableSupported",
	[28] = "IsVendorSpecificMadsTableSupported",
	[29] = "IsMcastPkeyTrapSuppressionSupported",
	[30] = "IsMulticastFDBTopSupported",
	[31] = "IsHierarchyInfoSupported",
};

static const char capmask2_names[32][CAPMASK_NAME_MAX] = {
	[0] = "IsSetNodeDescriptionSupported",
	[1] = "IsPortInfoExtendedSupported",
	[2] = "IsVirtualizationSupported",
	[3] = "IsSwitchPortStateTableSupported",
	[4] = "IsLinkWidth2xSupported",
	[5] = "IsLinkSpeedHDRSupported",
	[6] = "IsMKeyProtectBitsExtSupported",
	[7] = "IsEnhancedTrap128Supported",
	[8] = "IsPartitionTopSupported",
	[9] = "IsEnhancedQoSArbiterSupported",
	[10] = "IsLinkSpeedNDRSupported",
};

static void fmt_capmask(struct ibs_out *o, uint32_t mask, const char (*names)[CAPMASK_NAME_MAX])
{
	unsigned i;

	ibs_out_printf(o, "0x%x", mask);
	for (i = 0; i < 32; i++)
		if ((mask >> i) & 1 && names[i][0])
			ibs_out_printf(o, "\n\t\t\t\t%s", names[i]);
}

/* libibmad passes values of 33..63 bits as raw big-endian bytes that its integer
 * formatters then read as a host-order uint64_t; reproduce that. */
static uint64_t odd_width_value(unsigned bits, uint64_t v)
{
	uint8_t raw[8] = { 0 };
	unsigned n = (bits + 7) / 8, i;
	uint64_t r = 0;

	if (bits <= 32 || bits >= 64)
		return v;
	for (i = 0; i < n; i++)
		raw[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	for (i = 0; i < 8; i++)
		r |= (uint64_t)raw[i] << (8 * i);
	return r;
}

static void fmt_value(struct ibs_out *o, enum ibstruct_diags_fmt fmt, unsigned bits, uint64_t v,
		      const uint8_t *bytes)
{
	static const char portstate[][STATE_NAME_MAX] = {
		"NoChange", "Down", "Initialize", "Armed", "Active",
	};
	static const char physstate[][STATE_NAME_MAX] = {
		"NoChange", "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp",
		"LinkErrorRecovery", "PhyTest",
	};
	static const char mtu[][STATE_NAME_MAX] = { "", "256", "512", "1024", "2048", "4096" };
	static const char vls[][STATE_NAME_MAX] = {
		"No change", "VL0", "VL0-1", "VL0-3", "VL0-7", "VL0-14",
	};
	static const char vlcap[][STATE_NAME_MAX] = {
		"", "VL0", "VL0-1", "VL0-3", "VL0-7", "VL0-14",
	};
	unsigned sz = (bits + 7) / 8;
	uint32_t v32 = (uint32_t)v;
	unsigned i;

	v = odd_width_value(bits, v);
	switch (fmt) {
	case IBSTRUCT_FMT_NONE:
		break;
	case IBSTRUCT_FMT_INT:
	case IBSTRUCT_FMT_UINT:
		if (sz == 1)
			v32 &= 0xff;
		else if (sz == 2)
			v32 &= 0xffff;
		if (sz > 4 && sz <= 8)
			ibs_out_printf(o, "%" PRIu64, v);
		else if (sz >= 1 && sz <= 4 && fmt == IBSTRUCT_FMT_INT)
			ibs_out_printf(o, "%d", (int32_t)v32);
		else if (sz >= 1 && sz <= 4)
			ibs_out_printf(o, "%u", v32);
		break;
	case IBSTRUCT_FMT_HEX:
	case IBSTRUCT_FMT_RHEX:
		if (sz >= 1 && sz <= 8) {
			uint64_t mask = sz == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * sz)) - 1;

			ibs_out_printf(o, "%s%0*" PRIx64, fmt == IBSTRUCT_FMT_HEX ? "0x" : "",
				       (int)(2 * sz), v & mask);
		}
		break;
	case IBSTRUCT_FMT_BITFIELD:
		ibs_out_printf(o, "0x%x", v32);
		break;
	case IBSTRUCT_FMT_ARRAY:
		if (bytes)
			for (i = 0; i < sz; i++)
				ibs_out_printf(o, "%02x", bytes[i]);
		else {
			/* libibmad hands integers to its array formatter in host byte order */
			uint8_t raw[8];

			if (sz <= 4)
				memcpy(raw, &v32, 4);
			else
				memcpy(raw, &v, 8);
			for (i = 0; i < sz && i < 8; i++)
				ibs_out_printf(o, "%02x", raw[i]);
		}
		break;
	case IBSTRUCT_FMT_STRING: {
		/* snprintf(buf, valsz, "'%s'", val): the text is cut at valsz - 1 bytes */
		char tmp[1024];
		size_t l = 0;

		if (bytes) {
			while (l < sz && l < sizeof(tmp) - 1 && bytes[l])
				l++;
			memcpy(tmp, bytes, l);
		}
		tmp[l] = 0;
		if (sz) {
			char line[1030];

			snprintf(line, sz < sizeof(line) ? sz : sizeof(line), "'%s'", tmp);
			ibs_out_str(o, line);
		}
		break;
	}
	case IBSTRUCT_FMT_NODE_TYPE:
		if (v32 >= 1 && v32 <= 3)
			ibs_out_str(o, v32 == 1 ? "Channel Adapter" : v32 == 2 ? "Switch" : "Router");
		else
			ibs_out_printf(o, "?(%d)?", (int)v32);
		break;
	case IBSTRUCT_FMT_LINKWIDTH:
		fmt_named(o, v32, width_names);
		break;
	case IBSTRUCT_FMT_LINKWIDTHSUP:
		fmt_linkwidth_list(o, v32);
		switch (v32) {
		case 1: case 3: case 7: case 11: case 15: case 17: case 19: case 23: case 27: case 31:
			break;
		default:
			if (!(v32 >> 5))
				ibs_out_str(o, " (IBA extension)");
		}
		break;
	case IBSTRUCT_FMT_LINKWIDTHEN:
		fmt_linkwidth_list(o, v32);
		break;
	case IBSTRUCT_FMT_LINKSPEED:
		fmt_named(o, v32, speed_names);
		break;
	case IBSTRUCT_FMT_LINKSPEEDSUP:
	case IBSTRUCT_FMT_LINKSPEEDEN:
		fmt_linkspeed_list(o, v32);
		break;
	case IBSTRUCT_FMT_LINKSPEEDEXT:
		fmt_named(o, v32, speed_ext_names);
		break;
	case IBSTRUCT_FMT_LINKSPEEDEXTSUP:
		fmt_linkspeedext_list(o, v32);
		break;
	case IBSTRUCT_FMT_LINKSPEEDEXTEN:
		if (v32 == 30)
			ibs_out_str(o, "Extended link speeds disabled");
		else
			fmt_linkspeedext_list(o, v32);
		break;
	case IBSTRUCT_FMT_LINKSPEEDEXT2:
		fmt_named(o, v32, speed_ext2_names);
		break;
	case IBSTRUCT_FMT_LINKSPEEDEXTSUP2:
	case IBSTRUCT_FMT_LINKSPEEDEXTEN2:
		fmt_linkspeedext2_list(o, v32);
		break;
	case IBSTRUCT_FMT_PORTSTATE:
		fmt_table(o, v32, portstate, 5);
		break;
	case IBSTRUCT_FMT_PHYSPORTSTATE:
		fmt_table(o, v32, physstate, 8);
		break;
	case IBSTRUCT_FMT_LINKDOWNDEFSTATE:
		fmt_table(o, v32, physstate, 3);
		break;
	case IBSTRUCT_FMT_MTU:
		fmt_table(o, v32, mtu, 6);
		break;
	case IBSTRUCT_FMT_VLCAP:
		fmt_table(o, v32, vlcap, 6);
		break;
	case IBSTRUCT_FMT_OPERVLS:
		fmt_table(o, v32, vls, 6);
		break;
	case IBSTRUCT_FMT_PORTCAPMASK:
		fmt_capmask(o, v32, capmask_names);
		break;
	case IBSTRUCT_FMT_PORTCAPMASK2:
		fmt_capmask(o, v32, capmask2_names);
		break;
	}
}

IBSTRUCT_EXPORT int ibstruct_snprint_diags_value(char *buf, size_t len, enum ibstruct_diags_fmt fmt,
						 unsigned bits, uint64_t val, const void *bytes)
{
	struct ibs_out o;

	out_init(&o, buf, len);
	fmt_value(&o, fmt, bits, val, bytes);
	return ibs_out_finish(&o);
}

static void diags_name(struct ibs_out *o, const char *name)
{
	size_t l = strlen(name);

	ibs_out_str(o, name);
	ibs_out_str(o, ":");
	for (; l < 32; l++)
		ibs_out_str(o, ".");
}

IBSTRUCT_EXPORT int ibstruct_snprint_diags_line(char *buf, size_t len, const char *name,
						const char *value)
{
	struct ibs_out o;

	if (!name || !value)
		return -EINVAL;
	out_init(&o, buf, len);
	diags_name(&o, name);
	ibs_out_str(&o, value);
	return ibs_out_finish(&o);
}

/* Prints one element of a leaf field read from the host struct at `host` (the struct
 * holding the field). */
static void diags_leaf(struct ibs_out *o, const struct ibs_field *first, const struct ibs_field *f,
		       const void *host, unsigned elem, const char *name)
{
	const uint8_t *p = (const uint8_t *)host + f->host_offset;
	char nbuf[96];

	if (!name) {
		name = ibs_field_show(f) ? ibs_field_show(f) : ibs_field_name(f);
		if (f->count > 1) {
			/* arrays print one line per element: "PortXmitDataSL0", ... */
			snprintf(nbuf, sizeof(nbuf), "%s%u", name, elem);
			name = nbuf;
		}
	}
	diags_name(o, name);
	switch (f->type) {
	case IBSTRUCT_TYPE_UINT:
	case IBSTRUCT_TYPE_GUID:
		fmt_value(o, (enum ibstruct_diags_fmt)f->fmt, f->bits,
			  f->diags_alias >= 0 ? ibs_host_get(host, f + (f->diags_alias - (f - first)), 0)
					      : ibs_host_get(host, f, elem),
			  NULL);
		break;
	case IBSTRUCT_TYPE_GID:
		fmt_value(o, (enum ibstruct_diags_fmt)f->fmt, 128, 0, p + 16 * elem);
		break;
	case IBSTRUCT_TYPE_BYTES:
	case IBSTRUCT_TYPE_STR:
		fmt_value(o, (enum ibstruct_diags_fmt)f->fmt, f->bits, 0, p);
		break;
	default:
		break;
	}
}

/* Walks all leaves with a display name; prints those between first and last. */
struct diags_walk {
	const char *first, *last;
	bool on, done;
};

static void diags_struct(struct ibs_out *o, const struct ibstruct_desc *d, const void *host,
			 struct diags_walk *w)
{
	const struct ibs_field *fields = ibs_desc_fields(d);
	unsigned i, e;

	for (i = 0; i < d->nfields && !w->done; i++) {
		const struct ibs_field *f = &fields[i];

		if (!f->bits)
			continue;
		if (f->type == IBSTRUCT_TYPE_STRUCT) {
			for (e = 0; e < f->count && !w->done; e++)
				diags_struct(o, ibs_field_sub(f),
					     (const uint8_t *)host + f->host_offset + e * f->host_size, w);
			continue;
		}
		if (!ibs_field_show(f))
			continue;
		for (e = 0; e < f->count; e++) {
			if (!w->on && (!w->first || !strcmp(ibs_field_show(f), w->first)))
				w->on = true;
			if (!w->on)
				continue;
			diags_leaf(o, fields, f, host, e, NULL);
			ibs_out_str(o, "\n");
			if (w->last && !strcmp(ibs_field_show(f), w->last) && e + 1 == f->count) {
				w->done = true;
				break;
			}
		}
	}
}

IBSTRUCT_EXPORT int ibstruct_snprint_diags_range(char *buf, size_t len, const struct ibstruct_desc *d,
						 const void *host, const char *first, const char *last)
{
	struct diags_walk w = { first, last, false, false };
	struct ibs_out o;

	if (!d || !host)
		return -EINVAL;
	out_init(&o, buf, len);
	diags_struct(&o, d, host, &w);
	if (first && !w.on)
		return -ENOENT;
	return ibs_out_finish(&o);
}

IBSTRUCT_EXPORT int ibstruct_snprint_diags(char *buf, size_t len, const struct ibstruct_desc *d,
					   const void *host)
{
	return ibstruct_snprint_diags_range(buf, len, d, host, NULL, NULL);
}

IBSTRUCT_EXPORT int ibstruct_snprint_diags_field(char *buf, size_t len, const struct ibstruct_desc *d,
						 const void *host, const char *path, const char *name)
{
	struct ibstruct_field_ref ref;
	const struct ibs_field *f;
	struct ibs_out o;
	int rc;

	if (!host)
		return -EINVAL;
	rc = ibstruct_field_lookup(d, path, &ref);
	if (rc)
		return rc;
	f = &ibs_desc_fields(ref.parent)[ref.field];
	if (ref.whole_array || f->type == IBSTRUCT_TYPE_STRUCT || !f->bits)
		return -EINVAL;
	out_init(&o, buf, len);
	/* host of the parent struct = element address - own offset */
	diags_leaf(&o, ibs_desc_fields(ref.parent), f,
		   (const uint8_t *)host + ref.host_offset - f->host_offset - ref.elem * f->host_size,
		   ref.elem, name);
	return ibs_out_finish(&o);
}

/* ---- our own text form of a value ------------------------------------------------------ */

static void text_value(struct ibs_out *o, const struct ibs_field *f, uint64_t v, const uint8_t *bytes)
{
	unsigned i;

	switch (f->type) {
	case IBSTRUCT_TYPE_UINT: {
		const char *en = f->enum_id >= 0 ? ibs_enum_lookup(f->enum_id, v) : NULL;
		bool hex = f->disp == IBS_DISP_HEX || (f->disp == IBS_DISP_DEFAULT && f->bits > 32) ||
			   f->fmt == IBSTRUCT_FMT_HEX || f->fmt == IBSTRUCT_FMT_RHEX;

		if (hex)
			ibs_out_printf(o, "0x%" PRIx64, v);
		else
			ibs_out_printf(o, "%" PRIu64, v);
		if (en)
			ibs_out_printf(o, " (%s)", en);
		break;
	}
	case IBSTRUCT_TYPE_GUID: {
		char g[32];

		ibstruct_guid_format(g, sizeof(g), v, IBSTRUCT_GUID_COLON);
		ibs_out_str(o, g);
		break;
	}
	case IBSTRUCT_TYPE_GID: {
		char g[64];
		ibstruct_gid_t gid;

		memcpy(gid.raw, bytes, 16);
		ibstruct_gid_format(g, sizeof(g), &gid);
		ibs_out_str(o, g);
		break;
	}
	case IBSTRUCT_TYPE_STR: {
		size_t n = f->bits / 8;

		ibs_out_str(o, "\"");
		for (i = 0; i < n && bytes[i]; i++) {
			if (bytes[i] >= 0x20 && bytes[i] < 0x7f && bytes[i] != '"' && bytes[i] != '\\')
				ibs_out_printf(o, "%c", bytes[i]);
			else
				ibs_out_printf(o, "\\x%02x", bytes[i]);
		}
		ibs_out_str(o, "\"");
		break;
	}
	case IBSTRUCT_TYPE_BYTES: {
		size_t n = f->bits / 8, last = n;

		while (last && !bytes[last - 1])
			last--;
		if (!last) {
			ibs_out_printf(o, "0 (%zu zero bytes)", n);
			break;
		}
		ibs_out_str(o, "0x");
		for (i = 0; i < last; i++)
			ibs_out_printf(o, "%02x", bytes[i]);
		if (last < n)
			ibs_out_printf(o, " (+%zu zero bytes)", n - last);
		break;
	}
	default:
		break;
	}
}

IBSTRUCT_EXPORT int ibstruct_format_value(const struct ibstruct_desc *d, const void *host,
					  const char *path, char *buf, size_t len)
{
	struct ibstruct_field_ref ref;
	const struct ibs_field *f;
	const uint8_t *p;
	struct ibs_field tmp;
	struct ibs_out o;
	int rc;

	if (!host)
		return -EINVAL;
	rc = ibstruct_field_lookup(d, path, &ref);
	if (rc)
		return rc;
	f = &ibs_desc_fields(ref.parent)[ref.field];
	if (ref.whole_array || f->type == IBSTRUCT_TYPE_STRUCT || !f->bits)
		return -EINVAL;
	p = (const uint8_t *)host + ref.host_offset;
	tmp = *f;
	tmp.host_offset = 0;
	out_init(&o, buf, len);
	text_value(&o, f,
		   (f->type == IBSTRUCT_TYPE_UINT || f->type == IBSTRUCT_TYPE_GUID) ?
			   ibs_host_get(p, &tmp, 0) : 0,
		   p);
	return ibs_out_finish(&o);
}

/* ---- packet dump --------------------------------------------------------------------- */

/* Collects annotations for the word [wbit, wbit + 32) by walking the struct. */
static void dump_annotate(struct ibs_out *o, const struct ibstruct_desc *d, const uint8_t *wire,
			  size_t wire_len, uint32_t base, const char *prefix, uint32_t wbit)
{
	const struct ibs_field *fields = ibs_desc_fields(d);
	unsigned i, e;

	for (i = 0; i < d->nfields; i++) {
		const struct ibs_field *f = &fields[i];
		uint32_t start = base + f->bit_offset;
		uint32_t end = start + f->bits * f->count;

		if (!f->bits || end <= wbit || start >= wbit + 32)
			continue;
		if (f->type == IBSTRUCT_TYPE_STRUCT) {
			for (e = 0; e < f->count; e++) {
				char np[160];
				uint32_t sb = start + e * f->bits;

				if (sb + f->bits <= wbit || sb >= wbit + 32)
					continue;
				if (f->count > 1)
					snprintf(np, sizeof(np), "%s%s[%u].", prefix, ibs_field_name(f), e);
				else
					snprintf(np, sizeof(np), "%s%s.", prefix, ibs_field_name(f));
				dump_annotate(o, ibs_field_sub(f), wire, wire_len, sb, np, wbit);
			}
			continue;
		}
		/* elements that start inside this word */
		{
			unsigned first = f->count, last = 0;
			bool any_nonzero = false;

			for (e = 0; e < f->count; e++) {
				uint32_t sb = start + e * f->bits;

				if (sb >= wbit && sb < wbit + 32) {
					if (first == f->count)
						first = e;
					last = e;
				}
			}
			if (first == f->count)
				continue;
			if ((uint64_t)(start + f->bits * f->count + 7) / 8 > wire_len)
				continue;
			if (f->flags & IBS_F_RESERVED) {
				/* show reserved bits only when set */
				for (e = first; e <= last; e++) {
					uint32_t sb = start + e * f->bits, b;

					for (b = 0; b < f->bits && !any_nonzero; b++)
						if (ibs_get_any(wire, sb + b, 1))
							any_nonzero = true;
				}
				if (!any_nonzero)
					continue;
			}
			ibs_out_printf(o, " %s%s", prefix, ibs_field_name(f));
			if (f->count > 1) {
				if (first == last)
					ibs_out_printf(o, "[%u]", first);
				else
					ibs_out_printf(o, "[%u..%u]", first, last);
			}
			ibs_out_str(o, "=");
			for (e = first; e <= last; e++) {
				uint32_t sb = start + e * f->bits;
				uint64_t v = 0;

				if (e != first)
					ibs_out_str(o, ",");
				if (f->type == IBSTRUCT_TYPE_UINT || f->type == IBSTRUCT_TYPE_GUID)
					v = ibs_get_any(wire, sb, f->bits > 64 ? 64 : f->bits);
				text_value(o, f, v, wire + sb / 8);
			}
		}
	}
}

static bool zero_word(const uint8_t *w)
{
	return !w[0] && !w[1] && !w[2] && !w[3];
}

/* Does any field start in the word at byte `off` (i.e. would it get an annotation)? */
static bool word_annotated(const struct ibstruct_desc *d, const uint8_t *wire, size_t wire_len,
			   size_t off)
{
	struct ibs_out count;

	out_init(&count, NULL, 0);
	dump_annotate(&count, d, wire, wire_len, 0, "", (uint32_t)off * 8);
	return count.pos != 0;
}

IBSTRUCT_EXPORT int ibstruct_snprint_dump(char *buf, size_t len, const struct ibstruct_desc *d,
					  const void *wire, size_t wire_len, unsigned indent)
{
	return ibstruct_snprint_dump_at(buf, len, d, wire, wire_len, indent, 0);
}

IBSTRUCT_EXPORT int ibstruct_snprint_dump_at(char *buf, size_t len, const struct ibstruct_desc *d,
					     const void *wire, size_t wire_len, unsigned indent,
					     size_t base)
{
	const uint8_t *p = wire;
	struct ibs_out o;
	size_t off;

	if (!d || (!wire && wire_len))
		return -EINVAL;
	out_init(&o, buf, len);
	ibs_out_printf(&o, "%*s%s (%u bytes)\n", (int)indent, "", ibs_desc_name(d), d->size);
	for (off = 0; off < wire_len && off < d->size; off += 4) {
		size_t n = wire_len - off < 4 ? wire_len - off : 4, i, end;

		/* a run of two or more zero words where no field starts: one line */
		for (end = off; end + 4 <= wire_len && end + 4 <= d->size && zero_word(p + end) &&
				!word_annotated(d, p, wire_len, end);
		     end += 4)
			;
		if (end >= off + 8) {
			ibs_out_printf(&o, "%*s%4zu: 00000000  (zero up to byte %zu)\n", (int)indent, "",
				       base + off, base + end - 1);
			off = end - 4;
			continue;
		}
		ibs_out_printf(&o, "%*s%4zu: ", (int)indent, "", base + off);
		for (i = 0; i < 4; i++) {
			if (i < n)
				ibs_out_printf(&o, "%02x", p[off + i]);
			else
				ibs_out_str(&o, "  ");
		}
		/* no separator when no field starts in this word */
		if (word_annotated(d, p, wire_len, off)) {
			ibs_out_str(&o, " ");
			dump_annotate(&o, d, p, wire_len, 0, "", (uint32_t)off * 8);
		}
		ibs_out_str(&o, "\n");
	}
	if (wire_len < d->size)
		ibs_out_printf(&o, "%*s(short: %zu of %u bytes)\n", (int)indent, "", wire_len,
			       d->size);
	return ibs_out_finish(&o);
}

IBSTRUCT_EXPORT int ibstruct_snprint_hex(char *buf, size_t len, const void *data, size_t data_len,
					 unsigned indent)
{
	const uint8_t *p = data;
	struct ibs_out o;
	size_t off, i;

	if (!data && data_len)
		return -EINVAL;
	out_init(&o, buf, len);
	for (off = 0; off < data_len; off += 16) {
		ibs_out_printf(&o, "%*s%4zu:", (int)indent, "", off);
		for (i = off; i < off + 16 && i < data_len; i++)
			ibs_out_printf(&o, "%s%02x", (i - off) % 4 ? "" : " ", p[i]);
		ibs_out_str(&o, "\n");
	}
	return ibs_out_finish(&o);
}
