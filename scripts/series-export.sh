#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-export.sh [DEVTREE]: regenerate kernel/patches/ from a development
# branch (default build/linux-dev, branch checked out there, based on the
# tag "base" that kernel.sh puts on the unpacked tarball).  The cover letter's
# subject and text come from kernel/cover-letter.txt (first line: subject).
#
# The last patch, the selftests, is generated from selftests/ (the one
# source) by scripts/selftests-in-tree.py, with the commit message in
# kernel/selftests-commit.txt: it is committed on top of the development
# branch's HEAD without changing the branch or its checkout, so the
# development tree never carries the tests.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

dev=${1:-$BUILD/linux-dev}
out=$top/kernel/patches
cover=$top/kernel/cover-letter.txt

[ -d "$dev/.git" ] || [ -f "$dev/.git" ] || die "$dev is not a git tree"
head=$("$top/scripts/selftests-in-tree.py" commit "$dev" "$top/kernel/selftests-commit.txt")
rm -f "$out"/*.patch
git -C "$dev" format-patch -q --cover-letter --base=base -o "$out" "base..$head"
subject=$(head -1 "$cover")
python3 - "$out/0000-cover-letter.patch" "$cover" "$subject" <<'PY'
import sys
path, cover, subject = sys.argv[1:]
text = open(path).read()
blurb = open(cover).read().split("\n", 1)[1].strip("\n")
text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
open(path, "w").write(text)
PY
(cd "$out" && ls [0-9]*.patch | grep -v '^0000-' >series)
info "exported $(wc -l <"$out/series") patches to ${out#"$top"/}"
