/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hostile-replies-shim: a test-only LD_PRELOAD library that spoils the MAD replies a tool
 * receives, by rules read from the environment, so that tests/fabric/hostile-replies.sh can
 * check that a tool (ours and the reference) survives replies no healthy fabric sends.
 *
 * Load it before libumad2sim.so (LD_PRELOAD="hostile-replies-shim.so libumad2sim.so").  It
 * sits under libibumad on the libc calls umad2sim fakes (as tests/fabric/cc-shim.c does):
 * read() of a umad fd (1024..2047) takes umad2sim's reply, and when a rule matches it, the
 * reply is changed before the tool sees it; poll() reports the fd ready while replies the
 * shim holds back (repeats, an oversized reply) are waiting.
 *
 * Environment:
 *   HOSTILE_RULE  rules separated by ';', each a list of words:
 *     selectors (all optional; a rule without any matches every reply)
 *       class=C      the reply's management class (0x01 LID-routed SMP, 0x81 directed route
 *                    SMP, 0x03 SA, 0x04 performance management, ...)
 *       attr=A       its attribute ID
 *       nth=K        only the K-th reply the rule's selectors match (1 = the first)
 *       from=K       the K-th and every later one
 *     changes (applied in this order)
 *       field=NAME value=V   a named field (the table below), e.g. field=NumPorts value=255
 *       off=N value=V [width=W]  W bytes (1, 2, 4 or 8; default 1) at MAD offset N, big-endian
 *       status=V     the MAD status (a directed route SMP keeps its D bit)
 *       tid=wrong    the low 32 bits of the transaction ID inverted
 *       len=N        only N bytes of the MAD delivered (0: the umad header alone)
 *       extend=N     the reply claims N bytes (N > 256): read() fails with ENOSPC, as the
 *                    kernel does, until a buffer of N bytes is offered (zeros after the MAD)
 *       repeat=N     the reply delivered N more times
 *       drop         the reply swallowed: the tool waits for it in vain
 *   HOSTILE_LOG   a file: one line appended for every reply changed (the test checks that
 *                 its rule was used)
 * Replies the simulator already failed (a non-zero umad status) are left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <unistd.h>

#define UMAD_HDR	64	/* struct ib_user_mad before the MAD */
#define MAD_SIZE	256
#define UMAD_STATUS	4	/* host-order fields of the umad header */
#define UMAD_LENGTH	16
#define MAX_EXTEND	65536
#define MAX_RULES	8
#define MAX_HELD	64

#define ANY		(-1L)

/* ---- Named fields -------------------------------------------------------------------------- */

#define SMP_DATA	64	/* LID-routed and directed route SMPs, PerfMgt */
#define SA_DATA		56

/* cls: the reply's class (-1: any); attr: its attribute (-1: any) */
static const struct field {
	const char *name;
	int cls;
	long attr;
	unsigned offs;	/* byte offset in the MAD */
	unsigned shift; /* bit position of a field inside its byte, for fields under 8 bits */
	unsigned bits;
} fields[] = {
	/* the common MAD header */
	{ "BaseVersion", -1, ANY, 0, 0, 8 },
	{ "MgmtClass", -1, ANY, 1, 0, 8 },
	{ "ClassVersion", -1, ANY, 2, 0, 8 },
	{ "Method", -1, ANY, 3, 0, 8 },
	{ "AttrID", -1, ANY, 16, 0, 16 },
	{ "AttrMod", -1, ANY, 20, 0, 32 },
	/* directed route SMPs */
	{ "HopPointer", 0x81, ANY, 6, 0, 8 },
	{ "HopCount", 0x81, ANY, 7, 0, 8 },
	{ "DrSLID", 0x81, ANY, 32, 0, 16 },
	{ "DrDLID", 0x81, ANY, 34, 0, 16 },
	{ "InitPath1", 0x81, ANY, 129, 0, 8 },
	{ "ReturnPath1", 0x81, ANY, 193, 0, 8 },
	/* the RMPP and SA headers */
	{ "RMPPVersion", 0x03, ANY, 24, 0, 8 },
	{ "RMPPType", 0x03, ANY, 25, 0, 8 },
	{ "RMPPFlags", 0x03, ANY, 26, 0, 3 },
	{ "RMPPStatus", 0x03, ANY, 27, 0, 8 },
	{ "SegmentNumber", 0x03, ANY, 28, 0, 32 },
	{ "PayloadLength", 0x03, ANY, 32, 0, 32 },
	{ "AttributeOffset", 0x03, ANY, 44, 0, 16 },
	/* SMP NodeInfo */
	{ "NodeType", 0x01, 0x11, SMP_DATA + 2, 0, 8 },
	{ "NumPorts", 0x01, 0x11, SMP_DATA + 3, 0, 8 },
	{ "NodeGUID", 0x01, 0x11, SMP_DATA + 12, 0, 64 },
	{ "PortGUID", 0x01, 0x11, SMP_DATA + 20, 0, 64 },
	{ "LocalPortNum", 0x01, 0x11, SMP_DATA + 36, 0, 8 },
	/* SMP SwitchInfo */
	{ "LinearFDBCap", 0x01, 0x12, SMP_DATA + 0, 0, 16 },
	{ "MulticastFDBCap", 0x01, 0x12, SMP_DATA + 4, 0, 16 },
	{ "LinearFDBTop", 0x01, 0x12, SMP_DATA + 6, 0, 16 },
	{ "DefaultPort", 0x01, 0x12, SMP_DATA + 8, 0, 8 },
	{ "MulticastFDBTop", 0x01, 0x12, SMP_DATA + 18, 0, 16 },
	/* SMP PortInfo */
	{ "LID", 0x01, 0x15, SMP_DATA + 16, 0, 16 },
	{ "MasterSMLID", 0x01, 0x15, SMP_DATA + 18, 0, 16 },
	{ "CapabilityMask", 0x01, 0x15, SMP_DATA + 20, 0, 32 },
	{ "LocalPortNum", 0x01, 0x15, SMP_DATA + 28, 0, 8 },
	{ "LinkWidthEnabled", 0x01, 0x15, SMP_DATA + 29, 0, 8 },
	{ "LinkWidthSupported", 0x01, 0x15, SMP_DATA + 30, 0, 8 },
	{ "LinkWidthActive", 0x01, 0x15, SMP_DATA + 31, 0, 8 },
	{ "LinkSpeedSupported", 0x01, 0x15, SMP_DATA + 32, 4, 4 },
	{ "PortState", 0x01, 0x15, SMP_DATA + 32, 0, 4 },
	{ "PortPhysState", 0x01, 0x15, SMP_DATA + 33, 4, 4 },
	{ "LMC", 0x01, 0x15, SMP_DATA + 34, 0, 3 },
	{ "LinkSpeedActive", 0x01, 0x15, SMP_DATA + 35, 4, 4 },
	{ "LinkSpeedEnabled", 0x01, 0x15, SMP_DATA + 35, 0, 4 },
	{ "NeighborMTU", 0x01, 0x15, SMP_DATA + 36, 4, 4 },
	{ "VLCap", 0x01, 0x15, SMP_DATA + 37, 4, 4 },
	{ "LinkSpeedExtActive", 0x01, 0x15, SMP_DATA + 62, 4, 4 },
	/* SMP SMInfo */
	{ "SMState", 0x01, 0x20, SMP_DATA + 20, 0, 4 },
	{ "Priority", 0x01, 0x20, SMP_DATA + 20, 4, 4 },
	/* PerfMgt ClassPortInfo and PortCounters */
	{ "CapabilityMask", 0x04, 0x01, SMP_DATA + 2, 0, 16 },
	{ "PortSelect", 0x04, 0x12, SMP_DATA + 1, 0, 8 },
	/* SA NodeRecord */
	{ "LID", 0x03, 0x11, SA_DATA + 0, 0, 16 },
	{ "NodeType", 0x03, 0x11, SA_DATA + 4 + 2, 0, 8 },
	{ "NumPorts", 0x03, 0x11, SA_DATA + 4 + 3, 0, 8 },
	{ "LocalPortNum", 0x03, 0x11, SA_DATA + 4 + 36, 0, 8 },
	/* SA PortInfoRecord */
	{ "LID", 0x03, 0x12, SA_DATA + 0, 0, 16 },
	{ "PortNum", 0x03, 0x12, SA_DATA + 2, 0, 8 },
	{ "LinkWidthActive", 0x03, 0x12, SA_DATA + 4 + 31, 0, 8 },
	/* SA LinkRecord */
	{ "FromLID", 0x03, 0x20, SA_DATA + 0, 0, 16 },
	{ "FromPort", 0x03, 0x20, SA_DATA + 2, 0, 8 },
	{ "ToPort", 0x03, 0x20, SA_DATA + 3, 0, 8 },
	{ "ToLID", 0x03, 0x20, SA_DATA + 4, 0, 16 },
	/* SA PathRecord */
	{ "DLID", 0x03, 0x35, SA_DATA + 40, 0, 16 },
	{ "SLID", 0x03, 0x35, SA_DATA + 42, 0, 16 },
};

/* A field of this name that applies to a reply of class cls (both SMP classes alike), attribute attr. */
static const struct field *field_find(const char *name, unsigned cls, unsigned attr)
{
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];

		if (strcasecmp(f->name, name))
			continue;
		if (f->cls >= 0 && (unsigned)f->cls != cls &&
		    !(f->cls == 0x01 && cls == 0x81))
			continue;
		if (f->attr != ANY && (unsigned)f->attr != attr)
			continue;
		return f;
	}
	return NULL;
}

/* ---- Byte helpers ------------------------------------------------------------------------ */

static void put_be(uint8_t *p, unsigned nbytes, uint64_t v)
{
	while (nbytes--) {
		p[nbytes] = (uint8_t)v;
		v >>= 8;
	}
}

static unsigned get16(const uint8_t *p)
{
	return (unsigned)(p[0] << 8 | p[1]);
}

static void field_put(uint8_t *mad, const struct field *f, uint64_t v)
{
	if (f->bits >= 8) {
		put_be(mad + f->offs, f->bits / 8, v);
	} else {
		unsigned mask = ((1u << f->bits) - 1) << f->shift;

		mad[f->offs] = (uint8_t)((mad[f->offs] & ~mask) | (((unsigned)v << f->shift) & mask));
	}
}

/* ---- Rules -------------------------------------------------------------------------------- */

static struct rule {
	long cls, attr, nth, from;
	char field[32];
	long off;
	unsigned width;
	int has_value;
	uint64_t value;
	long status;
	int tid_wrong;
	long len, extend, repeat;
	int drop;
	unsigned matched; /* replies the selectors matched so far */
} rules[MAX_RULES];
static unsigned nrules;
static int rules_read;

static void rules_fail(const char *what, const char *word)
{
	fprintf(stderr, "hostile-replies-shim: %s '%s' in HOSTILE_RULE\n", what, word);
	exit(99);
}

static void rule_word(struct rule *r, char *w)
{
	char *eq = strchr(w, '=');
	const char *val = eq ? eq + 1 : "";
	char *end;
	long long n;

	if (!strcmp(w, "drop")) {
		r->drop = 1;
		return;
	}
	if (!eq)
		rules_fail("a word without '='", w);
	*eq = '\0';
	if (!strcmp(w, "field")) {
		if (strlen(val) >= sizeof(r->field))
			rules_fail("a field name too long", val);
		strcpy(r->field, val);
		return;
	}
	if (!strcmp(w, "tid")) {
		if (strcmp(val, "wrong"))
			rules_fail("a tid change other than 'wrong'", val);
		r->tid_wrong = 1;
		return;
	}
	errno = 0;
	n = strtoll(val, &end, 0);
	if (errno || end == val || *end || n < 0)
		rules_fail("a bad number", val);
	if (!strcmp(w, "class"))
		r->cls = (long)n;
	else if (!strcmp(w, "attr"))
		r->attr = (long)n;
	else if (!strcmp(w, "nth"))
		r->nth = (long)n;
	else if (!strcmp(w, "from"))
		r->from = (long)n;
	else if (!strcmp(w, "value")) {
		r->has_value = 1;
		r->value = (uint64_t)n;
	} else if (!strcmp(w, "off"))
		r->off = (long)n;
	else if (!strcmp(w, "width"))
		r->width = (unsigned)n;
	else if (!strcmp(w, "status"))
		r->status = (long)n;
	else if (!strcmp(w, "len"))
		r->len = (long)n;
	else if (!strcmp(w, "extend"))
		r->extend = (long)n;
	else if (!strcmp(w, "repeat"))
		r->repeat = (long)n;
	else
		rules_fail("an unknown word", w);
}

static void rules_load(void)
{
	const char *env = getenv("HOSTILE_RULE");
	char *copy, *save = NULL, *one;

	rules_read = 1;
	if (!env || !(copy = strdup(env)))
		return;
	for (one = strtok_r(copy, ";", &save); one; one = strtok_r(NULL, ";", &save)) {
		struct rule *r;
		char *wsave = NULL, *w;

		if (nrules == MAX_RULES)
			rules_fail("more rules than", "8");
		r = &rules[nrules++];
		memset(r, 0, sizeof(*r));
		r->cls = r->attr = r->nth = r->from = r->off = r->status = ANY;
		r->len = r->extend = ANY;
		r->width = 1;
		for (w = strtok_r(one, " \t", &wsave); w; w = strtok_r(NULL, " \t", &wsave))
			rule_word(r, w);
		if ((r->field[0] || r->off != ANY) && !r->has_value)
			rules_fail("a field or offset without value=", one);
		if (r->off != ANY && (r->off + (long)r->width > MAD_SIZE ||
				      (r->width != 1 && r->width != 2 && r->width != 4 && r->width != 8)))
			rules_fail("an offset or width out of the MAD", one);
		if (r->len != ANY && r->len > MAD_SIZE)
			rules_fail("a length over 256 (use extend=)", one);
		if (r->extend != ANY && (r->extend <= MAD_SIZE || r->extend > MAX_EXTEND))
			rules_fail("an extension not in 257..65536", one);
		if (r->repeat > 16)
			rules_fail("more repeats than", "16");
	}
	free(copy);
}

static void log_change(unsigned idx, unsigned cls, unsigned attr, const char *what)
{
	const char *file = getenv("HOSTILE_LOG");
	FILE *f;

	if (!file || !(f = fopen(file, "a")))
		return;
	fprintf(f, "rule %u class 0x%02x attr 0x%04x %s\n", idx + 1, cls, attr, what);
	fclose(f);
}

/* ---- Replies held back --------------------------------------------------------------------- */

static struct held {
	int fd;
	size_t size;	/* bytes of buf (umad header included) */
	uint8_t *buf;
} held[MAX_HELD];
static unsigned nheld;

static int held_find(int fd)
{
	unsigned i;

	for (i = 0; i < nheld; i++)
		if (held[i].fd == fd)
			return (int)i;
	return -1;
}

static void held_push(int fd, const uint8_t *buf, size_t size)
{
	uint8_t *copy;

	if (nheld == MAX_HELD || !(copy = calloc(1, size)))
		return;
	memcpy(copy, buf, size);
	held[nheld].fd = fd;
	held[nheld].size = size;
	held[nheld].buf = copy;
	nheld++;
}

/* Delivers the first reply held for fd; with too small a buffer, the kernel's answer: the
 * umad header alone, ENOSPC, and the reply stays first in line. */
static ssize_t held_pop(unsigned i, void *buf, size_t count)
{
	struct held h = held[i];

	if (count < h.size) {
		memcpy(buf, h.buf, count < UMAD_HDR ? count : UMAD_HDR);
		errno = ENOSPC;
		return -1;
	}
	memcpy(buf, h.buf, h.size);
	free(h.buf);
	memmove(&held[i], &held[i + 1], (nheld - i - 1) * sizeof(held[0]));
	nheld--;
	return (ssize_t)h.size;
}

/* ---- Changing a reply ------------------------------------------------------------------------ */

/* Applies the rules to the reply of n bytes in buf (of count bytes); returns the read()'s
 * result: n, a shorter length, or -1/ENOSPC. */
static ssize_t spoil(int fd, uint8_t *buf, size_t count, ssize_t n)
{
	uint8_t *mad = buf + UMAD_HDR;
	unsigned i, cls, attr;
	uint32_t st;
	ssize_t ret = n;

	memcpy(&st, buf + UMAD_STATUS, 4);
	if (st || n < UMAD_HDR + 24 || !(mad[3] & 0x80))
		return n;
	cls = mad[1];
	attr = get16(mad + 16);
	for (i = 0; i < nrules; i++) {
		struct rule *r = &rules[i];
		char what[96];

		if ((r->cls != ANY && r->cls != (long)cls) || (r->attr != ANY && r->attr != (long)attr))
			continue;
		r->matched++;
		if ((r->nth != ANY && r->matched != (unsigned long)r->nth) ||
		    (r->from != ANY && r->matched < (unsigned long)r->from))
			continue;
		snprintf(what, sizeof(what), "reply %u", r->matched);
		log_change(i, cls, attr, what);
		if (r->field[0]) {
			const struct field *f = field_find(r->field, cls, attr);

			if (!f) {
				fprintf(stderr, "hostile-replies-shim: no field %s in class 0x%02x attribute 0x%04x\n",
					r->field, cls, attr);
				exit(99);
			}
			field_put(mad, f, r->value);
		}
		if (r->off != ANY)
			put_be(mad + r->off, r->width, r->value);
		if (r->status != ANY) {
			unsigned v = (unsigned)r->status & 0xffff;

			if (cls == 0x81)
				v = (get16(mad + 4) & 0x8000) | (v & 0x7fff);
			put_be(mad + 4, 2, v);
		}
		if (r->tid_wrong)
			put_be(mad + 12, 4, ~((uint32_t)mad[12] << 24 | (uint32_t)mad[13] << 16 |
					      (uint32_t)mad[14] << 8 | mad[15]));
		if (r->repeat > 0) {
			long k;

			for (k = 0; k < r->repeat; k++)
				held_push(fd, buf, (size_t)n);
		}
		if (r->drop) {
			errno = EWOULDBLOCK;
			return -EWOULDBLOCK; /* what umad2sim's read() gives for an empty queue */
		}
		if (r->len != ANY && ret > UMAD_HDR + r->len) {
			uint32_t l = (uint32_t)(UMAD_HDR + r->len);

			/* what lies beyond the delivered bytes is not the reply's */
			memset(buf + l, 0xa5, (size_t)ret - l);
			memcpy(buf + UMAD_LENGTH, &l, 4);
			ret = (ssize_t)l;
		}
		if (r->extend != ANY) {
			uint8_t *big = calloc(1, UMAD_HDR + (size_t)r->extend);
			uint32_t l = (uint32_t)(UMAD_HDR + r->extend);

			if (!big)
				return ret;
			memcpy(big, buf, (size_t)ret);
			memcpy(big + UMAD_LENGTH, &l, 4);
			/* first in line, before any repeat of it */
			held_push(fd, big, l);
			if (nheld > 1) {
				struct held last = held[nheld - 1];
				int first = held_find(fd);

				memmove(&held[first + 1], &held[first],
					(nheld - 1 - (unsigned)first) * sizeof(held[0]));
				held[first] = last;
			}
			free(big);
			return held_pop((unsigned)held_find(fd), buf, count);
		}
	}
	return ret;
}

/* ---- The interposed calls ----------------------------------------------------------------- */

static ssize_t (*next_read)(int, void *, size_t);
static int (*next_poll)(struct pollfd *, nfds_t, int);

static void init(void)
{
	if (!next_read) {
		next_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
		next_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	}
	if (!rules_read)
		rules_load();
}

static int is_umad_fd(int fd)
{
	return fd >= 1024 && fd < 2048;
}

ssize_t read(int fd, void *buf, size_t count)
{
	ssize_t n;
	int i;

	init();
	if (!is_umad_fd(fd))
		return next_read(fd, buf, count);
	i = held_find(fd);
	if (i >= 0)
		return held_pop((unsigned)i, buf, count);
	n = next_read(fd, buf, count);
	if (n <= 0 || !nrules)
		return n;
	return spoil(fd, buf, count, n);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	nfds_t i;
	int ready = 0;

	init();
	for (i = 0; i < nfds; i++)
		if (is_umad_fd(fds[i].fd) && held_find(fds[i].fd) >= 0)
			ready++;
	if (!ready)
		return next_poll(fds, nfds, timeout);
	for (i = 0; i < nfds; i++)
		fds[i].revents = is_umad_fd(fds[i].fd) && held_find(fds[i].fd) >= 0 ?
					 (short)(fds[i].events & POLLIN) :
					 0;
	return ready;
}
