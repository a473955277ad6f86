#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh ARCH: pack the guest root for ARCH into
# build/ARCH/initramfs.cpio.gz: busybox-static, glibc's loader and libraries
# (the guest programs are dynamic so that the preload shim works), the
# selftests, the library, the CLI and the examples, and scripts/guest-init.
#
# The guest programs must already be built into build/ARCH/ (make guest).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-ppc64le}
gb=$BUILD/$arch

case $arch in
ppc64le)
	busybox=$BUILD/sysroot/ppc64le/bin/busybox
	libdir=/usr/powerpc64le-linux-gnu/lib
	triplet=powerpc64le-linux-gnu
	ldso=ld64.so.2
	;;
x86_64)
	busybox=/bin/busybox
	libdir=/lib/x86_64-linux-gnu
	triplet=x86_64-linux-gnu
	ldso=ld-linux-x86-64.so.2
	;;
*) die "unknown ARCH '$arch'" ;;
esac

[ -x "$busybox" ] || die "$busybox missing: run 'make deps' (busybox-static)"
[ -d "$gb/selftests" ] || die "guest programs for $arch not built: run 'make guest ARCH=$arch'"

# A staging root and archive of this run's own: benchmarks may build the
# initramfs for one guest while another guest of the same arch boots.
root=$(mktemp -d "$gb/root.XXXXXX")
chmod 755 "$root"	# the guest's /, which mktemp made 0700
cpio_tmp=$(mktemp "$gb/initramfs.XXXXXX")
trap 'rm -rf "$root" "$cpio_tmp"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,mnt,lib64,lib/"$triplet",faultaround}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"

for l in libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libgcc_s.so.1; do
	[ -e "$libdir/$l" ] && cp -L "$libdir/$l" "$root/lib/$triplet/"
done
if [ "$arch" = x86_64 ]; then
	cp -L /lib64/$ldso "$root/lib64/"
else
	cp -L "$libdir/$ldso" "$root/lib64/"
fi

# Everything make guest built, as laid out in build/ARCH.
for d in selftests bench; do
	[ -d "$gb/$d" ] || continue
	mkdir -p "$root/faultaround/$d"
	find "$gb/$d" -maxdepth 1 -type f \( -perm -u+x -o -name TESTS \) \
		-exec cp -a {} "$root/faultaround/$d/" \;
done
# The library keeps its build layout (tests find it through $ORIGIN/..),
# plus its shell tests and a runner that is "make check" without make.
if [ -d "$gb/libfaultaround" ]; then
	lib=$root/faultaround/libfaultaround
	# (not the headers staged for building: nothing compiles in the guest)
	rsync -a --exclude obj --exclude '.flags' --exclude /include --exclude series-include \
		"$gb/libfaultaround/" "$lib/"
	mkdir -p "$lib/test-scripts"
	cp "$top"/libfaultaround/test/*.sh "$lib/test-scripts/"
	tests=$(make -s --no-print-directory -C "$top/libfaultaround" print-tests)
	printf '#!/bin/sh\ncd /faultaround/libfaultaround &&\nexec sh test-scripts/run.sh /faultaround/libfaultaround /faultaround/libfaultaround/examples /faultaround/libfaultaround/test-scripts %s\n' \
		"$tests" >"$lib/run-check"
	chmod +x "$lib/run-check"
	echo run-check >"$lib/TESTS"
fi
# The real programs' smoke test; the programs are on their own disk
# (scripts/programs-image.sh).
mkdir -p "$root/faultaround/programs"
cp "$top/bench/programs/smoke.sh" "$top/bench/programs/workloads.sh" \
	"$top/bench/programs/bench.sh" "$root/faultaround/programs/"
echo smoke.sh >"$root/faultaround/programs/TESTS"
[ -x "$top/scripts/guest-demo.sh" ] && cp "$top/scripts/guest-demo.sh" "$root/faultaround/demo.sh"
cp "$top/scripts/guest-init" "$root/init"
chmod +x "$root/init"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 >"$cpio_tmp"
chmod 644 "$cpio_tmp"
mv "$cpio_tmp" "$gb/initramfs.cpio.gz"
info "initramfs ready: ${gb#"$top"/}/initramfs.cpio.gz ($(du -h "$gb/initramfs.cpio.gz" | cut -f1))"
