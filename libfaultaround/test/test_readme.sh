#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# README.md, "Only the library": the lines between its test_readme.sh
# markers, run as written from the top of the clone with a scratch HOME,
# install the library under $HOME/.local and build and run a program
# against it; the program then runs with an empty environment too.  The
# nested make gets O, CC and SANITIZE from make check (MAKEFLAGS).  They
# need nothing but make and the compiler: a pkg-config that fails is first
# in PATH (a fresh Debian has none).
O=$1
. "$(dirname "$0")/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home" "$tmp/bin"
printf '#!/bin/sh\necho "pkg-config: not found" >&2\nexit 127\n' > "$tmp/bin/pkg-config"
chmod +x "$tmp/bin/pkg-config"

tap_plan 6
sed -n '/^<!-- test_readme.sh: begin -->$/,/^<!-- test_readme.sh: end -->$/p' \
	"$top/README.md" | sed -n 's/^    //p' > "$tmp/lines.sh"
tap_check "README.md has the lines" [ -s "$tmp/lines.sh" ]
sed 's/^/# README: /' "$tmp/lines.sh"
(cd "$top" && HOME=$tmp/home PATH=$tmp/bin:$PATH sh -e "$tmp/lines.sh") > "$tmp/out" 2>&1
rc=$?
tap_check "they build and run the program (exit 0)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -15 "$tmp/out" | sed 's/^/# /'
tail -3 "$tmp/out" | sed 's/^/# out: /'
tap_check "the program is the one installed under \$HOME/.local" \
	sh -c "ldd '$tmp/home/seq_scan' | grep -q '$tmp/home/.local/lib/libfaultaround.so.1'"
if [ "${FA_SANITIZE:-0}" = 1 ]; then
	# ASan needs ASAN_OPTIONS to accept a library linked before it.
	tap_skip "it runs with an empty environment" "an ASan build"
else
	tap_check "it runs with an empty environment" sh -c "env -i '$tmp/home/seq_scan' > /dev/null"
fi

# The caveat: what the launcher says on a stock kernel, exactly: each
# "$ faultaround ..." line run with this build, its stdout and stderr
# compared with the lines under it.
sed -n '/^<!-- test_readme.sh: stock kernel: begin -->$/,/^<!-- test_readme.sh: stock kernel: end -->$/p' \
	"$top/README.md" | sed -n 's/^    //p' > "$tmp/stock"
tap_check "README.md shows what the launcher says on a stock kernel" [ -s "$tmp/stock" ]
if fa_supported || [ -n "$LIBFAULTAROUND_DISABLE" ]; then
	tap_skip "the launcher says exactly that" "this kernel has the feature"
else
	: > "$tmp/want"
	: > "$tmp/got"
	while IFS= read -r line; do
		case $line in
		'$ faultaround '*)
			echo "$line" >> "$tmp/want"
			echo "$line" >> "$tmp/got"
			eval "set -- ${line#\$ faultaround }"
			"$O/faultaround" "$@" >> "$tmp/got" 2>&1 ;;
		*) echo "$line" >> "$tmp/want" ;;
		esac
	done < "$tmp/stock"
	tap_check "the launcher says exactly that" cmp -s "$tmp/want" "$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" || diff "$tmp/want" "$tmp/got" | sed 's/^/# /'
fi
tap_done
