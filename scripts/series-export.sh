#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-export.sh [DEVTREE]: regenerate kernel/patches/ from a development
# tree (default build/linux-dev) whose tag "base" is the unpacked tarball
# (as kernel.sh makes it), in two series:
#
#   part1/  base..part1 (branch "part1"): the fault-around changes with no
#           uapi, cover letter kernel/cover-letter-part1.txt;
#   part2/  part1..HEAD, with the selftests patch on top, as an RFC, cover
#           letter kernel/cover-letter-part2.txt.
#
# A cover letter's first line is its subject.  Part 2's last patch, the
# selftests, is generated from selftests/ (the one source) by
# scripts/selftests-in-tree.py, with the commit message in
# kernel/selftests-commit.txt: it is committed on top of HEAD without
# changing the branch or its checkout, so the development tree never carries
# the tests.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

dev=${1:-$BUILD/linux-dev}

[ -d "$dev/.git" ] || [ -f "$dev/.git" ] || die "$dev is not a git tree"
git -C "$dev" rev-parse -q --verify part1 >/dev/null || die "$dev has no branch part1"
git -C "$dev" merge-base --is-ancestor part1 HEAD || die "HEAD of $dev is not on top of part1"

# export NAME FROM TO PREFIX: FROM..TO into kernel/patches/NAME, with its
# cover letter and series file.
export_part() {
	local name=$1 from=$2 to=$3 prefix=$4
	local out=$top/kernel/patches/$name cover=$top/kernel/cover-letter-$name.txt
	mkdir -p "$out"
	rm -f "$out"/*.patch
	git -C "$dev" format-patch -q --cover-letter --base="$from" \
		--subject-prefix="$prefix" -o "$out" "$from..$to"
	python3 - "$out/0000-cover-letter.patch" "$cover" <<'PY'
import sys
path, cover = sys.argv[1:]
text = open(path).read()
subject, blurb = open(cover).read().split("\n", 1)
text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***",
                                                           blurb.strip("\n"))
open(path, "w").write(text)
PY
	(cd "$out" && ls [0-9]*.patch | grep -v '^0000-' >series)
	info "exported $(wc -l <"$out/series") patches to ${out#"$top"/}"
}

head=$("$top/scripts/selftests-in-tree.py" commit "$dev" "$top/kernel/selftests-commit.txt")
export_part part1 base part1 PATCH
export_part part2 part1 "$head" "RFC PATCH"
