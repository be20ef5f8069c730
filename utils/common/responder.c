// SPDX-License-Identifier: BSD-3-Clause
/*
 * The server side of ibping -S and ibsysstat -S (see responder.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "responder.h"

/* What the loop serves (one responder per process). */
static struct {
	uint8_t mgmt_class;
	uint32_t oui;
	ibmadrpc_serve_fn fn;
	void *user;
} served;

size_t responder_host_and_domain(char *buf, size_t size)
{
	size_t n;

	if (size < 2) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	if (gethostname(buf, size) < 0)
		snprintf(buf, size, "?hostname?");
	buf[size - 1] = '\0';
	n = strlen(buf);
	if (n + 1 >= size)
		return n;
	buf[n] = '.';
	if (getdomainname(buf + n + 1, size - n - 1) < 0)
		snprintf(buf + n + 1, size - n - 1, "?domainname?");
	buf[size - 1] = '\0';
	if (buf[n + 1] == '\0')
		buf[n] = '\0'; /* no domain: no dot either */
	return strlen(buf);
}

/* The classes ibsim forwards to an issm client (those it does not answer itself): SMInfo
 * comes as class 0x01/0x81, SA, PerfMgt attributes it lacks, BM, DevMgt, CM, the vendor
 * classes the diagnostics use and CC. */
static const uint8_t sim_classes[] = { 0x01, 0x81, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x21, 0x32, 0x33 };

int responder_register(struct ibdiag_port *p, uint8_t mgmt_class, uint8_t class_version, uint32_t oui)
{
	int rc;
	size_t i;

	rc = ibmadrpc_port_serve(p->port, mgmt_class, class_version, 0xfffffffeu, oui);
	if (rc < 0)
		return rc;
	served.mgmt_class = mgmt_class;
	served.oui = mgmt_class >= 0x30 && mgmt_class <= 0x4f ? oui : 0;
	if (!getenv("SIM_SET_ISSM"))
		return 0;
	for (i = 0; i < sizeof(sim_classes); i++) {
		uint8_t c = sim_classes[i];

		if (c == mgmt_class)
			continue;
		/* best effort: a class that cannot be registered is simply not guarded */
		(void)ibmadrpc_port_serve(p->port, c, c == 0x03 || c == 0x07 || c == 0x21 ? 2 : 1,
					  0xfffffffeu, c >= 0x30 && c <= 0x4f ? RESPONDER_OPENIB_OUI : 0);
	}
	return 0;
}

static void filter(struct ibmadrpc_port *port, const struct ibmadrpc_request_in *in, void *user)
{
	uint32_t oui;

	(void)user;
	if (in->len < 24 || in->mad[1] != served.mgmt_class || (in->mad[3] & 0x80))
		return;
	if (served.mgmt_class >= 0x30 && served.mgmt_class <= 0x4f) {
		if (in->len < 40)
			return;
		oui = (uint32_t)in->mad[37] << 16 | (uint32_t)in->mad[38] << 8 | in->mad[39];
		if (oui != served.oui)
			return;
	}
	if (ibd.debug)
		IBWARN("request from lid %u: class 0x%x method 0x%x attr 0x%x", in->slid, in->mad[1],
		       in->mad[3], (unsigned)(in->mad[16] << 8 | in->mad[17]));
	served.fn(port, in, served.user);
}

_Noreturn void responder_loop(struct ibdiag_port *p, ibmadrpc_serve_fn fn, void *user)
{
	int rc;

	served.fn = fn;
	served.user = user;
	ibmadrpc_port_set_server(p->port, filter, NULL);
	if (ibd.debug)
		IBWARN("starting to serve...");
	for (;;) {
		rc = ibmadrpc_dispatch(p->port, 1000);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN) {
			errno = -rc;
			IBPANIC("receiving requests failed");
		}
	}
}
