#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-mm-build.sh ARCH: build all of the kernel's tools/testing/selftests/mm
# from the series' tree (build/linux, the tree the patched kernel is built
# from) into build/peer/ARCH/mm, installed the kselftest way (make install:
# programs, run_vmtests.sh and its helper scripts).  The stock kernel runs
# the same binaries, so that the two kernels differ and nothing else; the
# tree's faultaround category is our own tests and not part of the peer
# comparison (scripts/peer-guest.sh leaves it out).
#
# Built against the series' uapi headers (headers_install) and the peer
# root's libcap and libnuma (scripts/peer-debs.sh); liburing statically, as
# the guests have no liburing.so.  The page_frag test module is not built:
# it needs the kernel's Module.symvers in the source tree, which the build
# keeps under build/kernel; test_page_frag.sh then skips.  Also builds the
# stress runs' churner, peer/churn.c, into build/peer/ARCH/churn.
#
# PEER_MM_CATS="CAT ..." builds only the programs of those run_vmtests.sh
# categories (and faultaround_stock), into build/peer/ARCH/mm-check: the
# short pass of make check, which cannot afford the whole suite's build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
src=$BUILD/linux
gb=$BUILD/peer/$arch
root=$gb/root
case $arch in
ppc64le)
	karch=powerpc mmarch=powerpc cross=powerpc64le-linux-gnu- triplet=powerpc64le-linux-gnu
	sysroot=$BUILD/sysroot/ppc64le
	uring_inc="-I$sysroot/usr/include" uring_lib="-L$sysroot/usr/lib/$triplet"
	;;
x86_64)
	# the mm Makefile's ARCH for x86 is x86_64 (protection keys, the high
	# address switch), the kernel's is x86
	karch=x86 mmarch=x86_64 cross= triplet=x86_64-linux-gnu
	uring_inc= uring_lib=
	;;
*) die "unknown ARCH '$arch'" ;;
esac
[ -f "$root/.key" ] || die "$root missing: run scripts/peer-debs.sh $arch"

exec 9>"$BUILD/.kernel-tree.lock"
flock -s 9

mm=$src/tools/testing/selftests/mm
out=$gb/mm-build
inst=$gb/mm
cats=${PEER_MM_CATS:-}
[ -n "$cats" ] && inst=$gb/mm-check out=$gb/mm-build
hdr=$gb/kheaders
mkdir -p "$out" "$hdr"
log=$gb/mm-build.log
if ! env -u MAKEFLAGS -u MFLAGS make -C "$src" O="$hdr/build" ARCH="$karch" \
		INSTALL_HDR_PATH="$hdr/usr" headers_install >"$log" 2>&1; then
	tail -20 "$log" >&2
	die "headers_install failed (log: ${log#"$top"/})"
fi
# The libraries' headers and link-time files from the peer root (its
# headers after the system's and the series', which the root's older
# linux-libc-dev must not shadow); the run-time ones go into the guest
# with it.
# Only those two in the link path: the root's libc.so is a linker script
# naming the guest's absolute paths, which a cross linker cannot follow.
rm -rf "$gb/linklibs" && mkdir -p "$gb/linklibs"
cp -a "$root/usr/lib/$triplet"/libcap.* "$root/usr/lib/$triplet"/libnuma.* "$gb/linklibs/"
libs="-idirafter $root/usr/include $uring_inc -L$gb/linklibs $uring_lib"
rm -rf "$inst"
mkmm() {
	env -u MAKEFLAGS -u MFLAGS make -k -C "$mm" OUTPUT="$out" CC="${cross}gcc" ARCH="$mmarch" \
		KHDR_INCLUDES="-isystem $hdr/usr/include" EXTRA_CFLAGS="$libs" \
		IOURING_EXTRA_LIBS="-l:liburing.a" INSTALL_PATH="$inst" "$@" >>"$log" 2>&1
}
# The programs run_vmtests.sh runs, of every category or of $cats.
progs() {
	local re=${cats:+$(echo "$cats" | sed 's/ /|/g')}
	sed -nE "s/^.*CATEGORY=\"(${re:-[a-z0-9_-]+})\" run_test (bash )?\.\/([A-Za-z0-9_.-]+).*\$/\3/p" \
		"$mm/run_vmtests.sh" | sort -u
}
if [ -z "$cats" ]; then
	# -k: a program that does not build is reported and left out; the
	# rest run.
	mkmm install || true
else
	mkdir -p "$inst"
	for t in $(progs) faultaround_stock; do
		if [ -f "$mm/$t" ]; then cp "$mm/$t" "$inst/"; else mkmm "$out/$t" && cp "$out/$t" "$inst/" || true; fi
	done
	cp "$mm/run_vmtests.sh" "$mm/settings" "$inst/"
fi
[ -x "$inst/run_vmtests.sh" ] || { tail -30 "$log" >&2; die "the mm selftests did not install (log: ${log#"$top"/})"; }
missing=()
for t in $(progs); do
	[ -e "$inst/$t" ] || missing+=("$t")
done
[ ${#missing[@]} -eq 0 ] || warn "mm selftests not built for $arch: ${missing[*]} (log: ${log#"$top"/})"
printf '%s\n' "${missing[@]}" >"$inst/NOT-BUILT"
# Where ksm_tests' own functions are, for the uprobes of
# peer.trace=ksm-unmerge (peer/peer-ksm-trace.sh).
if [ -f "$inst/ksm_tests" ]; then
	"$top/scripts/peer-uprobes.sh" "${cross}readelf" "$inst/ksm_tests" \
		check_ksm_unmerge ksm_do_scan assert_ksm_pages_count >"$inst/ksm_tests.uprobes"
fi
# The stress runs' other process (peer/churn.c), with the same headers.
"${cross}gcc" -O2 -Wall -Wextra -Werror -isystem "$hdr/usr/include" -o "$gb/churn" "$top/peer/churn.c" ||
	die "peer/churn.c did not build"
info "mm selftests built for $arch: ${inst#"$top"/} ($(find "$inst" -maxdepth 1 -type f -perm -u+x | wc -l) programs and scripts)"
