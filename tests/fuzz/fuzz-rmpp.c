// SPDX-License-Identifier: BSD-3-Clause
/*
 * libFuzzer target: libibmadrpc's RMPP engine (libibmadrpc/rmpp.c, compiled in).  The
 * input is split into packets for one receiver (rmpp_rx) and one sender (rmpp_tx) of a
 * transfer: raw bytes of any length, the sender's segments with bytes flipped or cut
 * short, the real next segments (with losses), timeouts and aborts.  The state invariants
 * are checked after every step; when only real packets reached the receiver, it must
 * reassemble the payload byte-exact, and must finish once the link stops losing.
 * Input: byte 0 picks the data offset, bytes 1-2 the payload length, then operations:
 * one byte (low 3 bits: what; the rest: a detail) followed by its arguments.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rmpp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the usual ones, a 36-byte one, the extremes, and two invalid ones */
static const size_t offsets[8] = { 56, 40, 36, 64, 255, 56, 24, 256 };

static uint8_t header[RMPP_MAD_SIZE];
/* the payload of each offset, made once (filling 64 KB per run was most of a run's time) */
static uint8_t payloads[8][65536];
static const uint8_t *payload;

struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t take(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

struct state {
	struct rmpp_rx rx;
	struct rmpp_tx tx;
	unsigned rx_done;   /* RMPP_RX_DONE results */
	int rx_tainted;     /* the receiver saw a packet the sender did not build */
	int tx_tainted;     /* the sender saw a packet the receiver did not build */
};

static void check_rx(const struct state *s, enum rmpp_rx_result r, size_t ack_len)
{
	const struct rmpp_rx *rx = &s->rx;

	if (r != RMPP_RX_CONTINUE && r != RMPP_RX_DONE && r != RMPP_RX_DUPLICATE &&
	    r != RMPP_RX_ABORT)
		abort();
	if (ack_len != 0 && ack_len != RMPP_MAD_SIZE)
		abort();
	if (rx->len > rx->cap || rx->cap > rx->data_offset + RMPP_MAX_PAYLOAD)
		abort();
	if ((r == RMPP_RX_ABORT || rx->error) && rx->buf)
		abort();
	if (r == RMPP_RX_DONE && (!rx->done || !rx->buf))
		abort();
	if (rx->done && rx->error)
		abort();
	if (rx->next_seg < 1 || rx->window_last < rx->next_seg - 1)
		abort();
	if (rx->done && !s->rx_tainted) {
		/* only real segments: the header and the payload as sent */
		size_t off = s->tx.data_offset;

		if (rx->len != off + s->tx.payload_len || memcmp(rx->buf, header, 24) ||
		    memcmp(rx->buf + 36, header + 36, off - 36) ||
		    memcmp(rx->buf + off, payload, s->tx.payload_len))
			abort();
	}
}

static void check_tx(struct state *s)
{
	struct rmpp_tx *tx = &s->tx;
	uint32_t segs[4];
	unsigned n, i;

	if (tx->nseg < 1 || tx->last_acked > tx->nseg || tx->next_to_send <= tx->last_acked)
		abort();
	if (tx->done && (tx->aborted || tx->last_acked != tx->nseg))
		abort();
	/* peek: pending() advances next_to_send, so put it back */
	{
		uint32_t saved = tx->next_to_send;

		n = rmpp_tx_pending(tx, segs, 4);
		for (i = 0; i < n; i++)
			if (segs[i] < 1 || segs[i] > tx->nseg || segs[i] <= tx->last_acked)
				abort();
		tx->next_to_send = saved;
	}
}

/* A packet for the sender (an ACK from the receiver, or anything). */
static void to_tx(struct state *s, const uint8_t *mad, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum rmpp_tx_result r;
	uint8_t status;

	if (!copy)
		abort();
	if (len)
		memcpy(copy, mad, len);
	r = rmpp_tx_ack(&s->tx, copy, len);
	status = rmpp_tx_ack_status(&s->tx, copy, len);
	if (r == RMPP_TX_ABORTED && !s->tx.aborted)
		abort();
	if (status && (status < RMPP_STATUS_BAD_T2L || status > RMPP_STATUS_UNSPEC))
		abort();
	if (r == RMPP_TX_ABORTED && status) {
		uint8_t m[RMPP_MAD_SIZE];

		rmpp_tx_build_abort(&s->tx, status, m);
		if (m[25] != RMPP_TYPE_ABORT || m[27] != status)
			abort();
	}
	free(copy);
	check_tx(s);
}

/* A packet for the receiver, exactly len bytes; its ACK (or ABORT) goes to the sender
 * unless `lose_ack`. */
static void to_rx(struct state *s, const uint8_t *mad, size_t len, int lose_ack)
{
	uint8_t *copy = malloc(len ? len : 1), ack[RMPP_MAD_SIZE];
	enum rmpp_rx_result r;
	size_t ack_len;

	if (!copy)
		abort();
	if (len)
		memcpy(copy, mad, len);
	r = rmpp_rx_segment(&s->rx, copy, len, ack, &ack_len);
	free(copy);
	if (r == RMPP_RX_DONE)
		s->rx_done++;
	check_rx(s, r, ack_len);
	if (ack_len && !lose_ack)
		to_tx(s, ack, ack_len);
}

/* n bytes of input as a packet of `len` bytes (zero-padded when the input runs out) */
static void raw_packet(struct input *in, uint8_t *m, size_t len)
{
	size_t i;

	memset(m, 0, RMPP_MAD_SIZE);
	for (i = 0; i < len && in->n; i++)
		m[i] = take(in);
}

/* The sender's next segments through a link that loses per the bits of `loss`. */
static void send_pending(struct state *s, unsigned max, uint8_t loss)
{
	uint32_t segs[8];
	uint8_t m[RMPP_MAD_SIZE];
	unsigned n, i;

	n = rmpp_tx_pending(&s->tx, segs, max > 8 ? 8 : max);
	for (i = 0; i < n; i++) {
		if (loss & (1u << (i % 8)))
			continue;
		rmpp_tx_build(&s->tx, segs[i], m);
		to_rx(s, m, sizeof(m), (loss >> 4) & 1);
	}
}

/* Once the link stops losing, an untouched pair must finish the transfer. */
static void finish(struct state *s)
{
	unsigned iter;

	for (iter = 0; !s->tx.done; iter++) {
		uint32_t segs[8];
		uint8_t m[RMPP_MAD_SIZE];
		unsigned n, i;

		if (iter > 100000 || s->tx.aborted)
			abort();
		n = rmpp_tx_pending(&s->tx, segs, 8);
		if (!n && !rmpp_tx_timeout(&s->tx, 1000))
			abort();
		for (i = 0; i < n; i++) {
			rmpp_tx_build(&s->tx, segs[i], m);
			to_rx(s, m, sizeof(m), 0);
		}
	}
	if (!s->rx.done || s->rx_done != 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	static struct state s;
	uint8_t m[RMPP_MAD_SIZE];
	size_t off, plen, i;

	if (size < 3)
		return 0;
	if (!payload)
		for (size_t k = 0; k < 8; k++)
			for (i = 0; i < sizeof(payloads[k]); i++)
				payloads[k][i] = (uint8_t)(i ^ (i >> 8) ^ offsets[k]);
	payload = payloads[data[0] & 7];
	off = offsets[take(&in) & 7];
	plen = take(&in);
	plen = plen << 8 | take(&in);
	for (i = 0; i < sizeof(header); i++)
		header[i] = (uint8_t)(i * 7 + 1);
	header[0] = 1;
	header[1] = off == 40 ? 0x30 : 0x03;
	header[3] = 0x92;
	header[24] = 1;

	memset(&s, 0, sizeof(s));
	rmpp_tx_init(&s.tx, header, off, payload, plen);
	rmpp_rx_init(&s.rx, off);
	check_tx(&s);

	while (in.n) {
		uint8_t op = take(&in);
		size_t len;

		switch (op & 7) {
		case 0: /* raw bytes to the receiver */
			len = op & 0x80 ? RMPP_MAD_SIZE : take(&in);
			raw_packet(&in, m, len);
			if (op & 0x40 && len >= 36) /* make it look like ours */
				memcpy(m, header, 24);
			s.rx_tainted = 1;
			to_rx(&s, m, len, 0);
			s.tx_tainted = 1;
			break;
		case 1: /* raw bytes to the sender */
			len = op & 0x80 ? RMPP_MAD_SIZE : take(&in);
			raw_packet(&in, m, len);
			if (op & 0x40 && len >= 36)
				memcpy(m, header, 24);
			s.tx_tainted = 1;
			to_tx(&s, m, len);
			break;
		case 2: { /* any segment, a byte changed */
			uint32_t seg = (uint32_t)take(&in) << 8;
			uint8_t pos, mask;

			seg |= take(&in);
			pos = take(&in);
			mask = take(&in);
			rmpp_tx_build(&s.tx, seg % (s.tx.nseg + 2), m);
			m[pos] ^= mask;
			s.rx_tainted = s.tx_tainted = 1;
			to_rx(&s, m, sizeof(m), 0);
			break;
		}
		case 3: /* the real next segments, lossless */
			send_pending(&s, (op >> 3) + 1u, 0);
			break;
		case 4: /* the real next segments, some lost (segments or ACKs) */
			send_pending(&s, (op >> 3) + 1u, take(&in));
			break;
		case 5: /* the sender's timer */
			if (!rmpp_tx_timeout(&s.tx, op >> 3) && !s.tx.aborted)
				abort();
			check_tx(&s);
			break;
		case 6: { /* a real segment cut short */
			uint32_t seg = s.rx.next_seg + (op >> 6);

			len = take(&in);
			if (seg > s.tx.window_last)
				break; /* the sender would not send it yet */
			rmpp_tx_build(&s.tx, seg, m);
			to_rx(&s, m, len, (op >> 5) & 1);
			break;
		}
		case 7: /* aborts from either side */
			if (op & 0x8) {
				uint8_t ack[RMPP_MAD_SIZE];

				if (rmpp_rx_abort(&s.rx, take(&in), ack))
					to_tx(&s, ack, sizeof(ack));
				check_rx(&s, RMPP_RX_CONTINUE, 0);
			} else {
				rmpp_tx_build_abort(&s.tx, take(&in), m);
				to_rx(&s, m, sizeof(m), 0);
			}
			s.rx_tainted = s.tx_tainted = 1;
			break;
		}
	}
	if (!s.rx_tainted && !s.tx_tainted && !s.tx.aborted && (off >= 36 && off < 256))
		finish(&s);
	rmpp_rx_free(&s.rx);
	return 0;
}
