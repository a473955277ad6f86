#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The manual pages: the build dates them and fills in the version and the
# shim's directory (O/man; the source tree has placeholders, no date); each
# renders with man -l (from any directory, aliases included) without a
# warning, and faultaround(1) and faultaround_parse_size(3) say what the
# launcher and the parser take.  man(1) is needed for the rendering, so the
# host runs this and the guests do not.
O=$1
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
man_dir=$O/man
MAKE=${FA_MAKE:-make}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pages=$(cd "$src/man" && ls *.[137])
n=$(echo $pages | wc -w)
tap_plan $((n + 13))

dated=$(grep -l '^\.TH .*[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]' "$src"/man/*.[137])
tap_check "no page in the source tree carries a date" [ -z "$dated" ]
[ -z "$dated" ] || echo "$dated" | sed 's/^/# dated: /'
"$MAKE" -s --no-print-directory -C "$src/libfaultaround" O="$tmp/o" \
	SOURCE_DATE_EPOCH=86400 SHIMDIR=/opt/fa/shim man > "$tmp/make.log" 2>&1
th=$(head -1 "$tmp/o/man/faultaround.1")
version=$(sed -n 's/^#define LIBFAULTAROUND_VERSION[[:space:]]*"\(.*\)"/\1/p' "$src/libfaultaround/include/faultaround.h")
tap_check "the build dates the pages from SOURCE_DATE_EPOCH, with the version" \
	[ "$th" = ".TH FAULTAROUND 1 1970-01-02 \"libfaultaround $version\" \"User Commands\"" ]
echo "# $th"
sed 's/^/# make: /' "$tmp/make.log"
left=$(grep -l '@[A-Z]*@' "$man_dir"/*.[137] "$tmp"/o/man/*.[137])
tap_check "no placeholder is left in a built page" [ -z "$left" ]
[ -z "$left" ] || echo "$left" | sed 's/^/# /'
tap_check "faultaround(1) and faultaround(7) name the shim's installed path" \
	sh -c "grep -q '/opt/fa/shim/libfaultaround-preload.so' '$tmp/o/man/faultaround.1' &&
	       grep -q 'LD_PRELOAD=/opt/fa/shim/libfaultaround-preload.so' '$tmp/o/man/faultaround.7'"
tap_check "an alias page stays a link" [ -L "$tmp/o/man/faultaround_set_bytes.3" ]

if ! command -v man > /dev/null 2>&1; then
	for i in $(seq 1 $((n + 8))); do tap_skip "manual page check $i" "no man(1)"; done
	tap_done
	exit
fi
# Plain text of page $1 (a path), wide enough that nothing wraps.
render() { (cd / && LC_ALL=C MANWIDTH=200 man --warnings -l "$1"); }

for p in $pages; do
	render "$man_dir/$p" > "$tmp/out" 2> "$tmp/err"
	if [ -s "$tmp/err" ] || ! grep -q '^NAME' "$tmp/out" ||
	   [ "$(grep -c . "$tmp/out")" -lt 5 ]; then
		tap_not_ok "man -l $p renders"
		sed 's/^/# /' "$tmp/err"
	else
		tap_ok "man -l $p renders"
	fi
done

# faultaround(1): the SYNOPSIS is the usage line of --help, and every
# option --help lists is described.
"$O/faultaround" --help > "$tmp/help"
render "$man_dir/faultaround.1" > "$tmp/fa.1" 2> /dev/null
# (--help wraps its usage line to stay under 80 columns.)
usage=$(sed -n '1s/^Usage: //p; 2s/^ *\[/[/p' "$tmp/help" | tr '\n' ' ' | sed 's/ $//')
synopsis=$(sed -n '/^SYNOPSIS/{n;p;}' "$tmp/fa.1" | sed 's/^ *//')
tap_check "faultaround(1) SYNOPSIS is the usage of --help" [ "$usage" = "$synopsis" ]
[ "$usage" = "$synopsis" ] || printf '# --help: %s\n# man:    %s\n' "$usage" "$synopsis"
missing=
for o in $(grep -o -- '--[a-z]*' "$tmp/help" | sort -u); do
	grep -q -- "$o" "$tmp/fa.1" || missing="$missing $o"
done
tap_check "faultaround(1) describes every option of --help" [ -z "$missing" ]
[ -z "$missing" ] || echo "# not in faultaround(1):$missing"

# faultaround_parse_size(3): the SIZE grammar names every form the parser
# takes.
render "$man_dir/faultaround_parse_size.3" | tr '\n' ' ' | tr -s ' ' |
	sed -n 's/.*\(A SIZE is one of.*\)RULES is.*/\1/p' > "$tmp/grammar"
missing=
for w in K M G T order:N auto unset; do
	grep -qw -- "$w" "$tmp/grammar" || missing="$missing $w"
done
tap_check "faultaround_parse_size(3) SIZE names every form the parser takes" [ -z "$missing" ]
[ -z "$missing" ] || echo "# missing:$missing"

# faultaround_set(3), faultaround_set_default(3): EINVAL names the orders
# the library takes (AUTO and UNSET are above the limit, not negative), and
# faultaround_get_default(3) every value it returns.
for p in faultaround_set.3 faultaround_set_default.3; do
	render "$man_dir/$p" | tr '\n' ' ' | tr -s ' ' |
		sed -n 's/.*ERRORS\(.*\)ENOTSUP.*/\1/p' > "$tmp/errors"
	tap_check "$p: EINVAL names 0 to the limit, AUTO and UNSET as accepted" \
		sh -c "grep -q 'FAULTAROUND_ORDER_LIMIT (253), FAULTAROUND_AUTO (254) and FAULTAROUND_UNSET (255)' '$tmp/errors'"
done
render "$man_dir/faultaround_get_default.3" | tr '\n' ' ' | tr -s ' ' |
	sed -n 's/.*RETURN VALUE\(.*\)ERRORS.*/\1/p' > "$tmp/ret"
tap_check "faultaround_get_default(3): RETURN VALUE names FAULTAROUND_AUTO" \
	grep -q 'FAULTAROUND_AUTO' "$tmp/ret"

# faultaround(1) says what the launcher and the shim do with
# FAULTAROUND_DEBUG (any value but '' and 0), and that without the feature
# the shim is not looked for (so FAULTAROUND_PRELOAD may name nothing).
tr '\n' ' ' < "$tmp/fa.1" | tr -s ' ' > "$tmp/fa.1.flat"
tap_check "faultaround(1): FAULTAROUND_DEBUG is on for any value but '' and 0" \
	grep -q "FAULTAROUND_DEBUG Passed on to the shim, which logs its decisions for any value but the empty string and 0" "$tmp/fa.1.flat"
tap_check "faultaround(1): without the feature the shim is not looked for" \
	grep -q "The shim is then neither preloaded nor looked for" "$tmp/fa.1.flat"
tap_done
