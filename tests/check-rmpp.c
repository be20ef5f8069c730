// SPDX-License-Identifier: BSD-3-Clause
/*
 * libibmadrpc's RMPP engine (libibmadrpc/rmpp.c, compiled in): rmpp_tx segments, rmpp_rx
 * reassembles, over a simulated link that can lose, duplicate and reorder packets, plus
 * every protocol error and arbitrary bytes fed to both sides.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rmpp.h"

#define SA_CLASS 0x03
#define SA_OFF 56          /* SA data offset */
#define SA_REC 64          /* a record of 64 bytes (e.g. a NodeRecord slot) */
#define SA_PER_SEG 200     /* payload bytes per SA segment */
#define SA_HDR_PART 20     /* class header bytes after the RMPP header */
#define GET_TABLE_RESP 0x92
#define GET_TABLE 0x12
#define RRESPTIME 0x40     /* RRespTime 8, in byte 26's upper 5 bits */

/* ---- helpers ----------------------------------------------------------------------------- */

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
}

static uint32_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

static bool chance(unsigned pct)
{
	return pct && rng() % 100 < pct;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void set_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A response header: MAD header, RMPP version/RRespTime, class header pattern. */
static void make_header(uint8_t *hdr, uint8_t cls, uint8_t method, size_t off)
{
	size_t i;

	memset(hdr, 0, RMPP_MAD_SIZE);
	hdr[0] = 1;
	hdr[1] = cls;
	hdr[2] = cls == SA_CLASS ? 2 : 1;
	hdr[3] = method;
	for (i = 8; i < 16; i++)
		hdr[i] = (uint8_t)(0xa0 + i); /* TID */
	hdr[16] = 0x00;
	hdr[17] = 0x11; /* NodeRecord */
	hdr[24] = 1;
	hdr[26] = RRESPTIME;
	for (i = 36; i < off; i++)
		hdr[i] = (uint8_t)(i ^ 0x5a);
}

static uint8_t *make_payload(size_t n, uint32_t seed)
{
	uint8_t *p = malloc(n ? n : 1);
	size_t i;

	ck_assert_ptr_nonnull(p);
	rng_seed(seed);
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng();
	return p;
}

/* Feeds a copy of exactly len bytes, so that a sanitizer build catches any over-read. */
static enum rmpp_rx_result feed_rx(struct rmpp_rx *rx, const uint8_t *mad, size_t len, uint8_t *ack,
				   size_t *ack_len)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum rmpp_rx_result r;

	ck_assert_ptr_nonnull(copy);
	if (len)
		memcpy(copy, mad, len);
	r = rmpp_rx_segment(rx, copy, len, ack, ack_len);
	free(copy);
	return r;
}

static enum rmpp_tx_result feed_tx(struct rmpp_tx *tx, const uint8_t *mad, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum rmpp_tx_result r;

	ck_assert_ptr_nonnull(copy);
	if (len)
		memcpy(copy, mad, len);
	r = rmpp_tx_ack(tx, copy, len);
	free(copy);
	return r;
}

static void check_reply(const uint8_t *m, uint8_t method, uint8_t type, uint8_t status, uint32_t d1,
			uint32_t d2)
{
	ck_assert_uint_eq(m[3], method);
	ck_assert_uint_eq(m[24], 1);
	ck_assert_uint_eq(m[25], type);
	ck_assert_uint_eq(m[26] & 0x7, RMPP_FLAG_ACTIVE);
	ck_assert_uint_eq(m[27], status);
	ck_assert_uint_eq(be32(m + 28), d1);
	ck_assert_uint_eq(be32(m + 32), d2);
}

static void check_ack(const uint8_t *m, uint32_t seg, uint32_t newwin)
{
	check_reply(m, GET_TABLE, RMPP_TYPE_ACK, 0, seg, newwin);
}

static void check_abort(const uint8_t *m, uint8_t status)
{
	check_reply(m, GET_TABLE, RMPP_TYPE_ABORT, status, 0, 0);
}

/* An SA GetTableResp transfer of `records` records, its rx and tx. */
struct xfer {
	uint8_t hdr[RMPP_MAD_SIZE];
	uint8_t *payload;
	size_t len;
	struct rmpp_tx tx;
	struct rmpp_rx rx;
};

static void xfer_init(struct xfer *x, size_t records)
{
	make_header(x->hdr, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	x->len = records * SA_REC;
	x->payload = make_payload(x->len, (uint32_t)records);
	rmpp_tx_init(&x->tx, x->hdr, SA_OFF, x->payload, x->len);
	ck_assert(!x->tx.aborted);
	rmpp_rx_init(&x->rx, SA_OFF);
}

static void xfer_free(struct xfer *x)
{
	rmpp_rx_free(&x->rx);
	free(x->payload);
}

static enum rmpp_rx_result send_seg(struct xfer *x, uint32_t seg, uint8_t *ack, size_t *ack_len)
{
	uint8_t mad[RMPP_MAD_SIZE];

	rmpp_tx_build(&x->tx, seg, mad);
	return feed_rx(&x->rx, mad, sizeof(mad), ack, ack_len);
}

static void check_reassembled(const struct rmpp_rx *rx, const uint8_t *hdr, size_t off,
			      const uint8_t *payload, size_t len)
{
	ck_assert(rx->done);
	ck_assert_int_eq(rx->error, 0);
	ck_assert_ptr_nonnull(rx->buf);
	ck_assert_uint_eq(rx->len, off + len);
	ck_assert_uint_le(rx->len, rx->cap);
	ck_assert_mem_eq(rx->buf, hdr, 24);
	if (off > 36)
		ck_assert_mem_eq(rx->buf + 36, hdr + 36, off - 36);
	ck_assert_uint_eq(rx->buf[25], RMPP_TYPE_DATA);
	if (len)
		ck_assert(memcmp(rx->buf + off, payload, len) == 0);
}

/* ---- the simulated link ------------------------------------------------------------------ */

struct link {
	unsigned drop_pct;      /* each segment and each ACK is lost with this chance */
	unsigned dup_pct;       /* each segment sent arrives twice with this chance */
	unsigned spurious_pct;  /* a retransmission timer fires early with this chance */
	bool reorder;           /* the in-flight segments arrive in random order */
	unsigned max_retries;
	uint64_t seed;
};

struct link_stats {
	unsigned segs, acks, timeouts, dups, done, ahead;
};

#define QUEUE_MAX 512

/* Runs one transfer to completion over the link; rx is initialised here and left done. */
static void run_link(const uint8_t *hdr, size_t off, const uint8_t *payload, size_t len,
		     const struct link *l, struct rmpp_rx *rx, struct link_stats *st)
{
	static uint8_t queue[QUEUE_MAX][RMPP_MAD_SIZE];
	uint8_t ack[RMPP_MAD_SIZE];
	struct rmpp_tx tx;
	unsigned qlen = 0, iter;

	memset(st, 0, sizeof(*st));
	rng_seed(l->seed);
	rmpp_tx_init(&tx, hdr, off, payload, len);
	ck_assert(!tx.aborted);
	rmpp_rx_init(rx, off);

	for (iter = 0; !tx.done; iter++) {
		uint32_t segs[64];
		unsigned n, i, pick;
		enum rmpp_rx_result r;
		size_t ack_len;

		ck_assert_msg(iter < 2000000, "no progress");
		ck_assert(!tx.aborted);
		n = rmpp_tx_pending(&tx, segs, 64);
		for (i = 0; i < n; i++) {
			unsigned copies = chance(l->dup_pct) ? 2 : 1;

			ck_assert_uint_ge(segs[i], 1);
			ck_assert_uint_le(segs[i], tx.nseg);
			st->segs++;
			if (chance(l->drop_pct))
				continue;
			while (copies-- && qlen < QUEUE_MAX)
				rmpp_tx_build(&tx, segs[i], queue[qlen++]);
		}
		if (!qlen || chance(l->spurious_pct)) {
			ck_assert_msg(rmpp_tx_timeout(&tx, l->max_retries), "retry budget exhausted");
			st->timeouts++;
			if (!qlen)
				continue;
		}
		pick = l->reorder ? rng() % qlen : 0;
		if (be32(queue[pick] + 28) > rx->next_seg && !rx->done)
			st->ahead++;
		r = feed_rx(rx, queue[pick], RMPP_MAD_SIZE, ack, &ack_len);
		memmove(queue[pick], queue[pick + 1], (size_t)(qlen - pick - 1) * RMPP_MAD_SIZE);
		qlen--;
		ck_assert_int_ne(r, RMPP_RX_ABORT);
		if (r == RMPP_RX_DONE)
			st->done++;
		if (r == RMPP_RX_DUPLICATE) {
			st->dups++;
			ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
		}
		if (!ack_len)
			continue;
		ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
		ck_assert_uint_eq(ack[25], RMPP_TYPE_ACK);
		st->acks++;
		if (chance(l->drop_pct))
			continue;
		ck_assert_int_ne(feed_tx(&tx, ack, ack_len), RMPP_TX_ABORTED);
	}
	ck_assert_uint_eq(st->done, 1);
	ck_assert_uint_eq(tx.last_acked, tx.nseg);
}

/* ---- transfers --------------------------------------------------------------------------- */

static const size_t record_counts[] = { 1, 2, 7, 2000 };

START_TEST(test_records)
{
	size_t records = record_counts[_i], len = records * SA_REC;
	size_t nseg = (len + SA_PER_SEG - 1) / SA_PER_SEG, expect_acks, k;
	struct link l = { .max_retries = 0, .seed = 1 };
	struct link_stats st;
	struct rmpp_rx rx;
	uint8_t hdr[RMPP_MAD_SIZE], *payload = make_payload(len, 7);

	make_header(hdr, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	run_link(hdr, SA_OFF, payload, len, &l, &rx, &st);
	check_reassembled(&rx, hdr, SA_OFF, payload, len);
	ck_assert_uint_eq(rx.expected, nseg * SA_HDR_PART + len);
	ck_assert_uint_eq(rx.next_seg, nseg + 1);
	/* lossless: each segment once, no timer, ACKs at 1, 33, 65, ... and the last */
	ck_assert_uint_eq(st.segs, nseg);
	ck_assert_uint_eq(st.timeouts, 0);
	ck_assert_uint_eq(st.dups, 0);
	expect_acks = 1;
	for (k = 1; k < nseg; k += RMPP_WINDOW)
		expect_acks++;
	ck_assert_uint_eq(st.acks, expect_acks);
	if (records == 2000) {
		ck_assert_uint_eq(len, 128000);
		ck_assert_uint_eq(nseg, 640);
		ck_assert_uint_eq(st.acks, 21);
	}
	rmpp_rx_free(&rx);
	ck_assert_ptr_null(rx.buf);
	free(payload);
}
END_TEST

/* other data offsets and sizes: vendor range 2 (40), a 36-byte offset, empty, exact fit */
static const struct {
	uint8_t cls;
	size_t off, len;
} shapes[] = {
	{ 0x30, 40, 1 }, { 0x4f, 40, 216 * 40 + 3 }, { 0x03, 36, 220 * 5 }, { 0x03, 36, 0 },
	{ 0x03, 56, 0 }, { 0x03, 56, 200 * 33 }, { 0x06, 64, 192 * 64 + 191 }, { 0x03, 255, 70 },
};

START_TEST(test_shapes)
{
	size_t off = shapes[_i].off, len = shapes[_i].len;
	struct link l = { .max_retries = 0, .seed = 2 };
	struct link_stats st;
	struct rmpp_rx rx;
	uint8_t hdr[RMPP_MAD_SIZE], *payload = make_payload(len, 11);
	size_t per = RMPP_MAD_SIZE - off, nseg = len ? (len + per - 1) / per : 1;

	make_header(hdr, shapes[_i].cls, GET_TABLE_RESP, off);
	run_link(hdr, off, payload, len, &l, &rx, &st);
	check_reassembled(&rx, hdr, off, payload, len);
	ck_assert_uint_eq(st.segs, nseg);
	ck_assert_uint_eq(rx.expected, nseg * (off - 36) + len);
	rmpp_rx_free(&rx);
	free(payload);
}
END_TEST

START_TEST(test_segment_fields)
{
	struct xfer x;
	uint8_t m[RMPP_MAD_SIZE], zero[RMPP_MAD_SIZE] = { 0 };
	uint32_t seg;

	xfer_init(&x, 7); /* 448 bytes: 200 + 200 + 48 */
	ck_assert_uint_eq(x.tx.nseg, 3);
	ck_assert_uint_eq(x.tx.last_acked, 0);
	ck_assert_uint_eq(x.tx.window_last, 1);
	ck_assert_uint_eq(x.tx.next_to_send, 1);
	for (seg = 1; seg <= 3; seg++) {
		size_t start = (seg - 1) * SA_PER_SEG, n = seg < 3 ? SA_PER_SEG : 48;

		rmpp_tx_build(&x.tx, seg, m);
		ck_assert_mem_eq(m, x.hdr, 24);
		ck_assert_mem_eq(m + 36, x.hdr + 36, SA_OFF - 36);
		ck_assert_uint_eq(m[24], 1);
		ck_assert_uint_eq(m[25], RMPP_TYPE_DATA);
		ck_assert_uint_eq(m[26] & 0xf8, RRESPTIME);
		ck_assert_uint_eq(m[27], 0);
		ck_assert_uint_eq(be32(m + 28), seg);
		ck_assert_mem_eq(m + SA_OFF, x.payload + start, n);
		if (n < SA_PER_SEG)
			ck_assert_mem_eq(m + SA_OFF + n, zero, SA_PER_SEG - n);
	}
	rmpp_tx_build(&x.tx, 1, m);
	ck_assert_uint_eq(m[26] & 7, RMPP_FLAG_ACTIVE | RMPP_FLAG_FIRST);
	ck_assert_uint_eq(be32(m + 32), 3 * SA_HDR_PART + 448);
	rmpp_tx_build(&x.tx, 2, m);
	ck_assert_uint_eq(m[26] & 7, RMPP_FLAG_ACTIVE);
	ck_assert_uint_eq(be32(m + 32), 0);
	rmpp_tx_build(&x.tx, 3, m);
	ck_assert_uint_eq(m[26] & 7, RMPP_FLAG_ACTIVE | RMPP_FLAG_LAST);
	ck_assert_uint_eq(be32(m + 32), SA_HDR_PART + 48);
	/* numbers outside 1..nseg give an all-zero MAD */
	rmpp_tx_build(&x.tx, 0, m);
	ck_assert_mem_eq(m, zero, sizeof(m));
	rmpp_tx_build(&x.tx, 4, m);
	ck_assert_mem_eq(m, zero, sizeof(m));
	xfer_free(&x);

	/* one segment: First and Last, the last-segment PayloadLength */
	xfer_init(&x, 1);
	ck_assert_uint_eq(x.tx.nseg, 1);
	rmpp_tx_build(&x.tx, 1, m);
	ck_assert_uint_eq(m[26] & 7, RMPP_FLAG_ACTIVE | RMPP_FLAG_FIRST | RMPP_FLAG_LAST);
	ck_assert_uint_eq(be32(m + 32), SA_HDR_PART + SA_REC);
	xfer_free(&x);

	/* nothing to send: still one segment, PayloadLength = the class header part */
	xfer_init(&x, 0);
	ck_assert_uint_eq(x.tx.nseg, 1);
	rmpp_tx_build(&x.tx, 1, m);
	ck_assert_uint_eq(m[26] & 7, RMPP_FLAG_ACTIVE | RMPP_FLAG_FIRST | RMPP_FLAG_LAST);
	ck_assert_uint_eq(be32(m + 32), SA_HDR_PART);
	ck_assert_mem_eq(m + SA_OFF, zero, SA_PER_SEG);
	xfer_free(&x);

	/* RMPPVersion is written even when the header lacks it */
	make_header(m, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	m[24] = 0;
	{
		struct rmpp_tx tx;
		uint8_t seg1[RMPP_MAD_SIZE];

		rmpp_tx_init(&tx, m, SA_OFF, NULL, 0);
		ck_assert(!tx.aborted);
		rmpp_tx_build(&tx, 1, seg1);
		ck_assert_uint_eq(seg1[24], 1);
	}
}
END_TEST

START_TEST(test_window)
{
	struct xfer x;
	uint32_t segs[64];
	uint8_t ack[RMPP_MAD_SIZE];
	size_t ack_len;
	unsigned n, i;

	xfer_init(&x, 2000);
	/* the sender's window is one segment until the receiver opens it */
	n = rmpp_tx_pending(&x.tx, segs, 64);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(segs[0], 1);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 0);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
	check_ack(ack, 1, 1 + RMPP_WINDOW);
	ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_CONTINUE);
	ck_assert_uint_eq(x.tx.last_acked, 1);
	ck_assert_uint_eq(x.tx.window_last, 33);
	/* max limits one call; the rest comes with the next */
	n = rmpp_tx_pending(&x.tx, segs, 10);
	ck_assert_uint_eq(n, 10);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(segs[i], 2 + i);
	n = rmpp_tx_pending(&x.tx, segs, 64);
	ck_assert_uint_eq(n, 22);
	ck_assert_uint_eq(segs[21], 33);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 0);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, NULL, 0), 0);
	/* the receiver ACKs only when the window is full */
	for (i = 2; i <= 33; i++) {
		ck_assert_int_eq(send_seg(&x, i, ack, &ack_len), RMPP_RX_CONTINUE);
		ck_assert_uint_eq(ack_len, i == 33 ? RMPP_MAD_SIZE : 0);
	}
	check_ack(ack, 33, 65);
	ck_assert_uint_eq(x.rx.window_last, 65);
	ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_CONTINUE);
	n = rmpp_tx_pending(&x.tx, segs, 64);
	ck_assert_uint_eq(n, 32);
	ck_assert_uint_eq(segs[0], 34);
	ck_assert_uint_eq(segs[31], 65);
	/* the window never goes past nseg */
	set_be32(ack + 28, 65);
	set_be32(ack + 32, 100000);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	n = rmpp_tx_pending(&x.tx, segs, 64);
	ck_assert_uint_eq(n, 64);
	while ((n = rmpp_tx_pending(&x.tx, segs, 64)))
		ck_assert_uint_le(segs[n - 1], 640);
	ck_assert_uint_eq(x.tx.next_to_send, 641);
	xfer_free(&x);
}
END_TEST

/* ---- loss, reordering, duplication ------------------------------------------------------- */

START_TEST(test_loss)
{
	struct link l = { .drop_pct = 10, .max_retries = 50, .seed = 100 + (uint64_t)_i };
	uint8_t hdr[RMPP_MAD_SIZE], *payload = make_payload(128000, 3);
	struct link_stats st;
	struct rmpp_rx rx;

	make_header(hdr, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	run_link(hdr, SA_OFF, payload, 128000, &l, &rx, &st);
	check_reassembled(&rx, hdr, SA_OFF, payload, 128000);
	/* losses were repaired by the timer and by re-ACKed duplicates */
	ck_assert_uint_gt(st.segs, 640);
	ck_assert_uint_gt(st.timeouts, 0);
	ck_assert_uint_gt(st.dups, 0);
	ck_assert_uint_gt(st.ahead, 0);
	rmpp_rx_free(&rx);
	free(payload);
}
END_TEST

START_TEST(test_loss_small)
{
	/* 1, 2 and 7 records with heavy loss: the first and the last segment get lost too */
	static const size_t n[] = { 1, 2, 7 };
	uint8_t hdr[RMPP_MAD_SIZE];
	unsigned i, seed;

	make_header(hdr, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	for (i = 0; i < 3; i++)
		for (seed = 0; seed < 40; seed++) {
			struct link l = { .drop_pct = 30, .max_retries = 200, .seed = seed };
			uint8_t *payload = make_payload(n[i] * SA_REC, seed);
			struct link_stats st;
			struct rmpp_rx rx;

			run_link(hdr, SA_OFF, payload, n[i] * SA_REC, &l, &rx, &st);
			check_reassembled(&rx, hdr, SA_OFF, payload, n[i] * SA_REC);
			rmpp_rx_free(&rx);
			free(payload);
		}
}
END_TEST

START_TEST(test_reorder_duplicate)
{
	struct link l = { .drop_pct = 5, .dup_pct = 10, .spurious_pct = 2, .reorder = true,
			  .max_retries = 1000, .seed = 200 + (uint64_t)_i };
	uint8_t hdr[RMPP_MAD_SIZE], *payload = make_payload(128000, 5);
	struct link_stats st;
	struct rmpp_rx rx;

	make_header(hdr, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	run_link(hdr, SA_OFF, payload, 128000, &l, &rx, &st);
	check_reassembled(&rx, hdr, SA_OFF, payload, 128000);
	ck_assert_uint_gt(st.ahead, 0);
	ck_assert_uint_gt(st.dups, 0);
	rmpp_rx_free(&rx);
	free(payload);
}
END_TEST

START_TEST(test_out_of_order)
{
	struct xfer x;
	uint8_t ack[RMPP_MAD_SIZE];
	size_t ack_len;

	xfer_init(&x, 7);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	check_ack(ack, 1, 33);
	/* 3 before 2: dropped without an ACK, nothing stored */
	ck_assert_int_eq(send_seg(&x, 3, ack, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_uint_eq(ack_len, 0);
	ck_assert_uint_eq(x.rx.next_seg, 2);
	ck_assert_uint_eq(x.rx.len, SA_OFF + SA_PER_SEG);
	ck_assert(!x.rx.done);
	ck_assert_int_eq(send_seg(&x, 2, ack, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_uint_eq(ack_len, 0);
	ck_assert_int_eq(send_seg(&x, 3, ack, &ack_len), RMPP_RX_DONE);
	check_ack(ack, 3, 33);
	check_reassembled(&x.rx, x.hdr, SA_OFF, x.payload, x.len);
	xfer_free(&x);
}
END_TEST

START_TEST(test_duplicates)
{
	static const uint8_t zero[RMPP_MAD_SIZE];
	struct xfer x;
	uint8_t ack[RMPP_MAD_SIZE];
	size_t ack_len;

	xfer_init(&x, 7);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_DUPLICATE);
	ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
	check_ack(ack, 1, 33);
	/* the ACK: the segment's header, response bit cleared, the rest zero */
	ck_assert_mem_eq(ack, x.hdr, 3);
	ck_assert_mem_eq(ack + 4, x.hdr + 4, 20);
	ck_assert_mem_eq(ack + 36, x.hdr + 36, SA_OFF - 36);
	ck_assert_mem_eq(ack + SA_OFF, zero, RMPP_MAD_SIZE - SA_OFF);
	ck_assert_uint_eq(ack[26] & 0xf8, RRESPTIME);
	ck_assert_int_eq(send_seg(&x, 2, ack, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_uint_eq(ack_len, 0);
	ck_assert_int_eq(send_seg(&x, 2, ack, &ack_len), RMPP_RX_DUPLICATE);
	check_ack(ack, 2, 33);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_DUPLICATE);
	check_ack(ack, 2, 33);
	ck_assert_uint_eq(x.rx.len, SA_OFF + 2 * SA_PER_SEG);
	ck_assert_int_eq(send_seg(&x, 3, ack, &ack_len), RMPP_RX_DONE);
	check_ack(ack, 3, 33);
	/* once done, every segment gets the final ACK again */
	ck_assert_int_eq(send_seg(&x, 2, ack, &ack_len), RMPP_RX_DUPLICATE);
	check_ack(ack, 3, 33);
	ck_assert_int_eq(send_seg(&x, 3, ack, &ack_len), RMPP_RX_DUPLICATE);
	check_ack(ack, 3, 33);
	check_reassembled(&x.rx, x.hdr, SA_OFF, x.payload, x.len);
	/* ack may be the segment's own buffer */
	{
		uint8_t m[RMPP_MAD_SIZE];

		rmpp_tx_build(&x.tx, 3, m);
		ck_assert_int_eq(rmpp_rx_segment(&x.rx, m, sizeof(m), m, &ack_len), RMPP_RX_DUPLICATE);
		check_ack(m, 3, 33);
	}
	/* a NULL ack / ack_len is tolerated */
	ck_assert_int_eq(send_seg(&x, 3, NULL, &ack_len), RMPP_RX_DUPLICATE);
	ck_assert_uint_eq(ack_len, 0);
	ck_assert_int_eq(send_seg(&x, 3, ack, NULL), RMPP_RX_DUPLICATE);
	xfer_free(&x);
}
END_TEST

START_TEST(test_ack_method)
{
	uint8_t hdr[RMPP_MAD_SIZE], m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	struct rmpp_tx tx;
	struct rmpp_rx rx;
	size_t ack_len;

	/* segments of a request (e.g. GetMulti 0x14): the ACK goes back as a response */
	make_header(hdr, SA_CLASS, 0x14, SA_OFF);
	rmpp_tx_init(&tx, hdr, SA_OFF, hdr, 10);
	rmpp_rx_init(&rx, SA_OFF);
	rmpp_tx_build(&tx, 1, m);
	ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_DONE);
	ck_assert_uint_eq(ack[3], 0x94);
	ck_assert_int_eq(rmpp_tx_ack(&tx, ack, ack_len), RMPP_TX_DONE);
	ck_assert(tx.done);
	rmpp_rx_free(&rx);
	/* and an ABORT answering a vendor-class response's segment */
	make_header(hdr, 0x30, 0x81, 40);
	rmpp_tx_init(&tx, hdr, 40, hdr, 10);
	rmpp_rx_init(&rx, 40);
	rmpp_tx_build(&tx, 1, m);
	m[24] = 9;
	ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	ck_assert_uint_eq(ack[1], 0x30);
	check_reply(ack, 0x01, RMPP_TYPE_ABORT, RMPP_STATUS_UNV, 0, 0);
	ck_assert_mem_eq(ack + 36, hdr + 36, 4);
	rmpp_rx_free(&rx);
}
END_TEST

/* ---- receiver errors --------------------------------------------------------------------- */

/* Feeds a mutated segment `seg` of a fresh 7-record transfer after segments 1..seg-1. */
static void expect_rx_abort(uint32_t seg, uint8_t status, void (*mutate)(uint8_t *m))
{
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct xfer x;
	uint32_t i;

	xfer_init(&x, 7);
	for (i = 1; i < seg; i++)
		ck_assert_int_eq(send_seg(&x, i, ack, &ack_len), RMPP_RX_CONTINUE);
	rmpp_tx_build(&x.tx, seg, m);
	mutate(m);
	ck_assert_int_eq(feed_rx(&x.rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
	check_abort(ack, status);
	ck_assert_int_eq(x.rx.error, status);
	ck_assert_ptr_null(x.rx.buf);
	ck_assert(!x.rx.done);
	/* the sender goes on: each of its segments gets the ABORT again */
	ck_assert_int_eq(send_seg(&x, seg, ack, &ack_len), RMPP_RX_ABORT);
	ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
	check_abort(ack, status);
	/* and the ABORT stops the sender */
	ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_ABORTED);
	ck_assert(x.tx.aborted);
	ck_assert_uint_eq(rmpp_tx_ack_status(&x.tx, ack, ack_len), 0);
	xfer_free(&x);
}

static void mut_version2(uint8_t *m)
{
	m[24] = 2;
}

static void mut_version0(uint8_t *m)
{
	m[24] = 0;
}

static void mut_type0(uint8_t *m)
{
	m[25] = 0;
}

static void mut_type5(uint8_t *m)
{
	m[25] = 5;
}

static void mut_status(uint8_t *m)
{
	m[27] = 1;
}

static void mut_no_first(uint8_t *m)
{
	m[26] &= (uint8_t)~RMPP_FLAG_FIRST;
}

static void mut_first(uint8_t *m)
{
	m[26] |= RMPP_FLAG_FIRST;
}

static void mut_seg0(uint8_t *m)
{
	set_be32(m + 28, 0);
}

static void mut_seg34(uint8_t *m)
{
	set_be32(m + 28, 34);
}

static void mut_seg2(uint8_t *m)
{
	m[26] &= (uint8_t)~RMPP_FLAG_FIRST;
	set_be32(m + 28, 2);
}

static void mut_paylen_huge(uint8_t *m)
{
	set_be32(m + 32, RMPP_MAX_PAYLOAD + 1);
}

static void mut_paylen_max(uint8_t *m)
{
	set_be32(m + 32, 0xffffffff);
}

static void mut_paylen_impossible(uint8_t *m)
{
	set_be32(m + 32, 230); /* two segments, the last with 10 bytes < the SA header part */
}

static void mut_paylen_single(uint8_t *m)
{
	set_be32(m + 32, 100); /* one segment, yet this one is not the last */
}

static void mut_last(uint8_t *m)
{
	m[26] |= RMPP_FLAG_LAST;
	set_be32(m + 32, 220);
}

static void mut_not_last(uint8_t *m)
{
	m[26] &= (uint8_t)~RMPP_FLAG_LAST;
}

static void mut_last_len(uint8_t *m)
{
	set_be32(m + 32, be32(m + 32) + 1);
}

START_TEST(test_bad_version)
{
	expect_rx_abort(1, RMPP_STATUS_UNV, mut_version2);
	expect_rx_abort(2, RMPP_STATUS_UNV, mut_version0);
	ck_assert_uint_eq(RMPP_STATUS_UNV, 125);
}
END_TEST

START_TEST(test_bad_type_status)
{
	expect_rx_abort(1, RMPP_STATUS_BADT, mut_type0);
	expect_rx_abort(2, RMPP_STATUS_BADT, mut_type5);
	expect_rx_abort(2, RMPP_STATUS_ILLEGAL, mut_status);
}
END_TEST

START_TEST(test_bad_segment_number)
{
	expect_rx_abort(1, RMPP_STATUS_BAD_SEG, mut_no_first);
	expect_rx_abort(2, RMPP_STATUS_BAD_SEG, mut_first);
	expect_rx_abort(2, RMPP_STATUS_BAD_SEG, mut_seg0);
	/* beyond the granted window: before the first ACK the window is segment 1 */
	expect_rx_abort(1, RMPP_STATUS_S2B, mut_seg2);
	expect_rx_abort(2, RMPP_STATUS_S2B, mut_seg34);
	ck_assert_uint_eq(RMPP_STATUS_S2B, 123);
}
END_TEST

START_TEST(test_bad_length)
{
	/* PayloadLength of the first segment */
	expect_rx_abort(1, RMPP_STATUS_BAD_LENGTH, mut_paylen_huge);
	expect_rx_abort(1, RMPP_STATUS_BAD_LENGTH, mut_paylen_max);
	expect_rx_abort(1, RMPP_STATUS_BAD_LENGTH, mut_paylen_impossible);
	expect_rx_abort(1, RMPP_STATUS_BAD_LENGTH, mut_paylen_single);
	/* the last segment against the first one's total */
	expect_rx_abort(2, RMPP_STATUS_BAD_LENGTH, mut_last);
	expect_rx_abort(3, RMPP_STATUS_BAD_LENGTH, mut_not_last);
	expect_rx_abort(3, RMPP_STATUS_BAD_LENGTH, mut_last_len);
}
END_TEST

START_TEST(test_last_length)
{
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct xfer x;
	uint32_t paylen;

	/* unknown total: the last PayloadLength alone decides, within 20..220 */
	for (paylen = 0; paylen <= 260; paylen++) {
		xfer_init(&x, 7);
		rmpp_tx_build(&x.tx, 1, m);
		set_be32(m + 32, 0);
		ck_assert_int_eq(feed_rx(&x.rx, m, sizeof(m), ack, &ack_len), RMPP_RX_CONTINUE);
		ck_assert_uint_eq(x.rx.expected, 0);
		rmpp_tx_build(&x.tx, 2, m);
		m[26] |= RMPP_FLAG_LAST;
		set_be32(m + 32, paylen);
		if (paylen < SA_HDR_PART || paylen > 220) {
			ck_assert_int_eq(feed_rx(&x.rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
			check_abort(ack, RMPP_STATUS_BAD_LENGTH);
		} else {
			ck_assert_int_eq(feed_rx(&x.rx, m, sizeof(m), ack, &ack_len), RMPP_RX_DONE);
			ck_assert_uint_eq(x.rx.len, SA_OFF + SA_PER_SEG + paylen - SA_HDR_PART);
			ck_assert_mem_eq(x.rx.buf + SA_OFF, x.payload, SA_PER_SEG + paylen - SA_HDR_PART);
		}
		xfer_free(&x);
	}
}
END_TEST

START_TEST(test_unknown_length)
{
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct xfer x;
	uint32_t seg;

	/* a first segment with PayloadLength 0 */
	xfer_init(&x, 2000);
	for (seg = 1; seg <= 640; seg++) {
		enum rmpp_rx_result r;

		rmpp_tx_build(&x.tx, seg, m);
		if (seg == 1)
			set_be32(m + 32, 0);
		r = feed_rx(&x.rx, m, sizeof(m), ack, &ack_len);
		ck_assert_int_eq(r, seg == 640 ? RMPP_RX_DONE : RMPP_RX_CONTINUE);
		ck_assert_uint_le(x.rx.len, x.rx.cap);
	}
	check_reassembled(&x.rx, x.hdr, SA_OFF, x.payload, x.len);
	ck_assert_uint_eq(x.rx.expected, 0);
	xfer_free(&x);
}
END_TEST

START_TEST(test_unknown_length_cap)
{
	/* never Last, length unknown: stopped once the data passes RMPP_MAX_PAYLOAD */
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	const uint32_t stop = RMPP_MAX_PAYLOAD / 220 + 1;
	size_t ack_len, max_cap = 0;
	struct rmpp_rx rx;
	uint32_t seg;

	make_header(m, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	m[26] = RMPP_FLAG_ACTIVE;
	m[25] = RMPP_TYPE_DATA;
	rmpp_rx_init(&rx, SA_OFF);
	for (seg = 1; seg < stop; seg++) {
		m[26] = (uint8_t)(RMPP_FLAG_ACTIVE | (seg == 1 ? RMPP_FLAG_FIRST : 0));
		set_be32(m + 28, seg);
		memset(m + SA_OFF, (int)seg, SA_PER_SEG);
		ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_CONTINUE);
		if (rx.cap > max_cap)
			max_cap = rx.cap;
	}
	ck_assert_uint_eq(rx.len, SA_OFF + (size_t)(stop - 1) * SA_PER_SEG);
	ck_assert_uint_le(max_cap, SA_OFF + RMPP_MAX_PAYLOAD);
	set_be32(m + 28, stop);
	ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	check_abort(ack, RMPP_STATUS_BAD_LENGTH);
	ck_assert_ptr_null(rx.buf);
	ck_assert_uint_eq(rx.cap, 0);
	rmpp_rx_free(&rx);
}
END_TEST

START_TEST(test_memory_bounded)
{
	/* a large announced total is not allocated up front */
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	const uint32_t nseg = 75000;
	size_t ack_len;
	struct rmpp_rx rx;

	make_header(m, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	m[25] = RMPP_TYPE_DATA;
	m[26] = RMPP_FLAG_ACTIVE | RMPP_FLAG_FIRST;
	set_be32(m + 28, 1);
	set_be32(m + 32, nseg * SA_HDR_PART + (nseg - 1) * SA_PER_SEG + 100);
	ck_assert_uint_le(be32(m + 32), RMPP_MAX_PAYLOAD);
	rmpp_rx_init(&rx, SA_OFF);
	ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_CONTINUE);
	check_ack(ack, 1, 33);
	ck_assert_uint_le(rx.cap, SA_OFF + RMPP_WINDOW * SA_PER_SEG);
	ck_assert_uint_eq(rx.expected, be32(m + 32));
	rmpp_rx_free(&rx);
	ck_assert_ptr_null(rx.buf);
	ck_assert_uint_eq(rx.next_seg, 1);
	rmpp_rx_free(&rx);

	/* a known total: never more than the header and that payload */
	{
		struct xfer x;
		size_t ack_len2;
		uint32_t seg;

		xfer_init(&x, 2000);
		for (seg = 1; seg <= 640; seg++)
			send_seg(&x, seg, ack, &ack_len2);
		ck_assert(x.rx.done);
		ck_assert_uint_le(x.rx.cap, SA_OFF + 128000);
		xfer_free(&x);
	}
}
END_TEST

START_TEST(test_bad_offset)
{
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct rmpp_rx rx;
	struct xfer x;

	xfer_init(&x, 1);
	rmpp_tx_build(&x.tx, 1, m);
	rmpp_rx_init(&rx, 24);
	ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	check_abort(ack, RMPP_STATUS_UNSPEC);
	rmpp_rx_free(&rx);
	rmpp_rx_init(&rx, 256);
	ck_assert_int_eq(rmpp_rx_segment(&rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	rmpp_rx_free(&rx);
	xfer_free(&x);
}
END_TEST

START_TEST(test_truncated_segments)
{
	/* in-order segments cut short are dropped as lost, never read past their length */
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	size_t len, ack_len;
	struct xfer x;

	for (len = 0; len <= RMPP_MAD_SIZE; len++) {
		enum rmpp_rx_result r;

		xfer_init(&x, 7);
		rmpp_tx_build(&x.tx, 1, m);
		r = feed_rx(&x.rx, m, len, ack, &ack_len);
		ck_assert_int_eq(r, RMPP_RX_CONTINUE);
		if (len < RMPP_MAD_SIZE) {
			ck_assert_uint_eq(ack_len, 0);
			ck_assert_uint_eq(x.rx.next_seg, 1);
			ck_assert_ptr_null(x.rx.buf);
			ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
		} else {
			ck_assert_uint_eq(ack_len, RMPP_MAD_SIZE);
		}
		/* the last segment needs only its 48 payload bytes */
		ck_assert_int_eq(send_seg(&x, 2, ack, &ack_len), RMPP_RX_CONTINUE);
		rmpp_tx_build(&x.tx, 3, m);
		r = feed_rx(&x.rx, m, len, ack, &ack_len);
		ck_assert_int_eq(r, len >= SA_OFF + 48 ? RMPP_RX_DONE : RMPP_RX_CONTINUE);
		if (r == RMPP_RX_DONE)
			check_reassembled(&x.rx, x.hdr, SA_OFF, x.payload, x.len);
		xfer_free(&x);
	}
}
END_TEST

/* ---- STOP / ABORT ------------------------------------------------------------------------ */

START_TEST(test_receiver_stops_sender)
{
	static const uint8_t types[] = { RMPP_TYPE_STOP, RMPP_TYPE_ABORT };
	uint8_t ack[RMPP_MAD_SIZE];
	uint32_t segs[64];
	size_t ack_len;
	struct xfer x;
	unsigned i;

	for (i = 0; i < 2; i++) {
		xfer_init(&x, 2000);
		ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 1);
		ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
		ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_CONTINUE);
		/* the receiver's STOP (resources) or ABORT instead of the next ACK */
		ack[25] = types[i];
		ack[27] = types[i] == RMPP_TYPE_STOP ? RMPP_STATUS_RESX : RMPP_STATUS_BAD_T2L;
		set_be32(ack + 28, 0);
		set_be32(ack + 32, 0);
		ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_ABORTED);
		ck_assert(x.tx.aborted);
		ck_assert(!x.tx.done);
		ck_assert_uint_eq(rmpp_tx_ack_status(&x.tx, ack, ack_len), 0);
		/* nothing more to send, no retries, later packets ignored */
		ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 0);
		ck_assert(!rmpp_tx_timeout(&x.tx, 10));
		ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_IGNORE);
		xfer_free(&x);
	}
}
END_TEST

START_TEST(test_receiver_t2l)
{
	uint8_t ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct xfer x;

	/* nothing received yet: nothing to send */
	xfer_init(&x, 7);
	ck_assert(!rmpp_rx_abort(&x.rx, RMPP_STATUS_BAD_T2L, ack));
	xfer_free(&x);

	/* the receiver's own timer: ABORT T2L from the first segment's header */
	xfer_init(&x, 7);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_int_eq(feed_tx(&x.tx, ack, ack_len), RMPP_TX_CONTINUE);
	ck_assert(rmpp_rx_abort(&x.rx, RMPP_STATUS_BAD_T2L, ack));
	check_abort(ack, RMPP_STATUS_BAD_T2L);
	ck_assert_mem_eq(ack + 36, x.hdr + 36, SA_OFF - 36);
	ck_assert_int_eq(x.rx.error, RMPP_STATUS_BAD_T2L);
	ck_assert_ptr_null(x.rx.buf);
	ck_assert(!rmpp_rx_abort(&x.rx, RMPP_STATUS_BAD_T2L, ack));
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_ABORTED);
	ck_assert_int_eq(send_seg(&x, 2, ack, &ack_len), RMPP_RX_ABORT);
	check_abort(ack, RMPP_STATUS_BAD_T2L);
	xfer_free(&x);

	/* done: too late to abort */
	xfer_init(&x, 1);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_DONE);
	ck_assert(!rmpp_rx_abort(&x.rx, RMPP_STATUS_BAD_T2L, ack));
	ck_assert(x.rx.done);
	ck_assert_ptr_nonnull(x.rx.buf);
	xfer_free(&x);
}
END_TEST

START_TEST(test_sender_aborts_receiver)
{
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct xfer x;

	xfer_init(&x, 7);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	/* the sender ran out of retries */
	ck_assert(rmpp_tx_timeout(&x.tx, 0) == false);
	ck_assert(x.tx.aborted);
	rmpp_tx_build_abort(&x.tx, RMPP_STATUS_TMR, m);
	check_reply(m, GET_TABLE_RESP, RMPP_TYPE_ABORT, RMPP_STATUS_TMR, 0, 0);
	ck_assert_mem_eq(m + 4, x.hdr + 4, 20);
	ck_assert_mem_eq(m + 36, x.hdr + 36, SA_OFF - 36);
	ck_assert_uint_eq(m[26] & 0xf8, RRESPTIME);
	ck_assert_int_eq(feed_rx(&x.rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	ck_assert_uint_eq(ack_len, 0);
	ck_assert_int_eq(x.rx.error, RMPP_STATUS_TMR);
	ck_assert_ptr_null(x.rx.buf);
	xfer_free(&x);

	/* a STOP with status 0 still ends it */
	xfer_init(&x, 7);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	rmpp_tx_build_abort(&x.tx, 0, m);
	m[25] = RMPP_TYPE_STOP;
	ck_assert_int_eq(feed_rx(&x.rx, m, sizeof(m), ack, &ack_len), RMPP_RX_ABORT);
	ck_assert_int_eq(x.rx.error, RMPP_STATUS_UNSPEC);
	xfer_free(&x);

	/* an ACK reaching the receiver is not for it */
	xfer_init(&x, 7);
	ck_assert_int_eq(send_seg(&x, 1, ack, &ack_len), RMPP_RX_CONTINUE);
	ack[3] ^= 0x80;
	ck_assert_int_eq(feed_rx(&x.rx, ack, sizeof(ack), m, &ack_len), RMPP_RX_CONTINUE);
	ck_assert_uint_eq(ack_len, 0);
	ck_assert_uint_eq(x.rx.next_seg, 2);
	xfer_free(&x);
}
END_TEST

/* ---- sender: ACK checks and timer -------------------------------------------------------- */

static void make_ack(const struct xfer *x, uint8_t *ack, uint32_t seg, uint32_t newwin)
{
	rmpp_tx_build(&x->tx, 1, ack);
	ack[3] = GET_TABLE;
	ack[25] = RMPP_TYPE_ACK;
	ack[26] = RMPP_FLAG_ACTIVE;
	set_be32(ack + 28, seg);
	set_be32(ack + 32, newwin);
	memset(ack + SA_OFF, 0, RMPP_MAD_SIZE - SA_OFF);
}

/* A fresh 2000-record sender after ACK(1, 33), fed `mad`: expect ABORTED with `status`. */
static void expect_tx_abort(const uint8_t *bad, size_t len, uint8_t status)
{
	uint8_t ack[RMPP_MAD_SIZE];
	uint32_t segs[64];
	struct xfer x;

	xfer_init(&x, 2000);
	make_ack(&x, ack, 1, 33);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	ck_assert_int_eq(feed_tx(&x.tx, bad, len), RMPP_TX_ABORTED);
	ck_assert(x.tx.aborted);
	ck_assert_uint_eq(rmpp_tx_ack_status(&x.tx, bad, len), status);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 0);
	xfer_free(&x);
}

START_TEST(test_tx_ack_checks)
{
	uint8_t ack[RMPP_MAD_SIZE];
	struct xfer x;

	xfer_init(&x, 2000);
	make_ack(&x, ack, 5, 4);
	expect_tx_abort(ack, sizeof(ack), RMPP_STATUS_W2S);
	make_ack(&x, ack, 34, 70); /* beyond the window we were given */
	expect_tx_abort(ack, sizeof(ack), RMPP_STATUS_S2B);
	make_ack(&x, ack, 641, 700); /* beyond the last segment */
	expect_tx_abort(ack, sizeof(ack), RMPP_STATUS_S2B);
	make_ack(&x, ack, 1, 33);
	ack[27] = 3;
	expect_tx_abort(ack, sizeof(ack), RMPP_STATUS_ILLEGAL);
	make_ack(&x, ack, 1, 33);
	ack[24] = 2;
	expect_tx_abort(ack, sizeof(ack), RMPP_STATUS_UNV);
	make_ack(&x, ack, 1, 33);
	ack[25] = 7;
	expect_tx_abort(ack, sizeof(ack), RMPP_STATUS_BADT);

	/* ignored: short, inactive, other classes, DATA */
	make_ack(&x, ack, 1, 33);
	ck_assert_int_eq(feed_tx(&x.tx, ack, 35), RMPP_TX_IGNORE);
	ck_assert_int_eq(feed_tx(&x.tx, ack, 0), RMPP_TX_IGNORE);
	ck_assert_int_eq(rmpp_tx_ack(&x.tx, NULL, 256), RMPP_TX_IGNORE);
	ack[26] = 0;
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	make_ack(&x, ack, 1, 33);
	ack[1] = 0x81;
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	rmpp_tx_build(&x.tx, 1, ack);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	ck_assert_uint_eq(x.tx.last_acked, 0);
	ck_assert(!x.tx.aborted);

	/* stale ACKs change nothing */
	make_ack(&x, ack, 1, 33);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	make_ack(&x, ack, 33, 65);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	ck_assert_uint_eq(x.tx.last_acked, 33);
	ck_assert_uint_eq(x.tx.window_last, 65);
	ck_assert_uint_eq(x.tx.next_to_send, 34);
	make_ack(&x, ack, 1, 33);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	make_ack(&x, ack, 20, 65);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	make_ack(&x, ack, 33, 40);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	ck_assert_uint_eq(rmpp_tx_ack_status(&x.tx, ack, sizeof(ack)), 0);
	ck_assert_uint_eq(x.tx.last_acked, 33);
	ck_assert_uint_eq(x.tx.window_last, 65);
	/* the same ACK again is harmless */
	make_ack(&x, ack, 33, 65);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	/* the final ACK completes; afterwards everything is ignored */
	make_ack(&x, ack, 640, 700); /* not yet: segment 640 is outside the window 65 */
	ck_assert_uint_eq(rmpp_tx_ack_status(&x.tx, ack, sizeof(ack)), RMPP_STATUS_S2B);
	make_ack(&x, ack, 65, 700);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	make_ack(&x, ack, 640, 700);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_DONE);
	ck_assert(x.tx.done);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	ack[25] = RMPP_TYPE_ABORT;
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_IGNORE);
	ck_assert(!x.tx.aborted);
	ck_assert(rmpp_tx_timeout(&x.tx, 0));
	xfer_free(&x);
}
END_TEST

START_TEST(test_tx_timeout)
{
	uint8_t ack[RMPP_MAD_SIZE];
	uint32_t segs[64];
	struct xfer x;
	unsigned n;

	xfer_init(&x, 2000);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 1);
	/* rewind: segment 1 again */
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	ck_assert_uint_eq(x.tx.retries, 1);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 1);
	ck_assert_uint_eq(segs[0], 1);
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	/* progress resets the budget */
	make_ack(&x, ack, 1, 33);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	ck_assert_uint_eq(x.tx.retries, 0);
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 32);
	/* a partial ACK then a timeout: resend from the segment after it */
	make_ack(&x, ack, 10, 33);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	ck_assert_uint_eq(x.tx.next_to_send, 34);
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	ck_assert_uint_eq(x.tx.next_to_send, 11);
	n = rmpp_tx_pending(&x.tx, segs, 64);
	ck_assert_uint_eq(n, 23);
	ck_assert_uint_eq(segs[0], 11);
	ck_assert_uint_eq(segs[22], 33);
	/* an ACK during the resend skips what it acknowledges */
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	make_ack(&x, ack, 20, 52);
	ck_assert_int_eq(feed_tx(&x.tx, ack, sizeof(ack)), RMPP_TX_CONTINUE);
	n = rmpp_tx_pending(&x.tx, segs, 64);
	ck_assert_uint_eq(segs[0], 21);
	ck_assert_uint_eq(segs[n - 1], 52);
	/* the budget: max_retries timeouts pass, the next one fails */
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	ck_assert(rmpp_tx_timeout(&x.tx, 3));
	ck_assert(!rmpp_tx_timeout(&x.tx, 3));
	ck_assert(x.tx.aborted);
	ck_assert(!rmpp_tx_timeout(&x.tx, 3));
	ck_assert_uint_eq(rmpp_tx_pending(&x.tx, segs, 64), 0);
	xfer_free(&x);
}
END_TEST

START_TEST(test_tx_init_refusals)
{
	static const uint8_t some[16];
	uint8_t hdr[RMPP_MAD_SIZE], m[RMPP_MAD_SIZE];
	uint32_t segs[4];
	struct rmpp_tx tx;

	make_header(hdr, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	rmpp_tx_init(&tx, hdr, 24, some, sizeof(some));
	ck_assert(tx.aborted);
	ck_assert_uint_eq(rmpp_tx_pending(&tx, segs, 4), 0);
	rmpp_tx_build(&tx, 1, m);
	ck_assert_uint_eq(m[25], 0);
	rmpp_tx_init(&tx, hdr, 256, some, sizeof(some));
	ck_assert(tx.aborted);
	rmpp_tx_init(&tx, hdr, SA_OFF, NULL, 10);
	ck_assert(tx.aborted);
	/* the payload is not read for these */
	rmpp_tx_init(&tx, hdr, SA_OFF, some, (size_t)RMPP_MAX_PAYLOAD + 1);
	ck_assert(tx.aborted);
	ck_assert_uint_eq(tx.nseg, 1);
	rmpp_tx_init(&tx, hdr, SA_OFF, some, RMPP_MAX_PAYLOAD - 1000);
	ck_assert(tx.aborted); /* the class header parts push PayloadLength past the limit */
	rmpp_tx_build_abort(&tx, RMPP_STATUS_UNSPEC, m);
	ck_assert_uint_eq(m[25], RMPP_TYPE_ABORT);
	ck_assert_mem_eq(m + 36, hdr + 36, SA_OFF - 36);
	rmpp_tx_init(&tx, hdr, SA_OFF, some, (size_t)SIZE_MAX);
	ck_assert(tx.aborted);
	/* the largest SA transfer our receiver takes */
	rmpp_tx_init(&tx, hdr, SA_OFF, some, 15099000);
	ck_assert(!tx.aborted);
	ck_assert_uint_eq(tx.nseg, 75495);
	ck_assert_uint_le((uint64_t)tx.nseg * SA_HDR_PART + 15099000, RMPP_MAX_PAYLOAD);
	/* NULL header: zeros */
	rmpp_tx_init(&tx, NULL, SA_OFF, some, sizeof(some));
	ck_assert(!tx.aborted);
	rmpp_tx_build(&tx, 1, m);
	ck_assert_uint_eq(m[1], 0);
	ck_assert_uint_eq(m[24], 1);
}
END_TEST

/* ---- arbitrary bytes --------------------------------------------------------------------- */

static void check_rx_invariants(const struct rmpp_rx *rx, enum rmpp_rx_result r, size_t ack_len)
{
	ck_assert(r == RMPP_RX_CONTINUE || r == RMPP_RX_DONE || r == RMPP_RX_DUPLICATE ||
		  r == RMPP_RX_ABORT);
	ck_assert(ack_len == 0 || ack_len == RMPP_MAD_SIZE);
	ck_assert_uint_le(rx->len, rx->cap);
	ck_assert_uint_le(rx->cap, rx->data_offset + RMPP_MAX_PAYLOAD);
	if (r == RMPP_RX_ABORT)
		ck_assert_ptr_null(rx->buf);
	if (r == RMPP_RX_DONE)
		ck_assert(rx->done && rx->buf);
	if (rx->error)
		ck_assert(!rx->done);
	ck_assert_uint_ge(rx->window_last, rx->next_seg - 1);
}

static void check_tx_invariants(struct rmpp_tx *tx)
{
	uint32_t segs[8];
	unsigned n, i;

	ck_assert_uint_le(tx->last_acked, tx->nseg);
	ck_assert_uint_ge(tx->next_to_send, 1);
	n = rmpp_tx_pending(tx, segs, 8);
	for (i = 0; i < n; i++) {
		ck_assert_uint_ge(segs[i], 1);
		ck_assert_uint_le(segs[i], tx->nseg);
		ck_assert_uint_gt(segs[i], tx->last_acked);
	}
}

/* Random bytes, often shaped like an RMPP header so that they get past the first checks. */
static size_t random_packet(uint8_t *m, const uint8_t *like)
{
	size_t len = rng() % (RMPP_MAD_SIZE + 1), i;
	unsigned shape = rng() % 4;

	for (i = 0; i < RMPP_MAD_SIZE; i++)
		m[i] = (uint8_t)rng();
	if (shape >= 1) {
		memcpy(m, like, 24);
		m[24] = rng() % 8 ? 1 : (uint8_t)rng();
		m[25] = (uint8_t)(rng() % 6);
		m[26] = (uint8_t)(RMPP_FLAG_ACTIVE | (rng() & 0xfe));
		m[27] = rng() % 4 ? 0 : (uint8_t)rng();
	}
	if (shape >= 2)
		set_be32(m + 28, rng() % 70);
	if (shape == 3)
		set_be32(m + 32, rng() % 3 ? rng() % 300 : rng());
	if (shape >= 1 && rng() % 2)
		len = RMPP_MAD_SIZE;
	return len;
}

START_TEST(test_garbage)
{
	uint8_t m[RMPP_MAD_SIZE], ack[RMPP_MAD_SIZE];
	unsigned iter, k;

	for (iter = 0; iter < 400; iter++) {
		struct xfer x;
		size_t ack_len;
		uint32_t warm;

		xfer_init(&x, 2000);
		rng_seed(1000 + iter);
		/* a transfer in some state: a few real segments and ACKs first */
		warm = rng() % 40;
		for (k = 1; k <= warm; k++) {
			size_t l2;

			if (send_seg(&x, k, ack, &l2) != RMPP_RX_ABORT && l2)
				feed_tx(&x.tx, ack, l2);
		}
		rng_seed(5000 + iter);
		for (k = 0; k < 100; k++) {
			enum rmpp_rx_result r;
			size_t len = random_packet(m, x.hdr);

			r = feed_rx(&x.rx, m, len, ack, &ack_len);
			check_rx_invariants(&x.rx, r, ack_len);
			if (ack_len)
				feed_tx(&x.tx, ack, ack_len);
			len = random_packet(m, x.hdr);
			m[3] = GET_TABLE;
			feed_tx(&x.tx, m, len);
			check_tx_invariants(&x.tx);
			if (rng() % 8 == 0)
				rmpp_tx_timeout(&x.tx, 5);
		}
		xfer_free(&x);
	}
	/* and on a fresh receiver, every length 0..256 of pure noise */
	rng_seed(77);
	for (iter = 0; iter < 20000; iter++) {
		struct rmpp_rx rx;
		size_t len = iter % (RMPP_MAD_SIZE + 1), ack_len, i;
		enum rmpp_rx_result r;

		for (i = 0; i < sizeof(m); i++)
			m[i] = (uint8_t)rng();
		rmpp_rx_init(&rx, iter % 3 ? SA_OFF : 40);
		r = feed_rx(&rx, m, len, ack, &ack_len);
		check_rx_invariants(&rx, r, ack_len);
		rmpp_rx_free(&rx);
	}
}
END_TEST

/* ---- rmpp_is_active ---------------------------------------------------------------------- */

START_TEST(test_is_active)
{
	uint8_t m[RMPP_MAD_SIZE];

	make_header(m, SA_CLASS, GET_TABLE_RESP, SA_OFF);
	m[26] = RRESPTIME | RMPP_FLAG_ACTIVE;
	m[25] = RMPP_TYPE_DATA;
	ck_assert(rmpp_is_active(m, sizeof(m)));
	ck_assert(rmpp_is_active(m, 36));
	ck_assert(!rmpp_is_active(m, 35));
	ck_assert(!rmpp_is_active(m, 0));
	ck_assert(!rmpp_is_active(NULL, 256));
	ck_assert_uint_eq(rmpp_type(m), RMPP_TYPE_DATA);
	/* an SA MAD without RMPP */
	m[26] = RRESPTIME;
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	/* classes without an RMPP header, byte 26 happening to have bit 0 set */
	m[26] = 0xff;
	m[1] = 0x01; /* SMP LID-routed */
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	m[1] = 0x81; /* SMP directed route */
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	m[1] = 0x04; /* PerfMgt */
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	m[1] = 0x07; /* CM */
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	m[1] = 0x09; /* vendor range 1 */
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	m[1] = 0x21; /* CC */
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	m[1] = 0x50;
	ck_assert(!rmpp_is_active(m, sizeof(m)));
	/* classes with one */
	m[1] = 0x30;
	ck_assert(rmpp_is_active(m, sizeof(m)));
	m[1] = 0x4f;
	ck_assert(rmpp_is_active(m, sizeof(m)));
	m[1] = 0x06;
	ck_assert(rmpp_is_active(m, sizeof(m)));
	/* non-RMPP MADs fed to the state machines change nothing */
	{
		struct rmpp_rx rx;
		struct xfer x;
		size_t ack_len = 99;

		m[1] = 0x01;
		rmpp_rx_init(&rx, SA_OFF);
		ck_assert_int_eq(feed_rx(&rx, m, sizeof(m), m, &ack_len), RMPP_RX_CONTINUE);
		ck_assert_uint_eq(ack_len, 0);
		ck_assert_uint_eq(rx.next_seg, 1);
		ck_assert_ptr_null(rx.buf);
		rmpp_rx_free(&rx);
		xfer_init(&x, 7);
		ck_assert_int_eq(feed_tx(&x.tx, m, sizeof(m)), RMPP_TX_IGNORE);
		xfer_free(&x);
	}
}
END_TEST

START_TEST(test_rx_reuse)
{
	uint8_t ack[RMPP_MAD_SIZE];
	size_t ack_len;
	struct xfer x, y;
	uint32_t seg;

	xfer_init(&x, 2000);
	for (seg = 1; seg <= 100; seg++)
		send_seg(&x, seg, ack, &ack_len);
	ck_assert_ptr_nonnull(x.rx.buf);
	rmpp_rx_free(&x.rx);
	ck_assert_ptr_null(x.rx.buf);
	ck_assert_uint_eq(x.rx.len, 0);
	ck_assert_uint_eq(x.rx.next_seg, 1);
	ck_assert_uint_eq(x.rx.window_last, 1);
	ck_assert_uint_eq(x.rx.data_offset, SA_OFF);
	rmpp_rx_free(&x.rx);
	rmpp_rx_free(NULL);
	/* the same rx takes another transfer */
	xfer_init(&y, 7);
	for (seg = 1; seg <= 3; seg++) {
		uint8_t m[RMPP_MAD_SIZE];

		rmpp_tx_build(&y.tx, seg, m);
		feed_rx(&x.rx, m, sizeof(m), ack, &ack_len);
	}
	check_reassembled(&x.rx, y.hdr, SA_OFF, y.payload, y.len);
	xfer_free(&y);
	xfer_free(&x);
}
END_TEST

static Suite *make_rmpp_suite(void)
{
	Suite *s = suite_create("rmpp");
	TCase *tc;

	tc = tcase_create("transfer");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_records, 0, (int)(sizeof(record_counts) / sizeof(record_counts[0])));
	tcase_add_loop_test(tc, test_shapes, 0, (int)(sizeof(shapes) / sizeof(shapes[0])));
	tcase_add_test(tc, test_segment_fields);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_rx_reuse);
	suite_add_tcase(s, tc);

	tc = tcase_create("lossy");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_loss, 0, 8);
	tcase_add_test(tc, test_loss_small);
	tcase_add_loop_test(tc, test_reorder_duplicate, 0, 4);
	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_duplicates);
	suite_add_tcase(s, tc);

	tc = tcase_create("receiver-errors");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ack_method);
	tcase_add_test(tc, test_bad_version);
	tcase_add_test(tc, test_bad_type_status);
	tcase_add_test(tc, test_bad_segment_number);
	tcase_add_test(tc, test_bad_length);
	tcase_add_test(tc, test_last_length);
	tcase_add_test(tc, test_unknown_length);
	tcase_add_test(tc, test_unknown_length_cap);
	tcase_add_test(tc, test_memory_bounded);
	tcase_add_test(tc, test_bad_offset);
	tcase_add_test(tc, test_truncated_segments);
	suite_add_tcase(s, tc);

	tc = tcase_create("stop-abort");
	tcase_add_test(tc, test_receiver_stops_sender);
	tcase_add_test(tc, test_receiver_t2l);
	tcase_add_test(tc, test_sender_aborts_receiver);
	tcase_add_test(tc, test_tx_ack_checks);
	tcase_add_test(tc, test_tx_timeout);
	tcase_add_test(tc, test_tx_init_refusals);
	suite_add_tcase(s, tc);

	tc = tcase_create("robustness");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_is_active);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_rmpp_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
