#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-stress.sh ARCH [MMU]: stress-ng's VM stressors with --verify next to
# the churner (peer/churn.c; scripts/peer-guest.sh, peer.stress=) on the
# debug kernel and on its stock twin (VARIANT=debug-stock: the unpatched
# tree with the same debug options), one guest after the other so that
# both see the same host.  Each guest runs the load PEER_STRESS_ROUNDS
# times; scripts/peer-stress-report.py puts the two kernels' bogo ops side
# by side (mean and standard deviation over the rounds, every round in
# build/results/peer-stress-GUEST-raw.csv), and the line
#
#   peer: stress GUEST stock rc=N reports=N patched rc=N reports=N verify-failures=N
#
# ends build/results/peer-stress-GUEST.md.  Fails on a stress-ng or churner
# failure or any kernel report on either kernel.  The guests run without
# -icount: the rates are TCG's on this host's load, a debug kernel's, and
# the churner gives the stock kernel no hints to take (they fail with
# EINVAL there), so they show the load each kernel carried, not a speed.
#
#   PEER_STRESS          seconds of stress per round (default 60)
#   PEER_STRESS_ROUNDS   rounds per kernel (default 3)
#   PEER_STRESS_HINTS=0  the churner makes no hint take effect on the
#                        patched kernel either (churn -n): both kernels
#                        carry the load of a kernel without the series
#   PEER_STRESS_FIRST    the kernel booted first, stock (default) or
#                        patched: a second run the other way round tells
#                        a difference of the kernels from one of the host
#                        between the two boots
#   PEER_STRESS_REPORT_ONLY=1   no build, no boot: the report of the
#                        consoles an earlier run left in build/results
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
mmu=${2:-radix}
secs=${PEER_STRESS:-60}
rounds=${PEER_STRESS_ROUNDS:-3}
case ${PEER_STRESS_HINTS:-1} in
1) hints_arg= hints_title= ;;
0) hints_arg=" peer.churn_hints=0" hints_title=" (churn -n: no hint takes effect)" ;;
*) die "PEER_STRESS_HINTS is 0 or 1" ;;
esac
name=$([ "$arch" = x86_64 ] && echo x86_64 || echo "pseries-$mmu")
results=$BUILD/results
out=$results/peer-stress-$name.md
start=$SECONDS

rc=0
if [ "${PEER_STRESS_REPORT_ONLY:-0}" != 1 ]; then
	make -s -C "$top" initramfs ARCH="$arch"
	for v in debug debug-stock; do "$top/scripts/kernel.sh" "$arch" "$v"; done
	"$top/scripts/peer-debs.sh" "$arch"
	PEER_MM_CATS=none "$top/scripts/peer-mm-build.sh" "$arch"
	for v in debug debug-stock; do PEER_MM=mm-check "$top/scripts/peer-initramfs.sh" "$arch" "$v"; done

	case ${PEER_STRESS_FIRST:-stock} in
	stock) order="debug-stock debug" ;;
	patched) order="debug debug-stock" ;;
	*) die "PEER_STRESS_FIRST is stock or patched" ;;
	esac
	for v in $order; do
		k=$([ $v = debug-stock ] && echo stock || echo patched)
		QEMU_INITRD=$BUILD/peer/$arch/initramfs-$v.cpio.gz \
		QEMU_CONSOLE=$results/peer-stress-$name-$k.console \
		QEMU_TIMEOUT=$((secs * rounds * 4 + 600)) \
		QEMU_APPEND="printk.devkmsg=on peer.cats=none peer.stress=$secs peer.stress_rounds=$rounds$hints_arg" \
			"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$v" \
			>"$results/peer-stress-$name-$k.run.log" 2>&1 || rc=1
	done
fi

{
	echo "## stress-ng --verify next to the churner$hints_title, $name debug kernels, $rounds rounds of ${secs}s"
	echo
	"$top/scripts/peer-stress-report.py" "$name" "$results/peer-stress-$name-stock.console" \
		"$results/peer-stress-$name-patched.console" "$results/peer-stress-$name-raw.csv"
	echo
	for k in stock patched; do
		echo "$k: $(grep -E '^# peer-stress: (peak|END)' "$results/peer-stress-$name-$k.console" |
			sed 's/^# peer-stress: //' | paste -sd';' || echo "(no stress output)")"
	done
	echo
	line="peer: stress $name"
	for k in stock patched; do
		c=$results/peer-stress-$name-$k.console
		# One rc pair per round; a guest that died mid-way ends fewer.
		r=$(sed -n 's/^# peer-stress: END stress-ng rc=\([0-9]*\) churn rc=\([0-9]*\).*/\1,\2/p' "$c" | sort -u | paste -sd/)
		e=$(grep -c '^# peer-stress: END' "$c" || true)
		[ "$e" = "$rounds" ] || r="${r:-none}($e-of-$rounds-rounds)"
		n=$(grep -E "$kernel_report_re" "$c" | grep -cvE "$kernel_benign_re" || true)
		line+=" $k rc=${r:-none} reports=$n"
	done
	# (grep -c exits 1 where it counts none)
	v=$(cat "$results/peer-stress-$name"-{stock,patched}.console | grep -cE '^# peer-stress-ng: .*(verif|fail:)' || true)
	echo "$line verify-failures=$v"
} >"$out"
cat "$out"
grep -q 'stock rc=0,0 reports=0 patched rc=0,0 reports=0 verify-failures=0' "$out" || rc=1
info "peer-stress ($name): $((SECONDS - start))s"
exit $rc
