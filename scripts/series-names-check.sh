#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-names-check.sh TREE PATCH...: every file that a patch names in a
# MAINTAINERS F: line it adds, and every Documentation/ path it names (in
# its message or its lines), exists in TREE, the kernel tree with the whole
# series applied.  TAP, one result per patch.
set -uo pipefail

tree=$1
shift
n=0 bad=0
echo "1..$#"
for p in "$@"; do
	n=$((n + 1))
	missing=()
	while read -r name; do
		[ -n "$name" ] || continue
		# F: entries may be globs or directories; compgen expands both.
		(cd "$tree" && compgen -G "$name" >/dev/null) || missing+=("$name")
	done < <({
		sed -n 's/^+F:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$p"
		grep -o '\(^\|[^[:alnum:]_/.-]\)Documentation/[[:alnum:]_./-]*[[:alnum:]_]' "$p" |
			sed 's/^[^D]*//'
	} | sort -u)
	if [ ${#missing[@]} = 0 ]; then
		echo "ok $n every file $(basename "$p") names exists"
	else
		echo "not ok $n $(basename "$p") names files the series does not create"
		printf '# %s\n' "${missing[@]}"
		bad=1
	fi
done
exit $bad
