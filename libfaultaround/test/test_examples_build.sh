#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Each example builds on its own with a bare cc and no flags but where the
# headers and the library are, as from the -dev package's examples
# directory: no -D_GNU_SOURCE, no -std.  Needs the compiler, so the host
# runs it and the guests do not.  The Makefile passes FA_CC and FA_CFLAGS.
O=$1
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
CC=${FA_CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
examples=$(cd "$src/examples" && ls *.c)
tap_plan $(echo $examples | wc -w)
# A copy, as installed: the .c files and example.h, nothing else.
cp "$src"/examples/*.c "$src/examples/example.h" "$tmp/"
for e in $examples; do
	(cd "$tmp" && $CC $FA_CFLAGS -I"$src/libfaultaround/include" -I"$O/include" \
		-o "${e%.c}" "$e" "$O/libfaultaround.a" -pthread) > "$tmp/cc.log" 2>&1
	tap_check "examples/$e builds alone with a bare $CC" [ -x "$tmp/${e%.c}" ]
	sed 's/^/# /' "$tmp/cc.log"
done
tap_done
