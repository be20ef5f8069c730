/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * User-space RMPP (IBA 13.6): reassembly of multi-segment transfers we receive and
 * segmentation of transfers we send, as pure state machines over 256-byte MADs.  The
 * caller (call.c / server.c) owns the sockets and the timers: these functions only look at
 * and build packets.  Internal to libibmadrpc.
 *
 * MAD layout used (classes with an RMPP header at byte 24, e.g. SA 0x03, vendor range 2):
 *   24 RMPPVersion (1)   25 RMPPType (1 DATA, 2 ACK, 3 STOP, 4 ABORT)
 *   26 RRespTime:5 | RMPPFlags:3 (bit 0 Active, bit 1 First, bit 2 Last)
 *   27 RMPPStatus        28-31 data1 (DATA: SegmentNumber; ACK: SegmentNumber)
 *   32-35 data2 (DATA first: PayloadLength, last: bytes in the last segment incl. the
 *         class header part; ACK: NewWindowLast)
 * Each DATA segment repeats the class header from byte 36 to data_offset and carries
 * (256 - data_offset) payload bytes.  PayloadLength counts the payload plus the class
 * header bytes after the RMPP header (data_offset - 36), as the Linux kernel does.
 *
 * (rmpp.c) PayloadLength is per segment: the first segment of n carries
 * n * (data_offset - 36) + payload bytes, the last (data_offset - 36) + its payload bytes,
 * the others 0; a single segment carries the last-segment value (which is the same number).
 * ACKs and ABORTs are built like the kernel's: the received header up to data_offset, the
 * method with the response bit toggled (cleared for the segments of a response, so ibsim
 * routes the ACK to the server; set for the segments of a request), the rest zero.
 */
#ifndef IBMADRPC_RMPP_H
#define IBMADRPC_RMPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RMPP_MAD_SIZE 256
#define RMPP_TYPE_DATA 1
#define RMPP_TYPE_ACK 2
#define RMPP_TYPE_STOP 3
#define RMPP_TYPE_ABORT 4
#define RMPP_FLAG_ACTIVE 0x1
#define RMPP_FLAG_FIRST 0x2
#define RMPP_FLAG_LAST 0x4
/* RMPPStatus values of ABORT/STOP (IBA table 171, the kernel's include/rdma/ib_mad.h) */
#define RMPP_STATUS_BAD_T2L 118    /* total time too long */
#define RMPP_STATUS_BAD_LENGTH 119 /* inconsistent Last and PayloadLength */
#define RMPP_STATUS_BAD_SEG 120    /* inconsistent First and SegmentNumber */
#define RMPP_STATUS_UNSPEC 127     /* unspecified */

/* The other IBA table 171 values (kernel ib_mad.h: RESX, BADT, W2S, S2B, BAD_STATUS, UNV,
 * TMR); rmpp.c sends these and BAD_T2L, BAD_LENGTH, BAD_SEG, UNSPEC above. */
#define RMPP_STATUS_RESX 1      /* STOP: resources exhausted */
#define RMPP_STATUS_BADT 121    /* bad RMPPType */
#define RMPP_STATUS_W2S 122     /* NewWindowLast too small */
#define RMPP_STATUS_S2B 123     /* SegmentNumber too big (beyond the window or nseg) */
#define RMPP_STATUS_ILLEGAL 124 /* illegal status (non-zero RMPPStatus on DATA/ACK) */
#define RMPP_STATUS_UNV 125     /* unsupported RMPPVersion */
#define RMPP_STATUS_TMR 126     /* too many retries */

#define RMPP_MAX_PAYLOAD (16u << 20) /* refuse transfers larger than 16 MiB */
#define RMPP_WINDOW 32               /* segments the receiver grants at a time */

/* Classes whose MADs have an RMPP header (the kernel's ib_is_mad_class_rmpp(): SA 0x03,
 * DevMgt 0x06, DevAdm 0x10, BIS 0x12, vendor range 2 0x30-0x4f). */
bool rmpp_class_has_rmpp(uint8_t mgmt_class);
/* True when the MAD (at least 36 bytes) carries an active RMPP header.  Only classes that
 * have one count (the kernel's ib_is_mad_class_rmpp: SA 0x03, DevMgt 0x06, 0x10, BIS 0x12,
 * vendor range 2 0x30-0x4f): in other classes byte 26 is attribute data. */
bool rmpp_is_active(const uint8_t *mad, size_t len);
/* RMPPType (byte 25); mad must hold at least 26 bytes (check rmpp_is_active() first). */
uint8_t rmpp_type(const uint8_t *mad);

/* ---- Receiving (reassembly) -------------------------------------------------------------- */

struct rmpp_rx {
	size_t data_offset;   /* where payload starts in each segment (SA: 56) */
	uint8_t *buf;         /* reassembled MAD: the first segment's header (data_offset bytes)
			       * followed by all payload, malloc()ed */
	size_t len;           /* bytes of buf in use */
	size_t cap;
	uint32_t next_seg;    /* the segment expected next (1 = the first) */
	uint32_t window_last; /* NewWindowLast we granted */
	uint64_t expected;    /* total length from PayloadLength (0 = unknown yet): the raw
			       * PayloadLength of the first segment, i.e. payload plus one class
			       * header part per segment (see the top of this file) */
	bool done;
	int error;            /* RMPP_STATUS_* of an abort we sent, 0 none (also set to the
			       * RMPPStatus of a STOP/ABORT received from the sender, or to
			       * RMPP_STATUS_UNSPEC when that is 0); buf is freed then */
};

/* data_offset must be 36..255; with another value every segment is aborted (UNSPEC). */
void rmpp_rx_init(struct rmpp_rx *rx, size_t data_offset);
/* Frees buf and re-initialises rx (same data_offset): safe to call twice, rx reusable. */
void rmpp_rx_free(struct rmpp_rx *rx);

enum rmpp_rx_result {
	RMPP_RX_CONTINUE = 0, /* more segments to come; send *ack if ack_len is set */
	RMPP_RX_DONE,         /* buf/len hold the whole transfer; send the final *ack */
	RMPP_RX_DUPLICATE,    /* an old segment: re-send *ack (the last one) */
	RMPP_RX_ABORT,        /* protocol error: send *ack (an ABORT) and fail the transfer */
};

/* Feeds one received DATA segment.  Fills ack[0..255] with the MAD to send back (an ACK
 * built from the segment: same header, method with the response bit cleared, RMPPType ACK,
 * SegmentNumber = last in-order segment, NewWindowLast = granted window; or an ABORT) and
 * sets *ack_len to 256 when one is to be sent, 0 when not. */
enum rmpp_rx_result rmpp_rx_segment(struct rmpp_rx *rx, const uint8_t *mad, size_t len,
				    uint8_t *ack, size_t *ack_len);
/*
 * Details (rmpp.c):
 * - ack may be the same buffer as mad.  Nothing past mad[len - 1] is read.
 * - Ignored (CONTINUE, or DUPLICATE once done, ABORT once aborted; no ack): shorter than
 *   36 bytes, not rmpp_is_active(), RMPPType ACK, a segment ahead of the next expected one
 *   but inside the window (out of order: dropped, the sender's timeout resends it), an
 *   in-order segment shorter than data_offset + its payload bytes (truncated: dropped).
 * - ACKs are sent for the first segment, the last one (RMPP_RX_DONE), each segment that
 *   reaches the granted window (the new window is that segment + RMPP_WINDOW; the
 *   sender's window starts at 1) and every duplicate (SegmentNumber below the next
 *   expected, or any DATA once done).
 * - ABORT (status in rx->error, buf freed): RMPPVersion != 1 -> UNV; unknown RMPPType ->
 *   BADT; non-zero RMPPStatus on DATA -> ILLEGAL; SegmentNumber 0, 1 without First or
 *   another with First -> BAD_SEG; SegmentNumber beyond the granted window -> S2B;
 *   PayloadLength (or, for an unknown length, the data so far) above RMPP_MAX_PAYLOAD ->
 *   BAD_LENGTH; a last segment whose PayloadLength is below data_offset - 36 or above 220,
 *   or that disagrees with the first segment's PayloadLength (in SegmentNumber or length),
 *   or a non-last segment where the first's PayloadLength says the last is ->
 *   BAD_LENGTH; out of memory -> UNSPEC.  A STOP/ABORT from the sender -> RMPP_RX_ABORT, no ack.
 * - Memory: buf grows geometrically, never beyond data_offset + the announced total (or
 *   data_offset + RMPP_MAX_PAYLOAD when the first segment said 0).
 */

/* Fails the transfer from the caller's side (e.g. RMPP_STATUS_BAD_T2L when its timer for the
 * whole transfer expires): sets rx->error, frees buf and builds the ABORT to send into
 * ack[0..255] from the first segment's header.  Returns true when ack holds an ABORT to
 * send; false when no segment was accepted yet (the transfer still fails: nothing to
 * answer) or when it is already done or aborted (nothing changes). */
bool rmpp_rx_abort(struct rmpp_rx *rx, uint8_t status, uint8_t *ack);

/* ---- Sending (segmentation) ---------------------------------------------------------------- */

struct rmpp_tx {
	uint8_t header[RMPP_MAD_SIZE]; /* the response header (bytes 0..data_offset) */
	size_t data_offset;
	const uint8_t *payload;        /* all payload bytes (not owned) */
	size_t payload_len;
	uint32_t nseg;                 /* segments in total (at least 1) */
	uint32_t last_acked;           /* highest segment acknowledged (0 none) */
	uint32_t window_last;          /* may send up to this segment */
	uint32_t next_to_send;         /* next new segment */
	bool done;
	bool aborted;
	unsigned retries;              /* timeouts since the last progress */
};

/* header: a response MAD whose bytes 0..data_offset-1 are to start every segment (MAD
 * header incl. TID/method/attr, RMPP version, class header). */
void rmpp_tx_init(struct rmpp_tx *tx, const uint8_t *header, size_t data_offset,
		  const uint8_t *payload, size_t payload_len);
/* (rmpp.c) tx->aborted is already set after init (and nothing is ever pending) when
 * data_offset is not 36..255, payload is NULL with a length, or the first segment's
 * PayloadLength (nseg * (data_offset - 36) + payload_len) would exceed RMPP_MAX_PAYLOAD,
 * which rmpp_rx refuses: check it.  window_last starts at 1 (IBA: the receiver opens the
 * window with its ACK of segment 1).  RMPPVersion is always written as 1 and RRespTime is
 * kept from header[26]. */

/* Builds segment `seg` (1..nseg) into mad[0..255].  (Another number: an all-zero MAD.) */
void rmpp_tx_build(const struct rmpp_tx *tx, uint32_t seg, uint8_t *mad);

/* The segments to send now (new ones within the window): writes up to max segment
 * numbers to segs and returns the count; advances next_to_send. */
unsigned rmpp_tx_pending(struct rmpp_tx *tx, uint32_t *segs, unsigned max);

enum rmpp_tx_result {
	RMPP_TX_CONTINUE = 0, /* send what rmpp_tx_pending() returns */
	RMPP_TX_DONE,         /* every segment acknowledged */
	RMPP_TX_ABORTED,      /* the receiver sent STOP/ABORT, or the ACK was invalid */
	RMPP_TX_IGNORE,       /* not for this transfer / stale */
};

/* Feeds one received ACK/STOP/ABORT for this transfer. */
enum rmpp_tx_result rmpp_tx_ack(struct rmpp_tx *tx, const uint8_t *mad, size_t len);
/*
 * Details (rmpp.c), like the kernel's process_rmpp_ack():
 * - IGNORE: the transfer is already done or aborted, fewer than 36 bytes, not
 *   rmpp_is_active(), a DATA segment, a stale ACK (SegmentNumber below last_acked or
 *   NewWindowLast below window_last).
 * - ABORTED (tx->aborted set): STOP or ABORT; RMPPVersion != 1; unknown RMPPType; an ACK
 *   with non-zero RMPPStatus, NewWindowLast < SegmentNumber, or SegmentNumber beyond
 *   nseg or window_last.  For these invalid ones the caller should answer with an ABORT:
 *   rmpp_tx_ack_status() + rmpp_tx_build_abort().
 * - Otherwise: last_acked advances (retries reset to 0 on progress), window_last takes
 *   NewWindowLast, next_to_send never stays at or below last_acked; DONE when last_acked
 *   reaches nseg.
 */

/* The RMPPStatus of the ABORT to answer `mad` with after rmpp_tx_ack() returned
 * RMPP_TX_ABORTED for it: UNV, BADT, ILLEGAL, W2S or S2B; 0 when no ABORT is due (the
 * receiver sent STOP/ABORT itself, or the packet is acceptable/ignored). */
uint8_t rmpp_tx_ack_status(const struct rmpp_tx *tx, const uint8_t *mad, size_t len);

/* Builds an ABORT for this transfer into mad[0..255] (the segments' header and method,
 * RMPPType ABORT, the given status, SegmentNumber and NewWindowLast 0), e.g. with
 * RMPP_STATUS_TMR after rmpp_tx_timeout() returned false. */
void rmpp_tx_build_abort(const struct rmpp_tx *tx, uint8_t status, uint8_t *mad);

/* A retransmission timer expired: rewinds next_to_send to last_acked + 1 (IBA: resend the
 * window).  Returns false when the retry budget (max_retries) is exhausted. */
/* (rmpp.c) retries counts the timeouts since the last progress; the (max_retries + 1)th
 * returns false and sets tx->aborted.  Also false once aborted; true (no change) once done. */
bool rmpp_tx_timeout(struct rmpp_tx *tx, unsigned max_retries);

#endif /* IBMADRPC_RMPP_H */
