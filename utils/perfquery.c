/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * perfquery: read (and reset) the PerfMgt counters of a port, a drop-in replacement for
 * infiniband-diags' perfquery.
 *
 * Every run first asks the target's PerfMgt agent for its ClassPortInfo: the capability
 * mask decides whether AllPortSelect (PortSelect 255) works, which PortCountersExtended
 * fields exist and which counters a reset may clear.  Without AllPortSelect, -a is emulated
 * by reading every port and adding the counters up (saturating at each counter's width).
 *
 * The output and the error texts are infiniband-diags 44's.  With -d the reference's error
 * line names the C function that failed ("iberror: [pid N] common_func: failed: ..."), so
 * the exits below pass those names explicitly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibdiag.h"

#define ALL_PORTS    255
#define MAX_PORTS    255
#define PM_DATA_SIZE 192 /* PerfMgt attribute data: MAD bytes 64..255 */

/* ClassPortInfo.CapabilityMask bits of the PerfMgt class (IBA 16.1.2, annex A13) */
#define PM_CAP_ALL_PORT_SELECT	(1u << 8)
#define PM_CAP_EXT_WIDTH	(1u << 9)
#define PM_CAP_EXT_WIDTH_NOIETF (1u << 10)
#define PM_CAP_XMIT_WAIT	(1u << 12)
#define PM_CAP_RSFEC_COUNTERS	(1u << 14)
#define PM_CAP_QP1_DROP		(1u << 15)
/* CapabilityMask2 (the 27-bit field) */
#define PM_CAP2_ADDL_PORT_COUNTERS_EXT (1u << 1)

/* PortInfoExtended: the FEC mode is reported; its RS-FEC values */
#define PORT_EXT_CAP_FEC_MODE	(1u << 0)
#define FEC_MODE_RS		2
#define FEC_MODE_RS2		3

/* One counter attribute read by a plain Get and reset by a Set with a counter mask. */
struct pm_attr {
	const char *name; /* in the header and the error texts */
	uint16_t attr_id;
	const struct ibstruct_desc *(*desc)(void);
};

/* The attributes of the options -X, -S, -D, -E, -T, --oprcvcounters ... -c, in the
 * reference's order of precedence: when several are given, the first one here is read. */
enum pm_attr_index {
	ATTR_XMT_SL,
	ATTR_RCV_SL,
	ATTR_XMT_DISC,
	ATTR_RCV_ERR,
	ATTR_EXT_SPEEDS,
	ATTR_OP_RCV,
	ATTR_FLOW_CTL,
	ATTR_VL_OP_PACKETS,
	ATTR_VL_OP_DATA,
	ATTR_VL_FC_ERRORS,
	ATTR_VL_XMIT_WAIT,
	ATTR_SW_VL_CONG,
	ATTR_RCV_CC,
	ATTR_SL_FECN,
	ATTR_SL_BECN,
	ATTR_XMIT_CC,
	ATTR_VL_TIME_CC,
	ATTR_SAMPLES_CTL, /* not a counter attribute: no reset */
	ATTR_COUNT,
	ATTR_EXT_SPEEDS_RSFEC = ATTR_COUNT, /* -T's attribute with RS-FEC active */
};

#define PM_ATTR(text, NAME, name)                                                                  \
	{                                                                                          \
		text, IBSTRUCT_PM_##NAME##_ATTR_ID, ibstruct_pm_##name##_desc                      \
	}

static const struct pm_attr pm_attrs[] = {
    [ATTR_XMT_SL] = PM_ATTR("PortXmitDataSL", PORT_XMIT_DATA_SL, port_xmit_data_sl),
    [ATTR_RCV_SL] = PM_ATTR("PortRcvDataSL", PORT_RCV_DATA_SL, port_rcv_data_sl),
    [ATTR_XMT_DISC] =
	PM_ATTR("PortXmitDiscardDetails", PORT_XMIT_DISCARD_DETAILS, port_xmit_discard_details),
    [ATTR_RCV_ERR] = PM_ATTR("PortRcvErrorDetails", PORT_RCV_ERROR_DETAILS, port_rcv_error_details),
    [ATTR_EXT_SPEEDS] = PM_ATTR("PortExtendedSpeedsCounters", PORT_EXTENDED_SPEEDS_COUNTERS,
				port_extended_speeds_counters),
    [ATTR_OP_RCV] = PM_ATTR("PortOpRcvCounters", PORT_OP_RCV_COUNTERS, port_op_rcv_counters),
    [ATTR_FLOW_CTL] =
	PM_ATTR("PortFlowCtlCounters", PORT_FLOW_CTL_COUNTERS, port_flow_ctl_counters),
    [ATTR_VL_OP_PACKETS] = PM_ATTR("PortVLOpPackets", PORT_VL_OP_PACKETS, port_vl_op_packets),
    [ATTR_VL_OP_DATA] = PM_ATTR("PortVLOpData", PORT_VL_OP_DATA, port_vl_op_data),
    [ATTR_VL_FC_ERRORS] =
	PM_ATTR("PortVLXmitFlowCtlUpdateErrors", PORT_VL_XMIT_FLOW_CTL_UPDATE_ERRORS,
		port_vl_xmit_flow_ctl_update_errors),
    [ATTR_VL_XMIT_WAIT] =
	PM_ATTR("PortVLXmitWaitCounters", PORT_VL_XMIT_WAIT_COUNTERS, port_vl_xmit_wait_counters),
    [ATTR_SW_VL_CONG] = PM_ATTR("SwPortVLCongestion", SW_PORT_VL_CONGESTION, sw_port_vl_congestion),
    [ATTR_RCV_CC] = PM_ATTR("PortRcvConCtrl", PORT_RCV_CON_CTRL, port_rcv_con_ctrl),
    [ATTR_SL_FECN] = PM_ATTR("PortSLRcvFECN", PORT_SL_RCV_FECN, port_sl_rcv_fecn),
    [ATTR_SL_BECN] = PM_ATTR("PortSLRcvBECN", PORT_SL_RCV_BECN, port_sl_rcv_becn),
    [ATTR_XMIT_CC] = PM_ATTR("PortXmitConCtrl", PORT_XMIT_CON_CTRL, port_xmit_con_ctrl),
    [ATTR_VL_TIME_CC] =
	PM_ATTR("PortVLXmitTimeCong", PORT_VL_XMIT_TIME_CONG, port_vl_xmit_time_cong),
    [ATTR_SAMPLES_CTL] = PM_ATTR("PortSamplesControl", PORT_SAMPLES_CTL, port_samples_ctl),
    [ATTR_EXT_SPEEDS_RSFEC] = {"PortExtendedSpeedsCounters with RS-FEC Active",
			       IBSTRUCT_PM_PORT_EXTENDED_SPEEDS_COUNTERS_ATTR_ID,
			       ibstruct_pm_port_extended_speeds_counters_rsfec_desc},
};

#undef PM_ATTR

/* Long-only options: their values in the option table. */
enum {
	OPT_OPRCV = 1,
	OPT_FLOWCTL,
	OPT_VLOPPACKETS,
	OPT_VLOPDATA,
	OPT_VLXMITFLOWCTLERRORS,
	OPT_VLXMITCOUNTERS,
	OPT_SWPORTVLCONG,
	OPT_RCVCC,
	OPT_SLRCVFECN,
	OPT_SLRCVBECN,
	OPT_XMITCC,
	OPT_VLXMITTIMECC,
};

static struct {
	bool extended;
	/* the single attribute asked for (-X, -S, ... -c), ATTR_COUNT for PortCounters */
	enum pm_attr_index attr;
	int all_ports, loop_ports, reset, reset_only;
	int port;
	int ports[MAX_PORTS];
	int ports_count;
} info;

static struct ibdiag_port *srcport;
static struct ibpath_path *target;
static char target_str[256];
static uint16_t cap_mask;
static uint32_t cap_mask2;

/* ---- PerfMgt MADs ------------------------------------------------------------------- */

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

/* One PerformanceGet/Set: the request data (PortSelect etc.) in, the reply's data out. */
static int pma_rpc(uint8_t method, uint16_t attr_id, const uint8_t req[PM_DATA_SIZE],
		   uint8_t out[PM_DATA_SIZE])
{
	struct ibmadrpc_request r = {
	    .path = target,
	    .mgmt_class = IBSTRUCT_CLASS_PERF_MGT,
	    .method = method,
	    .attr_id = attr_id,
	    .data = req,
	    .data_len = PM_DATA_SIZE,
	};
	struct ibmadrpc_reply reply;

	if (ibdiag_call(srcport, &r, &reply, NULL) < 0) {
		memset(out, 0, PM_DATA_SIZE);
		return -1;
	}
	ibdiag_reply_data(&reply, out, PM_DATA_SIZE);
	return 0;
}

/* libibmad's pma_query_via(): a Get whose data carries only the PortSelect (byte 1, eight
 * bits of it: port 256 selects port 0, as the reference's field encoder does). */
static int pma_query(uint16_t attr_id, int port, uint8_t out[PM_DATA_SIZE])
{
	uint8_t req[PM_DATA_SIZE] = {0};

	req[1] = (uint8_t)port;
	return pma_rpc(IBSTRUCT_METHOD_GET, attr_id, req, out);
}

/* libibmad's performance_reset_via(): a Set with the counter mask split over CounterSelect
 * (16 bits) and CounterSelect2 (8 bits at byte 18, or 32 bits at byte 4 for
 * PortCountersExtended).  A zero mask means every counter. */
static int pma_reset(uint16_t attr_id, int port, uint32_t mask)
{
	uint8_t req[PM_DATA_SIZE] = {0}, out[PM_DATA_SIZE];

	if (!mask)
		mask = ~0u;
	req[1] = (uint8_t)port;
	put_be16(req + 2, (uint16_t)mask);
	if (attr_id == IBSTRUCT_PM_PORT_COUNTERS_EXT_ATTR_ID)
		put_be32(req + 4, mask >> 16);
	else
		req[18] = (uint8_t)(mask >> 16);
	return pma_rpc(IBSTRUCT_METHOD_SET, attr_id, req, out);
}

/* PortExtendedSpeedsCounters has a 64-bit CounterSelect at byte 8. */
static int ext_speeds_reset(int port, uint64_t mask)
{
	uint8_t req[PM_DATA_SIZE] = {0}, out[PM_DATA_SIZE];

	if (!mask)
		mask = ~0ull;
	req[1] = (uint8_t)port;
	put_be64(req + 8, mask);
	return pma_rpc(IBSTRUCT_METHOD_SET, IBSTRUCT_PM_PORT_EXTENDED_SPEEDS_COUNTERS_ATTR_ID, req,
		       out);
}

/* ---- Printing ---------------------------------------------------------------------- */

/* The "Name:....value" lines of every displayed field of an attribute. */
static void print_attr(const struct ibstruct_desc *d, const uint8_t data[PM_DATA_SIZE])
{
	void *host = calloc(1, ibstruct_desc_host_size(d));
	char buf[8192];

	if (!host)
		IBPANIC("out of memory");
	if (ibstruct_unpack(d, host, data, PM_DATA_SIZE) < 0 ||
	    ibstruct_snprint_diags(buf, sizeof(buf), d, host) < 0)
		buf[0] = '\0';
	fputs(buf, stdout);
	free(host);
}

/* Selected fields of PortCountersExtended, one line each. */
static void print_ext_fields(const struct ibstruct_pm_port_counters_ext *pc,
			     const char *const *paths)
{
	const struct ibstruct_desc *d = ibstruct_pm_port_counters_ext_desc();
	char line[256];

	for (; *paths; paths++) {
		if (ibstruct_snprint_diags_field(line, sizeof(line), d, pc, *paths, NULL) >= 0)
			printf("%s\n", line);
	}
}

static void print_counters_ext(const struct ibstruct_pm_port_counters_ext *pc, int port)
{
	static const char *const base[] = {"portSelect",  "counterSelect", "portXmitData",
					   "portRcvData", "portXmitPkts",  "portRcvPkts",
					   NULL};
	static const char *const cast[] = {"portUnicastXmitPkts", "portUnicastRcvPkts",
					   "portMulticastXmitPkts", "portMulticastRcvPkts", NULL};
	static const char *const errors[] = {"counterSelect2",
					     "symbolErrorCounter",
					     "linkErrorRecoveryCounter",
					     "linkDownedCounter",
					     "portRcvErrors",
					     "portRcvRemotePhysicalErrors",
					     "portRcvSwitchRelayErrors",
					     "portXmitDiscards",
					     "portXmitConstraintErrors",
					     "portRcvConstraintErrors",
					     "localLinkIntegrityErrors",
					     "excessiveBufferOverrunErrors",
					     "VL15Dropped",
					     "portXmitWait",
					     "QP1Dropped",
					     NULL};

	printf("# Port extended counters: %s port %d (CapMask: 0x%02X CapMask2: 0x%07X)\n",
	       target_str, port, cap_mask, cap_mask2);
	print_ext_fields(pc, base);
	if (cap_mask & PM_CAP_EXT_WIDTH)
		print_ext_fields(pc, cast);
	if (cap_mask2 & PM_CAP2_ADDL_PORT_COUNTERS_EXT)
		print_ext_fields(pc, errors);
}

static void print_counters(const struct ibstruct_pm_port_counters *pc, int port)
{
	char buf[4096];

	if (ibstruct_snprint_diags(buf, sizeof(buf), ibstruct_pm_port_counters_desc(), pc) < 0)
		buf[0] = '\0';
	printf("# Port counters: %s port %d (CapMask: 0x%02X)\n%s", target_str, port, cap_mask,
	       buf);
}

/* ---- Aggregation (AllPortSelect emulated, or -a with a port list) ------------------ */

/* Counters stick at their maximum (IBA 16.1.3.5), so sums do too. */
static void add_capped(uint64_t *sum, uint64_t val, uint64_t max)
{
	if (*sum + val < *sum || *sum + val > max)
		*sum = max;
	else
		*sum += val;
}

static struct {
	struct ibstruct_pm_port_counters last; /* the last port's reply: the fields not summed */
	uint64_t symbol, link_recovers, link_downed, rcv_errors, rcv_remote_phys, rcv_switch_relay,
	    xmit_discards, xmit_constraint, rcv_constraint, link_integrity, buffer_overrun,
	    vl15_dropped, xmit_data, rcv_data, xmit_pkts, rcv_pkts, xmit_wait;
} sum;

static struct {
	struct ibstruct_pm_port_counters_ext last;
	struct ibstruct_pm_port_counters_ext total;
} sum_ext;

static void aggregate_counters(const struct ibstruct_pm_port_counters *pc)
{
	sum.last = *pc;
	add_capped(&sum.symbol, pc->symbolErrorCounter, 0xffff);
	add_capped(&sum.link_recovers, pc->linkErrorRecoveryCounter, 0xff);
	add_capped(&sum.link_downed, pc->linkDownedCounter, 0xff);
	add_capped(&sum.rcv_errors, pc->portRcvErrors, 0xffff);
	add_capped(&sum.rcv_remote_phys, pc->portRcvRemotePhysicalErrors, 0xffff);
	add_capped(&sum.rcv_switch_relay, pc->portRcvSwitchRelayErrors, 0xffff);
	add_capped(&sum.xmit_discards, pc->portXmitDiscards, 0xffff);
	add_capped(&sum.xmit_constraint, pc->portXmitConstraintErrors, 0xff);
	add_capped(&sum.rcv_constraint, pc->portRcvConstraintErrors, 0xff);
	add_capped(&sum.link_integrity, pc->localLinkIntegrityErrors, 0xf);
	add_capped(&sum.buffer_overrun, pc->excessiveBufferOverrunErrors, 0xf);
	add_capped(&sum.vl15_dropped, pc->VL15Dropped, 0xffff);
	add_capped(&sum.xmit_data, pc->portXmitData, 0xffffffff);
	add_capped(&sum.rcv_data, pc->portRcvData, 0xffffffff);
	add_capped(&sum.xmit_pkts, pc->portXmitPkts, 0xffffffff);
	add_capped(&sum.rcv_pkts, pc->portRcvPkts, 0xffffffff);
	add_capped(&sum.xmit_wait, pc->portXmitWait, 0xffffffff);
}

static void output_aggregate_counters(void)
{
	struct ibstruct_pm_port_counters pc = sum.last;

	/* PortSelect 255 stands for "all ports"; CounterSelect(2) stay the last reply's */
	pc.portSelect = ALL_PORTS;
	pc.symbolErrorCounter = (uint16_t)sum.symbol;
	pc.linkErrorRecoveryCounter = (uint8_t)sum.link_recovers;
	pc.linkDownedCounter = (uint8_t)sum.link_downed;
	pc.portRcvErrors = (uint16_t)sum.rcv_errors;
	pc.portRcvRemotePhysicalErrors = (uint16_t)sum.rcv_remote_phys;
	pc.portRcvSwitchRelayErrors = (uint16_t)sum.rcv_switch_relay;
	pc.portXmitDiscards = (uint16_t)sum.xmit_discards;
	pc.portXmitConstraintErrors = (uint8_t)sum.xmit_constraint;
	pc.portRcvConstraintErrors = (uint8_t)sum.rcv_constraint;
	pc.localLinkIntegrityErrors = (uint8_t)sum.link_integrity;
	pc.excessiveBufferOverrunErrors = (uint8_t)sum.buffer_overrun;
	pc.VL15Dropped = (uint16_t)sum.vl15_dropped;
	pc.portXmitData = (uint32_t)sum.xmit_data;
	pc.portRcvData = (uint32_t)sum.rcv_data;
	pc.portXmitPkts = (uint32_t)sum.xmit_pkts;
	pc.portRcvPkts = (uint32_t)sum.rcv_pkts;
	pc.portXmitWait = (uint32_t)sum.xmit_wait;
	print_counters(&pc, ALL_PORTS);
}

#define ADD64(field) add_capped(&t->field, pc->field, UINT64_MAX)

static void aggregate_counters_ext(const struct ibstruct_pm_port_counters_ext *pc)
{
	struct ibstruct_pm_port_counters_ext *t = &sum_ext.total;

	sum_ext.last = *pc;
	ADD64(portXmitData);
	ADD64(portRcvData);
	ADD64(portXmitPkts);
	ADD64(portRcvPkts);
	if (cap_mask & PM_CAP_EXT_WIDTH) {
		ADD64(portUnicastXmitPkts);
		ADD64(portUnicastRcvPkts);
		ADD64(portMulticastXmitPkts);
		ADD64(portMulticastRcvPkts);
	}
	if (cap_mask2 & PM_CAP2_ADDL_PORT_COUNTERS_EXT) {
		ADD64(symbolErrorCounter);
		ADD64(linkErrorRecoveryCounter);
		ADD64(linkDownedCounter);
		ADD64(portRcvErrors);
		ADD64(portRcvRemotePhysicalErrors);
		ADD64(portRcvSwitchRelayErrors);
		ADD64(portXmitDiscards);
		ADD64(portXmitConstraintErrors);
		ADD64(portRcvConstraintErrors);
		ADD64(localLinkIntegrityErrors);
		ADD64(excessiveBufferOverrunErrors);
		ADD64(VL15Dropped);
		ADD64(portXmitWait);
		ADD64(QP1Dropped);
	}
}

#undef ADD64

static void output_aggregate_counters_ext(void)
{
	struct ibstruct_pm_port_counters_ext pc = sum_ext.last;
	const struct ibstruct_pm_port_counters_ext *t = &sum_ext.total;

	pc.portSelect = ALL_PORTS;
	pc.portXmitData = t->portXmitData;
	pc.portRcvData = t->portRcvData;
	pc.portXmitPkts = t->portXmitPkts;
	pc.portRcvPkts = t->portRcvPkts;
	if (cap_mask & PM_CAP_EXT_WIDTH) {
		pc.portUnicastXmitPkts = t->portUnicastXmitPkts;
		pc.portUnicastRcvPkts = t->portUnicastRcvPkts;
		pc.portMulticastXmitPkts = t->portMulticastXmitPkts;
		pc.portMulticastRcvPkts = t->portMulticastRcvPkts;
	}
	if (cap_mask2 & PM_CAP2_ADDL_PORT_COUNTERS_EXT) {
		pc.symbolErrorCounter = t->symbolErrorCounter;
		pc.linkErrorRecoveryCounter = t->linkErrorRecoveryCounter;
		pc.linkDownedCounter = t->linkDownedCounter;
		pc.portRcvErrors = t->portRcvErrors;
		pc.portRcvRemotePhysicalErrors = t->portRcvRemotePhysicalErrors;
		pc.portRcvSwitchRelayErrors = t->portRcvSwitchRelayErrors;
		pc.portXmitDiscards = t->portXmitDiscards;
		pc.portXmitConstraintErrors = t->portXmitConstraintErrors;
		pc.portRcvConstraintErrors = t->portRcvConstraintErrors;
		pc.localLinkIntegrityErrors = t->localLinkIntegrityErrors;
		pc.excessiveBufferOverrunErrors = t->excessiveBufferOverrunErrors;
		pc.VL15Dropped = t->VL15Dropped;
		pc.portXmitWait = t->portXmitWait;
		pc.QP1Dropped = t->QP1Dropped;
	}
	print_counters_ext(&pc, ALL_PORTS);
}

/* ---- PortCounters / PortCountersExtended --------------------------------------------- */

static void dump_perfcounters(int port, bool aggregate)
{
	uint8_t data[PM_DATA_SIZE];

	if (!info.extended) {
		struct ibstruct_pm_port_counters pc;

		if (pma_query(IBSTRUCT_PM_PORT_COUNTERS_ATTR_ID, port, data) < 0)
			ibdiag_exit("dump_perfcounters", "perfquery");
		ibstruct_pm_port_counters_unpack(&pc, data, sizeof(data));
		if (!(cap_mask & PM_CAP_XMIT_WAIT)) {
			if (ibd.verbose)
				IBWARN("PortXmitWait not indicated so ignore this counter");
			pc.portXmitWait = 0;
		}
		if (aggregate)
			aggregate_counters(&pc);
		else
			print_counters(&pc, port);
	} else {
		struct ibstruct_pm_port_counters_ext pc;

		if (!(cap_mask & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_WIDTH_NOIETF)))
			IBWARN("PerfMgt ClassPortInfo CapMask 0x%02X; No extended counter support "
			       "indicated",
			       cap_mask);
		if (pma_query(IBSTRUCT_PM_PORT_COUNTERS_EXT_ATTR_ID, port, data) < 0)
			ibdiag_exit("dump_perfcounters", "perfextquery");
		ibstruct_pm_port_counters_ext_unpack(&pc, data, sizeof(data));
		if (aggregate)
			aggregate_counters_ext(&pc);
		else
			print_counters_ext(&pc, port);
	}
}

static void reset_counters(int port, uint32_t mask)
{
	if (!info.extended) {
		if (pma_reset(IBSTRUCT_PM_PORT_COUNTERS_ATTR_ID, port, mask) < 0)
			ibdiag_exit("reset_counters", "perf reset");
	} else {
		if (pma_reset(IBSTRUCT_PM_PORT_COUNTERS_EXT_ATTR_ID, port, mask) < 0)
			ibdiag_exit("reset_counters", "perf ext reset");
	}
}

/* ---- The other attributes ------------------------------------------------------------ */

static void query_attr(const struct pm_attr *a, int port)
{
	uint8_t data[PM_DATA_SIZE];

	if (pma_query(a->attr_id, port, data) < 0)
		ibdiag_exit("common_func", "cannot query %s", a->name);
	printf("# %s counters: %s port %d\n", a->name, target_str, port);
	print_attr(a->desc(), data);
}

static void single_attr(const struct pm_attr *a, int port, uint32_t mask)
{
	if (!info.reset_only)
		query_attr(a, port);
	/* the reference resets the port given on the command line, whatever it queried */
	if ((info.reset_only || info.reset) && pma_reset(a->attr_id, info.port, mask) < 0)
		ibdiag_exit("common_func", "cannot reset %s", a->name);
}

/* With RS-FEC active, PortExtendedSpeedsCounters has another layout. */
static bool rsfec_active(int port)
{
	struct ibstruct_smp_port_info_extended pie;
	uint8_t data[64];

	if (!(cap_mask & PM_CAP_RSFEC_COUNTERS))
		return false;
	if (!ibdiag_port_info_ext_supported(srcport, target, port)) {
		IBWARN("Port Info Extended not supported");
		return false;
	}
	if (ibdiag_smp_get(srcport, target, IBSTRUCT_SMP_PORT_INFO_EXTENDED_ATTR_ID, (uint32_t)port,
			   data, NULL) < 0)
		ibdiag_exit("is_rsfec_mode_active", "smp query portinfo extended failed");
	ibstruct_smp_port_info_extended_unpack(&pie, data, sizeof(data));
	return (pie.capabilityMask & PORT_EXT_CAP_FEC_MODE) &&
	       (pie.FECModeActive == FEC_MODE_RS || pie.FECModeActive == FEC_MODE_RS2);
}

static void extended_speeds(int port, uint64_t ext_mask)
{
	if (!info.reset_only)
		query_attr(&pm_attrs[rsfec_active(port) ? ATTR_EXT_SPEEDS_RSFEC : ATTR_EXT_SPEEDS],
			   port);
	if ((info.reset_only || info.reset) && ext_speeds_reset(port, ext_mask) < 0)
		ibdiag_exit("extended_speeds_query", "cannot reset PortExtendedSpeedsCounters");
}

static void dump_portsamples_control(int port)
{
	uint8_t data[PM_DATA_SIZE];

	if (pma_query(IBSTRUCT_PM_PORT_SAMPLES_CTL_ATTR_ID, port, data) < 0)
		ibdiag_exit("dump_portsamples_control", "sampctlquery");
	printf("# PortSamplesControl: %s port %d\n", target_str, port);
	print_attr(ibstruct_pm_port_samples_ctl_desc(), data);
}

/* ---- Options and operands ------------------------------------------------------------ */

static void want_attr(enum pm_attr_index a)
{
	if (a < info.attr)
		info.attr = a;
}

static int process_opt(void *ctx, int ch, char *optarg)
{
	(void)ctx;
	(void)optarg;
	switch (ch) {
	case 'x':
		info.extended = true;
		break;
	case 'X':
		want_attr(ATTR_XMT_SL);
		break;
	case 'S':
		want_attr(ATTR_RCV_SL);
		break;
	case 'D':
		want_attr(ATTR_XMT_DISC);
		break;
	case 'E':
		want_attr(ATTR_RCV_ERR);
		break;
	case 'T':
		want_attr(ATTR_EXT_SPEEDS);
		break;
	case 'c':
		want_attr(ATTR_SAMPLES_CTL);
		break;
	case OPT_OPRCV:
		want_attr(ATTR_OP_RCV);
		break;
	case OPT_FLOWCTL:
		want_attr(ATTR_FLOW_CTL);
		break;
	case OPT_VLOPPACKETS:
		want_attr(ATTR_VL_OP_PACKETS);
		break;
	case OPT_VLOPDATA:
		want_attr(ATTR_VL_OP_DATA);
		break;
	case OPT_VLXMITFLOWCTLERRORS:
		want_attr(ATTR_VL_FC_ERRORS);
		break;
	case OPT_VLXMITCOUNTERS:
		want_attr(ATTR_VL_XMIT_WAIT);
		break;
	case OPT_SWPORTVLCONG:
		want_attr(ATTR_SW_VL_CONG);
		break;
	case OPT_RCVCC:
		want_attr(ATTR_RCV_CC);
		break;
	case OPT_SLRCVFECN:
		want_attr(ATTR_SL_FECN);
		break;
	case OPT_SLRCVBECN:
		want_attr(ATTR_SL_BECN);
		break;
	case OPT_XMITCC:
		want_attr(ATTR_XMIT_CC);
		break;
	case OPT_VLXMITTIMECC:
		want_attr(ATTR_VL_TIME_CC);
		break;
	case 'a':
		info.all_ports++;
		info.port = ALL_PORTS;
		break;
	case 'l':
		info.loop_ports++;
		break;
	case 'r':
		info.reset++;
		break;
	case 'R':
		info.reset_only++;
		break;
	default:
		return -1;
	}
	return 0;
}

static void add_port(int port)
{
	/* the reference's table holds 255 ports and overruns beyond: we stop there */
	if (info.ports_count < MAX_PORTS)
		info.ports[info.ports_count++] = port;
}

/* "N", "a,b,c" or "a-b" (strtoul base 0 each, as the reference reads them). */
static void parse_ports(char *text)
{
	char *dash, *save = NULL, *tok;

	if (strchr(text, ',')) {
		for (tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			add_port((int)strtoul(tok, NULL, 0));
		info.port = info.ports[0];
	} else if ((dash = strchr(text, '-'))) {
		int pmin, pmax;

		*dash = '\0';
		pmin = (int)strtoul(text, NULL, 0);
		pmax = (int)strtoul(dash + 1, NULL, 0);
		if (pmin >= pmax)
			ibdiag_exit("main", "max port must be greater than min port in range");
		while (pmin <= pmax && info.ports_count < MAX_PORTS)
			add_port(pmin++);
		info.port = info.ports[0];
	} else {
		info.port = (int)strtoul(text, NULL, 0);
	}
}

/* GMPs travel LID-routed: a directed route (an ibmgmt extra target form) is replaced by
 * the LID of the port it leads to. */
static struct ibpath_path *lid_of_dr_path(struct ibpath_path *dr)
{
	struct ibstruct_smp_port_info pi;
	struct ibpath_path *path;
	uint8_t data[64];

	if (ibdiag_smp_get(srcport, dr, IBSTRUCT_SMP_PORT_INFO_ATTR_ID, 0, data, NULL) < 0)
		return NULL;
	ibstruct_smp_port_info_unpack(&pi, data, sizeof(data));
	if (!pi.LID || pi.LID >= 0xc000 || ibpath_path_new(&path, IBPATH_KIND_IB) < 0)
		return NULL;
	ibpath_path_set(path, IBPATH_DLID, pi.LID);
	return path;
}

static void resolve_target(int argc, char **argv)
{
	if (argc) {
		if (ibdiag_resolve(srcport, argv[0], ibd.dest_type, &target) < 0)
			ibdiag_exit("main", "can't resolve destination port %s", argv[0]);
		if (ibpath_path_kind(target) == IBPATH_KIND_DR) {
			struct ibpath_path *lid = lid_of_dr_path(target);

			ibpath_path_unref(target);
			target = lid;
			if (!target)
				ibdiag_exit("main", "can't resolve destination port %s", argv[0]);
		}
	} else {
		/* the local port: its LID, and its port number as the port to read */
		const char *name = ibmadrpc_port_name(srcport->port);
		const char *slash = name ? strrchr(name, '/') : NULL;

		if (ibdiag_self(srcport, NULL, NULL, NULL) < 0 ||
		    ibpath_path_new(&target, IBPATH_KIND_IB) < 0)
			ibdiag_exit("main", "can't resolve self port (null)");
		ibpath_path_set(target, IBPATH_DLID, srcport->lid);
		info.port = slash ? (int)strtoul(slash + 1, NULL, 0) : 0;
	}
	ibdiag_portid_str(target, target_str, sizeof(target_str));
}

static void read_class_port_info(void)
{
	uint8_t data[PM_DATA_SIZE];

	if (pma_query(IBSTRUCT_MAD_CLASS_PORT_INFO_ATTR_ID, info.port, data) < 0)
		ibdiag_exit("main", "classportinfo query");
	cap_mask = (uint16_t)(data[2] << 8 | data[3]);
	cap_mask2 = ((uint32_t)data[4] << 24 | (uint32_t)data[5] << 16 | (uint32_t)data[6] << 8 |
		     data[7]) >>
		    5;
}

/* The node's port range for a loop over all ports: 1..NumPorts, from 0 on a switch with an
 * enhanced port 0. */
static void node_port_range(int *first, int *last)
{
	struct ibstruct_smp_node_info ni;
	struct ibstruct_smp_switch_info si;
	uint8_t data[64];

	if (ibdiag_smp_get(srcport, target, IBSTRUCT_SMP_NODE_INFO_ATTR_ID, 0, data, NULL) < 0)
		ibdiag_exit("main", "smp query nodeinfo failed");
	ibstruct_smp_node_info_unpack(&ni, data, sizeof(data));
	if (!ni.numPorts)
		ibdiag_exit("main", "smp query nodeinfo: num ports invalid");
	*first = 1;
	*last = ni.numPorts;
	if (ni.nodeType == 2) {
		/* (the reference's message for a failed SwitchInfo) */
		if (ibdiag_smp_get(srcport, target, IBSTRUCT_SMP_SWITCH_INFO_ATTR_ID, 0, data,
				   NULL) < 0)
			ibdiag_exit("main", "smp query nodeinfo failed");
		ibstruct_smp_switch_info_unpack(&si, data, sizeof(data));
		if (si.enhancedPort0)
			*first = 0;
	}
}

int main(int argc, char **argv)
{
	static const struct ibdiag_opt opts[] = {
	    {"extended", 'x', 0, NULL, "show extended port counters"},
	    {"xmtsl", 'X', 0, NULL, "show Xmt SL port counters"},
	    {"rcvsl", 'S', 0, NULL, "show Rcv SL port counters"},
	    {"xmtdisc", 'D', 0, NULL, "show Xmt Discard Details"},
	    {"rcverr", 'E', 0, NULL, "show Rcv Error Details"},
	    {"extended_speeds", 'T', 0, NULL, "show port extended speeds counters"},
	    {"oprcvcounters", OPT_OPRCV, 0, NULL, "show Rcv Counters per Op code"},
	    {"flowctlcounters", OPT_FLOWCTL, 0, NULL, "show flow control counters"},
	    {"vloppackets", OPT_VLOPPACKETS, 0, NULL, "show packets received per Op code per VL"},
	    {"vlopdata", OPT_VLOPDATA, 0, NULL, "show data received per Op code per VL"},
	    {"vlxmitflowctlerrors", OPT_VLXMITFLOWCTLERRORS, 0, NULL,
	     "show flow control update errors per VL"},
	    {"vlxmitcounters", OPT_VLXMITCOUNTERS, 0, NULL,
	     "show ticks waiting to transmit counters per VL"},
	    {"swportvlcong", OPT_SWPORTVLCONG, 0, NULL, "show sw port VL congestion"},
	    {"rcvcc", OPT_RCVCC, 0, NULL, "show Rcv congestion control counters"},
	    {"slrcvfecn", OPT_SLRCVFECN, 0, NULL, "show SL Rcv FECN counters"},
	    {"slrcvbecn", OPT_SLRCVBECN, 0, NULL, "show SL Rcv BECN counters"},
	    {"xmitcc", OPT_XMITCC, 0, NULL, "show Xmit congestion control counters"},
	    {"vlxmittimecc", OPT_VLXMITTIMECC, 0, NULL,
	     "show VL Xmit Time congestion control counters"},
	    {"smplctl", 'c', 0, NULL, "show samples control"},
	    {"all_ports", 'a', 0, NULL, "show aggregated counters"},
	    {"loop_ports", 'l', 0, NULL, "iterate through each port"},
	    {"reset_after_read", 'r', 0, NULL, "reset counters after read"},
	    {"Reset_only", 'R', 0, NULL, "only reset counters"},
	    {0},
	};
	static const char *const examples[] = {
	    "\t\t# read local port's performance counters",
	    "32 1\t\t# read performance counters from lid 32, port 1",
	    "-x 32 1\t# read extended performance counters from lid 32, port 1",
	    "-a 32\t\t# read performance counters from lid 32, all ports",
	    "-r 32 1\t# read performance counters and reset",
	    "-x -r 32 1\t# read extended performance counters and reset",
	    "-R 0x20 1\t# reset performance counters of port 1 only",
	    "-x -R 0x20 1\t# reset extended performance counters of port 1 only",
	    "-R -a 32\t# reset performance counters of all ports",
	    "-R 32 2 0x0fff\t# reset only error counters of port 2",
	    "-R 32 2 0xf000\t# reset only non-error counters of port 2",
	    "-a 32 1-10\t# read performance counters from lid 32, port 1-10, aggregate output",
	    "-l 32 1-10\t# read performance counters from lid 32, port 1-10, output each port",
	    "-a 32 1,4,8\t# read performance counters from lid 32, port 1, 4, and 8, aggregate "
	    "output",
	    "-l 32 1,4,8\t# read performance counters from lid 32, port 1, 4, and 8, output each "
	    "port",
	    NULL,
	};
	uint64_t ext_mask = ~0ull;
	uint32_t mask = 0xffff;
	bool all_ports_loop = false, loop, aggregate;
	int first_port = 1, last_port = 0;
	int i;

	info.attr = ATTR_COUNT;
	i = ibdiag_process_opts(argc, argv, NULL, "DK", opts, process_opt,
				" [<lid|guid> [[port(s)] [reset_mask]]]", examples);
	argc -= i;
	argv += i;

	if (argc > 1)
		parse_ports(argv[1]);
	if (argc > 2) {
		ext_mask = strtoull(argv[2], NULL, 0);
		mask = (uint32_t)ext_mask;
	}

	srcport = ibdiag_open_port();
	resolve_target(argc, argv);

	/* ClassPortInfo is mandatory: its capability mask steers everything below */
	read_class_port_info();
	if (!(cap_mask & PM_CAP_ALL_PORT_SELECT)) {
		if (!info.all_ports && info.port == ALL_PORTS)
			ibdiag_exit("main", "AllPortSelect not supported");
		if (info.all_ports && info.port == ALL_PORTS)
			all_ports_loop = true;
	}

	switch (info.attr) {
	case ATTR_COUNT:
		break;
	case ATTR_EXT_SPEEDS:
		extended_speeds(info.port, ext_mask);
		goto done;
	case ATTR_SAMPLES_CTL:
		dump_portsamples_control(info.port);
		goto done;
	default:
		single_attr(&pm_attrs[info.attr], info.port, mask);
		goto done;
	}

	loop = all_ports_loop || (info.loop_ports && (info.all_ports || info.port == ALL_PORTS));
	if (loop) {
		node_port_range(&first_port, &last_port);
		if (all_ports_loop && !info.loop_ports)
			IBWARN("Emulating AllPortSelect by iterating through all ports");
	}

	if (!info.reset_only) {
		if (loop) {
			aggregate = all_ports_loop && !info.loop_ports;
			for (i = first_port; i <= last_port; i++)
				dump_perfcounters(i, aggregate);
		} else if (info.ports_count > 1) {
			aggregate = info.all_ports && !info.loop_ports;
			for (i = 0; i < info.ports_count; i++)
				dump_perfcounters(info.ports[i], aggregate);
		} else {
			aggregate = false;
			dump_perfcounters(info.port, false);
		}
		if (aggregate) {
			if (!info.extended)
				output_aggregate_counters();
			else
				output_aggregate_counters_ext();
		}
		if (!info.reset)
			goto done;
	}

	/* Without an explicit mask, also clear the counters the agent says it has beyond
	 * CounterSelect's 16 (CounterSelect2 bits). */
	if (argc <= 2 && !info.extended) {
		if (cap_mask & PM_CAP_XMIT_WAIT)
			mask |= 1u << 16;
		if (cap_mask & PM_CAP_QP1_DROP)
			mask |= 1u << 17;
	}
	if (info.extended) {
		mask |= 0xfff0000;
		if (cap_mask & PM_CAP_XMIT_WAIT)
			mask |= 1u << 28;
		if (cap_mask & PM_CAP_QP1_DROP)
			mask |= 1u << 29;
	}
	if (loop) {
		for (i = first_port; i <= last_port; i++)
			reset_counters(i, mask);
	} else if (info.ports_count > 1) {
		for (i = 0; i < info.ports_count; i++)
			reset_counters(info.ports[i], mask);
	} else {
		reset_counters(info.port, mask);
	}

done:
	ibpath_path_unref(target);
	ibdiag_close_port(srcport);
	return 0;
}
