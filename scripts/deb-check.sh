#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh: the packages make deb left in build/deb, installed into a
# scratch root with dpkg -x, used as a user would: an example built with
# the installed pkg-config file, headers and library runs, the static
# library links, the launcher runs and the shim loads; the -dev package's
# examples build with a bare cc; the package build ran the library's tests
# and make deb asks for no more than packaging needs.  TAP on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

debs=$BUILD/deb
root=$debs/root
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=$root/usr/lib/$multiarch
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }

echo "TAP version 13"
echo "1..11"
rm -rf "$root"
mkdir -p "$root"
pkgs=0
for p in libfaultaround1 libfaultaround-dev faultaround; do
	deb=$(ls "$debs/${p}"_*.deb 2>/dev/null | head -1)
	[ -n "$deb" ] && dpkg -x "$deb" "$root" && pkgs=$((pkgs + 1))
done
check "the three packages unpack into a scratch root" [ $pkgs = 3 ]

export PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs libfaultaround 2>&1)
check "pkg-config names the installed headers and library" \
	[ "$(echo $flags)" = "-I$root/usr/include -L$lib -lfaultaround" ]
echo "# pkg-config: $flags"
cc -std=c11 -Wall -Wextra -Werror -o "$debs/seq_scan" "$top/examples/seq_scan.c" \
	$flags -Wl,-rpath,"$lib" >"$debs/cc.log" 2>&1
check "an example builds against the installed package" [ -x "$debs/seq_scan" ]
sed 's/^/# /' "$debs/cc.log"
out=$("$debs/seq_scan" 2>&1)
rc=$?
check "and runs with the installed library" sh -c "[ $rc = 0 ] &&
	ldd '$debs/seq_scan' | grep -q '$lib/libfaultaround.so.1'"
echo "$out" | sed 's/^/# /'
cc -std=c11 -Wall -Werror -o "$debs/seq_scan-static" "$top/examples/seq_scan.c" \
	-I"$root/usr/include" "$lib/libfaultaround.a" -pthread >"$debs/cc.log" 2>&1
check "the static library links, and the program runs" \
	sh -c "'$debs/seq_scan-static' > /dev/null"
out=$("$root/usr/bin/faultaround" --version 2>&1)
check "the installed launcher runs" [ "$out" = "faultaround $(sed -n '1s/^faultaround (\([^)]*\)).*/\1/p' "$top/debian/changelog")" ]
out=$(LD_PRELOAD=$lib/faultaround/libfaultaround-preload.so FAULTAROUND_DEBUG=1 /bin/true 2>&1)
check "the installed shim loads" [ "$out" = "libfaultaround-preload: neither FAULTAROUND nor FAULTAROUND_RULES is set; nothing to do" ]
ex=$root/usr/share/doc/libfaultaround-dev/examples
check "libfaultaround-dev ships the examples" sh -c "[ -f '$ex/seq_scan.c' ] && [ -f '$ex/example.h' ]"
bad=
for c in "$ex"/*.c; do
	[ -f "$c" ] || continue
	e=$(basename "$c" .c)
	cc -o "$debs/ex-$e" "$c" -I"$root/usr/include" -L"$lib" -lfaultaround \
		>"$debs/cc.log" 2>&1 || { bad="$bad $e"; sed 's/^/# /' "$debs/cc.log"; }
done
check "each installed example builds with a bare cc" [ -z "$bad" ]
[ -z "$bad" ] || echo "# failed:$bad"
check "the package build ran the library's tests" \
	grep -q '^# ==== summary: .* test programs passed ====$' "$debs/build.log"
grep '^# ==== summary' "$debs/build.log" | sed 's/^/# build.log: /'
# make deb needs the packaging tools alone: not make deps (qemu, the
# kernel source, the cross tool chain).
check "make deb does not run make deps" sh -c "! make -n -C '$top' deb | grep -q deps.sh"
echo "# $n tests, $failed failed"
[ $failed = 0 ]
