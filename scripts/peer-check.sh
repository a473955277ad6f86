#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-check.sh [ARCH [MMU [VARIANT]]]: the short peer pass of make check,
# on a kernel that make check builds anyway (no kernel of its own; by
# default the ppc64le debug kernel in a pseries radix guest, which make
# check has booted just before): a few categories of the kernel's mm
# selftests under every setting of scripts/peer-guest.sh, then stress-ng's
# VM stressors with --verify next to the churner, in one guest.  It fails
# on a failed or hung test, a stress-ng or churner failure, or any kernel
# report.  The categories are those whose every test passes or skips on
# the stock kernel and needs nothing the check kernel lacks (make soak runs
# them all, on both kernels, with what they need).  Writes
# build/results/peer-check.{console,tap,counts}.  MMU is - for x86_64;
# VARIANT "" boots the plain kernel.
#
#   PEER_CHECK_CATS     categories (default below)
#   PEER_CHECK_STRESS   seconds of stress-ng (default 30)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-ppc64le}
mmu=${2:-radix}
variant=${3-debug}
cats=${PEER_CHECK_CATS:-madv_populate madv_guard process_madv vma_merge mdwe mlock cow}
stress=${PEER_CHECK_STRESS:-30}
results=$BUILD/results
start=$SECONDS

make -s -C "$top" kernel initramfs ARCH="$arch" VARIANT="$variant"
"$top/scripts/peer-debs.sh" "$arch"
PEER_MM_CATS=$cats "$top/scripts/peer-mm-build.sh" "$arch"
PEER_MM=mm-check "$top/scripts/peer-initramfs.sh" "$arch" "$variant"

set +e
QEMU_INITRD=$BUILD/peer/$arch/initramfs${variant:+-$variant}.cpio.gz QEMU_CONSOLE=$results/peer-check.console \
QEMU_TIMEOUT=${PEER_CHECK_TIMEOUT:-900} \
QEMU_APPEND="printk.devkmsg=on peer.settings=none,max,auto-proc,auto-sys peer.cats=$(echo $cats | tr ' ' ,) peer.timeout=120 peer.stress=$stress" \
	"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$variant" >"$results/peer-check.run.log" 2>&1
qrc=$?
set -e
# The TAP of every setting, each test named after its setting, so that
# tap-count.sh counts them and a failure names where it happened; our
# faultaround_stock in each setting is one more test, failed by a failure
# or by a system default it did not put back.
awk '
	/^# peer-setting: BEGIN / { s = $4 }
	/^# peer-setting: END / { s = "" }
	/^# peer-setting: SKIPPED / { sub(/^# peer-setting: SKIPPED /, ""); print "ok " ++n " " $0 " # SKIP"; next }
	s != "" && /^(not )?ok [0-9]+ / {
		line = $0; sub(/^(not )?ok [0-9]+ /, "", line)
		print ($1 == "not" ? "not ok " : "ok ") ++n " " s ": " line
	}
	/^# peer-own: / {
		ok = ($0 ~ / rc=0 / && $0 ~ /default_bytes kept/)
		line = $0; sub(/^# peer-own: /, "", line)
		print (ok ? "ok " : "not ok ") ++n " " line
	}
	/^# peer-stress: END / {
		ok = ($0 ~ /stress-ng rc=0 churn rc=0/)
		print (ok ? "ok " : "not ok ") ++n " stress-ng --verify with the churner (" $0 ")"
	}
' "$results/peer-check.console" >"$results/peer-check.tap"
grep -E '^not ok' "$results/peer-check.tap" || true
grep -E '^# peer-(stress-ng|churn): .*(fail|error|churn:|bogo)' "$results/peer-check.console" | head -20 || true
"$top/scripts/tap-count.sh" "$results/peer-check.tap" >"$results/peer-check.counts"
read -r p f s <"$results/peer-check.counts"
info "peer-check: $p passed, $f failed, $s skipped ($((SECONDS - start))s)"
if [ $qrc != 0 ] || [ "$f" != 0 ] || [ "$p" = 0 ]; then
	grep -E 'warning|error' "$results/peer-check.run.log" >&2 || true
	[ "$f" = 0 ] && echo "$p 1 $s" >"$results/peer-check.counts"
	exit 1
fi
