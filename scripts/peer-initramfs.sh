#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-initramfs.sh ARCH [VARIANT]: the peer guests' initramfs for the
# kernel build/kernel/ARCH[-VARIANT], build/peer/ARCH/initramfs[-VARIANT].cpio.gz:
# the check guest's
# (build/ARCH/initramfs.cpio.gz, make initramfs) followed by a second
# archive, which the kernel unpacks over the first, holding /peer/run
# (scripts/peer-guest.sh), the peer root (scripts/peer-debs.sh) with the mm
# selftests in /peer/mm (scripts/peer-mm-build.sh; PEER_MM=mm-check takes
# the short pass's) and the kernel's modules.
#
# run_vmtests.sh is copied as run_vmtests-peer.sh with every test under a
# time limit ($PEER_TIMEOUT seconds; peer/peer-timeout.sh prints the
# kernel stacks of a test past it, then SIGKILLs it): the suite has none of
# its own (kselftest's runner puts one on the whole suite), and one hung
# test must not stop the run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
variant=${2:-}
gb=$BUILD/peer/$arch
mmdir=$gb/${PEER_MM:-mm}
kdir=$BUILD/kernel/$arch${variant:+-$variant}
base=$BUILD/$arch/initramfs.cpio.gz
out=$gb/initramfs${variant:+-$variant}.cpio.gz
case $variant in
*-stock) ksrc=$BUILD/linux-stock ;;
*) ksrc=$BUILD/linux ;;
esac
case $arch in
ppc64le) karch=powerpc cross=powerpc64le-linux-gnu- ;;
x86_64) karch=x86 cross= ;;
*) die "unknown ARCH '$arch'" ;;
esac

[ -f "$base" ] || die "$base missing: run 'make initramfs ARCH=$arch'"
[ -x "$mmdir/run_vmtests.sh" ] || die "$mmdir missing: run scripts/peer-mm-build.sh $arch"
[ -f "$kdir/.config" ] || die "$kdir missing: run 'make kernel ARCH=$arch${variant:+ VARIANT=$variant}'"

stage=$(mktemp -d "$gb/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"
mkdir -p "$stage/peer"
cp -a "$gb/root" "$stage/peer/root"
cp -a "$mmdir" "$stage/peer/root/peer/mm"
sed -e 's|^\(ksft_skip=4\)$|\1\
. /peer/mm/peer-timeout.sh\
. /peer/mm/peer-ksm-trace.sh|' -e 's/("\$@" 2>&1) | tap_prefix/(peer_timeout "$@" 2>\&1) | tap_prefix/' \
	"$mmdir/run_vmtests.sh" >"$stage/peer/root/peer/mm/run_vmtests-peer.sh"
cp "$top/peer/peer-timeout.sh" "$stage/peer/root/peer/mm/peer-timeout.sh"
cp "$top/peer/peer-ksm-trace.sh" "$stage/peer/root/peer/mm/peer-ksm-trace.sh"
grep -q 'peer_timeout "\$@"' "$stage/peer/root/peer/mm/run_vmtests-peer.sh" ||
	die "run_vmtests.sh changed: the time limit did not go in"
chmod +x "$stage/peer/root/peer/mm/run_vmtests-peer.sh"
cp "$gb/churn" "$stage/peer/root/peer/churn"
cp "$top/scripts/peer-guest.sh" "$stage/peer/run"
chmod +x "$stage/peer/run"
if grep -q '^CONFIG_MODULES=y' "$kdir/.config"; then
	env -u MAKEFLAGS -u MFLAGS make -s -C "$ksrc" O="$kdir" ARCH="$karch" CROSS_COMPILE="$cross" \
		INSTALL_MOD_PATH="$stage/peer/root/usr" INSTALL_MOD_STRIP=1 modules_install \
		>"$out.modules.log" 2>&1 || { tail -20 "$out.modules.log" >&2; die "modules_install failed"; }
fi

tmp=$(mktemp "$gb/initramfs.XXXXXX")
{
	cat "$base"
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1
} >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
info "peer initramfs ready: ${out#"$top"/} ($(du -h "$out" | cut -f1))"
