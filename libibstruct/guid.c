// SPDX-License-Identifier: BSD-3-Clause
/*
 * GUID and GID text forms.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ibstruct-private.h"

IBSTRUCT_EXPORT int ibstruct_guid_parse(const char *text, uint64_t *guid)
{
	uint64_t v = 0;
	const char *s = text;
	int d;

	if (!text || !guid)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		unsigned n = 0;

		for (s += 2; *s; s++, n++) {
			d = ibs_hexdigit((unsigned char)*s);
			if (d < 0 || n >= 16)
				return -EINVAL;
			v = v << 4 | (unsigned)d;
		}
		if (!n)
			return -EINVAL;
		*guid = v;
		return 0;
	}
	/* canonical: four ':'-separated groups of 1 to 4 hex digits (0002:c903:0:1492) */
	{
		unsigned g, i;

		for (g = 0; g < 4; g++) {
			unsigned group = 0;

			for (i = 0; (d = ibs_hexdigit((unsigned char)*s)) >= 0; i++, s++) {
				if (i == 4)
					return -EINVAL;
				group = group << 4 | (unsigned)d;
			}
			if (!i)
				return -EINVAL;
			v = v << 16 | group;
			if (g < 3 && *s++ != ':')
				return -EINVAL;
		}
		if (*s)
			return -EINVAL;
	}
	*guid = v;
	return 0;
}

IBSTRUCT_EXPORT int ibstruct_guid_format(char *buf, size_t len, uint64_t guid,
					 enum ibstruct_guid_style style)
{
	if (style == IBSTRUCT_GUID_COLON)
		return snprintf(buf, len, "%04x:%04x:%04x:%04x", (unsigned)(guid >> 48) & 0xffff,
				(unsigned)(guid >> 32) & 0xffff, (unsigned)(guid >> 16) & 0xffff,
				(unsigned)guid & 0xffff);
	if (style == IBSTRUCT_GUID_HEX)
		return snprintf(buf, len, "0x%016llx", (unsigned long long)guid);
	return -EINVAL;
}

IBSTRUCT_EXPORT int ibstruct_gid_parse(const char *text, ibstruct_gid_t *gid)
{
	struct in6_addr a;

	if (!text || !gid)
		return -EINVAL;
	if (inet_pton(AF_INET6, text, &a) != 1)
		return -EINVAL;
	memcpy(gid->raw, &a, 16);
	return 0;
}

IBSTRUCT_EXPORT int ibstruct_gid_format(char *buf, size_t len, const ibstruct_gid_t *gid)
{
	char tmp[INET6_ADDRSTRLEN];
	struct in6_addr a;

	if (!gid)
		return -EINVAL;
	memcpy(&a, gid->raw, 16);
	if (!inet_ntop(AF_INET6, &a, tmp, sizeof(tmp)))
		return -errno;
	return snprintf(buf, len, "%s", tmp);
}

IBSTRUCT_EXPORT uint64_t ibstruct_gid_prefix(const ibstruct_gid_t *gid)
{
	return ibs_be64(gid->raw);
}

IBSTRUCT_EXPORT uint64_t ibstruct_gid_guid(const ibstruct_gid_t *gid)
{
	return ibs_be64(gid->raw + 8);
}

IBSTRUCT_EXPORT void ibstruct_gid_make(ibstruct_gid_t *gid, uint64_t prefix, uint64_t guid)
{
	ibs_put_be64(gid->raw, prefix);
	ibs_put_be64(gid->raw + 8, guid);
}
