#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-mm.sh ARCH [MMU]: the kernel's own mm selftests (run_vmtests.sh) on
# the stock kernel and on the patched one in every setting
# (scripts/peer-guest.sh), the two guests side by side, then the table and
# the "peer:" line (scripts/peer-report.py).  Consoles and reports go to
# build/results/peer-NAME-*; PEER_DOCS=1 copies them to docs/results/.
#
#   PEER_SETTINGS   the patched kernel's settings (default: none max
#                   auto-proc auto-sys); the stock kernel runs "stock"
#   PEER_TIMEOUT    seconds per test (default 180)
#   PEER_CATS       run_vmtests.sh categories (default: all but ours)
#   PEER_SPLIT=1    a guest per patched setting, side by side
#   PEER_STRESS     seconds of stress-ng with the churner after the suite,
#                   in the same guests (default 120; 0: none)
#   PEER_SERIAL=1   one guest after the other (default: both at once)
#   PEER_ONLY       stock or patched: build and boot that kernel only (the
#                   report needs the other's console from an earlier run)
#   PEER_TRACE      ksm-unmerge: trace "ksm_tests -U" (peer/peer-ksm-trace.sh)
#   PEER_REPEAT     run the suite this many times in each setting (default 1)
#   PEER_LOOP       uffd-events, cow, khugepaged, khugepaged-s2 ("-s 2") or
#                   khugepaged-cpu0 (bound to CPU 0): run only
#                   "uffd-unit-tests -f events", cow or khugepaged,
#                   PEER_REPEAT times a setting, in place of the suite
#   PEER_WATCHDOG   seconds: print the guest's processes' states that often
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
mmu=${2:-radix}
settings=${PEER_SETTINGS:-none max auto-proc auto-sys}
per_test=${PEER_TIMEOUT:-180}
stress=${PEER_STRESS:-120}
cats=$(echo ${PEER_CATS:-} | tr ' ' ,)
case $arch in
x86_64) name=x86_64 huge="hugepages=128" ;;
ppc64le)
	name=pseries-$mmu
	# 256 MiB of huge pages: 2M ones on radix, 16M ones on hash, which
	# qemu offers a hash guest only when told to ("HugeTLB: hugepages
	# unsupported" without it).
	case $mmu in
	radix) huge="hugepages=128" ;;
	hash) huge="hugepages=16"; export QEMU_PSERIES_CAPS=cap-hpt-max-page-size=16M ;;
	esac
	;;
*) die "unknown ARCH '$arch'" ;;
esac
results=$BUILD/results
mkdir -p "$results"
start=$SECONDS

case ${PEER_ONLY:-} in
'') variants="peer peer-stock" ;;
stock) variants=peer-stock ;;
patched) variants=peer ;;
*) die "PEER_ONLY is stock or patched" ;;
esac
make -s -C "$top" initramfs ARCH="$arch"
for v in $variants; do "$top/scripts/kernel.sh" "$arch" "$v"; done
"$top/scripts/peer-debs.sh" "$arch"
"$top/scripts/peer-mm-build.sh" "$arch"
for v in $variants; do "$top/scripts/peer-initramfs.sh" "$arch" "$v"; done
info "peer ($name): built in $((SECONDS - start))s"

# boot VARIANT TAG SETTINGS: one guest, console results/peer-NAME-TAG.console.
boot() {
	local variant=$1 tag=$2 s=$3 n
	n=$(echo "$s" | tr , ' ' | wc -w)
	# A hang guard over the whole guest: every test at its limit would
	# take far longer; a run this long has hung between tests.
	QEMU_INITRD=$BUILD/peer/$arch/initramfs-$variant.cpio.gz \
	QEMU_CONSOLE=$results/peer-$name-$tag.console \
	QEMU_MEM=${PEER_MEM:-4G} QEMU_TIMEOUT=$((n * ${PEER_GUEST_BUDGET:-3600})) \
	QEMU_APPEND="printk.devkmsg=on $huge brd.rd_nr=2 peer.settings=$s peer.timeout=$per_test peer.stress=$stress${cats:+ peer.cats=$cats}${PEER_TRACE:+ peer.trace=$PEER_TRACE}${PEER_REPEAT:+ peer.repeat=$PEER_REPEAT}${PEER_LOOP:+ peer.loop=$PEER_LOOP}${PEER_WATCHDOG:+ peer.watchdog=$PEER_WATCHDOG}" \
		"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$variant" \
		>"$results/peer-$name-$tag.run.log" 2>&1
	echo $? >"$results/peer-$name-$tag.rc"
}

# One guest per kernel, or with PEER_SPLIT=1 one per patched setting.
guests=()
for v in $variants; do
	if [ $v = peer-stock ]; then
		guests+=("peer-stock stock stock")
	elif [ "${PEER_SPLIT:-0}" = 1 ]; then
		for s in $settings; do guests+=("peer patched-$s $s"); done
	else
		guests+=("peer patched $(echo $settings | tr ' ' ,)")
	fi
done
info "peer ($name): booting ${#guests[@]} guest(s) (patched settings: $settings${cats:+; categories: $cats})"
for g in "${guests[@]}"; do
	set -- $g
	rm -f "$results/peer-$name-$2".*
	if [ "${PEER_SERIAL:-0}" = 1 ]; then boot "$@"; else boot "$@" & fi
done
wait
if [ "${PEER_SPLIT:-0}" = 1 ] && [ "${PEER_ONLY:-}" != stock ]; then
	rc=0
	for s in $settings; do
		cat "$results/peer-$name-patched-$s.console"
		[ "$(cat "$results/peer-$name-patched-$s.rc")" = 0 ] || rc=1
	done >"$results/peer-$name-patched.console"
	echo $rc >"$results/peer-$name-patched.rc"
fi
for k in stock patched; do
	[ -f "$results/peer-$name-$k.rc" ] || { warn "peer ($name): no $k run yet (PEER_ONLY)"; exit 1; }
	[ "$(cat "$results/peer-$name-$k.rc")" = 0 ] ||
		{ warn "peer ($name): the $k guest failed:"; cat "$results/peer-$name-$k"*.run.log | grep -E 'warning|error' >&2 || true; }
done
rc=0
"$top/scripts/peer-report.py" "$name" "$results/peer-$name-stock.console" \
	"$results/peer-$name-patched.console" "$kernel_report_re" "$kernel_benign_re" \
	>"$results/peer-$name.md" || rc=1
cat "$results/peer-$name.md"
if [ "${PEER_DOCS:-0}" = 1 ]; then
	mkdir -p "$top/docs/results"
	for f in "$results/peer-$name"-*.console "$results/peer-$name"-*.run.log "$results/peer-$name.md"; do
		cp "$f" "$top/docs/results/$(basename "$f")"
	done
fi
info "peer ($name): $((SECONDS - start))s in all"
for k in stock patched; do [ "$(cat "$results/peer-$name-$k.rc")" = 0 ] || rc=1; done
exit $rc
