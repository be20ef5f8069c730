# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
#
# Simulated-fabric test fixture: ibsim + OpenSM under umad2sim, one private
# fabric per calling shell.  Source this file from a POSIX sh test script:
#
#	. "$top_srcdir/tests/fabric/fabric.sh"
#	fabric_require                      # SKIP (exit 77) if the packages are missing
#	fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 1
#	fabric_run hca-a1 "$FABRIC_REF/sminfo"
#	fabric_console 'Unlink "sw-a"[7]'
#	fabric_stop                         # also runs from the EXIT/INT/TERM/HUP trap
#
# See tests/fabric/README.md for the whole interface.  Every name this file
# defines starts with fabric_ / _fabric_ (functions) or FABRIC_ (variables).
#
# Design notes (facts measured on Debian 12: ibsim 0.10, OpenSM 3.3.23):
#  - ibsim's sockets are abstract unix sockets named after $IBSIM_SOCKNAME, so
#    every fabric gets its own name (ibmgmt-<pid>-<mktemp suffix>) and every
#    process we start gets it explicitly; nothing uses fixed ports or files
#    outside the private work directory.
#  - ibsim reads console commands from stdin: a FIFO held open by a small
#    watchdog process (the "holder").  The holder also cleans up if the test
#    shell disappears without running its traps (SIGKILL).
#  - ibsim prints its console prompt before it binds its sockets; readiness is
#    the "@<name>:ctl" entry in /proc/net/unix.
#  - OpenSM buffers its log unless told to flush; it only prints "SUBNET UP" to
#    stdout on some sweeps.  We run it with force_log_flush and wait for
#    "SUBNET UP" in its log, then confirm with the reference sminfo.
#  - OpenSM runs without periodic sweeps (sweep_interval 0): it sweeps at start
#    and when ibsim sends it a trap (Unlink/ReLink/Link).  A periodic sweep (by
#    default every 10 s) that falls while a test drops MADs with `Error` loses
#    some of its own SMPs (ibsim fails a dropped MAD at once; umad2sim has no
#    retries), and OpenSM then removes the ports it could not reach and
#    reprograms the switches without them: LID routes break ("routing failed:
#    no route to dest lid N" in ibsim.err) until a later sweep repairs them.
#  - ibsim exits (ibpanic) when a client dies in its start-up handshake, between
#    asking for a slot and ibsim connecting back to it: kill a client only once
#    ibsim lists it (fabric_wait_attached).
#  - Every process we start carries IBMGMT_FABRIC_ID=<socket name>:<role> in its
#    environment; we only ever signal a PID whose /proc/PID/environ has it.

# ---------------------------------------------------------------------------
# Configuration (environment, all optional)
#   IBMGMT_REQUIRE_FABRIC=1   missing packages are an error (exit 1), not a SKIP
#   IBMGMT_FABRIC_TIMEOUT     seconds fabric_start waits for the SM (default 30)
#   IBMGMT_FABRIC_TMPDIR      parent of the work dirs (default /dev/shm)
#   IBMGMT_FABRIC_KEEP=1      keep the work dir after fabric_stop (debugging)
#   IBMGMT_FABRIC_VERBOSE=1   progress messages on stderr
#   IBMGMT_FABRIC_SWEEP_INTERVAL  OpenSM's periodic sweep in seconds (default 0: none)
#   IBMGMT_FABRIC_OPENSM_OPTIONS  extra opensm.conf lines (e.g. "ignore_other_sm TRUE")
#   IBMGMT_FABRIC_CONSOLE_TIMEOUT seconds fabric_console waits for ibsim (default 30)
#   IBMGMT_REF_BINDIR         reference infiniband-diags tools (default /usr/sbin)
#   IBMGMT_IBSIM, IBMGMT_OPENSM, IBMGMT_UMAD2SIM   override the binaries/library
# ---------------------------------------------------------------------------

: "${FABRIC_DIR:=}"
FABRIC_REF=${IBMGMT_REF_BINDIR:-/usr/sbin}

# Messages name the function they come from ("fabric_start: ...").
_fabric_say() {
	printf '%s\n' "$*" >&2
}

_fabric_verbose() {
	if [ "${IBMGMT_FABRIC_VERBOSE:-0}" = 1 ]; then
		printf '%s\n' "fabric_start: $*" >&2
	fi
	return 0
}

# Short poll interval (GNU/busybox sleep take fractions; plain POSIX does not).
_fabric_nap() {
	sleep "${1:-0.05}" 2>/dev/null || sleep 1
}

# _fabric_which NAME: print the path of NAME (PATH, then the sbin dirs).
_fabric_which() {
	_fw_p=$(command -v "$1" 2>/dev/null) && [ -n "$_fw_p" ] && { printf '%s\n' "$_fw_p"; return 0; }
	for _fw_d in /usr/sbin /sbin /usr/local/sbin /usr/local/bin /usr/bin; do
		if [ -x "$_fw_d/$1" ]; then
			printf '%s\n' "$_fw_d/$1"
			return 0
		fi
	done
	return 1
}

_fabric_find_umad2sim() {
	if [ -n "${IBMGMT_UMAD2SIM:-}" ]; then
		[ -r "$IBMGMT_UMAD2SIM" ] && printf '%s\n' "$IBMGMT_UMAD2SIM"
		return
	fi
	for _fu in /usr/lib/*/umad2sim/libumad2sim.so \
		/usr/lib64/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so \
		/usr/local/lib/umad2sim/libumad2sim.so; do
		if [ -r "$_fu" ]; then
			printf '%s\n' "$_fu"
			return 0
		fi
	done
	return 1
}

# _fabric_alive PID: the process exists and is not a zombie.
_fabric_alive() {
	[ -n "${1:-}" ] && [ -r "/proc/$1/stat" ] || return 1
	_fa_stat=
	{ read -r _fa_stat < "/proc/$1/stat"; } 2>/dev/null || return 1
	_fa_stat=${_fa_stat##*) }
	case $_fa_stat in
	Z* | X* | x*) return 1 ;;
	esac
	return 0
}

# _fabric_ppid PID: its parent's PID (empty if PID is gone).
_fabric_ppid() {
	sed -n 's/^PPid:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null
}

# _fabric_ours PID ROLE: PID is alive and is the process we started as ROLE.
_fabric_ours() {
	_fabric_alive "$1" || return 1
	tr '\0' '\n' 2>/dev/null < "/proc/$1/environ" |
		grep -qxF "IBMGMT_FABRIC_ID=$FABRIC_SOCK:$2"
}

# _fabric_gone PID ROLE NAPS: waits until our ROLE process PID is gone, at most NAPS
# times 0.05 s; 1 if it is still there.
_fabric_gone() {
	_fg_n=$3
	while [ "$_fg_n" -gt 0 ] && _fabric_ours "$1" "$2"; do
		_fabric_nap 0.05
		_fg_n=$((_fg_n - 1))
	done
	! _fabric_ours "$1" "$2"
}

# _fabric_kill PID ROLE SECONDS: SIGTERM, then SIGKILL after SECONDS.
_fabric_kill() {
	[ -n "${1:-}" ] || return 0
	if _fabric_ours "$1" "$2"; then
		kill -TERM "$1" 2>/dev/null || :
		if ! _fabric_gone "$1" "$2" $(($3 * 20)); then
			_fabric_say "fabric_stop: $2 (pid $1) ignored SIGTERM for $3 s, sending SIGKILL"
			kill -KILL "$1" 2>/dev/null || :
			_fabric_gone "$1" "$2" 40 || :
		fi
	fi
	# Reap it if it is our child (no-op otherwise).
	wait "$1" 2>/dev/null || :
	return 0
}

# _fabric_node_counts NETFILE: "nodes switches ports lids" as ibsim counts them.
_fabric_node_counts() {
	awk '
	function nports(   i) {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^[0-9]+$/)
				return $i + 0
		return 0
	}
	/^Switch/ { p = nports(); nodes++; sw++; ports += p + 1; lids++; next }
	/^(Hca|Ca|Rt)/ { p = nports(); nodes++; ports += p; lids += p; next }
	END { printf "%d %d %d %d\n", nodes, sw, ports, lids }' "$1"
}

# _fabric_first_node NETFILE: the id of the first node (ibsim's default port).
_fabric_first_node() {
	awk '/^(Switch|Hca|Ca|Rt)/ {
		if (match($0, /"[^"]*"/)) { print substr($0, RSTART + 1, RLENGTH - 2); exit }
	}' "$1"
}

# fabric_count_nodes NETFILE: number of nodes (Switch/Hca/Ca/Rt records).
fabric_count_nodes() {
	# shellcheck disable=SC2046
	set -- $(_fabric_node_counts "$1")
	printf '%s\n' "$1"
}

_fabric_need() {
	if [ -z "${FABRIC_DIR:-}" ] || [ ! -d "$FABRIC_DIR" ]; then
		_fabric_say "$1: no fabric is running (call fabric_start first)"
		return 1
	fi
	return 0
}

# ---------------------------------------------------------------------------
# fabric_require [REFERENCE_TOOL...]
# Checks ibsim, opensm, libumad2sim.so and the reference tools (sminfo,
# smpquery, ibnetdiscover and any named).  Missing: "SKIP: <reason>", exit 77;
# with IBMGMT_REQUIRE_FABRIC=1: "ERROR: <reason>", exit 1.
# ---------------------------------------------------------------------------
# shellcheck disable=SC2120
fabric_require() {
	_fr_why=
	FABRIC_IBSIM=${IBMGMT_IBSIM:-$(_fabric_which ibsim)} || FABRIC_IBSIM=
	[ -n "$FABRIC_IBSIM" ] && [ -x "$FABRIC_IBSIM" ] ||
		_fr_why="$_fr_why${_fr_why:+; }ibsim not found (package ibsim-utils)"
	FABRIC_OPENSM=${IBMGMT_OPENSM:-$(_fabric_which opensm)} || FABRIC_OPENSM=
	[ -n "$FABRIC_OPENSM" ] && [ -x "$FABRIC_OPENSM" ] ||
		_fr_why="$_fr_why${_fr_why:+; }opensm not found (package opensm)"
	FABRIC_UMAD2SIM=$(_fabric_find_umad2sim) ||
		_fr_why="$_fr_why${_fr_why:+; }libumad2sim.so not found (package libumad2sim0)"
	_fr_missing=
	for _fr_t in sminfo smpquery ibnetdiscover "$@"; do
		[ -x "$FABRIC_REF/$_fr_t" ] || _fr_missing="$_fr_missing $_fr_t"
	done
	[ -z "$_fr_missing" ] ||
		_fr_why="$_fr_why${_fr_why:+; }reference tools missing in $FABRIC_REF:$_fr_missing (package infiniband-diags)"
	for _fr_t in awk mkfifo mktemp tr grep timeout; do
		command -v "$_fr_t" >/dev/null 2>&1 ||
			_fr_why="$_fr_why${_fr_why:+; }$_fr_t not found"
	done
	[ -r /proc/net/unix ] ||
		_fr_why="$_fr_why${_fr_why:+; }/proc/net/unix not readable"
	[ -z "$_fr_why" ] && return 0
	if [ "${IBMGMT_REQUIRE_FABRIC:-0}" = 1 ]; then
		printf '%s\n' "ERROR: simulated fabric unavailable: $_fr_why (IBMGMT_REQUIRE_FABRIC=1)"
		exit 1
	fi
	printf '%s\n' "SKIP: simulated fabric unavailable: $_fr_why"
	exit 77
}

# ---------------------------------------------------------------------------
# fabric_start NETFILE [SM_NODE]
# SM_NODE: node (id or description) OpenSM attaches to; default the first node
# of NETFILE; "-" starts no SM (ports stay Initialize, LIDs 0: DR only).
# Returns 0 with the subnet up, or 1 after printing why and cleaning up.
# ---------------------------------------------------------------------------
fabric_start() {
	# shellcheck disable=SC2119
	fabric_require
	if [ $# -lt 1 ] || [ $# -gt 2 ]; then
		_fabric_say "usage: fabric_start NETFILE [SM_NODE|-]"
		return 1
	fi
	if [ -n "${_fabric_owner:-}" ]; then
		_fabric_say "fabric_start: a fabric is already running in this shell ($FABRIC_DIR); fabric_stop it first"
		return 1
	fi
	_fs_net=$1
	case $_fs_net in
	/*) ;;
	*) _fs_net=$(pwd)/$_fs_net ;;
	esac
	if [ ! -r "$_fs_net" ]; then
		_fabric_say "fabric_start: cannot read net file $_fs_net"
		return 1
	fi
	_fs_sm=${2:-$(_fabric_first_node "$_fs_net")}
	if [ -z "$_fs_sm" ]; then
		_fabric_say "fabric_start: no node found in $_fs_net"
		return 1
	fi
	_fs_t0=$(date +%s)

	_fs_base=${IBMGMT_FABRIC_TMPDIR:-/dev/shm}
	if [ ! -d "$_fs_base" ] || [ ! -w "$_fs_base" ]; then
		_fs_base=${TMPDIR:-/tmp}
	fi
	FABRIC_DIR=$(mktemp -d "$_fs_base/ibmgmt-fabric.XXXXXX") || {
		FABRIC_DIR=
		_fabric_say "fabric_start: cannot create a work dir in $_fs_base"
		return 1
	}
	_fabric_owner=$$
	# umad2sim 0.10 reads a few bytes past one of its own buffers: in sanitizer builds of
	# our clients ASan would abort them inside umad2sim (not our code), so suppress it there
	printf 'interceptor_via_lib:libumad2sim.so\n' > "$FABRIC_DIR/asan.supp"
	FABRIC_SOCK=ibmgmt-$$-${FABRIC_DIR##*.}
	FABRIC_NET=$_fs_net
	FABRIC_SM_NODE=$_fs_sm
	FABRIC_SM_LOG=$FABRIC_DIR/opensm.log
	FABRIC_SIM_OUT=$FABRIC_DIR/ibsim.out
	FABRIC_SIM_PID='' FABRIC_SM_PID='' FABRIC_HOLD_PID='' FABRIC_SEQ=0
	export FABRIC_DIR FABRIC_SOCK FABRIC_NET FABRIC_SM_NODE FABRIC_REF FABRIC_SM_LOG \
		FABRIC_SIM_OUT FABRIC_UMAD2SIM
	trap '_fabric_on_exit' EXIT
	trap '_fabric_on_signal INT 130' INT
	trap '_fabric_on_signal TERM 143' TERM
	trap '_fabric_on_signal HUP 129' HUP
	_fabric_verbose "work dir $FABRIC_DIR, IBSIM_SOCKNAME=$FABRIC_SOCK"

	if ! mkfifo "$FABRIC_DIR/console.in"; then
		_fabric_start_failed "cannot create the console FIFO"
		return 1
	fi

	# The holder keeps a writer on the console FIFO (ibsim busy-loops on EOF)
	# and, if this shell dies without cleaning up, stops OpenSM and ibsim.
	# It opens the FIFO read-write, which never blocks.
	(
		cd "$FABRIC_DIR" || exit 1
		IBMGMT_FABRIC_ID=$FABRIC_SOCK:hold
		export IBMGMT_FABRIC_ID
		exec sh -c "$_fabric_holder_script" fabric-holder "$$" "$FABRIC_DIR" "$FABRIC_SOCK" \
			3<>console.in </dev/null >/dev/null 2>&1
	) &
	FABRIC_HOLD_PID=$!

	# ibsim, with larger tables if the topology needs them.
	# shellcheck disable=SC2046
	set -- $(_fabric_node_counts "$FABRIC_NET")
	_fs_flags=
	[ "$1" -le 2048 ] || _fs_flags="$_fs_flags -N $(($1 + 16))"
	[ "$2" -le 256 ] || _fs_flags="$_fs_flags -S $(($2 + 16))"
	[ "$3" -le 13312 ] || _fs_flags="$_fs_flags -P $(($3 + 64))"
	[ "$4" -lt 30720 ] || _fs_flags="$_fs_flags -L $((($4 / 64 + 2) * 64))"
	FABRIC_NODES=$1
	export FABRIC_NODES
	_fabric_verbose "$1 nodes, $2 switches, $3 ports; ibsim -s$_fs_flags"
	(
		cd "$FABRIC_DIR" || exit 1
		IBMGMT_FABRIC_ID=$FABRIC_SOCK:sim IBSIM_SOCKNAME=$FABRIC_SOCK
		export IBMGMT_FABRIC_ID IBSIM_SOCKNAME
		# shellcheck disable=SC2086
		exec "$FABRIC_IBSIM" -s $_fs_flags "$FABRIC_NET" <console.in >ibsim.out 2>ibsim.err
	) &
	FABRIC_SIM_PID=$!
	echo "$FABRIC_SIM_PID" > "$FABRIC_DIR/sim.pid"

	_fs_deadline=$((_fs_t0 + ${IBMGMT_FABRIC_TIMEOUT:-30}))
	until grep -qF "@$FABRIC_SOCK:ctl" /proc/net/unix 2>/dev/null; do
		if ! _fabric_alive "$FABRIC_SIM_PID"; then
			_fabric_start_failed "ibsim exited while reading $FABRIC_NET"
			return 1
		fi
		if [ "$(date +%s)" -ge "$_fs_deadline" ]; then
			_fabric_start_failed "ibsim did not open its sockets within ${IBMGMT_FABRIC_TIMEOUT:-30} s"
			return 1
		fi
		_fabric_nap 0.02
	done
	_fabric_verbose "ibsim up (pid $FABRIC_SIM_PID)"

	if [ "$FABRIC_SM_NODE" = - ]; then
		_fabric_write_pids
		_fabric_verbose "fabric up without SM in $(($(date +%s) - _fs_t0)) s"
		return 0
	fi

	_fabric_write_osm_conf
	_fabric_sm_launch
	if ! _fabric_sm_wait "$_fs_deadline"; then
		_fabric_start_failed "$_fsw_why"
		return 1
	fi
	_fabric_write_pids
	_fabric_verbose "subnet up in $(($(date +%s) - _fs_t0)) s: $_fsw_last"
	return 0
}

# Starts OpenSM on $FABRIC_SM_NODE in the background (FABRIC_SM_PID, sm.pid).
_fabric_sm_launch() {
	(
		cd "$FABRIC_DIR" || exit 1
		IBMGMT_FABRIC_ID=$FABRIC_SOCK:sm IBSIM_SOCKNAME=$FABRIC_SOCK SIM_HOST=$FABRIC_SM_NODE
		OSM_TMP_DIR=$FABRIC_DIR OSM_CACHE_DIR=$FABRIC_DIR LD_PRELOAD=$FABRIC_UMAD2SIM
		export IBMGMT_FABRIC_ID IBSIM_SOCKNAME SIM_HOST OSM_TMP_DIR OSM_CACHE_DIR LD_PRELOAD
		exec "$FABRIC_OPENSM" -F "$FABRIC_DIR/opensm.conf" -f "$FABRIC_SM_LOG" \
			</dev/null >>opensm.out 2>&1
	) &
	FABRIC_SM_PID=$!
	echo "$FABRIC_SM_PID" > "$FABRIC_DIR/sm.pid"
}

# _fabric_sm_wait DEADLINE: wait (until the date +%s DEADLINE) until OpenSM has
# logged "SUBNET UP" and the reference sminfo, run on the SM's node, reports it
# MASTER (state 3).  On failure returns 1 with the reason in $_fsw_why; the
# last sminfo output is in $_fsw_last.
_fabric_sm_wait() {
	_fsw_last= _fsw_why=
	while :; do
		if ! _fabric_alive "$FABRIC_SIM_PID"; then
			_fsw_why="ibsim exited while OpenSM was starting"
			return 1
		fi
		if ! _fabric_alive "$FABRIC_SM_PID"; then
			_fsw_why="OpenSM exited (SIM_HOST=$FABRIC_SM_NODE)"
			return 1
		fi
		if grep -q 'SUBNET UP' "$FABRIC_SM_LOG" 2>/dev/null; then
			_fsw_last=$(fabric_run "$FABRIC_SM_NODE" timeout 10 "$FABRIC_REF/sminfo" 2>&1) || :
			case $_fsw_last in
			*"state 3 SMINFO_MASTER"*) return 0 ;;
			esac
		fi
		if [ "$(date +%s)" -ge "$1" ]; then
			_fsw_why="OpenSM did not bring the subnet up within ${IBMGMT_FABRIC_TIMEOUT:-30} s (want \"SUBNET UP\" in the log and sminfo state 3; last sminfo: ${_fsw_last:-not run})"
			return 1
		fi
		_fabric_nap 0.05
	done
}

# ---------------------------------------------------------------------------
# fabric_sm_stop [SIGNAL]: the subnet manager goes away: OpenSM gets SIGNAL
# (default KILL, as if it crashed; TERM lets it exit cleanly), and its ibsim
# client slot is freed (fabric_reap), so requests to the SA (and SMInfo to its
# port) find no one to answer them.  The switches keep their tables and the
# ports their LIDs.  Returns 1 with a message if OpenSM was not running or
# does not go away within 10 s, or if its slot cannot be freed.
# fabric_sm_start: starts OpenSM again on the same node with the same
# configuration and waits as fabric_start does (IBMGMT_FABRIC_TIMEOUT) for the
# subnet to be up again; returns 1 with a message otherwise (the fabric is left
# running: the caller decides).
# ---------------------------------------------------------------------------
fabric_sm_stop() {
	_fabric_need fabric_sm_stop || return 1
	_fss_sig=${1:-KILL}
	if [ -z "${FABRIC_SM_PID:-}" ] || ! _fabric_ours "$FABRIC_SM_PID" sm; then
		_fabric_say "fabric_sm_stop: OpenSM is not running"
		return 1
	fi
	if ! kill -"$_fss_sig" "$FABRIC_SM_PID" 2>/dev/null; then
		_fabric_say "fabric_sm_stop: cannot send SIG$_fss_sig to OpenSM (pid $FABRIC_SM_PID)"
		return 1
	fi
	if ! _fabric_gone "$FABRIC_SM_PID" sm 200; then
		_fabric_say "fabric_sm_stop: OpenSM (pid $FABRIC_SM_PID) still runs 10 s after SIG$_fss_sig"
		return 1
	fi
	wait "$FABRIC_SM_PID" 2>/dev/null || :
	FABRIC_SM_PID=
	rm -f "$FABRIC_DIR/sm.pid"
	_fabric_write_pids
	if ! fabric_reap >/dev/null; then
		_fabric_say "fabric_sm_stop: cannot free OpenSM's client slot"
		return 1
	fi
	return 0
}

fabric_sm_start() {
	_fabric_need fabric_sm_start || return 1
	if [ -n "${FABRIC_SM_PID:-}" ] && _fabric_ours "$FABRIC_SM_PID" sm; then
		_fabric_say "fabric_sm_start: OpenSM is already running (pid $FABRIC_SM_PID)"
		return 1
	fi
	if [ "${FABRIC_SM_NODE:-}" = - ]; then
		_fabric_say "fabric_sm_start: this fabric was started without an SM"
		return 1
	fi
	# a fresh log, so that "SUBNET UP" means this run's (the old one is kept beside it)
	[ ! -f "$FABRIC_SM_LOG" ] || mv -f "$FABRIC_SM_LOG" "$FABRIC_SM_LOG.old"
	_fabric_sm_launch
	if ! _fabric_sm_wait $(($(date +%s) + ${IBMGMT_FABRIC_TIMEOUT:-30})); then
		_fabric_say "fabric_sm_start: $_fsw_why"
		return 1
	fi
	_fabric_write_pids
	return 0
}

_fabric_write_pids() {
	{
		echo "hold $FABRIC_HOLD_PID"
		echo "sim $FABRIC_SIM_PID"
		[ -z "$FABRIC_SM_PID" ] || echo "sm $FABRIC_SM_PID"
	} > "$FABRIC_DIR/pids"
	export FABRIC_SIM_PID FABRIC_SM_PID FABRIC_HOLD_PID
}

# OpenSM reads /etc/opensm/* by default: point every such file into the work
# dir so the host's configuration cannot leak in, and flush the log per line.
# No periodic sweeps unless asked for (see the design notes at the top).
_fabric_write_osm_conf() {
	cat > "$FABRIC_DIR/opensm.conf" <<EOF
# Written by tests/fabric/fabric.sh for one simulated fabric.
log_file $FABRIC_SM_LOG
force_log_flush TRUE
accum_log_file FALSE
dump_files_dir $FABRIC_DIR
partition_config_file $FABRIC_DIR/partitions.conf
per_module_logging_file $FABRIC_DIR/per-module-logging.conf
qos_policy_file $FABRIC_DIR/qos-policy.conf
prefix_routes_file $FABRIC_DIR/prefix-routes.conf
torus_config $FABRIC_DIR/torus-2QoS.conf
console off
daemon FALSE
sweep_interval ${IBMGMT_FABRIC_SWEEP_INTERVAL:-0}
EOF
	if [ -n "${IBMGMT_FABRIC_OPENSM_OPTIONS:-}" ]; then
		printf '%s\n' "$IBMGMT_FABRIC_OPENSM_OPTIONS" >> "$FABRIC_DIR/opensm.conf"
	fi
	cat > "$FABRIC_DIR/partitions.conf" <<'EOF'
Default=0x7fff, ipoib : ALL=full, ALL_SWITCHES=full, SELF=full ;
EOF
}

_fabric_start_failed() {
	_fabric_say "fabric_start: $1"
	for _fsf in ibsim.err ibsim.out opensm.out opensm.log; do
		if [ -s "$FABRIC_DIR/$_fsf" ]; then
			_fabric_say "fabric_start: --- last lines of $_fsf:"
			grep -v 'cannot parse remote lid and connection type' "$FABRIC_DIR/$_fsf" |
				tail -n 8 | awk '{ print "    " $0 }' >&2
		fi
	done
	fabric_stop
}

# ---------------------------------------------------------------------------
# fabric_sim_kill: the simulator dies under its clients (SIGKILL to ibsim).
# Returns once it is gone, or 1 with a message if it was not running or is
# still there after 2 s.  The fabric is then dead: fabric_stop, and
# fabric_start again for a new one.
# ---------------------------------------------------------------------------
fabric_sim_kill() {
	_fabric_need fabric_sim_kill || return 1
	if [ -z "${FABRIC_SIM_PID:-}" ] || ! _fabric_ours "$FABRIC_SIM_PID" sim; then
		_fabric_say "fabric_sim_kill: ibsim is not running"
		return 1
	fi
	kill -KILL "$FABRIC_SIM_PID" 2>/dev/null || :
	if ! _fabric_gone "$FABRIC_SIM_PID" sim 40; then
		_fabric_say "fabric_sim_kill: ibsim (pid $FABRIC_SIM_PID) survived SIGKILL for 2 s"
		return 1
	fi
	wait "$FABRIC_SIM_PID" 2>/dev/null || :
	return 0
}

# ---------------------------------------------------------------------------
# fabric_run SIM_HOST CMD [ARG...]
# Runs CMD attached to node SIM_HOST (id or description), from the work dir
# (umad2sim writes sys-<pid>/ into its CWD).  A relative CMD path containing a
# "/" is made absolute first; other relative paths in ARGs are NOT: they would
# be taken relative to $FABRIC_DIR.  Exit status, stdout and stderr are CMD's.
# fabric_run_bg SIM_HOST CMD [ARG...]: the same in the background; the
# client's own PID is in $FABRIC_BG_PID (and $!).  It gets SIGINT and SIGQUIT
# as a program started from a terminal does: a shell without job control (dash
# running a script) starts its background commands with them ignored, so
# `env --default-signal` (coreutils 8.31) puts them back, where it can.
# ---------------------------------------------------------------------------
fabric_run() {
	_fabric_need fabric_run || return 125
	if [ $# -lt 2 ]; then
		_fabric_say "usage: fabric_run SIM_HOST CMD [ARG...]"
		return 125
	fi
	_fr_host=$1
	_fr_cmd=$2
	shift 2
	case $_fr_cmd in
	/*) ;;
	*/*) _fr_cmd=$(pwd)/$_fr_cmd ;;
	esac
	(_fabric_client_exec "$@")
}

fabric_run_bg() {
	_fabric_need fabric_run_bg || return 125
	if [ $# -lt 2 ]; then
		_fabric_say "usage: fabric_run_bg SIM_HOST CMD [ARG...]"
		return 125
	fi
	_fr_host=$1
	_fr_cmd=$2
	shift 2
	case $_fr_cmd in
	/*) ;;
	*/*) _fr_cmd=$(pwd)/$_fr_cmd ;;
	esac
	(_fr_bg=1 _fabric_client_exec "$@") &
	FABRIC_BG_PID=$!
	export FABRIC_BG_PID
	# Until its subshell has exec'd, /proc/PID/environ is still this shell's, without
	# the client's IBMGMT_FABRIC_ID: fabric_stop finds such a client by its PID.
	_fabric_bg_pids="${_fabric_bg_pids:-} $FABRIC_BG_PID"
}

# Runs in a subshell: environment of a client, then exec $_fr_cmd "$@".
# IBMGMT_FABRIC_ID marks it so fabric_stop can find clients still running.
_fabric_client_exec() {
	cd "$FABRIC_DIR" || exit 125
	IBSIM_SOCKNAME=$FABRIC_SOCK SIM_HOST=$_fr_host IBMGMT_FABRIC_ID=$FABRIC_SOCK:client
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:suppressions=$FABRIC_DIR/asan.supp
	export IBSIM_SOCKNAME SIM_HOST IBMGMT_FABRIC_ID ASAN_OPTIONS
	_fce_preload=${LD_PRELOAD:+$LD_PRELOAD }$FABRIC_UMAD2SIM
	# in the background, env resets the signals (see fabric_run_bg); it runs without
	# umad2sim (whose start-up would take an ibsim slot), and passes it to CMD
	if [ -n "${_fr_bg:-}" ] && env --default-signal=INT true 2>/dev/null; then
		exec env --default-signal=INT,QUIT LD_PRELOAD="$_fce_preload" "$_fr_cmd" "$@"
	fi
	LD_PRELOAD=$_fce_preload
	export LD_PRELOAD
	exec "$_fr_cmd" "$@"
}

# fabric_env [SIM_HOST]: print sh code (for eval) that exports what fabric_run
# sets: IBSIM_SOCKNAME, LD_PRELOAD, ASAN_OPTIONS, SIM_HOST (if given) and
# FABRIC_DIR.  Run the clients from $FABRIC_DIR or another writable directory.
fabric_env() {
	_fabric_need fabric_env || return 1
	_fabric_export IBSIM_SOCKNAME "$FABRIC_SOCK"
	_fabric_export LD_PRELOAD "${LD_PRELOAD:+$LD_PRELOAD }$FABRIC_UMAD2SIM"
	_fabric_export ASAN_OPTIONS "${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:suppressions=$FABRIC_DIR/asan.supp"
	[ $# -eq 0 ] || _fabric_export SIM_HOST "$1"
	_fabric_export FABRIC_DIR "$FABRIC_DIR"
}

_fabric_export() {
	printf "%s='%s'; export %s\n" "$1" "$(printf '%s' "$2" | sed "s/'/'\\\\''/g")" "$1"
}

# ---------------------------------------------------------------------------
# fabric_console COMMAND
# Sends one ibsim console command and waits until ibsim has executed it
# (a "# marker" comment sent after it shows up in ibsim's output).  Prints
# the command's console output.  Returns 1 if ibsim reported an error
# ("# nodeid ... not found", "unknown - skipped", ...: repeated on stderr),
# exited, or did not answer within IBMGMT_FABRIC_CONSOLE_TIMEOUT seconds
# (default 30; ibsim normally answers in milliseconds).  After a time-out the
# command is still queued and ibsim may execute it later: the caller cannot
# know the fabric's state and should give up.  Output that a late command
# prints is not mixed into a later call's (each command is framed by a begin
# and an end marker).
# ---------------------------------------------------------------------------
fabric_console() {
	_fabric_need fabric_console || return 1
	_fc_cmd=$*
	case $_fc_cmd in
	*'
'*)
		_fabric_say "fabric_console: one command per call"
		return 1
		;;
	esac
	# ibsim reads at most 127 bytes per line; longer lines are split.
	if [ "${#_fc_cmd}" -gt 120 ]; then
		_fabric_say "fabric_console: command longer than 120 characters"
		return 1
	fi
	if ! _fabric_alive "$FABRIC_SIM_PID"; then
		_fabric_say "fabric_console: ibsim (pid $FABRIC_SIM_PID) is not running"
		return 1
	fi
	_fc_wait=${IBMGMT_FABRIC_CONSOLE_TIMEOUT:-30}
	case $_fc_wait in
	'' | *[!0-9]*)
		_fabric_say "fabric_console: IBMGMT_FABRIC_CONSOLE_TIMEOUT is not a number of seconds: $_fc_wait"
		return 1
		;;
	esac
	FABRIC_SEQ=$((FABRIC_SEQ + 1))
	_fc_id=$$-$FABRIC_SEQ-$(date +%s%N)
	_fc_begin="fabric-begin-$_fc_id"
	_fc_mark="fabric-sync-$_fc_id"
	_fc_off=$(wc -c < "$FABRIC_SIM_OUT")
	# One write (atomic, well under PIPE_BUF).  Opened read-write: never
	# blocks, even if ibsim is gone.
	if ! printf '# %s\n%s\n# %s\n' "$_fc_begin" "$_fc_cmd" "$_fc_mark" 1<>"$FABRIC_DIR/console.in"; then
		_fabric_say "fabric_console: cannot write to $FABRIC_DIR/console.in: $_fc_cmd"
		return 1
	fi
	# Bounded in wall-clock time, not in polls: on a loaded machine each poll
	# (two forks) may take far longer than its nap.  Whole seconds: between
	# _fc_wait and _fc_wait + 1 s.
	_fc_end=$(($(date +%s) + _fc_wait + 1))
	until tail -c +"$((_fc_off + 1))" "$FABRIC_SIM_OUT" | grep -qF "# $_fc_mark"; do
		if ! _fabric_alive "$FABRIC_SIM_PID"; then
			_fabric_say "fabric_console: ibsim (pid $FABRIC_SIM_PID) exited before executing: $_fc_cmd"
			return 1
		fi
		if [ "$(date +%s)" -ge "$_fc_end" ]; then
			_fabric_say "fabric_console: ibsim did not execute '$_fc_cmd' within $_fc_wait s (it may still do so later: the fabric's state is unknown)"
			return 1
		fi
		_fabric_nap 0.02
	done
	# Output = what ibsim printed between the two markers, without its
	# "sim> " prompts (anything a late earlier command printed comes before
	# the begin marker).
	_fc_out=$(tail -c +"$((_fc_off + 1))" "$FABRIC_SIM_OUT" |
		awk -v b="# $_fc_begin" -v e="# $_fc_mark" '
		{ buf = buf $0 "\n" }
		END {
			i = index(buf, b); if (i) buf = substr(buf, i + length(b))
			i = index(buf, e); if (i) buf = substr(buf, 1, i - 1)
			gsub(/sim> /, "", buf); sub(/^\n+/, "", buf); sub(/\n+$/, "", buf)
			if (buf != "") print buf
		}')
	[ -z "$_fc_out" ] || printf '%s\n' "$_fc_out"
	case $_fc_cmd in
	[Dd]ump* | [Aa]ttached* | [Hh]elp* | '?'* | '#'* | [Vv]erbose*) return 0 ;;
	esac
	case $_fc_out in
	'#'* | *'
#'* | *"unknown - skipped"* | *"bad param"* | *"bad lid"* | *"bad clientid"* | \
		*"Usage:"* | *"no route found"*)
		# also on stderr: callers often send stdout to /dev/null
		_fabric_say "fabric_console: ibsim rejected '$_fc_cmd': $_fc_out"
		return 1 ;;
	esac
	return 0
}

# ---------------------------------------------------------------------------
# fabric_reap: free the ibsim client slots of clients that died without
# detaching (killed by a signal/timeout); ibsim has only 10 slots.  Prints the
# number of slots freed; returns 1 if a slot could not be freed.  Also
# removes their leftover sys-<pid>/ dirs.
# ---------------------------------------------------------------------------
fabric_reap() {
	_fabric_need fabric_reap || return 1
	_frp_list=$(fabric_console Attached) || return 1
	_frp_dead=$(printf '%s\n' "$_frp_list" |
		sed -n 's/^Client \([0-9][0-9]*\): pid \([0-9][0-9]*\) .*/\1 \2/p' |
		while read -r _frp_c _frp_p; do
			_fabric_alive "$_frp_p" || printf '%s\n' "$_frp_c"
		done)
	_frp_n=0 _frp_rc=0
	for _frp_c in $_frp_dead; do
		if fabric_console "X $_frp_c" >/dev/null 2>&1; then
			_frp_n=$((_frp_n + 1))
		elif ! fabric_console Attached | grep -q "^Client $_frp_c: "; then
			# ibsim dropped it itself in between (a write to the dead client failed)
			_frp_n=$((_frp_n + 1))
		else
			_fabric_say "fabric_reap: could not free client slot $_frp_c"
			_frp_rc=1
		fi
	done
	for _frp_d in "$FABRIC_DIR"/sys-*; do
		[ -d "$_frp_d" ] || continue
		_fabric_alive "${_frp_d##*/sys-}" || rm -rf "$_frp_d"
	done
	printf '%s\n' "$_frp_n"
	return "$_frp_rc"
}

# fabric_wait_attached PID [SECONDS]: waits until ibsim lists client PID in
# `Attached`.  0 then; 1 if PID ended first; 2 if not within SECONDS (default
# 10).  A test that kills a client calls it first: a client killed in its
# start-up handshake (it has asked ibsim for a slot, ibsim has not yet
# connected back to its socket) takes ibsim down: "ibpanic: sim_ctl_new_client:
# can't connect to in socket ... Connection refused", and the fabric is dead.
fabric_wait_attached() {
	_fabric_need fabric_wait_attached || return 2
	_fwa_end=$(($(date +%s) + ${2:-10}))
	until fabric_console Attached | grep -q "pid $1 "; do
		_fabric_alive "$1" || return 1
		[ "$(date +%s)" -lt "$_fwa_end" ] || return 2
		_fabric_nap 0.02
	done
	return 0
}

# fabric_sweeps: number of completed OpenSM heavy sweeps ("SUBNET UP" lines).
fabric_sweeps() {
	_fabric_need fabric_sweeps || return 1
	grep -c 'SUBNET UP' "$FABRIC_SM_LOG" 2>/dev/null || :
}

# fabric_wait_sweep N [SECONDS]: wait until more than N sweeps completed
# (take N from fabric_sweeps before injecting the change).  Default 20 s.  The trap
# ibsim sends for a link change is one unacknowledged MAD: when it is lost (a busy
# machine), no sweep comes; after 3 s without one OpenSM is asked for a heavy sweep
# with SIGHUP (opensm(8): "as if a trap was received"), once.
fabric_wait_sweep() {
	_fabric_need fabric_wait_sweep || return 1
	_fws_start=$(date +%s)
	_fws_end=$((_fws_start + ${2:-20}))
	_fws_hup=
	while [ "$(fabric_sweeps)" -le "$1" ]; do
		_fws_now=$(date +%s)
		if [ "$_fws_now" -ge "$_fws_end" ] || ! _fabric_alive "$FABRIC_SM_PID"; then
			_fabric_say "fabric_wait_sweep: no new OpenSM sweep after $1 within ${2:-20} s"
			return 1
		fi
		if [ -z "$_fws_hup" ] && [ "$_fws_now" -ge $((_fws_start + 3)) ] &&
			_fabric_ours "$FABRIC_SM_PID" sm; then
			_fabric_verbose "fabric_wait_sweep: no sweep after 3 s, SIGHUP to OpenSM"
			kill -HUP "$FABRIC_SM_PID" 2>/dev/null || :
			_fws_hup=1
		fi
		_fabric_nap 0.05
	done
	return 0
}

# ---------------------------------------------------------------------------
# fabric_stop: stop OpenSM (SIGTERM, SIGKILL after 10 s), then ibsim, then the
# FIFO holder -- only the PIDs fabric_start started -- and remove the work dir
# (kept with IBMGMT_FABRIC_KEEP=1).  Safe to call twice or without a fabric.
# ---------------------------------------------------------------------------
fabric_stop() {
	# Only the shell that started the fabric stops it (a child script that
	# inherited the FABRIC_* variables may use it, not stop it).
	[ -n "${_fabric_owner:-}" ] && [ -n "${FABRIC_DIR:-}" ] || return 0
	_fabric_kill_clients
	_fabric_kill "${FABRIC_SM_PID:-}" sm 10
	_fabric_kill "${FABRIC_SIM_PID:-}" sim 5
	_fabric_kill "${FABRIC_HOLD_PID:-}" hold 5
	if [ "${IBMGMT_FABRIC_KEEP:-0}" = 1 ]; then
		_fabric_say "fabric_stop: kept work dir $FABRIC_DIR (IBMGMT_FABRIC_KEEP=1)"
	else
		rm -rf "$FABRIC_DIR"
	fi
	FABRIC_DIR='' FABRIC_SIM_PID='' FABRIC_SM_PID='' FABRIC_HOLD_PID='' _fabric_owner=''
	trap - EXIT INT TERM HUP
	return 0
}

# Clients started by fabric_run/fabric_run_bg that still run (hung tools):
# SIGKILL, with a note.  Found by their IBMGMT_FABRIC_ID=<socket>:client, and
# those of fabric_run_bg first by PID: one started just before fabric_stop may not
# have exec'd yet (its environment is still ours, without the mark), and would
# exec after the scan, then wait for ever in umad2sim's start-up for the ibsim
# we are about to stop.  Its environment tells nothing while it may be exec'ing
# (twice: env, then CMD): reading it at two moments, an exec in between, missed
# the client.  A PID still our child (PPid = $$) is the client, whatever it runs
# by now, unless the client ended and its PID went to a new child of ours: the
# fabric's OpenSM (maybe started again), ibsim and holder are told by their PIDs.
_fabric_kill_clients() {
	for _fkc in ${_fabric_bg_pids:-}; do
		case " ${FABRIC_SM_PID:-} ${FABRIC_SIM_PID:-} ${FABRIC_HOLD_PID:-} " in
		*" $_fkc "*) continue ;;
		esac
		_fabric_alive "$_fkc" || continue
		[ "$(_fabric_ppid "$_fkc")" = "$$" ] || continue
		_fabric_say "fabric_stop: killing client pid $_fkc, still running: $(tr '\0' ' ' 2>/dev/null < "/proc/$_fkc/cmdline")"
		kill -KILL "$_fkc" 2>/dev/null || :
		wait "$_fkc" 2>/dev/null || :
	done
	_fabric_bg_pids=
	# shellcheck disable=SC2013
	for _fkc in $(grep -lzx "IBMGMT_FABRIC_ID=$FABRIC_SOCK:client" /proc/[0-9]*/environ 2>/dev/null); do
		_fkc=${_fkc#/proc/}
		_fkc=${_fkc%/environ}
		[ "$_fkc" != "$$" ] || continue
		_fabric_ours "$_fkc" client || continue
		_fabric_say "fabric_stop: killing client pid $_fkc, still running: $(tr '\0' ' ' 2>/dev/null < "/proc/$_fkc/cmdline")"
		kill -KILL "$_fkc" 2>/dev/null || :
		wait "$_fkc" 2>/dev/null || :
	done
	return 0
}

_fabric_on_exit() {
	_foe_rc=$?
	fabric_stop
	exit "$_foe_rc"
}

_fabric_on_signal() {
	trap - EXIT
	fabric_stop
	trap - "$1"
	exit "$2"
}

# The holder/watchdog (run as sh -c SCRIPT NAME OWNER_PID DIR SOCK with the
# console FIFO on fd 3).  While the owner shell lives it just holds the FIFO;
# if the owner vanishes without fabric_stop, it stops OpenSM and ibsim (after
# checking their IBMGMT_FABRIC_ID) and removes the work dir.
# shellcheck disable=SC2016
_fabric_holder_script='
owner=$1 dir=$2 sock=$3
alive() {
	[ -r "/proc/$1/stat" ] || return 1
	{ read -r s < "/proc/$1/stat"; } 2>/dev/null || return 1
	s=${s##*) }
	case $s in Z*|X*|x*) return 1 ;; esac
}
ours() {
	alive "$1" && tr "\0" "\n" 2>/dev/null < "/proc/$1/environ" |
		grep -qxF "IBMGMT_FABRIC_ID=$sock:$2"
}
nap=
quit() {
	[ -z "$nap" ] || kill "$nap" 2>/dev/null
	exit 0
}
trap quit TERM INT HUP
while alive "$owner" && [ -d "$dir" ]; do
	sleep 1 &
	nap=$!
	wait "$nap"
	nap=
done
[ -d "$dir" ] || exit 0
for role in sm sim; do
	pid=$(cat "$dir/$role.pid" 2>/dev/null) || continue
	ours "$pid" "$role" || continue
	kill -TERM "$pid" 2>/dev/null
	n=100
	while [ $n -gt 0 ] && ours "$pid" "$role"; do sleep 0.1; n=$((n - 1)); done
	ours "$pid" "$role" && kill -KILL "$pid" 2>/dev/null
done
rm -rf "$dir"
'
