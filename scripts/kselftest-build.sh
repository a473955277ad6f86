#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-build.sh ARCH OUTDIR: build the fault-around selftests the way a
# kernel developer does, from the series' copy in the kernel tree (the last
# patch puts selftests/ under tools/testing/selftests/mm/): the series' uapi
# headers installed with headers_install, then the mm selftests Makefile,
# for the tests of the run_vmtests.sh category "faultaround" only (the other
# mm tests need what the guests lack).  Writes OUTDIR/TESTS, the list the
# guest runs, from that category.
#
# The io_uring stress test links liburing statically, as the guests have no
# liburing.so; the Makefile builds it only when IOURING_EXTRA_LIBS is set.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:?ARCH}
out=${2:?OUTDIR}
src=${KSELFTEST_TREE:-$BUILD/linux}
hdr=$BUILD/$arch/kheaders

case $arch in
ppc64le)
	karch=powerpc cross=powerpc64le-linux-gnu-
	sysroot=$BUILD/sysroot/ppc64le
	uring="-I$sysroot/usr/include -L$sysroot/usr/lib/powerpc64le-linux-gnu -l:liburing.a"
	;;
x86_64)
	karch=x86 cross=
	uring=-l:liburing.a
	;;
*) die "unknown ARCH '$arch'" ;;
esac

# The tree is shared with kernel.sh, which rewrites it under an exclusive
# lock when the series changes.
if [ "$src" = "$BUILD/linux" ]; then
	exec 9>"$BUILD/.kernel-tree.lock"
	flock -s 9
fi

mm=$src/tools/testing/selftests/mm
tests=$(sed -n 's/^.*CATEGORY="faultaround" run_test \.\/\([a-z0-9_]*\).*$/\1/p' \
	"$mm/run_vmtests.sh")
[ -n "$tests" ] || die "no faultaround category in ${mm#"$top"/}/run_vmtests.sh: is the selftests patch in kernel/patches?"

mkdir -p "$hdr" "$out"
log=$out/build.log
# MAKEFLAGS would hand this make's command-line variables (ARCH=x86_64,
# O=...) down to the kernel's and the selftests' Makefiles.
if ! env -u MAKEFLAGS -u MFLAGS make -C "$src" O="$hdr/build" ARCH="$karch" \
		INSTALL_HDR_PATH="$hdr/usr" headers_install >"$log" 2>&1; then
	tail -20 "$log" >&2
	die "headers_install failed (log: ${log#"$top"/})"
fi
if ! env -u MAKEFLAGS -u MFLAGS make -C "$mm" OUTPUT="$out" CC="${cross}gcc" \
		KHDR_INCLUDES="-isystem $hdr/usr/include" IOURING_EXTRA_LIBS="$uring" \
		$(printf "$out/%s " $tests) >>"$log" 2>&1; then
	grep -E -A5 'error|warning' "$log" | head -40 >&2 || tail -20 "$log" >&2
	die "building the selftests in ${mm#"$top"/} failed (log: ${log#"$top"/})"
fi
printf '%s\n' $tests >"$out/TESTS"
info "selftests built in the kernel tree ($(echo $tests | wc -w) programs): ${out#"$top"/}"
