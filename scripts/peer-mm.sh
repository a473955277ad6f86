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
#   PEER_STRESS     seconds of stress-ng with the churner after the suite,
#                   in the same guests (default 120; 0: none)
#   PEER_SERIAL=1   one guest after the other (default: both at once)
#   PEER_ONLY       stock or patched: build and boot that kernel only (the
#                   report needs the other's console from an earlier run)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
mmu=${2:-radix}
settings=${PEER_SETTINGS:-none max auto-proc auto-sys}
per_test=${PEER_TIMEOUT:-180}
stress=${PEER_STRESS:-120}
case $arch in
x86_64) name=x86_64 huge="hugepages=128" ;;
ppc64le)
	name=pseries-$mmu
	# 256 MiB of huge pages: 2M ones on radix, 16M ones on hash.
	case $mmu in radix) huge="hugepages=128" ;; hash) huge="hugepages=16" ;; esac
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

# boot VARIANT SETTINGS: one guest; its console is results/peer-NAME-KERNEL.
boot() {
	local variant=$1 s=$2 kernel n
	kernel=$([ "$variant" = peer-stock ] && echo stock || echo patched)
	n=$(echo "$s" | wc -w)
	# A hang guard over the whole guest: every test at its limit would
	# take far longer; a run this long has hung between tests.
	QEMU_INITRD=$BUILD/peer/$arch/initramfs-$variant.cpio.gz \
	QEMU_CONSOLE=$results/peer-$name-$kernel.console \
	QEMU_MEM=${PEER_MEM:-4G} QEMU_TIMEOUT=$((n * ${PEER_GUEST_BUDGET:-3600})) \
	QEMU_APPEND="printk.devkmsg=on $huge brd.rd_nr=2 peer.settings=$(echo "$s" | tr ' ' ,) peer.timeout=$per_test peer.stress=$stress" \
		"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$variant" \
		>"$results/peer-$name-$kernel.run.log" 2>&1
	echo $? >"$results/peer-$name-$kernel.rc"
}

info "peer ($name): booting $variants (patched settings: $settings)"
for v in $variants; do rm -f "$results/peer-$name-$([ $v = peer ] && echo patched || echo stock)".*; done
if [ "${PEER_SERIAL:-0}" = 1 ]; then
	for v in $variants; do boot $v "$([ $v = peer ] && echo "$settings" || echo stock)"; done
else
	for v in $variants; do boot $v "$([ $v = peer ] && echo "$settings" || echo stock)" & done
	wait
fi
for k in stock patched; do
	[ -f "$results/peer-$name-$k.rc" ] || { warn "peer ($name): no $k run yet (PEER_ONLY)"; exit 1; }
	[ "$(cat "$results/peer-$name-$k.rc")" = 0 ] ||
		{ warn "peer ($name): the $k guest failed:"; grep -E 'warning|error' "$results/peer-$name-$k.run.log" >&2 || true; }
done
rc=0
"$top/scripts/peer-report.py" "$name" "$results/peer-$name-stock.console" \
	"$results/peer-$name-patched.console" "$kernel_report_re" "$kernel_benign_re" \
	>"$results/peer-$name.md" || rc=1
cat "$results/peer-$name.md"
if [ "${PEER_DOCS:-0}" = 1 ]; then
	mkdir -p "$top/docs/results"
	for f in stock.console patched.console stock.run.log patched.run.log md; do
		cp "$results/peer-$name-$f" "$top/docs/results/peer-mm-$name-$f" 2>/dev/null ||
			cp "$results/peer-$name.$f" "$top/docs/results/peer-mm-$name.$f"
	done
fi
info "peer ($name): $((SECONDS - start))s in all"
for k in stock patched; do [ "$(cat "$results/peer-$name-$k.rc")" = 0 ] || rc=1; done
exit $rc
