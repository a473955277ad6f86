#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profile.sh ARCH MMU NAME 'COMMANDS' [VARIANT]: where the guest kernel's
# instructions go.  Boots the guest's shell (scripts/qemu-run.sh ... shell)
# under qemu -icount shift=0 with one vCPU and the tbprof plugin
# (bench/tbprof), types COMMANDS into it, and when the guest has powered
# off writes build/profile/NAME.prof (instructions per translation block
# of the kernel) and NAME.console.  Then, for example:
#   bench/tbprof/tbprof-report.py build/kernel/x86_64/System.map \
#       build/profile/stock.prof build/profile/auto.prof --per FAULTS
# Two profiles compare only when taken on the same kernel image.
#
#   PROFILE_TIMEOUT   seconds for the whole run (default 1800)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

[ $# -ge 4 ] || die "usage: profile.sh ARCH MMU NAME 'COMMANDS' [VARIANT]"
arch=$1 mmu=$2 name=$3 commands=$4 variant=${5:-}
outdir=$BUILD/profile
plugin=$BUILD/host/tbprof/tbprof.so
case $arch in
ppc64le) lo=c000000000000000 ;;
x86_64) lo=ffffffff80000000 ;;
*) die "unknown ARCH '$arch' (ppc64le or x86_64)" ;;
esac

make -s -C "$top/bench/tbprof" O="$BUILD/host/tbprof"
mkdir -p "$outdir"
console=$outdir/$name.console prof=$outdir/$name.prof
rm -f "$console" "$prof"
fifo=$(mktemp -u "$outdir/.$name.XXXXXX")
mkfifo "$fifo"
trap 'rm -f "$fifo"; kill $typist 2>/dev/null || true' EXIT

# Type the commands once the shell is up; keep the fifo open until qemu
# exits, so that the guest's console never sees an end of input.
(
	exec 3>"$fifo"
	until grep -q "faultaround guest shell" "$console" 2>/dev/null; do sleep 1; done
	sleep 2
	printf '%s\nexit\n' "$commands" >&3
	sleep infinity
) &
typist=$!

QEMU_SMP=1 QEMU_EXTRA="-icount shift=0 -plugin $plugin,out=$prof,lo=$lo" \
	timeout "${PROFILE_TIMEOUT:-1800}" "$top/scripts/qemu-run.sh" "$arch" "$mmu" shell $variant \
	<"$fifo" >"$console" 2>&1 || die "the guest did not power off (see ${console#"$top"/})"
[ -s "$prof" ] || die "no profile written: ${prof#"$top"/}"
info "profile: ${prof#"$top"/} ($(wc -l <"$prof") blocks), console: ${console#"$top"/}"
