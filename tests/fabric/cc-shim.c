/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cc-shim: a test-only LD_PRELOAD library that answers Congestion Control MADs (class 0x21)
 * and, when given a vendor model, Mellanox vendor MADs (class 0x0a) from small models, so that
 * ibccquery/ibccconfig and vendstat (the reference's and ours) can be compared on a simulated
 * fabric.  ibsim cannot answer class 0x21: it dispatches its handlers on
 * `class & 0xf`, so CC attributes 0x11, 0x12, 0x14..0x18 get SMA (NodeInfo, SwitchInfo, ...)
 * replies, and a CC MAD that reaches OpenSM's node has crashed OpenSM (tests/fabric/README.md).
 *
 * Load it before libumad2sim.so (LD_PRELOAD="cc-shim.so libumad2sim.so").  It sits under
 * libibumad, on the libc calls umad2sim itself fakes: write() of a CC request to a umad fd
 * (umad2sim's fds are 1024..2047) is taken here and never reaches the simulator; the reply,
 * if the model gives one, is queued and handed out by the next poll()/read() of that fd, in
 * the layout umad2sim uses for its replies.  Everything else goes on to umad2sim.
 *
 * Environment:
 *   IBMGMT_CCSHIM_MODEL  file of "<lid> switch|ca|unsupported" lines (# comments).  A LID
 *                        not listed never answers (a time-out); "unsupported" answers every
 *                        CC request with MAD status 0x000c, as a node without a CC agent.
 *   IBMGMT_CCSHIM_STATE  file holding what Sets changed ("<lid> <attr> <mod> <hex>" lines),
 *                        read at each request and rewritten after each change, so that one
 *                        process's Set is seen by the next one's Get.  Unset: no memory.
 *   IBMGMT_VENDSHIM_MODEL  file of "<lid> <device>" lines for class 0x0a: is3, is4, switchx,
 *                        switchib, connectx, infinihost (table vdevs below) or unsupported
 *                        (status 0x0004, no agent for the class).  A LID not listed never
 *                        answers.  Unset: class 0x0a goes on to umad2sim as without the shim.
 *   IBMGMT_VENDSHIM_STATE  the same as IBMGMT_CCSHIM_STATE for the vendor class (config space
 *                        words, counter group selects).
 *
 * The model (IBA annex A10, as far as the tools can tell):
 *   - Gets of ClassPortInfo, CongestionInfo, CongestionKeyInfo, CongestionLog (LogType 1 on
 *     a switch, 2 on a CA), Timestamp; SwitchCongestionSetting and SwitchPortCongestionSetting
 *     (blocks of 32 ports, modifier 0..7) on switches; CACongestionSetting and
 *     CongestionControlTable (blocks of 64 entries, modifier < ControlTableCap = 2) on CAs.
 *     Other combinations: status 0x000c; a modifier out of range: status 0x001c.
 *   - Sets of CongestionKeyInfo (CC_KeyViolations: 0 clears it, another value leaves it),
 *     SwitchCongestionSetting, SwitchPortCongestionSetting (the block's 32 elements),
 *     CACongestionSetting (Port_Control; only the SL entries whose Control_Map bit is set;
 *     the map read back is the union of the maps written) and CongestionControlTable
 *     (CCTI_Limit and the block's 64 entries).  The reply holds the new value.
 *   - CC_Key: when the node's CC_Key is not 0, a request with another key is dropped (no
 *     reply) and CC_KeyViolations counts it: every Set, and Gets when CC_KeyProtectBit is 1.
 *     Retries of one request (same transaction ID) count once: under the simulator libibmad
 *     sends a request once, our library retries it as libibmad does on hardware.
 *   Defaults are fixed non-zero values derived from the LID, so that every printed field
 *   shows something.
 *
 * The vendor model (the Mellanox attributes vendstat uses; vendor range 1, data at byte 24):
 *   - ClassPortInfo (0x01) and GeneralInfo (0x17) Gets: hardware revision, device ID, uptime,
 *     firmware version, build, date, PSID, ini version, software version; the devices with
 *     the extended firmware block (IS4, SwitchX, Switch-IB, ConnectX) have it filled.
 *   - ConfigSpaceAccess (0x50) Get and Set: 1..18 {address, data, mask} records (count in
 *     bits 16..21 of the modifier); a Set stores (old & ~mask) | (data & mask); each reply
 *     record holds the address, the word and the request's mask.  Unwritten words derive
 *     from the LID and the address, 0 in every fourth 4 KiB page.
 *   - CounterGroupInfo (0x90) Get and ConfigCounterGroup (0x91) Get/Set on the IS4 family:
 *     modifier = port 1..ports (else status 0x001c); groups 0 and 1 have masks 0x7 and
 *     0x106 (an IS4 has these two, a Switch-IB three, a SwitchX 64: more than the data
 *     holds); a Set of a select a group's mask lacks gets status 0x001c.  Other devices:
 *     status 0x000c.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define UMAD_HDR	64	/* struct ib_user_mad before the MAD */
#define MAD_SIZE	256
#define CC_CLASS	0x21
#define CC_DATA_OFFS	64
#define CC_DATA_SIZE	192
#define CC_LOG_OFFS	32
#define CC_LOG_SIZE	224

#define ATTR_CPI	0x01
#define ATTR_CI		0x11
#define ATTR_CK		0x12
#define ATTR_CL		0x13
#define ATTR_SS		0x14
#define ATTR_SP		0x15
#define ATTR_CS		0x16
#define ATTR_CT		0x17
#define ATTR_TI		0x18
#define CT_LIMIT_MOD	0xffffffffu /* the state line holding CCTI_Limit */
#define CK_LAST_TID_MOD	0xfffffffeu /* the state line holding the last counted TID */

#define ST_UNSUP_METHOD_ATTR 0x000c
#define ST_INVALID_VALUE     0x001c

#define SP_BLOCKS	8
#define CT_CAP		2	/* ControlTableCap: blocks of 64 CCT entries */

static ssize_t (*next_write)(int, const void *, size_t);
static ssize_t (*next_read)(int, void *, size_t);
static int (*next_poll)(struct pollfd *, nfds_t, int);

/* ---- Queued replies ---------------------------------------------------------------------- */

#define QUEUE_MAX 32
static struct reply {
	int fd;
	uint8_t buf[UMAD_HDR + MAD_SIZE];
} queue[QUEUE_MAX];
static unsigned queued;

static int queue_find(int fd)
{
	unsigned i;

	for (i = 0; i < queued; i++)
		if (queue[i].fd == fd)
			return (int)i;
	return -1;
}

/* ---- Byte helpers ------------------------------------------------------------------------ */

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static unsigned get16(const uint8_t *p)
{
	return (unsigned)(p[0] << 8 | p[1]);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* ---- Model file ---------------------------------------------------------------------------- */

/* The word after <lid> on the model file's line of that LID (the last such line), or NULL
 * when there is no model or the LID is not listed. */
static const char *model_word(const char *env, unsigned lid, char *word, size_t size)
{
	const char *file = getenv(env);
	char line[256], w[32];
	int found = 0;
	unsigned l;
	FILE *f;

	if (!file || !(f = fopen(file, "r")))
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%u %31s", &l, w) != 2 || l != lid)
			continue;
		snprintf(word, size, "%s", w);
		found = 1;
	}
	fclose(f);
	return found ? word : NULL;
}

enum node_kind { KIND_SILENT, KIND_SWITCH, KIND_CA, KIND_UNSUP };

static enum node_kind node_kind(unsigned lid)
{
	char word[32];

	if (!model_word("IBMGMT_CCSHIM_MODEL", lid, word, sizeof(word)))
		return KIND_SILENT;
	if (!strcmp(word, "switch"))
		return KIND_SWITCH;
	if (!strcmp(word, "ca"))
		return KIND_CA;
	if (!strcmp(word, "unsupported"))
		return KIND_UNSUP;
	return KIND_SILENT;
}

/* ---- State file ----------------------------------------------------------------------------- */

#define STATE_MAX 256
static struct entry {
	unsigned lid, attr;
	uint32_t mod;
	uint8_t data[CC_LOG_SIZE];
} state[STATE_MAX];
static unsigned nstate;

/* The state file named by the environment variable env (each class has its own). */
static void state_load(const char *env)
{
	const char *file = getenv(env);
	char line[1024], hex[464];
	struct entry *e;
	unsigned i;
	FILE *f;

	nstate = 0;
	if (!file || !(f = fopen(file, "r")))
		return;
	while (nstate < STATE_MAX && fgets(line, sizeof(line), f)) {
		e = &state[nstate];
		memset(e, 0, sizeof(*e));
		if (sscanf(line, "%u %x %x %463s", &e->lid, &e->attr, &e->mod, hex) != 4)
			continue;
		for (i = 0; i < CC_LOG_SIZE && hex[2 * i] && hex[2 * i + 1]; i++) {
			unsigned b;

			sscanf(hex + 2 * i, "%2x", &b);
			e->data[i] = (uint8_t)b;
		}
		nstate++;
	}
	fclose(f);
}

static void state_save(const char *env)
{
	const char *file = getenv(env);
	char tmp[4096];
	unsigned i, j;
	FILE *f;

	if (!file || snprintf(tmp, sizeof(tmp), "%s.tmp", file) >= (int)sizeof(tmp) ||
	    !(f = fopen(tmp, "w")))
		return;
	for (i = 0; i < nstate; i++) {
		fprintf(f, "%u %x %x ", state[i].lid, state[i].attr, state[i].mod);
		for (j = 0; j < CC_LOG_SIZE; j++)
			fprintf(f, "%02x", state[i].data[j]);
		fputc('\n', f);
	}
	if (fclose(f) == 0)
		rename(tmp, file);
}

static struct entry *state_find(unsigned lid, unsigned attr, uint32_t mod)
{
	unsigned i;

	for (i = 0; i < nstate; i++)
		if (state[i].lid == lid && state[i].attr == attr && state[i].mod == mod)
			return &state[i];
	return NULL;
}

static void state_put(unsigned lid, unsigned attr, uint32_t mod, const uint8_t *data)
{
	struct entry *e = state_find(lid, attr, mod);

	if (!e) {
		if (nstate == STATE_MAX)
			return;
		e = &state[nstate++];
		e->lid = lid;
		e->attr = attr;
		e->mod = mod;
	}
	memcpy(e->data, data, CC_LOG_SIZE);
}

/* ---- Attribute values ------------------------------------------------------------------------ */

/* The value a node starts with. */
static void attr_default(unsigned lid, enum node_kind kind, unsigned attr, uint32_t mod,
			 uint8_t *d)
{
	unsigned i;

	memset(d, 0, CC_LOG_SIZE);
	switch (attr) {
	case ATTR_CPI:
		d[0] = 1;			/* BaseVersion */
		d[1] = 2;			/* ClassVersion */
		put16(d + 2, 0x0100);		/* CapabilityMask */
		d[7] = 0x12;			/* RespTimeValue 18 */
		put16(d + 30, 0xffff);		/* RedirectPKey */
		d[40] = 0xfe;			/* TrapGID fe80::1:2 */
		d[41] = 0x80;
		d[53] = 1;
		d[55] = 2;
		d[56] = 0x20;			/* TrapTC */
		d[57] = 0x30;			/* TrapSL 3, TrapFL 0 */
		put16(d + 60, 1);		/* TrapLID */
		put16(d + 62, 0xffff);		/* TrapPKey */
		d[64] = 255;			/* TrapHL */
		d[67] = 1;			/* TrapQP */
		put32(d + 68, 0x80010000);	/* TrapQKey */
		break;
	case ATTR_CI:
		put16(d, kind == KIND_SWITCH ? 0x0001 : 0x0000);
		d[2] = kind == KIND_SWITCH ? 0 : CT_CAP;
		break;
	case ATTR_CK:
		break;
	case ATTR_CL:
		if (kind == KIND_SWITCH) {
			d[0] = 1;			/* LogType */
			d[1] = 0x01;			/* CongestionFlags */
			put16(d + 2, 3);		/* LogEventsCounter */
			put32(d + 4, 1000u * lid);	/* CurrentTimeStamp */
			d[39] = 0x0a;			/* PortMap: ports 1 and 3 */
			/* events 0, 1 and 4 (the others are empty and not printed) */
			for (i = 0; i < 5; i++) {
				uint8_t *ev = d + 40 + i * 12;

				if (i == 2 || i == 3)
					continue;
				put16(ev, lid + i + 1);		/* SLID */
				put16(ev + 2, 2 + i);		/* DLID */
				ev[4] = (uint8_t)(i << 4);	/* SL */
				put32(ev + 8, 900u * lid + i);	/* Timestamp */
			}
		} else {
			d[0] = 2;
			d[1] = 0x00;
			put16(d + 2, 2);		/* ThresholdEventCounter */
			put16(d + 4, 0x0005);		/* ThresholdCongestionEventMap */
			put32(d + 8, 1000u * lid);	/* CurrentTimeStamp */
			/* events 0 and 2 */
			for (i = 0; i < 3; i += 2) {
				uint8_t *ev = d + 12 + i * 16;

				put32(ev, (0x100u + i) << 8 | 2u << 4 | 0x1); /* QP, SL 2, type 1 */
				put32(ev + 4, (0x200u + i) << 8);	      /* remote QP */
				put16(ev + 8, lid);
				put16(ev + 10, 2 + i);
				put32(ev + 12, 800u * lid + i);
			}
		}
		break;
	case ATTR_SS:
		put32(d, 0x0000001f);		/* Control_Map */
		d[4 + 31] = 0x0e;		/* Victim_Mask ports 1-3 */
		d[36 + 31] = 0x06;		/* Credit_Mask ports 1-2 */
		d[68] = 0xf0;			/* Threshold 0xf */
		d[69] = 8;			/* Packet_Size */
		d[70] = 0x30;			/* CS_Threshold 3 */
		put16(d + 72, 0x4002);		/* CS_ReturnDelay 1:2 */
		put16(d + 74, 100);		/* Marking_Rate */
		break;
	case ATTR_SP:
		for (i = 0; i < 32; i++) {
			unsigned port = mod * 32 + i;
			uint8_t *el = d + i * 4;

			el[0] = (uint8_t)((port % 3 ? 0x80 : 0) | (port % 2 ? 0x40 : 0) | (port % 16));
			el[1] = (uint8_t)(port % 9);
			put16(el + 2, port * 10);
		}
		break;
	case ATTR_CS:
		put16(d, 0x0001);		/* Port_Control */
		put16(d + 2, 0x00ff);		/* Control_Map */
		for (i = 0; i < 8; i++) {
			uint8_t *en = d + 4 + i * 8;

			put16(en, 100 + i);		/* CCTI_Timer */
			en[2] = 1;			/* CCTI_Increase */
			en[3] = (uint8_t)(7 - i % 8);	/* Trigger_Threshold */
			en[4] = (uint8_t)i;		/* CCTI_Min */
		}
		break;
	case ATTR_CT:
		put16(d, 70);			/* CCTI_Limit: 71 entries in 2 blocks */
		for (i = 0; i < 64; i++) {
			unsigned n = mod * 64 + i;

			put16(d + 4 + i * 2, (n % 4) << 14 | (n * 3 % 0x4000));
		}
		break;
	case ATTR_TI:
		put32(d, 123456789u + lid);
		break;
	}
}

static void attr_get(unsigned lid, enum node_kind kind, unsigned attr, uint32_t mod, uint8_t *d)
{
	const struct entry *e = state_find(lid, attr, mod);

	if (e)
		memcpy(d, e->data, CC_LOG_SIZE);
	else
		attr_default(lid, kind, attr, mod, d);
	if (attr == ATTR_CT && (e = state_find(lid, ATTR_CT, CT_LIMIT_MOD)))
		memcpy(d, e->data, 2);
}

/* Which attribute/method pairs a node of this kind serves; 0 or a MAD status. */
static unsigned check_request(enum node_kind kind, unsigned method, unsigned attr, uint32_t mod)
{
	switch (attr) {
	case ATTR_CPI:
	case ATTR_CI:
	case ATTR_CL:
	case ATTR_TI:
		return method == 0x01 ? 0 : ST_UNSUP_METHOD_ATTR;
	case ATTR_CK:
		return 0;
	case ATTR_SS:
		return kind == KIND_SWITCH ? 0 : ST_UNSUP_METHOD_ATTR;
	case ATTR_SP:
		if (kind != KIND_SWITCH)
			return ST_UNSUP_METHOD_ATTR;
		return mod < SP_BLOCKS ? 0 : ST_INVALID_VALUE;
	case ATTR_CS:
		return kind == KIND_CA ? 0 : ST_UNSUP_METHOD_ATTR;
	case ATTR_CT:
		if (kind != KIND_CA)
			return ST_UNSUP_METHOD_ATTR;
		return mod < CT_CAP ? 0 : ST_INVALID_VALUE;
	}
	return ST_UNSUP_METHOD_ATTR;
}

/* A Set: the node's new value from the request's data `in`. */
static void attr_set(unsigned lid, enum node_kind kind, unsigned attr, uint32_t mod,
		     const uint8_t *in)
{
	uint8_t cur[CC_LOG_SIZE];
	unsigned i, map;

	attr_get(lid, kind, attr, mod, cur);
	switch (attr) {
	case ATTR_CK:
		memcpy(cur, in, 12);	/* key, protect bit, lease period */
		if (!get16(in + 12))
			put16(cur + 12, 0);
		break;
	case ATTR_SS:
		memcpy(cur, in, 76);
		break;
	case ATTR_SP:
		memcpy(cur, in, 128);
		break;
	case ATTR_CS:
		map = get16(in + 2);
		put16(cur, get16(in));
		put16(cur + 2, get16(cur + 2) | map);
		for (i = 0; i < 16; i++)
			if (map & (1u << i))
				memcpy(cur + 4 + i * 8, in + 4 + i * 8, 8);
		break;
	case ATTR_CT: {
		uint8_t limit[CC_LOG_SIZE] = { 0 };

		memcpy(cur + 4, in + 4, 128);
		memcpy(limit, in, 2);
		state_put(lid, ATTR_CT, CT_LIMIT_MOD, limit);
		break;
	}
	}
	state_put(lid, attr, mod, cur);
}

/* ---- The request ----------------------------------------------------------------------------- */

/* Queues the reply MAD for the next poll()/read() of fd, in umad2sim's layout. */
static void queue_reply(int fd, const uint8_t *umad, const uint8_t *mad)
{
	uint32_t length = UMAD_HDR + MAD_SIZE, qpn = htonl(1);
	struct reply *r;

	if (queued == QUEUE_MAX)
		return;
	r = &queue[queued++];
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	memcpy(r->buf, umad, 4); /* agent_id */
	memcpy(r->buf + 16, &length, 4);
	memcpy(r->buf + 20, &qpn, 4);
	memcpy(r->buf + 28, umad + 28, 2); /* addr.lid: the replying node */
	memcpy(r->buf + UMAD_HDR, mad, MAD_SIZE);
}

/* Handles one CC request; queues the reply (if any) for fd. */
static void cc_serve(int fd, const uint8_t *umad, size_t len)
{
	uint8_t mad[MAD_SIZE] = { 0 }, data[CC_LOG_SIZE];
	const uint8_t *req = umad + UMAD_HDR;
	unsigned lid, method, attr, status;
	enum node_kind kind;
	uint32_t mod;
	size_t offs, size;

	memcpy(mad, req, len - UMAD_HDR > MAD_SIZE ? MAD_SIZE : len - UMAD_HDR);
	lid = get16(umad + 28); /* addr.lid, network order */
	method = mad[3] & 0x7f;
	attr = get16(mad + 16);
	mod = (uint32_t)get16(mad + 20) << 16 | get16(mad + 22);
	offs = attr == ATTR_CL ? CC_LOG_OFFS : CC_DATA_OFFS;
	size = attr == ATTR_CL ? CC_LOG_SIZE : CC_DATA_SIZE;

	kind = node_kind(lid);
	if (getenv("IBMGMT_CCSHIM_DEBUG"))
		fprintf(stderr, "cc-shim: lid %u kind %d method %u attr 0x%x mod %u\n", lid, kind, method, attr, mod);
	if (kind == KIND_SILENT)
		return;
	state_load("IBMGMT_CCSHIM_STATE");
	status = kind == KIND_UNSUP ? ST_UNSUP_METHOD_ATTR : 0;
	if (!status) {
		/* the CC_Key check: a mismatch is dropped and counted */
		uint8_t ck[CC_LOG_SIZE];
		uint64_t node_key;

		attr_get(lid, kind, ATTR_CK, 0, ck);
		node_key = get64(ck);
		if (node_key && get64(mad + 24) != node_key && (method == 0x02 || (ck[8] & 0x80))) {
			/* a retry (same TID) is counted once: libibmad under the simulator
			 * never retries, our library does (as libibmad does on hardware) */
			struct entry *last = state_find(lid, ATTR_CK, CK_LAST_TID_MOD);
			uint8_t tid[CC_LOG_SIZE] = { 0 };

			memcpy(tid, mad + 12, 4);
			if (!last || memcmp(last->data, tid, 4)) {
				if (get16(ck + 12) < 0xffff)
					put16(ck + 12, get16(ck + 12) + 1);
				state_put(lid, ATTR_CK, 0, ck);
				state_put(lid, ATTR_CK, CK_LAST_TID_MOD, tid);
				state_save("IBMGMT_CCSHIM_STATE");
			}
			return;
		}
		if (method != 0x01 && method != 0x02)
			status = 0x0008; /* unsupported method */
		else
			status = check_request(kind, method, attr, mod);
	}
	memset(data, 0, sizeof(data));
	if (!status) {
		if (method == 0x02) {
			attr_set(lid, kind, attr, mod, mad + offs);
			state_save("IBMGMT_CCSHIM_STATE");
		}
		attr_get(lid, kind, attr, mod, data);
	}
	memcpy(mad + offs, data, size);
	mad[3] = 0x81; /* GetResp */
	put16(mad + 4, status);

	queue_reply(fd, umad, mad);
}

/* ---- Mellanox vendor class 0x0a ----------------------------------------------------------- */

#define VS_CLASS	0x0a
#define VS_DATA_OFFS	24	/* vendor range 1: the data follow the common MAD header */
#define VS_DATA_SIZE	232
#define VATTR_CPI	0x01
#define VATTR_GI	0x17	/* GeneralInfo */
#define VATTR_CS	0x50	/* ConfigSpaceAccess */
#define VATTR_CGI	0x90	/* CounterGroupInfo */
#define VATTR_CCG	0x91	/* ConfigCounterGroup */
#define CS_RECORDS	18	/* records of a ConfigSpaceAccess MAD */
#define CS_REC(i)	(8 + 12 * (i))
#define CG_MASK0	0x00000007u /* group selects that counter group 0 takes */
#define CG_MASK1	0x00000106u /* and group 1 */
#define CG_MAX_MASKS	55	/* masks that fit in the data after the count */
#define ST_BAD_CLASS	0x0004

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

/* The devices a vendor model line may name. */
static const struct vdev {
	const char *kind;
	uint16_t dev_id;
	int ext_fw;		/* GeneralInfo carries the extended firmware version block */
	unsigned counter_groups; /* CounterGroupInfo's count (0: neither it nor
				  * ConfigCounterGroup is served) */
	unsigned ports;		/* valid port numbers (attribute modifier) 1..ports */
	const char *psid;	/* 16 characters fill the field: no NUL after it */
} vdevs[] = {
	{ "is3", 0xb924, 0, 0, 24, "MT_0C20110003" },
	{ "is4", 0x01b3, 1, 2, 36, "MT_0D00110009" },
	/* more groups than masks fit: the tools read zeros past the data */
	{ "switchx", 0xc738, 1, 64, 36, "MT_1010210013" },
	{ "switchib", 0xcb20, 1, 3, 36, "MT_1870110032_IB" },
	{ "connectx", 0x1003, 1, 0, 2, "MT_1090120019" },
	{ "infinihost", 0x6282, 0, 0, 2, "MT_0150000001" },
};

static const struct vdev *vdev_find(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(vdevs) / sizeof(vdevs[0]); i++)
		if (!strcmp(vdevs[i].kind, kind))
			return &vdevs[i];
	return NULL;
}

/* GeneralInfo: hardware, firmware (with the extended block where the device has it) and
 * software versions, derived from the LID. */
static void vs_general_info(unsigned lid, const struct vdev *dev, uint8_t *d)
{
	size_t n = strlen(dev->psid);

	put16(d + 8, 0xa0 + lid);			/* hw_revision */
	put16(d + 10, dev->dev_id);
	put32(d + 36, 0x10000u * lid + 0x1e240);	/* uptime */
	d[41] = (uint8_t)(7 + lid % 3);			/* fw major, minor, sub_minor */
	d[42] = 2;
	d[43] = (uint8_t)lid;
	put32(d + 44, 0x110 + lid);			/* build_id */
	d[48] = 0x03;					/* month, day, year (BCD) */
	d[49] = (uint8_t)(0x10 + lid % 10);
	put16(d + 50, 0x2010);
	put16(d + 54, 0x1530);				/* hour */
	memcpy(d + 56, dev->psid, n > 16 ? 16 : n);
	/* ini_file_version; after a 16-character PSID its first bytes are printable */
	put32(d + 72, n >= 16 ? 0x31320000u | lid : 4 + lid);
	if (dev->ext_fw) {
		put32(d + 76, 11);			/* ext major, minor, sub_minor */
		put32(d + 80, 2000 + lid);
		put32(d + 84, 1010 + lid);
		d[105] = 1;				/* sw major, minor, sub_minor */
		d[106] = (uint8_t)(lid % 7);
		d[107] = 2;
	} else {
		d[77] = 1;
		d[78] = 0;
		d[79] = (uint8_t)(2 + lid % 5);
	}
}

/* A config space word: what Sets wrote, else a value derived from the LID and the address,
 * 0 for every fourth 4 KiB page (so vendstat -w skips some ports). */
static uint32_t vs_cs_get(unsigned lid, uint32_t addr)
{
	const struct entry *e = state_find(lid, VATTR_CS, addr);

	if (e)
		return get32(e->data);
	if (!(addr >> 12 & 3))
		return 0;
	return (uint32_t)lid << 24 | ((addr * 2654435761u) >> 12 & 0xfffff);
}

static void vs_cs_put(unsigned lid, uint32_t addr, uint32_t v)
{
	uint8_t d[CC_LOG_SIZE] = { 0 };

	put32(d, v);
	state_put(lid, VATTR_CS, addr, d);
}

/* The two counter group selects of a port: what a Set wrote, else 0 and 1. */
static void vs_cg_get(unsigned lid, uint32_t port, uint8_t sel[2])
{
	const struct entry *e = state_find(lid, VATTR_CCG, port);

	sel[0] = e ? e->data[0] : 0;
	sel[1] = e ? e->data[1] : 1;
}

/* Handles one vendor request: the reply's status; d holds the request's data and gets the
 * reply's. */
static unsigned vs_attr(unsigned lid, const struct vdev *dev, unsigned method, unsigned attr,
			uint32_t mod, uint8_t *d)
{
	uint8_t out[VS_DATA_SIZE] = { 0 }, sel[2], st[CC_LOG_SIZE] = { 0 };
	unsigned i, n, changed = 0;

	if (method != 0x01 && method != 0x02)
		return 0x0008; /* unsupported method */
	switch (attr) {
	case VATTR_CPI:
		if (method != 0x01)
			return ST_UNSUP_METHOD_ATTR;
		out[0] = 1;		/* BaseVersion */
		out[1] = 1;		/* ClassVersion */
		out[7] = 0x12;		/* RespTimeValue */
		break;
	case VATTR_GI:
		if (method != 0x01)
			return ST_UNSUP_METHOD_ATTR;
		vs_general_info(lid, dev, out);
		break;
	case VATTR_CS:
		/* records in bits 16..21 of the modifier; each {address, data, mask} */
		n = mod >> 16 & 0x3f;
		if (!n || n > CS_RECORDS)
			return ST_INVALID_VALUE;
		for (i = 0; i < n; i++) {
			const uint8_t *rec = d + CS_REC(i);
			uint32_t addr = get32(rec), mask = get32(rec + 8), v = vs_cs_get(lid, addr);

			if (method == 0x02) {
				v = (v & ~mask) | (get32(rec + 4) & mask);
				vs_cs_put(lid, addr, v);
				changed = 1;
			}
			put32(out + CS_REC(i), addr);
			put32(out + CS_REC(i) + 4, v);
			put32(out + CS_REC(i) + 8, mask);
		}
		break;
	case VATTR_CGI:
		if (!dev->counter_groups || method != 0x01)
			return ST_UNSUP_METHOD_ATTR;
		if (mod < 1 || mod > dev->ports)
			return ST_INVALID_VALUE;
		out[11] = (uint8_t)dev->counter_groups;
		put32(out + 12, CG_MASK0);
		put32(out + 16, CG_MASK1);
		for (i = 2; i < dev->counter_groups && i < CG_MAX_MASKS; i++)
			put32(out + 12 + 4 * i, 0x11u << (i % 24) | i);
		break;
	case VATTR_CCG:
		if (!dev->counter_groups)
			return ST_UNSUP_METHOD_ATTR;
		if (mod < 1 || mod > dev->ports)
			return ST_INVALID_VALUE;
		if (method == 0x02) {
			/* a select the group cannot count is refused */
			if (d[15] > 31 || !(CG_MASK0 >> d[15] & 1) || d[19] > 31 ||
			    !(CG_MASK1 >> d[19] & 1))
				return ST_INVALID_VALUE;
			st[0] = d[15];
			st[1] = d[19];
			state_put(lid, VATTR_CCG, mod, st);
			changed = 1;
		}
		vs_cg_get(lid, mod, sel);
		out[15] = sel[0];
		out[19] = sel[1];
		break;
	default:
		return ST_UNSUP_METHOD_ATTR;
	}
	if (changed)
		state_save("IBMGMT_VENDSHIM_STATE");
	memcpy(d, out, VS_DATA_SIZE);
	return 0;
}

/* Handles one vendor class 0x0a request; queues the reply (if any) for fd. */
static void vendor_serve(int fd, const uint8_t *umad, size_t len)
{
	uint8_t mad[MAD_SIZE] = { 0 };
	unsigned lid, method, attr, status;
	const struct vdev *dev = NULL;
	char word[32];
	uint32_t mod;

	memcpy(mad, umad + UMAD_HDR, len - UMAD_HDR > MAD_SIZE ? MAD_SIZE : len - UMAD_HDR);
	lid = get16(umad + 28);
	method = mad[3] & 0x7f;
	attr = get16(mad + 16);
	mod = get32(mad + 20);
	if (!model_word("IBMGMT_VENDSHIM_MODEL", lid, word, sizeof(word)))
		return; /* not listed: never answers */
	if (strcmp(word, "unsupported") && !(dev = vdev_find(word)))
		return;
	state_load("IBMGMT_VENDSHIM_STATE");
	if (!dev) {
		status = ST_BAD_CLASS; /* no agent for the class */
		memset(mad + VS_DATA_OFFS, 0, VS_DATA_SIZE);
	} else {
		status = vs_attr(lid, dev, method, attr, mod, mad + VS_DATA_OFFS);
		if (status)
			memset(mad + VS_DATA_OFFS, 0, VS_DATA_SIZE);
	}
	mad[3] = 0x81; /* GetResp */
	put16(mad + 4, status);
	queue_reply(fd, umad, mad);
}

/* ---- The interposed calls ----------------------------------------------------------------- */

static void init(void)
{
	if (!next_write) {
		next_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
		next_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
		next_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	}
}

/* The class of a request this library answers (a CC request always, a vendor class 0x0a
 * request when there is a vendor model), else 0. */
static unsigned shim_class(int fd, const void *buf, size_t count)
{
	const uint8_t *mad = (const uint8_t *)buf + UMAD_HDR;

	if (fd < 1024 || fd >= 2048 || count < UMAD_HDR + 24 || mad[0] != 1 || (mad[3] & 0x80))
		return 0;
	if (mad[1] == CC_CLASS || (mad[1] == VS_CLASS && getenv("IBMGMT_VENDSHIM_MODEL")))
		return mad[1];
	return 0;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	unsigned cls;

	init();
	cls = shim_class(fd, buf, count);
	if (cls == CC_CLASS)
		cc_serve(fd, buf, count);
	else if (cls == VS_CLASS)
		vendor_serve(fd, buf, count);
	else
		return next_write(fd, buf, count);
	return (ssize_t)count;
}

ssize_t read(int fd, void *buf, size_t count)
{
	int i;

	init();
	i = fd >= 1024 && fd < 2048 ? queue_find(fd) : -1;
	if (i >= 0) {
		size_t n = sizeof(queue[i].buf) < count ? sizeof(queue[i].buf) : count;

		memcpy(buf, queue[i].buf, n);
		memmove(&queue[i], &queue[i + 1], (queued - (unsigned)i - 1) * sizeof(queue[0]));
		queued--;
		return (ssize_t)n;
	}
	return next_read(fd, buf, count);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	nfds_t i;
	int ready = 0;

	init();
	for (i = 0; i < nfds; i++)
		if (fds[i].fd >= 1024 && fds[i].fd < 2048 && queue_find(fds[i].fd) >= 0)
			ready++;
	if (!ready)
		return next_poll(fds, nfds, timeout);
	for (i = 0; i < nfds; i++)
		fds[i].revents = fds[i].fd >= 1024 && fds[i].fd < 2048 &&
					 queue_find(fds[i].fd) >= 0 ?
				     (short)(fds[i].events & POLLIN) :
				     0;
	return ready;
}
