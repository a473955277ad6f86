#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh all|host|checkpatch|plain: the project's test run.  "all" runs
# every guest on its debug kernel (kernel/configs/debug*.config), pseries
# radix and hash and the peer short pass on ppc64le's and x86_64 on
# x86_64's, two kernels in all; "plain" runs the guests on the plain
# kernels, the ones the benchmarks use.  Every stage runs even when an
# earlier one failed, so one run reports everything; the last line is
# "N passed, N failed, N skipped" over every test counted.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

what=${1:-all}
results=$BUILD/results
mkdir -p "$results"
rm -f "$results"/*.counts "$results"/*.note
stage_failed=0
start=$SECONDS

stage() { info "== $* ($((SECONDS - start))s)"; }

# Each native test program and shell test prints TAP; tap-count.sh counts.
host_tests() {
	stage "native tests on the host kernel ($(uname -r))"
	local log=$results/host.tap
	KERNEL_STEP=tree "$top/scripts/kernel.sh" ppc64le || { mark_failed host "the kernel tree did not unpack"; return; }
	local rc=0
	{
		bash "$top/selftests/uapi_numbers.sh" "$BUILD/linux" || rc=1
		bash "$top/scripts/report-re-test.sh" "$BUILD/linux" || rc=1
		# The host's own settings stay as they are, even for root.
		FA_KEEP_SYSTEM=1 make -s -C "$top/selftests" O="$BUILD/host/selftests" run || rc=1
		local lo=$BUILD/host/libfaultaround san=$BUILD/host/libfaultaround-san
		make -s -C "$top/libfaultaround" O="$lo" check || rc=1
		make -s -C "$top/libfaultaround" O="$lo" check-harness || rc=1
		# Again with clang, which warns where gcc does not.
		make -s -C "$top/libfaultaround" O="$BUILD/host/libfaultaround-clang" CC=clang check || rc=1
		# Again under ASan (leaks included) and UBSan.
		make -s -C "$top/libfaultaround" O="$san" SANITIZE=1 check || rc=1
		make -s -C "$top/libfaultaround" O="$san" SANITIZE=1 check-harness || rc=1
		# The Debian packages: built, checked by lintian, and used from a
		# scratch root.
		{ "$top/scripts/deb.sh" && bash "$top/scripts/deb-check.sh"; } || rc=1
		make -s -C "$top/bench" O="$BUILD/host/bench" LIBFA_O="$BUILD/host/libfaultaround" smoke || rc=1
		# The profiler's plugin builds with gcc and clang; its report
		# adds up a made-up profile as it should.
		make -s -C "$top/bench/tbprof" O="$BUILD/host/tbprof" || rc=1
		make -s -C "$top/bench/tbprof" O="$BUILD/host/tbprof-clang" CC=clang || rc=1
		make -s -C "$top/bench/tbprof" check || rc=1
	} >"$log" 2>&1
	grep -E '^(not )?ok ' "$log" | grep -vE '^ok .*# SKIP' | grep -E '^not ok' || true
	"$top/scripts/tap-count.sh" "$log" >"$results/host.counts"
	if [ $rc != 0 ]; then
		tail -20 "$log" >&2
		warn "native tests failed (log: ${log#"$top"/})"
		mark_failed host "see ${log#"$top"/}"
	fi
	read -r p f s <"$results/host.counts"
	info "host: $p passed, $f failed, $s skipped"
}

# mark_failed NAME [WHY]: count a failure for stage NAME, and say why in
# its summary line unless the stage has said so itself.
mark_failed() {
	stage_failed=1
	local c=$results/$1.counts
	[ -s "$results/$1.note" ] || echo "${2:-failed outside its tests, see the output above}" >"$results/$1.note"
	if [ -f "$c" ]; then
		read -r p f s <"$c"
		[ "$f" = 0 ] && echo "$p 1 $s" >"$c"
	else
		echo "0 1 0" >"$c"
	fi
}

checkpatch() {
	stage "checkpatch.pl --strict over kernel/patches"
	KERNEL_STEP=tree "$top/scripts/kernel.sh" ppc64le || { mark_failed checkpatch; return; }
	local p n=0 p_ok=0 p_bad=0 out
	for p in "$top"/kernel/patches/*/[0-9]*.patch; do
		[ -e "$p" ] || continue
		case $p in */0000-*) continue ;; esac
		n=$((n + 1))
		# --no-signoff: the series carries no Signed-off-by; whoever
		# sends it adds their own, which only they can certify.
		if out=$(cd "$BUILD/linux" && perl scripts/checkpatch.pl --strict --no-tree \
				--no-signoff -q "$p" 2>&1); then
			echo "ok $n checkpatch $(basename "$p")"
			p_ok=$((p_ok + 1))
		else
			echo "not ok $n checkpatch $(basename "$p")"
			echo "$out" | sed 's/^/# /' | head -30
			p_bad=$((p_bad + 1))
		fi
	done | tee "$results/checkpatch.tap"
	"$top/scripts/tap-count.sh" "$results/checkpatch.tap" >"$results/checkpatch.counts"
	read -r p f s <"$results/checkpatch.counts"
	[ "$f" = 0 ] || stage_failed=1
	# The selftests patch is generated from selftests/: the applied series'
	# last commit must be what scripts/series-export.sh makes of them now.
	"$top/scripts/selftests-in-tree.py" check "$BUILD/linux" \
		"$top/kernel/selftests-commit.txt" >"$results/selftests-patch.tap" 2>&1 ||
		stage_failed=1
	grep -E '^not ok|^# ' "$results/selftests-patch.tap" || true
	"$top/scripts/tap-count.sh" "$results/selftests-patch.tap" >"$results/selftests-patch.counts"
	# Every file the series names in MAINTAINERS or Documentation exists.
	"$top/scripts/series-names-check.sh" "$BUILD/linux" "$top"/kernel/patches/*/[0-9]*.patch \
		>"$results/series-names.tap" || stage_failed=1
	grep -E '^not ok|^# ' "$results/series-names.tap" || true
	"$top/scripts/tap-count.sh" "$results/series-names.tap" >"$results/series-names.counts"
}

guest() {
	local arch=$1 mmu=$2 variant=${3:-} name
	name=$([ "$arch" = x86_64 ] && echo x86_64 || echo "pseries-$mmu")${variant:+-$variant}
	stage "guest $name"
	if ! make -s -C "$top" kernel initramfs programs ARCH="$arch" VARIANT="$variant"; then
		mark_failed "$name" "its kernel, initramfs or programs image did not build"
		return
	fi
	"$top/scripts/qemu-run.sh" "$arch" "$mmu" check "$variant" || mark_failed "$name"
}

# A short pass of the kernel's own mm selftests and of stress-ng with the
# churner, in a pseries radix guest on the debug kernel just tested (make
# soak runs them all).
peer_check() {
	stage "peer short pass on pseries-radix-debug (mm selftests, stress-ng)"
	"$top/scripts/peer-check.sh" ppc64le radix debug || mark_failed peer-check
}

case $what in
host) host_tests ;;
checkpatch) checkpatch ;;
all)
	# The kernels build in the background at the lowest priority, in the
	# order the guests need them, on the CPU the host tests and the
	# guests leave idle (a guest keeps about 1.2 of 2 CPUs busy); each
	# guest stage's own build then waits for it on the build lock and
	# finds nothing left to do.  A background build that fails is done
	# again, in the open, by its stage.
	KERNEL_STEP=tree "$top/scripts/kernel.sh" ppc64le >/dev/null || true
	nice -n 19 bash -c '
		for k in "ppc64le debug" "x86_64 debug"; do
			"$1/scripts/kernel.sh" $k || true
		done' prebuild "$top" >"$results/prebuild.log" 2>&1 &
	host_tests
	checkpatch
	# A debug kernel runs every test a plain one would, and fails a stage
	# on any kernel report besides.  The peer pass runs while the x86_64
	# kernel is still building.
	guest ppc64le radix debug
	guest ppc64le hash debug
	peer_check
	guest x86_64 - debug
	;;
plain)
	guest ppc64le radix
	guest ppc64le hash
	guest x86_64 -
	;;
*) die "check.sh all|host|checkpatch|plain" ;;
esac

wait
total_p=0 total_f=0 total_s=0
for c in "$results"/*.counts; do
	[ -f "$c" ] || continue
	read -r p f s <"$c"
	# A stage that failed on more than its tests says what (NAME.note).
	note=
	[ -s "${c%.counts}.note" ] && note=", $(head -1 "${c%.counts}.note")"
	printf '[faultaround]   %-22s %4d passed, %d failed, %d skipped%s\n' \
		"$(basename "$c" .counts)" "$p" "$f" "$s" "$note" >&2
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
done
info "total time $((SECONDS - start))s"
echo "$total_p passed, $total_f failed, $total_s skipped"
[ $stage_failed = 0 ] && [ $total_f = 0 ]
