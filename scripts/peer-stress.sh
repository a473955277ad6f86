#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-stress.sh ARCH [MMU]: stress-ng's VM stressors with --verify next to
# the churner (peer/churn.c; scripts/peer-guest.sh, peer.stress=) on the
# debug kernel and on its stock twin (VARIANT=debug-stock: the unpatched
# tree with the same debug options), one guest after the other so that
# both see the same host.  Prints each kernel's stress-ng metrics side by
# side and the line
#
#   peer: stress GUEST stock rc=N reports=N patched rc=N reports=N verify-failures=N
#
# into build/results/peer-stress-GUEST.md.  Fails on a stress-ng or churner
# failure or any kernel report on either kernel.
#
#   PEER_STRESS   seconds of stress (default 120)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
mmu=${2:-radix}
secs=${PEER_STRESS:-120}
name=$([ "$arch" = x86_64 ] && echo x86_64 || echo "pseries-$mmu")
results=$BUILD/results
out=$results/peer-stress-$name.md
start=$SECONDS

make -s -C "$top" initramfs ARCH="$arch"
for v in debug debug-stock; do "$top/scripts/kernel.sh" "$arch" "$v"; done
"$top/scripts/peer-debs.sh" "$arch"
PEER_MM_CATS=none "$top/scripts/peer-mm-build.sh" "$arch"
for v in debug debug-stock; do PEER_MM=mm-check "$top/scripts/peer-initramfs.sh" "$arch" "$v"; done

rc=0
for v in debug-stock debug; do
	k=$([ $v = debug-stock ] && echo stock || echo patched)
	QEMU_INITRD=$BUILD/peer/$arch/initramfs-$v.cpio.gz \
	QEMU_CONSOLE=$results/peer-stress-$name-$k.console \
	QEMU_TIMEOUT=$((secs * 4 + 600)) \
	QEMU_APPEND="printk.devkmsg=on peer.cats=none peer.stress=$secs" \
		"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$v" \
		>"$results/peer-stress-$name-$k.run.log" 2>&1 || rc=1
done

{
	echo "## stress-ng --verify next to the churner, $name debug kernels, ${secs}s"
	echo
	for k in stock patched; do
		c=$results/peer-stress-$name-$k.console
		echo "### $k"
		echo '```'
		grep -E '^# peer-(stress|stress-ng|churn): ' "$c" | sed 's/^# peer-//' || echo "(no stress output)"
		echo '```'
	done
	line="peer: stress $name"
	for k in stock patched; do
		c=$results/peer-stress-$name-$k.console
		r=$(sed -n 's/^# peer-stress: END stress-ng rc=\([0-9]*\) churn rc=\([0-9]*\).*/\1,\2/p' "$c")
		n=$(grep -E "$kernel_report_re" "$c" | grep -cvE "$kernel_benign_re" || true)
		line+=" $k rc=${r:-none} reports=$n"
	done
	v=$(grep -hcE '^# peer-stress-ng: .*(verif|fail:)' "$results/peer-stress-$name"-*.console | paste -sd+ | bc)
	echo "$line verify-failures=$v"
} >"$out"
cat "$out"
grep -q 'stock rc=0,0 reports=0 patched rc=0,0 reports=0 verify-failures=0' "$out" || rc=1
info "peer-stress ($name): $((SECONDS - start))s"
exit $rc
