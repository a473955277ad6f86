#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh: the packages make deb left in build/deb, installed into a
# scratch root with dpkg -x, used as a user would: an example built with
# the installed pkg-config file, headers and library runs, the static
# library links, the launcher runs and the shim loads.  TAP on stdout.
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
echo "1..7"
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
echo "# $n tests, $failed failed"
[ $failed = 0 ]
