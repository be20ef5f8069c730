/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sa-service: register or delete one SA ServiceRecord (IBA 15.2.5.14) so that
 * `saquery SR` has a record to return under ibsim + OpenSM.
 *
 * Test-data tooling for tests/data/kat/capture.sh only; never part of the product.
 * Build: cc -O2 -o sa-service sa-service.c -libmad -libumad
 *        (no -D_FILE_OFFSET_BITS=64: umad2sim only intercepts open/scandir)
 * Run under LD_PRELOAD=libumad2sim.so with SIM_HOST=<node>.
 *
 * Usage: sa-service set|delete <service-gid> <variant 0|1>
 *   <service-gid> must be the GID of the requester's own port (OpenSM checks the
 *   ServiceP_Key against that port's P_Key table). <variant> picks one of two fixed,
 *   distinctive records (ServiceID, P_Key, key, name and all ServiceData fields differ).
 * Prints "ok ..." and exits 0 when the SA answered with status 0 (libibmad's mad_rpc
 * returns NULL for a non-zero MAD status).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

/* ServiceRecord component mask bits (IBA 15.2.5.14) */
#define SR_CM_SID	(1ull << 0)
#define SR_CM_SGID	(1ull << 1)
#define SR_CM_SPKEY	(1ull << 2)
#define SR_CM_SLEASE	(1ull << 4)
#define SR_CM_SKEY	(1ull << 5)
#define SR_CM_SNAME	(1ull << 6)
#define SR_CM_DATA_ALL	(((1ull << 30) - 1) << 7)	/* bits 7..36: all ServiceData */

static void put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, v >> 32); put32(p + 4, v); }

static void build_record(uint8_t *r, const uint8_t gid[16], int variant)
{
	int i;

	memset(r, 0, IB_SA_DATA_SIZE);
	/* ServiceID @0 */
	put64(r + 0, variant ? 0x1000000000000abcull : 0x0002c90300facade);
	/* ServiceGID @8 */
	memcpy(r + 8, gid, 16);
	/* ServiceP_Key @24, reserved @26 */
	put16(r + 24, variant ? 0xffff : 0x8001);
	/* ServiceLease @28: infinite (a finite lease would count down between reads) */
	put32(r + 28, 0xffffffff);
	/* ServiceKey @32 (16 bytes) */
	for (i = 0; i < 16; i++)
		r[32 + i] = (uint8_t)((variant ? 0xf0 : 0x10) + i);
	/* ServiceName @48 (64 bytes, NUL padded) */
	strcpy((char *)r + 48, variant ? "ibmgmt kat service B: 63 chars max, NUL padded"
				       : "ibmgmt-kat.serviceA");
	/* ServiceData8 @112 (16 x 8 bit) */
	for (i = 0; i < 16; i++)
		r[112 + i] = (uint8_t)(variant ? 0xff - i * 0x11 : i + 1);
	/* ServiceData16 @128 (8 x 16 bit) */
	for (i = 0; i < 8; i++)
		put16(r + 128 + 2 * i, (uint16_t)(variant ? 0xfedc - i : 0x1001 + i * 0x0101));
	/* ServiceData32 @144 (4 x 32 bit) */
	for (i = 0; i < 4; i++)
		put32(r + 144 + 4 * i, variant ? 0x80000000u + i : 0x01020304u * (i + 1));
	/* ServiceData64 @160 (2 x 64 bit) */
	put64(r + 160, variant ? 0xffffffffffffffffull : 0x0123456789abcdefull);
	put64(r + 168, variant ? 0x8000000000000001ull : 0xfedcba9876543210ull);
}

int main(int argc, char **argv)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS };
	struct ibmad_port *port;
	ib_portid_t sm = { 0 };
	ib_sa_call_t sa = { 0 };
	uint8_t buf[IB_SA_DATA_SIZE];
	uint8_t gid[16];
	int variant, del;

	if (argc != 4 || (strcmp(argv[1], "set") && strcmp(argv[1], "delete"))) {
		fprintf(stderr, "usage: %s set|delete <service-gid> <variant 0|1>\n", argv[0]);
		return 2;
	}
	del = !strcmp(argv[1], "delete");
	if (inet_pton(AF_INET6, argv[2], gid) != 1) {
		fprintf(stderr, "bad gid %s\n", argv[2]);
		return 2;
	}
	variant = atoi(argv[3]) ? 1 : 0;

	port = mad_rpc_open_port(NULL, 0, classes, 3);
	if (!port) {
		fprintf(stderr, "cannot open mad port\n");
		return 1;
	}
	if (ib_resolve_smlid_via(&sm, 1000, port) < 0 || !sm.lid) {
		fprintf(stderr, "cannot resolve SM lid\n");
		return 1;
	}

	build_record(buf, gid, variant);
	sa.method = del ? IB_MAD_METHOD_DELETE : IB_MAD_METHOD_SET;
	sa.attrid = IB_SA_ATTR_SERVICERECORD;
	sa.mask = SR_CM_SID | SR_CM_SGID | SR_CM_SPKEY | SR_CM_SLEASE | SR_CM_SKEY |
		  SR_CM_SNAME | SR_CM_DATA_ALL;
	if (!sa_rpc_call(port, buf, &sm, &sa, 1000)) {
		fprintf(stderr, "SA %s ServiceRecord failed\n", argv[1]);
		mad_rpc_close_port(port);
		return 1;
	}
	printf("ok %s variant %d\n", argv[1], variant);
	mad_rpc_close_port(port);
	return 0;
}
