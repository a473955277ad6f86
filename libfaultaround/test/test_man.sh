#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The manual pages: each renders with man -l from the source tree (from any
# directory, aliases included) without a warning, and faultaround(1) and
# faultaround_parse_size(3) say what the launcher and the parser take.
# Needs man(1), so the host runs it and the guests do not.
O=$1
. "$(dirname "$0")/tap.sh"
man_dir=$(cd "$(dirname "$0")/../../man" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pages=$(cd "$man_dir" && ls *.[137])
n=$(echo $pages | wc -w)
tap_plan $((n + 3))
if ! command -v man > /dev/null 2>&1; then
	for i in $(seq 1 $((n + 3))); do tap_skip "manual page check $i" "no man(1)"; done
	tap_done
	exit
fi
# Plain text of page $1 (a path), wide enough that nothing wraps.
render() { (cd / && LC_ALL=C MANWIDTH=200 man --warnings -l "$1"); }

for p in $pages; do
	render "$man_dir/$p" > "$tmp/out" 2> "$tmp/err"
	if [ -s "$tmp/err" ] || ! grep -q '^NAME' "$tmp/out" ||
	   [ "$(grep -c . "$tmp/out")" -lt 5 ]; then
		tap_not_ok "man -l man/$p renders"
		sed 's/^/# /' "$tmp/err"
	else
		tap_ok "man -l man/$p renders"
	fi
done

# faultaround(1): the SYNOPSIS is the usage line of --help, and every
# option --help lists is described.
"$O/faultaround" --help > "$tmp/help"
render "$man_dir/faultaround.1" > "$tmp/fa.1" 2> /dev/null
usage=$(sed -n '1s/^Usage: //p' "$tmp/help")
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
tap_done
