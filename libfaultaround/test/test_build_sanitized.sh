#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The library and the shim build with SANITIZE=1 with each compiler this
# machine has (gcc and clang): the usage text offers SANITIZE=1 with any
# CC, and clang links no sanitizer runtime into a shared object unless
# told to.  A scratch build directory; only what make check did not
# already build this way.  Needs make and the compilers: host only.
O=$1
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
MAKE=${FA_MAKE:-make}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
tap_plan 2
for cc in gcc clang; do
	if ! command -v $cc > /dev/null 2>&1; then
		tap_skip "SANITIZE=1 CC=$cc builds the library and the shim" "no $cc"
	elif [ "${FA_SANITIZE:-0}" = 1 ] && "${FA_CC:-cc}" --version 2>/dev/null |
		grep -qi "$cc"; then
		tap_skip "SANITIZE=1 CC=$cc builds the library and the shim" "this check is that build"
	else
		"$MAKE" -s --no-print-directory -C "$src" O="$tmp/$cc" CC=$cc SANITIZE=1 \
			lib shim > "$tmp/$cc.log" 2>&1
		tap_check "SANITIZE=1 CC=$cc builds the library and the shim" \
			sh -c "[ -f '$tmp/$cc/libfaultaround.so.1' ] &&
			       [ -f '$tmp/$cc/libfaultaround-preload.so' ]"
		grep -m5 -i 'error\|undefined' "$tmp/$cc.log" | sed 's/^/# /'
	fi
done
tap_done
