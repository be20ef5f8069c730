// SPDX-License-Identifier: BSD-3-Clause
/*
 * User-space RMPP (IBA 13.6): reassembly and segmentation as pure state machines over
 * 256-byte MADs; see rmpp.h for the contract.  The wire behaviour follows the Linux
 * kernel's drivers/infiniband/core/mad_rmpp.c where IBA leaves a choice (ACK layout,
 * PayloadLength per segment, when the receiver ACKs, which ACKs the sender ignores), but
 * reassembly keeps only in-order data: a segment ahead of a gap is dropped and comes back
 * with the sender's retransmission of the window.
 */
#include <stdlib.h>
#include <string.h>

#include "rmpp.h"

#define MAD_METHOD_RESP 0x80
#define RMPP_VERSION 1
#define RMPP_HDR_END 36 /* the class header (if any) starts here */
/* 220: what PayloadLength counts per segment (class header part + payload) */
#define RMPP_SEG_DATA (RMPP_MAD_SIZE - RMPP_HDR_END)
#define RMPP_FLAGS_MASK 0x07
#define RMPP_RTIME_MASK 0xf8

/* byte offsets in the MAD */
#define OFF_CLASS 1
#define OFF_METHOD 3
#define OFF_VERSION 24
#define OFF_TYPE 25
#define OFF_FLAGS 26
#define OFF_STATUS 27
#define OFF_DATA1 28
#define OFF_DATA2 32

/* first allocation for a transfer of unknown length: one window of segments */
#define RX_INITIAL_SEGS RMPP_WINDOW

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

bool rmpp_class_has_rmpp(uint8_t mgmt_class)
{
	switch (mgmt_class) {
	case 0x03: /* SubnAdm */
	case 0x06: /* DevMgt */
	case 0x10: /* DevAdm */
	case 0x12: /* BIS */
		return true;
	default:
		return mgmt_class >= 0x30 && mgmt_class <= 0x4f; /* vendor range 2 */
	}
}

static bool offset_ok(size_t data_offset)
{
	return data_offset >= RMPP_HDR_END && data_offset < RMPP_MAD_SIZE;
}

bool rmpp_is_active(const uint8_t *mad, size_t len)
{
	return mad && len >= RMPP_HDR_END && rmpp_class_has_rmpp(mad[OFF_CLASS]) &&
	       (mad[OFF_FLAGS] & RMPP_FLAG_ACTIVE);
}

uint8_t rmpp_type(const uint8_t *mad)
{
	return mad ? mad[OFF_TYPE] : 0;
}

/*
 * An ACK or ABORT answering `mad` (len >= 36): its first hdr_len bytes (at most len), the
 * method's response bit toggled, the RMPP header rewritten, the rest zero.  out may be mad.
 */
static void build_reply(uint8_t *out, const uint8_t *mad, size_t len, size_t hdr_len,
			uint8_t type, uint8_t status, uint32_t data1, uint32_t data2)
{
	size_t n = hdr_len;

	if (n > len)
		n = len;
	if (n > RMPP_MAD_SIZE)
		n = RMPP_MAD_SIZE;
	if (n < RMPP_HDR_END)
		n = RMPP_HDR_END; /* callers guarantee len >= 36 */
	if (out != mad)
		memmove(out, mad, n);
	memset(out + n, 0, RMPP_MAD_SIZE - n);
	out[OFF_METHOD] ^= MAD_METHOD_RESP;
	out[OFF_VERSION] = RMPP_VERSION;
	out[OFF_TYPE] = type;
	out[OFF_FLAGS] = (uint8_t)((out[OFF_FLAGS] & RMPP_RTIME_MASK) | RMPP_FLAG_ACTIVE);
	out[OFF_STATUS] = status;
	put_be32(out + OFF_DATA1, data1);
	put_be32(out + OFF_DATA2, data2);
}

/* ---- Receiving --------------------------------------------------------------------------- */

void rmpp_rx_init(struct rmpp_rx *rx, size_t data_offset)
{
	memset(rx, 0, sizeof(*rx));
	rx->data_offset = data_offset;
	rx->next_seg = 1;
	rx->window_last = 1; /* the sender starts with a window of one segment */
}

static void rx_release(struct rmpp_rx *rx)
{
	free(rx->buf);
	rx->buf = NULL;
	rx->len = 0;
	rx->cap = 0;
}

void rmpp_rx_free(struct rmpp_rx *rx)
{
	if (!rx)
		return;
	rx_release(rx);
	rmpp_rx_init(rx, rx->data_offset);
}

/* The result for a packet that changes nothing. */
static enum rmpp_rx_result rx_idle(const struct rmpp_rx *rx)
{
	if (rx->error)
		return RMPP_RX_ABORT;
	return rx->done ? RMPP_RX_DUPLICATE : RMPP_RX_CONTINUE;
}

static size_t rx_hdr_len(const struct rmpp_rx *rx)
{
	return offset_ok(rx->data_offset) ? rx->data_offset : RMPP_HDR_END;
}

static void rx_ack(const struct rmpp_rx *rx, const uint8_t *mad, size_t len, uint8_t *ack,
		   size_t *ack_len)
{
	if (!ack)
		return;
	build_reply(ack, mad, len, rx_hdr_len(rx), RMPP_TYPE_ACK, 0, rx->next_seg - 1,
		    rx->window_last);
	*ack_len = RMPP_MAD_SIZE;
}

static enum rmpp_rx_result rx_fail(struct rmpp_rx *rx, const uint8_t *mad, size_t len,
				   uint8_t status, uint8_t *ack, size_t *ack_len)
{
	rx->error = status;
	rx_release(rx);
	if (ack) {
		build_reply(ack, mad, len, rx_hdr_len(rx), RMPP_TYPE_ABORT, status, 0, 0);
		*ack_len = RMPP_MAD_SIZE;
	}
	return RMPP_RX_ABORT;
}

/* Segments of a transfer whose first PayloadLength is `total`, and the last one's
 * PayloadLength; false when no sender could have announced that total. */
static bool total_split(uint64_t total, size_t hdr_part, uint64_t *nseg, uint64_t *last_len)
{
	if (!total)
		return false;
	*nseg = (total + RMPP_SEG_DATA - 1) / RMPP_SEG_DATA;
	*last_len = total - (*nseg - 1) * RMPP_SEG_DATA;
	return *last_len >= hdr_part;
}

/* Makes room for `need` bytes; `limit` is the most this transfer can ever need. */
static bool rx_reserve(struct rmpp_rx *rx, size_t need, size_t limit)
{
	size_t cap;
	uint8_t *p;

	if (need <= rx->cap)
		return true;
	if (need > limit)
		return false;
	cap = rx->cap ? rx->cap * 2 : rx->data_offset +
		(size_t)RX_INITIAL_SEGS * (RMPP_MAD_SIZE - rx->data_offset);
	if (cap < need)
		cap = need;
	if (cap > limit)
		cap = limit;
	p = realloc(rx->buf, cap);
	if (!p)
		return false;
	rx->buf = p;
	rx->cap = cap;
	return true;
}

/* The in-order segment `seg` (its header checks passed): length checks, then append. */
static enum rmpp_rx_result rx_accept(struct rmpp_rx *rx, const uint8_t *mad, size_t len,
				     uint32_t seg, uint8_t flags, uint32_t paylen, uint8_t *ack,
				     size_t *ack_len)
{
	size_t off = rx->data_offset;
	size_t hdr_part = off - RMPP_HDR_END;
	size_t per_seg = RMPP_MAD_SIZE - off;
	bool last = flags & RMPP_FLAG_LAST;
	uint64_t total = rx->expected, nseg = 0, last_len = 0;
	size_t bytes, limit;

	if (seg == 1 && paylen) {
		/* the first PayloadLength is the total (0: not known) */
		if (paylen > RMPP_MAX_PAYLOAD)
			return rx_fail(rx, mad, len, RMPP_STATUS_BAD_LENGTH, ack, ack_len);
		total = paylen;
	}
	if (total) {
		if (!total_split(total, hdr_part, &nseg, &last_len) ||
		    (last ? seg != nseg || paylen != last_len : seg >= nseg))
			return rx_fail(rx, mad, len, RMPP_STATUS_BAD_LENGTH, ack, ack_len);
	}
	if (last) {
		if (paylen < hdr_part || paylen > RMPP_SEG_DATA)
			return rx_fail(rx, mad, len, RMPP_STATUS_BAD_LENGTH, ack, ack_len);
		bytes = paylen - hdr_part;
	} else {
		bytes = per_seg;
	}
	if ((uint64_t)(seg - 1) * RMPP_SEG_DATA + (last ? paylen : RMPP_SEG_DATA) >
	    RMPP_MAX_PAYLOAD)
		return rx_fail(rx, mad, len, RMPP_STATUS_BAD_LENGTH, ack, ack_len);
	if (len < off + bytes)
		return RMPP_RX_CONTINUE; /* truncated: as if lost */

	/* the most this transfer can need: the announced total, else the cap */
	if (total)
		limit = off + (size_t)(total - nseg * hdr_part);
	else
		limit = off + RMPP_MAX_PAYLOAD;
	if (!rx_reserve(rx, (seg == 1 ? off : rx->len) + bytes, limit))
		return rx_fail(rx, mad, len, RMPP_STATUS_UNSPEC, ack, ack_len);
	if (seg == 1) {
		memcpy(rx->buf, mad, off);
		rx->len = off;
	}
	memcpy(rx->buf + rx->len, mad + off, bytes);
	rx->len += bytes;
	rx->expected = total;
	rx->next_seg = seg + 1;

	if (last) {
		rx->done = true;
		rx_ack(rx, mad, len, ack, ack_len);
		return RMPP_RX_DONE;
	}
	if (seg == rx->window_last) {
		rx->window_last = seg + RMPP_WINDOW;
		rx_ack(rx, mad, len, ack, ack_len);
	}
	return RMPP_RX_CONTINUE;
}

enum rmpp_rx_result rmpp_rx_segment(struct rmpp_rx *rx, const uint8_t *mad, size_t len,
				    uint8_t *ack, size_t *ack_len)
{
	size_t ack_len_unused;
	uint32_t seg, paylen;
	uint8_t type, flags;

	if (!ack_len)
		ack_len = &ack_len_unused;
	*ack_len = 0;
	if (!rx)
		return RMPP_RX_ABORT;
	if (!rmpp_is_active(mad, len))
		return rx_idle(rx);
	type = mad[OFF_TYPE];

	if (rx->error) {
		/* keep telling a sender that goes on why we stopped */
		if (type == RMPP_TYPE_DATA)
			return rx_fail(rx, mad, len, (uint8_t)rx->error, ack, ack_len);
		return RMPP_RX_ABORT;
	}
	if (rx->done) {
		/* our final ACK was lost: the sender retransmits */
		if (type == RMPP_TYPE_DATA)
			rx_ack(rx, mad, len, ack, ack_len);
		return RMPP_RX_DUPLICATE;
	}
	if (!offset_ok(rx->data_offset))
		return rx_fail(rx, mad, len, RMPP_STATUS_UNSPEC, ack, ack_len);
	if (mad[OFF_VERSION] != RMPP_VERSION)
		return rx_fail(rx, mad, len, RMPP_STATUS_UNV, ack, ack_len);

	switch (type) {
	case RMPP_TYPE_DATA:
		break;
	case RMPP_TYPE_ACK:
		return RMPP_RX_CONTINUE; /* for senders, not for us */
	case RMPP_TYPE_STOP:
	case RMPP_TYPE_ABORT:
		/* the sender gave up: nothing to answer */
		rx->error = mad[OFF_STATUS] ? mad[OFF_STATUS] : RMPP_STATUS_UNSPEC;
		rx_release(rx);
		return RMPP_RX_ABORT;
	default:
		return rx_fail(rx, mad, len, RMPP_STATUS_BADT, ack, ack_len);
	}

	if (mad[OFF_STATUS])
		return rx_fail(rx, mad, len, RMPP_STATUS_ILLEGAL, ack, ack_len);
	flags = mad[OFF_FLAGS] & RMPP_FLAGS_MASK;
	seg = get_be32(mad + OFF_DATA1);
	paylen = get_be32(mad + OFF_DATA2);
	if (!seg || (seg == 1) != !!(flags & RMPP_FLAG_FIRST))
		return rx_fail(rx, mad, len, RMPP_STATUS_BAD_SEG, ack, ack_len);
	if (seg > rx->window_last)
		return rx_fail(rx, mad, len, RMPP_STATUS_S2B, ack, ack_len);
	if (seg < rx->next_seg) {
		rx_ack(rx, mad, len, ack, ack_len);
		return RMPP_RX_DUPLICATE;
	}
	if (seg > rx->next_seg)
		return RMPP_RX_CONTINUE; /* ahead of a gap: dropped, comes again */
	return rx_accept(rx, mad, len, seg, flags, paylen, ack, ack_len);
}

bool rmpp_rx_abort(struct rmpp_rx *rx, uint8_t status, uint8_t *ack)
{
	bool have_header;

	if (!rx || rx->error || rx->done)
		return false;
	have_header = rx->buf && rx->len >= RMPP_HDR_END && offset_ok(rx->data_offset);
	rx->error = status ? status : RMPP_STATUS_UNSPEC;
	if (have_header && ack) {
		/* the first segment's header; build_reply() copies before we free it */
		build_reply(ack, rx->buf, rx->len, rx->data_offset, RMPP_TYPE_ABORT,
			    (uint8_t)rx->error, 0, 0);
	}
	rx_release(rx);
	return have_header && ack;
}

/* ---- Sending ----------------------------------------------------------------------------- */

void rmpp_tx_init(struct rmpp_tx *tx, const uint8_t *header, size_t data_offset,
		  const uint8_t *payload, size_t payload_len)
{
	size_t per_seg, nseg;

	memset(tx, 0, sizeof(*tx));
	tx->data_offset = data_offset;
	tx->nseg = 1;
	tx->window_last = 1;
	tx->next_to_send = 1;
	if (!offset_ok(data_offset)) {
		tx->aborted = true;
		return;
	}
	if (header)
		memcpy(tx->header, header, data_offset); /* also for rmpp_tx_build_abort() */
	if ((!payload && payload_len) || payload_len > RMPP_MAX_PAYLOAD) {
		tx->aborted = true;
		return;
	}
	per_seg = RMPP_MAD_SIZE - data_offset;
	nseg = payload_len ? (payload_len - 1) / per_seg + 1 : 1;
	if ((uint64_t)nseg * (data_offset - RMPP_HDR_END) + payload_len > RMPP_MAX_PAYLOAD) {
		tx->aborted = true;
		return;
	}
	tx->payload = payload;
	tx->payload_len = payload_len;
	tx->nseg = (uint32_t)nseg;
}

void rmpp_tx_build(const struct rmpp_tx *tx, uint32_t seg, uint8_t *mad)
{
	size_t off = tx->data_offset, per_seg, start, bytes;
	size_t hdr_part;
	uint32_t paylen = 0;
	uint8_t flags = RMPP_FLAG_ACTIVE;

	memset(mad, 0, RMPP_MAD_SIZE);
	if (!offset_ok(off) || !seg || seg > tx->nseg)
		return;
	per_seg = RMPP_MAD_SIZE - off;
	hdr_part = off - RMPP_HDR_END;
	start = (size_t)(seg - 1) * per_seg;
	bytes = 0;
	if (start < tx->payload_len)
		bytes = tx->payload_len - start < per_seg ? tx->payload_len - start : per_seg;

	memcpy(mad, tx->header, off);
	if (seg == 1) {
		flags |= RMPP_FLAG_FIRST;
		paylen = (uint32_t)((size_t)tx->nseg * hdr_part + tx->payload_len);
	}
	if (seg == tx->nseg) {
		flags |= RMPP_FLAG_LAST;
		paylen = (uint32_t)(hdr_part + bytes);
	}
	mad[OFF_VERSION] = RMPP_VERSION;
	mad[OFF_TYPE] = RMPP_TYPE_DATA;
	mad[OFF_FLAGS] = (uint8_t)((tx->header[OFF_FLAGS] & RMPP_RTIME_MASK) | flags);
	mad[OFF_STATUS] = 0;
	put_be32(mad + OFF_DATA1, seg);
	put_be32(mad + OFF_DATA2, paylen);
	if (bytes)
		memcpy(mad + off, tx->payload + start, bytes);
}

unsigned rmpp_tx_pending(struct rmpp_tx *tx, uint32_t *segs, unsigned max)
{
	uint32_t limit;
	unsigned n = 0;

	if (!tx || tx->done || tx->aborted || !segs)
		return 0;
	limit = tx->window_last < tx->nseg ? tx->window_last : tx->nseg;
	while (n < max && tx->next_to_send <= limit)
		segs[n++] = tx->next_to_send++;
	return n;
}

/*
 * What an ACK/STOP/ABORT means for this transfer, whatever its state: *status is the
 * ABORT to answer with when the result is RMPP_TX_ABORTED because the packet is invalid.
 * RMPP_TX_CONTINUE here means "a valid, current ACK".
 */
static enum rmpp_tx_result tx_classify(const struct rmpp_tx *tx, const uint8_t *mad, size_t len,
				       uint8_t *status)
{
	uint32_t seg, newwin;

	*status = 0;
	if (!rmpp_is_active(mad, len))
		return RMPP_TX_IGNORE;
	if (mad[OFF_VERSION] != RMPP_VERSION) {
		*status = RMPP_STATUS_UNV;
		return RMPP_TX_ABORTED;
	}
	switch (mad[OFF_TYPE]) {
	case RMPP_TYPE_ACK:
		break;
	case RMPP_TYPE_STOP:
	case RMPP_TYPE_ABORT:
		return RMPP_TX_ABORTED;
	case RMPP_TYPE_DATA:
		return RMPP_TX_IGNORE; /* a transfer towards us: not this one */
	default:
		*status = RMPP_STATUS_BADT;
		return RMPP_TX_ABORTED;
	}
	if (mad[OFF_STATUS]) {
		*status = RMPP_STATUS_ILLEGAL;
		return RMPP_TX_ABORTED;
	}
	seg = get_be32(mad + OFF_DATA1);
	newwin = get_be32(mad + OFF_DATA2);
	if (newwin < seg) {
		*status = RMPP_STATUS_W2S;
		return RMPP_TX_ABORTED;
	}
	if (seg > tx->nseg || seg > tx->window_last) {
		*status = RMPP_STATUS_S2B;
		return RMPP_TX_ABORTED;
	}
	if (seg < tx->last_acked || newwin < tx->window_last)
		return RMPP_TX_IGNORE; /* overtaken by a later ACK */
	return RMPP_TX_CONTINUE;
}

enum rmpp_tx_result rmpp_tx_ack(struct rmpp_tx *tx, const uint8_t *mad, size_t len)
{
	enum rmpp_tx_result r;
	uint8_t status;
	uint32_t seg;

	if (!tx || tx->done || tx->aborted)
		return RMPP_TX_IGNORE;
	r = tx_classify(tx, mad, len, &status);
	if (r == RMPP_TX_ABORTED)
		tx->aborted = true;
	if (r != RMPP_TX_CONTINUE)
		return r;

	seg = get_be32(mad + OFF_DATA1);
	if (seg > tx->last_acked) {
		tx->last_acked = seg;
		tx->retries = 0;
	}
	tx->window_last = get_be32(mad + OFF_DATA2);
	if (tx->next_to_send <= tx->last_acked)
		tx->next_to_send = tx->last_acked + 1;
	if (tx->last_acked == tx->nseg) {
		tx->done = true;
		return RMPP_TX_DONE;
	}
	return RMPP_TX_CONTINUE;
}

uint8_t rmpp_tx_ack_status(const struct rmpp_tx *tx, const uint8_t *mad, size_t len)
{
	uint8_t status;

	if (!tx)
		return 0;
	tx_classify(tx, mad, len, &status);
	return status;
}

void rmpp_tx_build_abort(const struct rmpp_tx *tx, uint8_t status, uint8_t *mad)
{
	size_t off = offset_ok(tx->data_offset) ? tx->data_offset : RMPP_HDR_END;

	memset(mad, 0, RMPP_MAD_SIZE);
	memcpy(mad, tx->header, off);
	mad[OFF_VERSION] = RMPP_VERSION;
	mad[OFF_TYPE] = RMPP_TYPE_ABORT;
	mad[OFF_FLAGS] = (uint8_t)((tx->header[OFF_FLAGS] & RMPP_RTIME_MASK) | RMPP_FLAG_ACTIVE);
	mad[OFF_STATUS] = status;
	/* SegmentNumber and NewWindowLast stay 0 */
}

bool rmpp_tx_timeout(struct rmpp_tx *tx, unsigned max_retries)
{
	if (!tx || tx->aborted)
		return false;
	if (tx->done)
		return true;
	if (tx->retries >= max_retries) {
		tx->aborted = true;
		return false;
	}
	tx->retries++;
	tx->next_to_send = tx->last_acked + 1;
	return true;
}
