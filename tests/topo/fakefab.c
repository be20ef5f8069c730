// SPDX-License-Identifier: BSD-3-Clause
/* The fake fabric of libibtopo's unit tests (fakefab.h says what it does). */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fakefab.h"

struct fakefab ff;

static int sv[2] = { -1, -1 };
static pthread_t thread;
static bool thread_on, thread_stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define HELD_MAX 512
static uint8_t held[HELD_MAX][UMAD_HDR + IBMADRPC_MAD_SIZE];
static unsigned nheld;

void ff_reset(void)
{
	memset(&ff, 0, sizeof(ff));
	ff.cut_node = -1;
	ff.seed = 12345;
}

int ff_add(uint8_t type, unsigned nports, const char *desc)
{
	struct ff_node *n;
	int i = (int)ff.n;

	ck_assert_uint_lt(ff.n, FF_MAX_NODES);
	n = &ff.node[ff.n++];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->nports = (uint8_t)nports;
	n->guid = 0x1000ull * (uint64_t)(i + 1);
	n->sysguid = n->guid;
	n->devid = 0xb924;
	n->vendid = 0x2c9;
	snprintf(n->desc, sizeof(n->desc), "%s", desc);
	n->lid = (uint16_t)(i + 1);
	for (unsigned p = 0; p < 256; p++)
		n->port[p].peer = -1;
	memset(n->lft, 0xff, sizeof(n->lft));
	return i;
}

void ff_link(int a, unsigned pa, int b, unsigned pb)
{
	ff.node[a].port[pa] = (struct ff_port){ .peer = b, .peer_port = (uint8_t)pb, .phys = 5 };
	ff.node[b].port[pb] = (struct ff_port){ .peer = a, .peer_port = (uint8_t)pa, .phys = 5 };
}

static unsigned rnd(void)
{
	ff.seed = ff.seed * 1103515245u + 12345u;
	return (ff.seed >> 16) & 0x7fff;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint64_t port_guid(const struct ff_node *n, unsigned port)
{
	return n->type == 2 ? n->guid : n->guid + port;
}

/* The SMA's answer; false: no answer (bad attribute -> an error status instead) */
static bool answer(int idx, unsigned in_port, uint16_t attr, uint32_t mod, uint8_t *data, uint16_t *status)
{
	struct ff_node *n = &ff.node[idx];

	memset(data, 0, 64);
	*status = 0;
	switch (attr) {
	case 0x0011: /* NodeInfo */
		data[0] = 1;
		data[1] = 1;
		data[2] = n->type;
		data[3] = n->nports;
		put64(data + 4, n->sysguid);
		put64(data + 12, n->guid);
		put64(data + 20, port_guid(n, in_port));
		put16(data + 28, 64);
		put16(data + 30, n->devid);
		put32(data + 32, 0xa0);
		put32(data + 36, n->vendid);
		data[36] = n->bogus_local_port ? n->bogus_local_port : (uint8_t)in_port;
		return true;
	case 0x0010: /* NodeDescription */
		memcpy(data, n->desc, strnlen(n->desc, 64));
		return true;
	case 0x0012: /* SwitchInfo */
		if (n->type != 2)
			break;
		put16(data, 1024);
		put16(data + 4, 64);
		put16(data + 6, (uint16_t)ff.n);
		put16(data + 18, 0xc000 + 3);
		return true;
	case 0x0015: { /* PortInfo */
		unsigned p = mod & 0xff;

		if (n->type != 2 && p == 0)
			p = in_port;
		if (p > n->nports)
			break;
		put64(data + 8, 0xfe80000000000000ull);
		if (n->type == 2) {
			if (p == 0) {
				put16(data + 16, n->lid);
				data[34] = n->lmc;
			}
		} else {
			put16(data + 16, (uint16_t)(n->lid + p - 1));
			data[34] = n->lmc;
		}
		put32(data + 20, 0x0050c048);
		data[28] = (uint8_t)in_port; /* LocalPortNum: where the SMP came in */
		data[31] = 2; /* 4x */
		if (p == 0) {
			data[32] = 0x24;
			data[33] = 0x50;
		} else if (n->port[p].peer >= 0 && n->port[p].phys == 5) {
			data[32] = 0x24; /* Active */
			data[33] = 0x50; /* LinkUp */
		} else {
			data[32] = 0x21; /* Down */
			data[33] = 0x20; /* Polling */
		}
		data[35] = 0x22;
		return true;
	}
	case 0x0019: { /* LinearForwardingTable */
		unsigned block = mod;

		if (n->type != 2 || block >= 1024 / 64)
			break;
		memcpy(data, n->lft + block * 64, 64);
		return true;
	}
	case 0x001b: { /* MulticastForwardingTable: a pattern from the MLID and position */
		unsigned block = mod & 0x1ff, pos = mod >> 28;

		if (n->type != 2 || block >= 2)
			break;
		for (unsigned i = 0; i < 32; i++)
			put16(data + 2 * i, (uint16_t)((block * 32 + i) * 16 + pos + n->guid));
		return true;
	}
	}
	*status = 0x001c; /* unsupported attribute / value */
	return true;
}

static void emit(const uint8_t *buf, size_t len)
{
	if (ff.reorder) {
		pthread_mutex_lock(&lock);
		if (nheld < HELD_MAX) {
			memcpy(held[nheld++], buf, len);
			pthread_mutex_unlock(&lock);
			return;
		}
		pthread_mutex_unlock(&lock);
	}
	ck_assert_int_eq((int)write(sv[1], buf, len), (int)len);
}

/* sends what is held, in random order, every millisecond */
static void *reorder_thread(void *arg)
{
	(void)arg;
	while (!thread_stop) {
		usleep(1000);
		pthread_mutex_lock(&lock);
		while (nheld) {
			unsigned i = rnd() % nheld;

			if (write(sv[1], held[i], sizeof(held[i])) < 0)
				break;
			memcpy(held[i], held[--nheld], sizeof(held[i]));
		}
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static int hook(struct ibmadrpc_port *port, const uint8_t *umad, size_t len)
{
	uint8_t buf[UMAD_HDR + IBMADRPC_MAD_SIZE];
	const uint8_t *req = umad + UMAD_HDR;
	uint8_t *rep = buf + UMAD_HDR;
	unsigned hops, in_port;
	uint16_t attr, status;
	uint32_t mod;
	int cur;

	(void)port;
	if (ff.send_error)
		return ff.send_error;
	ck_assert_uint_ge(len, UMAD_HDR + IBMADRPC_MAD_SIZE);
	ff.smps++;
	if (ff.cut_after && ff.smps == ff.cut_after && ff.cut_node >= 0) {
		struct ff_port *p = &ff.node[ff.cut_node].port[ff.cut_port];

		if (p->peer >= 0)
			ff.node[p->peer].port[p->peer_port].phys = 2;
		p->phys = 2;
	}
	if (ff.drop_pct && rnd() % 100 < ff.drop_pct)
		return 0;
	ck_assert_uint_eq(req[1], 0x81); /* directed route */
	hops = req[7];
	attr = (uint16_t)(req[16] << 8 | req[17]);
	mod = (uint32_t)req[20] << 24 | (uint32_t)req[21] << 16 | (uint32_t)req[22] << 8 | req[23];
	/* route it: node 0 port 1 is where we are */
	cur = 0;
	in_port = 1;
	if (ff.node[0].type == 2)
		in_port = 0;
	for (unsigned h = 1; h <= hops; h++) {
		unsigned out = req[128 + h];
		struct ff_port *p;

		if (out > ff.node[cur].nports)
			return 0;
		p = &ff.node[cur].port[out];
		if (p->peer < 0 || p->phys != 5 || ff.node[cur].dead)
			return 0;
		in_port = p->peer_port;
		cur = p->peer;
	}
	if (ff.node[cur].dead)
		return 0;
	memset(buf, 0, sizeof(buf));
	memcpy(rep, req, IBMADRPC_MAD_SIZE);
	rep[3] = 0x81; /* GetResp */
	answer(cur, in_port, attr, mod, rep + 64, &status);
	rep[4] = (uint8_t)(0x80 | (status >> 8));
	rep[5] = (uint8_t)status;
	emit(buf, sizeof(buf));
	return 0;
}

struct ibmadrpc_port *ff_open(void)
{
	struct ibmadrpc_port *port;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	port = ibmadrpc_test_port_new(hook);
	ck_assert_ptr_nonnull(port);
	port->fd = sv[0];
	port->lid = ff.node[0].lid;
	/* answers come at once or never: a long time-out costs only the tests that want one,
	 * and a loaded machine (sanitizers, make -j) does not turn late answers into losses */
	port->default_timeout_ms = 1000;
	port->default_retries = 0;
	nheld = 0;
	thread_stop = false;
	thread_on = false;
	if (ff.reorder) {
		ck_assert_int_eq(pthread_create(&thread, NULL, reorder_thread, NULL), 0);
		thread_on = true;
	}
	return port;
}

void ff_close(struct ibmadrpc_port *port)
{
	if (thread_on) {
		thread_stop = true;
		pthread_join(thread, NULL);
		thread_on = false;
	}
	port->fd = -1;
	ibmadrpc_port_close(port);
	close(sv[0]);
	close(sv[1]);
	sv[0] = sv[1] = -1;
}
