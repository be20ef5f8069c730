#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Discovery benchmark (issue 10): libibtopo's directed-route discovery (tests/topo/topo-dump
# at its default settings) against infiniband-diags' `ibnetdiscover -o 64` (its fastest
# setting) on generated fat trees of about 2,000, 8,000 and 16,000 nodes, alternating in one
# run; also libibnetdisc's discovery alone (tests/topo/ibnd-dump -o 64), the MAD counts, the
# simulator floor (MADs / the simulator's own MAD rate, bench-simrate), peak RSS, and
# --load-cache of the reference's own cache file.  Prints medians, median ratios and
# PASS/MISS per target; always exits 0 (a benchmark reports).  See bench/README.md.
#
# Usage: sh bench/bench-topo.sh [BUILDDIR]
# Environment:
#   BENCH_SIZES="2k 8k 16k"   sizes to run; also LEAVESxHCASxSPINES for any fat tree
#                             (LEAVES >= 2, HCAS >= 3: the floor's DR paths need them)
#   BENCH_PAIRS=5             rounds per size (each: ours, reference, ibnd-dump, floor)
#   BENCH_SM=yes              "no": no OpenSM (LIDs 0; DR discovery needs none)
#   BENCH_PIN=0               1: ibsim and the clients on one CPU (see README.md)
#   BENCH_SIMRATE_WINDOW=64   SMPs in flight in the floor measurement
#   BENCH_HOST=ft-h001        the node the clients attach to
#   IBMGMT_FABRIC_TIMEOUT     seconds to wait for OpenSM (default here: 60 + 1 per 50 nodes)
set -u
b=$(cd "${1:-.}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
sizes=${BENCH_SIZES:-2k 8k 16k}
pairs=${BENCH_PAIRS:-5}
window=${BENCH_SIMRATE_WINDOW:-64}
host=${BENCH_HOST:-ft-h001}
. "$top/tests/fabric/fabric.sh"
fabric_require

ours=$b/tests/topo/topo-dump
ibnd=$b/tests/topo/ibnd-dump
simrate=$b/bench/bench-simrate
ref=$FABRIC_REF/ibnetdiscover
if [ ! -x "$ours" ] || [ ! -x "$simrate" ]; then
	echo "bench-topo: $ours and $simrate are needed (make tests/topo/topo-dump bench/bench-simrate)"
	exit 0
fi
[ -x "$ibnd" ] || ibnd=
# GNU time for the peak RSS (ru_maxrss of the child); without it RSS reads n/a
gtime=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true 2> /dev/null; then
	gtime=/usr/bin/time
fi
work=$(mktemp -d "${IBMGMT_FABRIC_TMPDIR:-/dev/shm}/bench-topo.XXXXXX" 2> /dev/null) ||
	work=$(mktemp -d) || exit 0
# fabric_start sets its own traps and fabric_stop clears them: ours go back after each
cleanup() {
	fabric_stop
	rm -rf "$work"
}
traps() {
	trap 'cleanup' EXIT
	trap 'cleanup; trap - INT; kill -INT $$' INT
	trap 'cleanup; trap - TERM; kill -TERM $$' TERM
}
stop() {
	fabric_stop
	traps
}
traps
# topo-dump links our shared libraries: in the build tree it is libtool's wrapper script
# (a bash start and a relink check, ~30 ms), so run the real binary with our libraries in
# one directory, as an installation has them; only our runs get that library path.
ourlib=
if head -c 2 "$ours" | grep -q '^#!' && [ -x "$b/tests/topo/.libs/topo-dump" ]; then
	ours=$b/tests/topo/.libs/topo-dump
	ourlib=$work/lib
	mkdir -p "$ourlib"
	for d in libibstruct libibpath libibmadrpc libibsched libibsa libibtopo; do
		for f in "$b/$d/.libs/$d".so*; do [ -e "$f" ] && ln -sf "$f" "$ourlib/"; done
	done
fi

# ---- helpers -------------------------------------------------------------------------------
# with_ourlib CMD...: CMD with our library directory on the library path (in a subshell);
# without_ourlib CMD...: the same subshell without it, so both sides pay one fork
with_ourlib() {
	(
		[ -z "$ourlib" ] || { LD_LIBRARY_PATH=$ourlib; export LD_LIBRARY_PATH; }
		"$@"
	)
}
without_ourlib() {
	("$@")
}
# median FILE [COLUMN]: the median of a column of numbers (mean of the middle two if even)
median() {
	sort -g -k"${2:-1},${2:-1}" "$1" | awk -v c="${2:-1}" '$c != "" { v[++n] = $c }
		END { if (!n) { print "n/a"; exit } print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}
# range FILE: "min-max" of a column of numbers, 2 decimals
range() {
	sort -g "$1" | awk 'NF { v[++n] = $1 } END { if (n) printf "%.2f-%.2f", v[1], v[n]; else print "n/a" }'
}
# calc EXPR: floating-point arithmetic ("n/a" if an operand is n/a)
calc() {
	case $* in *n/a*) echo n/a; return ;; esac
	awk "BEGIN { printf \"%.4g\n\", $* }"
}
# f3 / f2 NUMBER: 3 or 2 decimals (n/a stays)
f3() { case $1 in n/a*) echo n/a ;; *) printf '%.3f' "$1" ;; esac; }
f2() { case $1 in n/a*) echo n/a ;; *) printf '%.2f' "$1" ;; esac; }
# verdict VALUE LIMIT: PASS when VALUE <= LIMIT
verdict() {
	case $1 in n/a*) echo "n/a"; return ;; esac
	awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "PASS" : "MISS" }'
}
# timed TAG OUT FABRIC CMD...: runs CMD (attached to $host when FABRIC is 1), stdout to OUT,
# and appends "wall_s rss_kb cpu_s" to $work/TAG.t (wall measured here around the whole client:
# fork, exec, umad2sim set-up, port open, discovery, exit).  Returns CMD's status.
timed() {
	_tag=$1 _out=$2 _fab=$3
	shift 3
	rm -f "$work/rss"
	[ -z "$gtime" ] || set -- "$gtime" -f '%M %U %S' -o "$work/rss" "$@"
	# shellcheck disable=SC2086 # $pin: empty or "taskset -c N"
	[ "$_fab" = 1 ] && set -- fabric_run "$host" $pin "$@"
	case $_tag in *ours) set -- with_ourlib "$@" ;; *) set -- without_ourlib "$@" ;; esac
	_t0=$(date +%s%N)
	"$@" > "$_out" 2> "$work/$_tag.err"
	_rc=$?
	_t1=$(date +%s%N)
	# "wall_s rss_kb cpu_s" (cpu: the client's user + system time, GNU time's 10 ms steps)
	tail -n 1 "$work/rss" 2> /dev/null | awk -v us=$(((_t1 - _t0) / 1000)) '
		{ rss = $1; cpu = $2 + $3 } END {
		if (rss !~ /^[0-9]+$/) { rss = "n/a"; cpu = "n/a" }
		printf "%.6f %s %s\n", us / 1e6, rss, cpu }' >> "$work/$_tag.t"
	[ $_rc = 0 ] || echo "  ! $_tag exited $_rc: $(head -c 300 "$work/$_tag.err")"
	return $_rc
}
# field NAME FILE: the number after NAME in a "nodes N mads N seconds S" line
field() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$2"
}
cpu_us() { # TAG: the median client CPU time of TAG's runs per MAD of our discovery, in us
	calc "$(median "$work/$1.t" 3) * 1e6 / $mads"
}
simcpu() { # ibsim's user + system time in clock ticks
	awk '{ print $14 + $15 }' "/proc/$FABRIC_SIM_PID/stat" 2> /dev/null || echo 0
}
pin_sim() { # as in run-bench.sh: ibsim on the first CPU we may use; prints the client prefix
	command -v taskset > /dev/null 2>&1 || return 0
	_cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
	taskset -cp "$_cpu" "$FABRIC_SIM_PID" > /dev/null && echo "taskset -c $_cpu"
}

hz=$(getconf CLK_TCK 2> /dev/null || echo 100)
echo "== discovery: libibtopo (topo-dump, default settings) vs infiniband-diags ibnetdiscover -o 64"
echo "   $(nproc 2> /dev/null || echo '?') CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; $pairs rounds per size, order alternating"
echo "   wall = the whole client process, measured by this script; peak RSS from ${gtime:-n/a (no GNU time)}"

for size in $sizes; do
	case $size in
	2k) spec="80 24 16" ;;
	8k) spec="64 124 16" ;;
	16k) spec="130 122 16" ;;
	*x*x*) spec=$(echo "$size" | tr x ' ') ;;
	*) echo "bench-topo: unknown size $size (2k, 8k, 16k or LEAVESxHCASxSPINES)"; continue ;;
	esac
	# shellcheck disable=SC2086 # three numbers
	set -- $spec
	hpl=$2
	net=$work/ft-$size.net
	sh "$top/tests/fabric/topo/gen-fat-tree.sh" "$@" > "$net" || continue
	n=$(fabric_count_nodes "$net")
	echo
	echo "== $size: fat tree of $n nodes ($1 leaves x $2 HCAs + $3 spines), clients on $host"
	smnode=
	[ "${BENCH_SM:-yes}" = no ] && smnode=-
	t0=$(date +%s)
	if ! IBMGMT_FABRIC_TIMEOUT=${IBMGMT_FABRIC_TIMEOUT:-$((60 + n / 50))} fabric_start "$net" $smnode; then
		echo "  fabric did not start: size skipped"
		traps
		continue
	fi
	traps
	if [ -n "$smnode" ]; then
		echo "  simulator up in $(($(date +%s) - t0)) s, no SM (LIDs 0)"
	else
		echo "  simulator + OpenSM up in $(($(date +%s) - t0)) s (subnet up, LIDs assigned)"
	fi
	pin=
	if [ "${BENCH_PIN:-0}" = 1 ]; then
		pin=$(pin_sim)
		[ -n "$pin" ] && echo "  ibsim and the clients pinned to CPU ${pin##* }"
	fi
	rm -f "$work"/*.t "$work"/*.sim "$work"/*.in "$work/floor"
	onodes='' omads='' rnodes='' rmads=''
	# warm-up (page cache, first umad2sim set-up) and the MAD count for the floor
	with_ourlib fabric_run "$host" "$ours" -q > "$work/o.out" 2> /dev/null
	fabric_run "$host" "$ref" -o 64 > /dev/null 2>&1
	mads=$(field mads "$work/o.out")
	case $mads in '' | *[!0-9]*) echo "  our discovery failed: $(cat "$work/o.out")"; stop; continue ;; esac
	# the floor's SMPs: 3 of 4 to remote HCAs (4 hops), 1 of 4 to a remote leaf (3 hops),
	# as a fat-tree discovery's SMPs are mostly
	fpaths="0,1,$((hpl + 1)),2,1 0,1,$((hpl + 1)),2,2 0,1,$((hpl + 1)),2,3 0,1,$((hpl + 1)),2"
	r=1
	while [ "$r" -le "$pairs" ]; do
		# odd rounds ours first, even rounds the reference first
		if [ $((r % 2)) = 1 ]; then order="ours ref ibnd floor"; else order="ref ibnd ours floor"; fi
		for who in $order; do
			s0=$(simcpu)
			case $who in
			ours) timed ours "$work/o.out" 1 "$ours" -q ;;
			ref) timed ref /dev/null 1 "$ref" -o 64 ;;
			ibnd) [ -z "$ibnd" ] || timed ibnd "$work/i.out" 1 "$ibnd" -q -o 64 ;;
			floor) # shellcheck disable=SC2086 # $fpaths: several arguments
				timed floor "$work/f.out" 1 "$simrate" "$mads" "$window" $fpaths ;;
			esac
			s1=$(simcpu)
			echo "$((s1 - s0))" >> "$work/$who.sim"
			case $who in
			ours)
				field seconds "$work/o.out" >> "$work/ours.in"
				onodes=$(field nodes "$work/o.out") omads=$(field mads "$work/o.out") ;;
			ibnd)
				[ -z "$ibnd" ] || {
					field seconds "$work/i.out" >> "$work/ibnd.in"
					rnodes=$(field nodes "$work/i.out") rmads=$(field mads "$work/i.out")
				} ;;
			floor) field rate "$work/f.out" >> "$work/floor" ;;
			esac
		done
		r=$((r + 1))
	done
	ow=$(median "$work/ours.t") orss=$(median "$work/ours.t" 2) oin=$(median "$work/ours.in")
	rw=$(median "$work/ref.t") rrss=$(median "$work/ref.t" 2)
	paste -d' ' "$work/ours.t" "$work/ref.t" | awk '{ print $1 / $4 }' > "$work/ratio.ref"
	ratio=$(median "$work/ratio.ref")
	echo "  nodes found: ours ${onodes:-?}, libibnetdisc ${rnodes:-n/a} (net file $n); MADs: ours ${omads:-?}, libibnetdisc ${rmads:-n/a}"
	echo "  wall, median of $pairs rounds:"
	echo "    ours (topo-dump -q)               $(f3 "$ow") s  (discovery alone, its own clock: $(f3 "$oin") s)"
	echo "    ibnetdiscover -o 64 > /dev/null   $(f3 "$rw") s"
	if [ -n "$ibnd" ]; then
		paste -d' ' "$work/ours.t" "$work/ibnd.t" | awk '{ print $1 / $4 }' > "$work/ratio"
		echo "    ibnd-dump -q -o 64                $(f3 "$(median "$work/ibnd.t")") s  (libibnetdisc's discovery alone: $(f3 "$(median "$work/ibnd.in")") s)"
	fi
	case $size in
	2k) tgt=" target <= 0.50: $(verdict "$ratio" 0.5)" ;;
	16k) tgt=" target <= 0.25: $(verdict "$ratio" 0.25)" ;;
	*) tgt=" (the issue sets targets at 2,000 and 16,000 nodes only)" ;;
	esac
	echo "  median ratio ours/ibnetdiscover: $(f2 "$ratio") (rounds: $(range "$work/ratio.ref"));$tgt"
	[ -z "$ibnd" ] || echo "  median ratio ours/ibnd-dump:      $(f2 "$(median "$work/ratio")") (rounds: $(range "$work/ratio")) (information)"
	rate=$(median "$work/floor")
	floor=$(calc "$mads / $rate")
	echo "  simulator floor: bench-simrate alone, window $window: $(printf '%.0f' "$rate") MADs/s (median of $pairs rounds) ->" \
		"$mads MADs in $(f3 "$floor") s; ours / the floor of its round:"
	# per round: our discovery's own time / (MADs / that round's rate); then the median
	paste -d' ' "$work/ours.in" "$work/floor" | awk -v m="$mads" 'NF == 2 { print $1 * $2 / m }' > "$work/ratio.floor"
	fr=$(median "$work/ratio.floor")
	echo "    ours, discovery alone: median ratio $(f2 "$fr") (rounds: $(range "$work/ratio.floor")); target <= 1.30: $(verdict "$fr" 1.3)"
	echo "    medians: ours whole process $(f2 "$(calc "$ow / $floor")")x the median floor, ibnetdiscover $(f2 "$(calc "$rw / $floor")")x (information)"
	echo "  ibsim CPU time per MAD (clock ticks of 1/$hz s): during ours $(f2 "$(calc "$(median "$work/ours.sim") * 1e6 / $hz / $mads")") us," \
		"ibnetdiscover $(f2 "$(calc "$(median "$work/ref.sim") * 1e6 / $hz / $mads")") us," \
		"bench-simrate $(f2 "$(calc "$(median "$work/floor.sim") * 1e6 / $hz / $mads")") us"
	# the client's own CPU time per MAD: what the machine's load stretches least
	echo "  client CPU time (user + system) per MAD: ours $(f2 "$(cpu_us ours)") us, ibnetdiscover $(f2 "$(cpu_us ref)") us," \
		"${ibnd:+ibnd-dump $(f2 "$(cpu_us ibnd)") us, }bench-simrate $(f2 "$(cpu_us floor)") us (GNU time, 10 ms steps)"
	[ -z "$ibnd" ] || irss=" (ibnd-dump $(median "$work/ibnd.t" 2) KB)"
	case $size in
	16k) tgt="; target <= 1.00: $(verdict "$(calc "$orss / $rrss")" 1)" ;;
	*) tgt= ;;
	esac
	echo "  peak RSS: ours $orss KB, ibnetdiscover -o 64 $rrss KB${irss:-}; ratio $(f2 "$(calc "$orss / $rrss")")$tgt"

	# ---- --load-cache of the reference's own cache file (no fabric needed) ------------------
	cache=$work/ft-$size.cache
	if ! fabric_run "$host" "$ref" -o 64 --cache "$cache" > /dev/null 2>&1 || [ ! -s "$cache" ]; then
		echo "  --load-cache: n/a (ibnetdiscover --cache failed)"
		stop
		continue
	fi
	stop
	rm -f "$work"/lc-*.t "$work"/lc-*.in
	if with_ourlib "$ours" --load-cache "$cache" -q > "$work/lo.out" 2> "$work/lo.err"; then
		ours_lc=1
	else
		ours_lc=
		echo "  --load-cache: ours n/a (cache reader failed: $(head -c 200 "$work/lo.err"))"
	fi
	r=1
	while [ "$r" -le "$pairs" ]; do
		if [ $((r % 2)) = 1 ]; then order="ours ref ibnd"; else order="ref ibnd ours"; fi
		for who in $order; do
			case $who in
			ours) [ -z "$ours_lc" ] || { timed lc-ours "$work/lo.out" 0 "$ours" --load-cache "$cache" -q &&
				field seconds "$work/lo.out" >> "$work/lc-ours.in"; } ;;
			ref) timed lc-ref /dev/null 0 "$ref" --load-cache "$cache" ;;
			ibnd) [ -z "$ibnd" ] || { timed lc-ibnd "$work/li.out" 0 "$ibnd" --load-cache "$cache" -q &&
				field seconds "$work/li.out" >> "$work/lc-ibnd.in"; } ;;
			esac
		done
		r=$((r + 1))
	done
	lrw=$(median "$work/lc-ref.t")
	echo "  --load-cache of ibnetdiscover's own cache file ($(wc -c < "$cache") bytes), median of $pairs rounds:"
	if [ -n "$ours_lc" ]; then
		low=$(median "$work/lc-ours.t") loin=$(median "$work/lc-ours.in")
		echo "    ours (topo-dump --load-cache F -q)    $(f3 "$low") s  (loading alone: $(f3 "$loin") s); $(field nodes "$work/lo.out") nodes, peak RSS $(median "$work/lc-ours.t" 2) KB"
	else
		low=n/a loin=n/a
		echo "    ours: n/a (cache reader missing or failed)"
	fi
	echo "    ibnetdiscover --load-cache F          $(f3 "$lrw") s  peak RSS $(median "$work/lc-ref.t" 2) KB"
	liin=n/a
	if [ -n "$ibnd" ]; then
		liin=$(median "$work/lc-ibnd.in")
		echo "    ibnd-dump --load-cache F -q           $(f3 "$(median "$work/lc-ibnd.t")") s  (ibnd_load_fabric alone: $(f3 "$liin") s); $(field nodes "$work/li.out") nodes"
	fi
	echo "    ratio ours/ibnetdiscover, whole process: $(f2 "$(calc "$low / $lrw")"); target <= 0.10: $(verdict "$(calc "$low / $lrw")" 0.1)"
	echo "    ratio ours/ibnd_load_fabric, loading alone: $(f2 "$(calc "$loin / $liin")"); target <= 0.10: $(verdict "$(calc "$loin / $liin")" 0.1)"
done
echo
echo "   load average $(cut -d' ' -f1-3 /proc/loadavg) at the end (the CPUs may be shared: compare ratios, not times)"
exit 0
