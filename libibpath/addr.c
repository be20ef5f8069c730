// SPDX-License-Identifier: BSD-3-Clause
/*
 * Target addresses: one string to a path.  Decides the form by syntax (python-rdma's
 * order: spec, DR path, scoped GID, GID, GUID, LID) unless the caller names the type.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpath-private.h"

int ibpath_parse_spec(const char *text, struct ibpath_path **out, char *err, size_t errlen);
int ibpath_parse_dr_ports(const char *s, char sep, uint8_t *ports, unsigned *count, char *err,
			  size_t errlen);

#define LINK_LOCAL_PREFIX 0xfe80000000000000ull

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

static int make_gid_path(const ibstruct_gid_t *gid, const char *end_port, struct ibpath_path **out)
{
	struct ibpath_path *p;
	int rc = ibpath_path_new(&p, IBPATH_KIND_IB);

	if (rc)
		return rc;
	ibpath_path_set_dgid(p, gid);
	if (end_port) {
		rc = ibpath_path_set_end_port(p, end_port);
		if (rc) {
			ibpath_path_unref(p);
			return rc;
		}
	}
	*out = p;
	return 0;
}

static int parse_lid(const char *text, unsigned flags, struct ibpath_path **out, char *err,
		     size_t errlen)
{
	struct ibpath_path *p;
	unsigned long v;
	char *end;
	int rc;

	if (!isdigit((unsigned char)text[0]))
		return ibpath_fail(err, errlen, "\"%s\" is not a LID", text);
	errno = 0;
	v = strtoul(text, &end, 0);
	if (*end)
		return ibpath_fail(err, errlen, "\"%s\" is not a LID: unexpected \"%s\"", text, end);
	if (errno || v > 0xffff)
		return ibpath_fail(err, errlen, "LID %s is out of range (1-0xbfff)", text);
	if (v == 0)
		return ibpath_fail(err, errlen, "LID %s is reserved (LID 0 names no port)", text);
	if (v >= 0xc000 && !(flags & IBPATH_PARSE_MCAST))
		return ibpath_fail(err, errlen, "LID %s (0x%lx) is not a unicast LID (1-0xbfff)", text, v);
	if (v == 0xffff)
		return ibpath_fail(err, errlen, "LID %s is the permissive LID 0xffff, not a target", text);
	rc = ibpath_path_new(&p, IBPATH_KIND_IB);
	if (rc)
		return rc;
	ibpath_path_set(p, IBPATH_DLID, v);
	*out = p;
	return 0;
}

/* 0x + 1..16 hex digits, 16 bare hex digits, or four ':' groups of 1..4 hex digits. */
static int guid_value(const char *text, uint64_t *guid)
{
	size_t l = strlen(text);

	if (l > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		return all_hex(text + 2, l - 2) && l - 2 <= 16 ? (*guid = strtoull(text, NULL, 16), 0)
							      : -EINVAL;
	if (l == 16 && all_hex(text, 16)) {
		*guid = strtoull(text, NULL, 16);
		return 0;
	}
	return ibstruct_guid_parse(text, guid);
}

static int parse_guid(const char *text, struct ibpath_path **out, char *err, size_t errlen)
{
	ibstruct_gid_t gid;
	uint64_t guid;

	if (guid_value(text, &guid))
		return ibpath_fail(err, errlen,
				   "\"%s\" is not a GUID (0x0002c90300001492 or 0002:c903:0000:1492)", text);
	if (!guid)
		return ibpath_fail(err, errlen, "GUID %s is 0, not a port GUID", text);
	ibstruct_gid_make(&gid, LINK_LOCAL_PREFIX, guid);
	return make_gid_path(&gid, NULL, out);
}

static int parse_gid(const char *text, struct ibpath_path **out, char *err, size_t errlen)
{
	const char *pct = strchr(text, '%');
	char addr[64];
	ibstruct_gid_t gid;
	size_t n = pct ? (size_t)(pct - text) : strlen(text);
	int rc;

	if (n >= sizeof(addr))
		return ibpath_fail(err, errlen, "\"%.*s\" is not a GID", (int)n, text);
	memcpy(addr, text, n);
	addr[n] = 0;
	if (ibstruct_gid_parse(addr, &gid))
		return ibpath_fail(err, errlen, "\"%s\" is not a GID", addr);
	if (pct && !pct[1])
		return ibpath_fail(err, errlen, "\"%s\": no end port after '%%'", text);
	/* the end port name is checked where it is stored: ibpath_path_set_end_port() */
	rc = make_gid_path(&gid, pct ? pct + 1 : NULL, out);
	if (pct && (rc == -EINVAL || rc == -ENAMETOOLONG))
		return ibpath_fail(err, errlen, "\"%s\": bad end port \"%s\"", text, pct + 1);
	return rc;
}

static int parse_dr(const char *text, unsigned flags, struct ibpath_path **out, char *err,
		    size_t errlen)
{
	uint8_t ports[IBPATH_MAX_HOPS + 1];
	unsigned n = 0;
	struct ibpath_path *p;
	int rc;

	if (!*text)
		return ibpath_fail(err, errlen, "empty DR path");
	if (flags & IBPATH_PARSE_DR_ATOI) {
		/* infiniband-diags str2drpath(): atoi() of each element; element 0 is kept as
		 * given (libibmad sends it in the initial path and prints it; the SMA ignores
		 * it) */
		const char *s = text;

		for (;;) {
			const char *c = strchr(s, ',');

			if (n == IBPATH_MAX_HOPS + 1)
				return ibpath_fail(err, errlen, "DR path \"%s\" has more than %u hops",
						   text, IBPATH_MAX_HOPS);
			ports[n++] = (uint8_t)atoi(s);
			if (!c || !c[1])
				break;
			s = c + 1;
		}
	} else {
		char buf[512];
		size_t l = strlen(text);

		if (l >= sizeof(buf))
			return ibpath_fail(err, errlen, "DR path is too long");
		memcpy(buf, text, l + 1);
		/* "0,1,4," is accepted like "0,1,4" */
		if (l > 1 && buf[l - 1] == ',')
			buf[l - 1] = 0;
		rc = ibpath_parse_dr_ports(buf, ',', ports, &n, err, errlen);
		if (rc)
			return rc;
	}
	rc = ibpath_path_new(&p, IBPATH_KIND_DR);
	if (rc)
		return rc;
	ibpath_path_set_dr_ports(p, ports, n);
	*out = p;
	return 0;
}

IBPATH_EXPORT int ibpath_parse(const char *text, unsigned flags, struct ibpath_path **out, char *err,
			       size_t errlen)
{
	unsigned types = flags & (IBPATH_PARSE_LID | IBPATH_PARSE_GUID | IBPATH_PARSE_DR | IBPATH_PARSE_GID);
	size_t l;

	if (err && errlen)
		err[0] = 0;
	if (!text || !out)
		return ibpath_fail(err, errlen, "no address given");
	if (types & (types - 1))
		return ibpath_fail(err, errlen, "more than one address type requested");
	l = strlen(text);
	if (!l)
		return ibpath_fail(err, errlen, "empty address");
	if (l > 1024)
		return ibpath_fail(err, errlen, "address is too long (%zu characters)", l);
	if (types == IBPATH_PARSE_LID)
		return parse_lid(text, flags, out, err, errlen);
	if (types == IBPATH_PARSE_GUID)
		return parse_guid(text, out, err, errlen);
	if (types == IBPATH_PARSE_DR)
		return parse_dr(text, flags, out, err, errlen);
	if (types == IBPATH_PARSE_GID)
		return parse_gid(text, out, err, errlen);

	if (strchr(text, '('))
		return ibpath_parse_spec(text, out, err, errlen);
	if (strchr(text, ','))
		return parse_dr(text, flags, out, err, errlen);
	if (strchr(text, '%'))
		return parse_gid(text, out, err, errlen);
	if (strchr(text, ':')) {
		ibstruct_gid_t gid;
		uint64_t guid;

		if (!ibstruct_gid_parse(text, &gid))
			return make_gid_path(&gid, NULL, out);
		if (!ibstruct_guid_parse(text, &guid))
			return parse_guid(text, out, err, errlen);
		return ibpath_fail(err, errlen, "\"%s\" is neither a GID nor a GUID", text);
	}
	if (l > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		if (!all_hex(text + 2, l - 2))
			return ibpath_fail(err, errlen, "\"%s\" is not a hex number", text);
		/* up to 4 hex digits is a LID, more is a GUID */
		return l - 2 <= 4 ? parse_lid(text, flags, out, err, errlen)
				  : parse_guid(text, out, err, errlen);
	}
	if (l == 16 && all_hex(text, 16))
		return parse_guid(text, out, err, errlen);
	if (isdigit((unsigned char)text[0]))
		return parse_lid(text, flags, out, err, errlen);
	return ibpath_fail(err, errlen, "\"%s\" is not a LID, GUID, GID, DR path or path spec", text);
}
