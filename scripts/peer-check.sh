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
# report (an OOM kill and ext4 losing data among them), and when the
# stress load came near filling the guest's ext4 or memory: it must fit
# with room to spare (at most 75% of the ext4 in use, at least 25% of
# memory available, sampled every half second).  The categories are those
# whose every test passes or skips on the stock kernel and needs nothing
# the check kernel lacks (make soak runs them all, on both kernels, with
# what they need).  Writes build/results/peer-check.{console,tap,counts}
# and, when it fails, peer-check.note saying what failed.  MMU is - for
# x86_64; VARIANT "" boots the plain kernel, "debug-stock" the unpatched
# one (the settings it lacks are skipped).
#
#   PEER_CHECK_CATS      categories (default below)
#   PEER_CHECK_STRESS    seconds of stress-ng (default 30)
#   PEER_CHECK_SETTINGS  settings (default none,max,auto-proc,auto-sys)
#   PEER_CHECK_LOAD      fit (default) or overfill (scripts/peer-guest.sh)
#   PEER_CHECK_NAME      results' name (default peer-check)
#   PEER_CHECK_BUILT     1: boot what an earlier run built, build nothing
#   PEER_CHECK_BUILD_ONLY  1: build, boot nothing
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-ppc64le}
mmu=${2:-radix}
variant=${3-debug}
# Not cow: stock 7.2.13 hangs in its io_uring fixed-buffer tests in some
# boots under TCG (docs/peer-tests.md); make soak runs it, on both kernels.
cats=${PEER_CHECK_CATS:-madv_populate madv_guard process_madv vma_merge mdwe mlock}
stress=${PEER_CHECK_STRESS:-30}
settings=${PEER_CHECK_SETTINGS:-none,max,auto-proc,auto-sys}
load=${PEER_CHECK_LOAD:-fit}
results=$BUILD/results
out=$results/${PEER_CHECK_NAME:-peer-check}
start=$SECONDS

if [ "${PEER_CHECK_BUILT:-0}" != 1 ]; then
	make -s -C "$top" kernel initramfs ARCH="$arch" VARIANT="$variant"
	"$top/scripts/peer-debs.sh" "$arch"
	PEER_MM_CATS=$cats "$top/scripts/peer-mm-build.sh" "$arch"
	PEER_MM=mm-check "$top/scripts/peer-initramfs.sh" "$arch" "$variant"
	[ "${PEER_CHECK_BUILD_ONLY:-0}" = 1 ] && exit 0
fi

set +e
QEMU_INITRD=$BUILD/peer/$arch/initramfs${variant:+-$variant}.cpio.gz QEMU_CONSOLE=$out.console \
QEMU_TIMEOUT=${PEER_CHECK_TIMEOUT:-900} QEMU_NOTE=$out.note \
QEMU_APPEND="printk.devkmsg=on peer.settings=$settings peer.cats=$(echo $cats | tr ' ' ,) peer.timeout=120 peer.stress=$stress peer.load=$load" \
	"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$variant" >"$out.run.log" 2>&1
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
	/^# peer-stress: peak ext4 used / {
		split($0, pct, "(")
		disk = pct[2] + 0; mem = pct[3] + 0
		ok = (disk <= 75 && mem >= 25)
		line = $0; sub(/^# peer-stress: /, "", line)
		print (ok ? "ok " : "not ok ") ++n " the stress load fits: at most 75% of ext4, at least 25% of memory available (" line ")"
	}
	/^# peer-stress: END / {
		ok = ($0 ~ /stress-ng rc=0 churn rc=0/)
		print (ok ? "ok " : "not ok ") ++n " stress-ng --verify with the churner (" $0 ")"
	}
' "$out.console" >"$out.tap"
grep -E '^not ok' "$out.tap" || true
grep -E '^# peer-(stress-ng|churn): .*(fail|error|churn:|bogo)' "$out.console" | head -20 || true
"$top/scripts/tap-count.sh" "$out.tap" >"$out.counts"
read -r p f s <"$out.counts"
if [ $qrc != 0 ] || [ "$f" != 0 ] || [ "$p" = 0 ]; then
	# What failed, in the line make check prints: the guest's reasons
	# (kernel reports, a timeout) and the first failed test.
	why=$(cat "$out.note" 2>/dev/null || true)
	first=$(grep -m1 -E '^not ok' "$out.tap" | sed 's/^not ok [0-9]* //' || true)
	[ -n "$first" ] && why="${why:+$why; }$f test(s) failed, first: $first"
	[ "$p" = 0 ] && why="${why:+$why; }no test ran"
	echo "${why:-the guest failed, see ${out#"$top"/}.run.log}" >"$out.note"
	info "peer-check: $p passed, $f failed, $s skipped ($((SECONDS - start))s), $(cat "$out.note")"
	grep -E 'warning|error' "$out.run.log" >&2 || true
	[ "$f" = 0 ] && echo "$p 1 $s" >"$out.counts"
	exit 1
fi
info "peer-check: $p passed, $f failed, $s skipped ($((SECONDS - start))s)"
