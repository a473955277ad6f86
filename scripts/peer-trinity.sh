#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-trinity.sh ARCH MMU VARIANT [OPS]: trinity, the system call fuzzer,
# on the kernel build/kernel/ARCH-VARIANT in one guest (MMU is - for
# x86_64): mmap, munmap, mremap, madvise, process_madvise, mprotect, mseal,
# prctl, fork and execve, those trinity knows, for OPS operations (trinity
# -N, default 12000), as nobody, with peer/trinity-preload.c preloaded so
# that about half of the fuzzed madvise(), process_madvise() and prctl()
# calls carry the series' advice and prctl options, valid and invalid
# (trinity's tables predate them).  The guest side is peer/trinity-guest.sh.
# Prints one line,
#
#   peer: trinity GUEST calls N new-code M reports R
#
# N the system calls trinity ran ("Ran N syscalls", its own count); M the
# calls that reached the new code: the calls the wrapper turned into the
# new advice or options, as logged by it one line a call with the kernel's
# answer (0 on a kernel without the series, whose madvise() and prctl()
# have no such code and refuse them all); R the kernel report lines on the
# console (the patterns of scripts/lib.sh, as every guest uses).  What the
# calls got back, and how many fault-arounds the fault_around tracepoint
# saw by the source of their window, go to build/results/peer-trinity-GUEST.md
# and to stderr.  Fails on a kernel report, on a guest that did not finish,
# and when trinity ran nothing.
#
#   PEER_TRINITY_CALLS     the system calls (comma-separated, default above)
#   PEER_TRINITY_TIMEOUT   seconds trinity may take in the guest (default 1500)
#   PEER_TRINITY_BUILT     1: boot what is built (kernel, initramfs, peer root)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

[ $# -ge 3 ] || die "usage: peer-trinity.sh ARCH MMU VARIANT [OPS]"
arch=$1
mmu=$2
variant=$3
ops=${4:-12000}
calls=${PEER_TRINITY_CALLS:-mmap,munmap,mremap,madvise,process_madvise,mprotect,mseal,prctl,fork,execve}
limit=${PEER_TRINITY_TIMEOUT:-1500}
case $arch in
ppc64le) cross=powerpc64le-linux-gnu- name=pseries-$mmu ;;
x86_64) cross='' name=x86_64 mmu=- ;;
*) die "unknown ARCH '$arch'" ;;
esac
name+=${variant:+-$variant}
gb=$BUILD/peer/$arch
results=$BUILD/results
out=$results/peer-trinity-$name
start=$SECONDS
mkdir -p "$results" "$gb"

if [ "${PEER_TRINITY_BUILT:-0}" != 1 ]; then
	make -s -C "$top" kernel initramfs ARCH="$arch" VARIANT="$variant"
	"$top/scripts/peer-debs.sh" "$arch"
fi
base=$BUILD/$arch/initramfs.cpio.gz
[ -f "$base" ] || die "$base missing: run 'make initramfs ARCH=$arch'"
[ -x "$gb/root/usr/bin/trinity" ] || die "no trinity in ${gb#"$top"/}/root: run scripts/peer-debs.sh $arch"

# The wrapper, built for the guest against the project's uapi header.
"${cross}gcc" -std=c11 -O2 -Wall -Wextra -Werror -fPIC -shared \
	-I"$top/include/uapi" -o "$gb/trinity-preload.so" "$top/peer/trinity-preload.c" -ldl ||
	die "peer/trinity-preload.c did not build"

# The check guest's initramfs, then the peer root with the wrapper and the
# driver as /peer/run (no mm selftests, no modules: trinity needs neither).
initrd=$gb/initramfs-trinity.cpio.gz
stage=$(mktemp -d "$gb/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
mkdir -p "$stage/peer"
cp -a "$gb/root" "$stage/peer/root"
mkdir -p "$stage/peer/root/peer"
cp "$gb/trinity-preload.so" "$stage/peer/root/peer/trinity-preload.so"
cp "$top/peer/trinity-guest.sh" "$stage/peer/run"
chmod 755 "$stage/peer/run" "$stage/peer/root/peer/trinity-preload.so"
{
	cat "$base"
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1
} >"$initrd.tmp"
mv "$initrd.tmp" "$initrd"
rm -rf "$stage"
trap - EXIT

set +e
QEMU_INITRD=$initrd QEMU_CONSOLE=$out.console QEMU_NOTE=$out.note \
QEMU_TIMEOUT=$((limit + 900)) \
QEMU_APPEND="printk.devkmsg=on peer.trinity.ops=$ops peer.trinity.calls=$calls peer.trinity.timeout=$limit" \
	"$top/scripts/qemu-run.sh" "$arch" "$mmu" peer "$variant" >"$out.run.log" 2>&1
qrc=$?
set -e

c=$out.console
field() { sed -n "s/^# peer-trinity: $1.*/\\1/p" "$c" | tail -1; }
n=$(field 'ran \([0-9]*\)')
rewritten=$(field 'rewritten \([0-9]*\)')
kernel=$(field 'END rc=[0-9]* kernel=\([a-z]*\)')
reports=$(grep -E "$kernel_report_re" "$c" | grep -cvE "$kernel_benign_re" || true)
m=${rewritten:-0}
[ "$kernel" = stock ] && m=0
{
	echo "## trinity on $name, $ops operations"
	echo
	echo '```'
	grep -E '^# peer-trinity(-kind|-list|-event)?: ' "$c" | sed 's/^# //' || echo "(no trinity output)"
	echo '```'
	echo
	echo "trinity's last lines:"
	echo
	echo '```'
	grep -E '^# peer-trinity-out: ' "$c" | sed 's/^# peer-trinity-out: //' | tail -60 || true
	echo '```'
	[ -s "$out.note" ] && { echo; echo "guest: $(cat "$out.note")"; }
	echo
	line="peer: trinity $name calls ${n:-0} new-code $m reports $reports"
	echo "$line"
} >"$out.md"
grep -E '^peer-trinity(-kind|-list|-event)?: ' "$out.md" | sed 's/^/  /' >&2 || true
[ -s "$out.note" ] && warn "$name: $(cat "$out.note")"
info "peer-trinity ($name): $((SECONDS - start))s, details in ${out#"$top"/}.md"
echo "peer: trinity $name calls ${n:-0} new-code $m reports $reports"
[ "$qrc" = 0 ] && [ "$reports" = 0 ] && [ "${n:-0}" -gt 0 ]
