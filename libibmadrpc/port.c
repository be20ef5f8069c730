// SPDX-License-Identifier: BSD-3-Clause
/*
 * Port handles: the umad file descriptor of one end port and its agents.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "ibmadrpc-private.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

IBMADRPC_EXPORT const char *ibmadrpc_version(void)
{
	return PACKAGE_VERSION;
}

static int fail(struct ibmadrpc_error **err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ibmadrpc_error **err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		*err = ibmadrpc_error_vnew(errnum, fmt, ap);
		va_end(ap);
	}
	return -errnum;
}

/* Opens the umad device of ca/portnum.  With `ep` (the same port as libibpath read it) the
 * port's addresses come from there; otherwise libibumad resolves the default CA/port. */
static int open_umad(struct ibmadrpc_port **out, const char *ca, unsigned portnum,
		     const struct ibpath_port *ep, struct ibmadrpc_error **err)
{
	struct ibmadrpc_port *p;
	umad_port_t up;
	bool have_port;
	int fd;

	if (umad_init() < 0)
		return fail(err, ENODEV, "cannot initialise libibumad");
	/* Resolve the default CA/port once (libibumad's rules), then open exactly that port:
	 * each resolution reads every port of every device from sysfs. */
	have_port = !ep && umad_get_port(ca, (int)portnum, &up) == 0;
	if (ep)
		fd = umad_open_port(ca, (int)portnum);
	else if (have_port)
		fd = umad_open_port(up.ca_name, up.portnum);
	else
		fd = umad_open_port(ca, (int)portnum);
	if (fd < 0) {
		if (have_port)
			umad_release_port(&up);
		return fail(err, -fd > 0 ? -fd : ENODEV, "cannot open the umad device of %s/%u: %s",
			    ca ? ca : "(default)", portnum, strerror(-fd > 0 ? -fd : ENODEV));
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		umad_close_port(fd);
		if (have_port)
			umad_release_port(&up);
		return fail(err, ENOMEM, "out of memory opening %s/%u", ca ? ca : "(default)", portnum);
	}
	p->fd = fd;
	if (have_port) {
		snprintf(p->ca, sizeof(p->ca), "%s", up.ca_name);
		p->portnum = (unsigned)up.portnum;
		p->lid = (uint16_t)up.base_lid;
		p->sm_lid = (uint16_t)up.sm_lid;
		p->sm_sl = (uint8_t)up.sm_sl;
		ibstruct_gid_make(&p->gid, be64toh(up.gid_prefix), be64toh(up.port_guid));
		umad_release_port(&up);
	} else if (ep) {
		snprintf(p->ca, sizeof(p->ca), "%s", ca);
		p->portnum = portnum;
		p->lid = ibpath_port_lid(ep);
		p->sm_lid = ibpath_port_sm_lid(ep);
		p->sm_sl = ibpath_port_sm_sl(ep);
		if (ibpath_port_gid(ep, 0, &p->gid) < 0)
			ibstruct_gid_make(&p->gid, ibpath_port_subnet_prefix(ep), ibpath_port_guid(ep));
	} else {
		snprintf(p->ca, sizeof(p->ca), "%s", ca ? ca : "");
		p->portnum = portnum;
	}
	snprintf(p->name, sizeof(p->name), "%s/%u", p->ca, p->portnum);
	/* a random start keeps TIDs of consecutive runs apart */
	p->next_tid = (uint32_t)time(NULL) * 2654435761u ^ (uint32_t)getpid() << 16;
	p->default_timeout_ms = 1000;
	p->default_retries = 3;
	p->max_wire = 64;
	*out = p;
	return 0;
}

IBMADRPC_EXPORT int ibmadrpc_port_open(struct ibmadrpc_port **out, const struct ibpath_port *end_port,
				       struct ibmadrpc_error **err)
{
	if (err)
		*err = NULL;
	if (!out || !end_port)
		return fail(err, EINVAL, "no end port given");
	return open_umad(out, ibpath_device_name(ibpath_port_device(end_port)), ibpath_port_num(end_port),
			 end_port, err);
}

IBMADRPC_EXPORT int ibmadrpc_port_open_name(struct ibmadrpc_port **out, const char *ca, unsigned port,
					    struct ibmadrpc_error **err)
{
	struct ibpath_devlist *list;
	const struct ibpath_port *ep;
	int rc;

	if (err)
		*err = NULL;
	if (!out)
		return fail(err, EINVAL, "no output handle");
	/* one read of sysfs: libibpath chooses the port by libibumad's rules and knows its
	 * addresses (libibumad would read everything twice: to choose, and for the addresses) */
	if (ibpath_devlist_open(&list, NULL, 0) == 0) {
		if (ibpath_devlist_select_ca_port(list, ca, port, &ep, NULL, 0) == 0) {
			rc = open_umad(out, ibpath_device_name(ibpath_port_device(ep)), ibpath_port_num(ep),
				       ep, err);
			ibpath_devlist_close(list);
			if (rc == 0)
				return 0;
			if (err) {
				ibmadrpc_error_free(*err);
				*err = NULL;
			}
		} else {
			ibpath_devlist_close(list);
		}
	}
	return open_umad(out, ca, port, NULL, err);
}

IBMADRPC_EXPORT void ibmadrpc_port_close(struct ibmadrpc_port *port)
{
	unsigned i;

	if (!port)
		return;
	/* pending calls die with the port; their callbacks are not run */
	while (port->thead) {
		struct ibmadrpc_call *c = port->thead;

		ibmadrpc_cancel(port, c);
	}
	while (port->dhead) {
		struct ibmadrpc_call *c = port->dhead;

		port->dhead = c->dnext;
		ibpath_path_unref(c->path);
		ibmadrpc_error_free(c->err);
		free(c->reply);
		rmpp_rx_free(&c->rx);
		free(c);
	}
	ibmadrpc_server_free(port);
	if (port->fd >= 0) {
		for (i = 0; i < port->nagents; i++)
			umad_unregister(port->fd, port->agents[i].id);
		umad_close_port(port->fd);
	}
	free(port->last_reply);
	free(port);
}

IBMADRPC_EXPORT int ibmadrpc_port_fd(const struct ibmadrpc_port *port)
{
	return port ? port->fd : -1;
}

IBMADRPC_EXPORT uint16_t ibmadrpc_port_lid(const struct ibmadrpc_port *port)
{
	return port ? port->lid : 0;
}

IBMADRPC_EXPORT uint16_t ibmadrpc_port_sm_lid(const struct ibmadrpc_port *port)
{
	return port ? port->sm_lid : 0;
}

IBMADRPC_EXPORT uint8_t ibmadrpc_port_sm_sl(const struct ibmadrpc_port *port)
{
	return port ? port->sm_sl : 0;
}

IBMADRPC_EXPORT void ibmadrpc_port_gid(const struct ibmadrpc_port *port, ibstruct_gid_t *gid)
{
	if (port && gid)
		*gid = port->gid;
}

IBMADRPC_EXPORT const char *ibmadrpc_port_name(const struct ibmadrpc_port *port)
{
	return port ? port->name : NULL;
}

IBMADRPC_EXPORT void ibmadrpc_port_set_default_timeout(struct ibmadrpc_port *port, unsigned timeout_ms,
						       unsigned retries)
{
	if (!port)
		return;
	port->default_timeout_ms = timeout_ms ? timeout_ms : 1000;
	port->default_retries = retries;
}

IBMADRPC_EXPORT void ibmadrpc_port_set_window(struct ibmadrpc_port *port, unsigned max)
{
	if (port)
		port->max_wire = max ? max : 1;
	if (port)
		ibmadrpc_port_kick(port);
}

IBMADRPC_EXPORT void ibmadrpc_port_stats(const struct ibmadrpc_port *port, struct ibmadrpc_stats *stats)
{
	if (port && stats)
		*stats = port->stats;
}

IBMADRPC_EXPORT void ibmadrpc_port_set_trace(struct ibmadrpc_port *port, int level, ibmadrpc_trace_fn fn,
					     void *user)
{
	if (!port)
		return;
	port->trace_level = fn ? level : 0;
	port->trace_fn = fn;
	port->trace_user = user;
}

IBMADRPC_EXPORT void ibmadrpc_port_set_server(struct ibmadrpc_port *port, ibmadrpc_serve_fn fn, void *user)
{
	if (!port)
		return;
	port->serve_fn = fn;
	port->serve_user = user;
}

/* The agent for class/version/oui, registered on first use. */
int ibmadrpc_agent(struct ibmadrpc_port *port, uint8_t mgmt_class, uint8_t version, uint32_t oui,
		   bool server, uint32_t methods)
{
	long method_mask[16 / sizeof(long)];
	int rmpp_version;
	unsigned i;
	int id;

	for (i = 0; i < port->nagents; i++)
		if (port->agents[i].mgmt_class == mgmt_class && port->agents[i].version == version &&
		    port->agents[i].oui == oui && (!server || port->agents[i].server))
			return port->agents[i].id;
	if (port->nagents == MAX_AGENTS)
		return -ENOSPC;
	if (port->send_hook) { /* test port: no device */
		port->agents[port->nagents].mgmt_class = mgmt_class;
		port->agents[port->nagents].version = version;
		port->agents[port->nagents].oui = oui;
		port->agents[port->nagents].server = server;
		port->agents[port->nagents].id = (int)port->nagents;
		return (int)port->nagents++;
	}
	memset(method_mask, 0, sizeof(method_mask));
	if (server)
		memcpy(method_mask, &methods, sizeof(methods) < sizeof(method_mask) ? sizeof(methods) : sizeof(method_mask));
	/* RMPP in user space (rmpp_version 0) unless the caller chose the kernel's for the
	 * client agents of RMPP classes; server agents always segment in user space */
	rmpp_version = port->kernel_rmpp && !server && rmpp_class_has_rmpp(mgmt_class) ? 1 : 0;
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f) {
		uint8_t o[3] = { (uint8_t)(oui >> 16), (uint8_t)(oui >> 8), (uint8_t)oui };

		id = umad_register_oui(port->fd, mgmt_class, rmpp_version, o, server ? method_mask : NULL);
	} else {
		id = umad_register(port->fd, mgmt_class, version, rmpp_version, server ? method_mask : NULL);
	}
	if (id < 0)
		return id;
	port->agents[port->nagents].mgmt_class = mgmt_class;
	port->agents[port->nagents].version = version;
	port->agents[port->nagents].oui = oui;
	port->agents[port->nagents].server = server;
	port->agents[port->nagents].id = id;
	port->nagents++;
	return id;
}

IBMADRPC_EXPORT int ibmadrpc_port_set_kernel_rmpp(struct ibmadrpc_port *port, bool on)
{
	unsigned i;

	if (!port)
		return -EINVAL;
	for (i = 0; i < port->nagents; i++)
		if (!port->agents[i].server && rmpp_class_has_rmpp(port->agents[i].mgmt_class))
			return -EBUSY; /* an agent of the other kind is already registered */
	port->kernel_rmpp = on;
	return 0;
}

IBMADRPC_EXPORT int ibmadrpc_port_serve(struct ibmadrpc_port *port, uint8_t mgmt_class,
					uint8_t class_version, uint32_t methods, uint32_t oui)
{
	int id;

	if (!port || !methods)
		return -EINVAL;
	id = ibmadrpc_agent(port, mgmt_class, class_version, oui, true, methods);
	return id < 0 ? id : 0;
}
