#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# smoke.sh: the guest's smoke run of the real programs (TAP).  Each
# program of the Debian programs image runs once and must print what the
# host computed when it made the image (git grep, the large python3 import
# and the numpy reduction take seconds per run under TCG: they run in the
# benchmark only); then once under the launcher ("faultaround -o 0") and
# once with the preload shim ("faultaround -r"), which must not change a
# byte of it (fio and LMDB: the plain run alone).  Then: the shim logs a
# hint on the database inside the chroot, a run from a dropped page cache
# takes major faults that a warm run does not, and perf counts faults and
# the fault_around tracepoint.  Every run is under a timeout; the times
# printed are wall-clock seconds under TCG, a rough guide only.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/workloads.sh"
limit=${SMOKE_TIMEOUT:-300}
out=/tmp/programs-smoke
rm -rf $out && mkdir -p $out
# Data files get no fault-around, everything else (programs, libraries) 64K.
rules="$DATA/*=0;*=64K"

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
comment() { sed 's/^/# /' "$@" | tail -15; }
uptime_cs() { sed 's/^\([0-9]*\)\.\([0-9]*\) .*/\1\2/' /proc/uptime; }

start=$(uptime_cs)
echo "TAP version 13"
echo "1..22"

if ! grep -q " $PROGRAMS ext4 " /proc/mounts; then
	not_ok "programs image mounted at $PROGRAMS (no virtio disk? 'make programs ARCH=...')"
	echo "Bail out! no programs image"
	exit 1
fi
if [ -s "$PROGRAMS/etc/ld.so.cache" ]; then
	ok "programs image mounted, ld.so.cache written"
else
	not_ok "programs image mounted, ld.so.cache written"
fi

# run FILE WL ARGS...: one run under the timeout, with the caller's RUN;
# stdout to FILE, stderr to FILE.err, exit status in $rc.
run() {
	f=$1
	shift
	t0=$(uptime_cs)
	RUN=$RUN timeout "$limit" sh "$here/workloads.sh" "$@" >"$f" 2>"$f.err"
	rc=$?
	t1=$(uptime_cs)
	echo "# ${f##*/}: rc $rc, $(((t1 - t0) / 100)).$(((t1 - t0) % 100 / 10)) s"
}

# expect NAME FILE WANT: ok when the run exited 0 and FILE is WANT.
expect() {
	if [ $rc = 0 ] && cmp -s "$3" "$2"; then
		ok "$1"
	else
		not_ok "$1"
		echo "# exit $rc; diff against ${3#"$PROGRAMS"}:"
		diff "$3" "$2" | comment
		comment "$2.err"
	fi
}

# three NAME WANT WL ARGS...: plain (WANT: the host's answer), under the
# launcher and with the shim (both against the plain run).  An argument
# @V@ becomes the variant's name, for a per-run directory.
three() {
	name=$1 want=$2
	shift 2
	for v in plain launcher shim; do
		case $v in
		plain) RUN= ;;
		launcher) RUN="$FA -o 0 --" ;;
		shim) RUN="$FA -r $rules --" ;;
		esac
		run "$out/$name.$v" $(echo "$@" | sed "s/@V@/$v/g")
		case $v in
		plain) expect "$name: plain run prints the expected output" "$out/$name.$v" "$want" ;;
		*) expect "$name: same output under the $v ($RUN)" "$out/$name.$v" "$out/$name.plain" ;;
		esac
	done
}

three sqlite "$PROGRAMS$DATA/lookups-smoke.expected" wl_sqlite lookups-smoke
three sqlite-pk "$PROGRAMS$DATA/pk-smoke.expected" wl_sqlite_pk pk-smoke
three python "$PROGRAMS$DATA/imports.expected" wl_python
echo faultaround >$out/zpipe.expected
three cc $out/zpipe.expected wl_cc_zpipe /tmp/cc-@V@
if cmp -s "$PROGRAMS/tmp/cc-plain/zpipe" "$PROGRAMS/tmp/cc-launcher/zpipe" &&
   cmp -s "$PROGRAMS/tmp/cc-plain/zpipe" "$PROGRAMS/tmp/cc-shim/zpipe"; then
	ok "cc: the launcher's and the shim's builds are byte-identical to the plain one"
else
	not_ok "cc: the launcher's and the shim's builds are byte-identical to the plain one"
fi
three rg "$PROGRAMS$DATA/big.expected" wl_rg

# fio's mmap engine and LMDB: one plain run each against the host's
# answer; the launcher and the shim have run above.  The benchmark checks
# its first run of every program that has a host's answer (bench.sh), the
# numpy reduction and LMDB without read-ahead included.
plain() { # NAME WANT WL ARGS...
	name=$1 want=$2
	shift 2
	RUN='' run "$out/$name" "$@"
	expect "$name: prints the expected output" "$out/$name" "$want"
}
plain fio-rand "$PROGRAMS$DATA/fio-rand.expected" wl_fio rand
plain lmdb "$PROGRAMS$DATA/lmdb-smoke.expected" wl_lmdb 200

# The shim is really loaded in the chroot and hints the database mapping.
RUN="$FA -v -r $rules --" run $out/sqlite.shimlog wl_sqlite lookups-smoke
if [ $rc = 0 ] && grep -q "$DATA/kv.db .*: order 0\$" $out/sqlite.shimlog.err; then
	ok "shim: hints the database mapping inside the chroot"
else
	not_ok "shim: hints the database mapping inside the chroot"
	comment $out/sqlite.shimlog.err
fi

# Cold cache: the image is on a block device, so after drop_caches the
# program's text, libraries and data come back through major faults.
faults() { # FILE: "RC MAJOR MINOR" of a plain rg run, from its rusage
	RUN="" timeout "$limit" time -o "$1.time" -f '%F %R' sh "$here/workloads.sh" wl_rg >"$1" 2>&1
	echo "$? $(tail -1 "$1.time")"
}
sync
echo 3 >/proc/sys/vm/drop_caches
set -- $(faults $out/rg.cold)
cold_rc=$1 cold_major=${2:-0} cold_minor=${3:-0}
set -- $(faults $out/rg.warm)
warm_rc=$1 warm_major=${2:-0} warm_minor=${3:-0}
echo "# rg after drop_caches: $cold_major major, $cold_minor minor faults; warm: $warm_major major, $warm_minor minor"
if [ "$cold_rc" = 0 ] && [ "$warm_rc" = 0 ] && [ "$cold_major" -gt 0 ] &&
   [ "$warm_major" -lt "$cold_major" ]; then
	ok "cold cache: rg takes major faults after drop_caches, fewer when warm"
else
	not_ok "cold cache: rg takes major faults after drop_caches, fewer when warm"
	echo "# exit $cold_rc cold, $warm_rc warm"
	comment $out/rg.cold $out/rg.cold.time
fi

# perf, Debian's, against this kernel: software fault counters and the
# series' tracepoint, with a process default so that fault-around runs on
# every MMU (64K-page pseries has none by default).
RUN="$FA -o 2 -- perf stat -x, -e minor-faults,major-faults,fault_around:fault_around --" \
	run $out/perf wl_rg
grep -v '^#' $out/perf.err | comment
count() { awk -F, -v e="$1" '$3 == e { print $1 }' $out/perf.err; }
minor=$(count minor-faults) fa=$(count fault_around:fault_around)
if [ $rc = 0 ] && cmp -s $out/perf $out/rg.plain && [ "${minor:-0}" -gt 0 ] 2>/dev/null &&
   [ "${fa:-0}" -gt 0 ] 2>/dev/null; then
	ok "perf stat counts minor-faults and fault_around:fault_around"
else
	not_ok "perf stat counts minor-faults and fault_around:fault_around"
fi

end=$(uptime_cs)
echo "# $n tests, $failed failed, $(((end - start) / 100)) s"
[ $failed = 0 ] && [ $n = 22 ]
