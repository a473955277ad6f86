#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-uprobes.sh READELF BINARY FUNC...: for each FUNC that BINARY defines
# as a function (not inlined away), print "FUNC 0xOFFSET", its offset in
# the file, which is what a uprobe_events line takes after "BINARY:".
# A function that is not in the symbol table (inlined) is left out, so
# the guest probes what the compiler kept.  The offset is the symbol's address
# less its PT_LOAD segment's address plus that segment's file offset,
# which holds for position-dependent and position-independent binaries.
set -euo pipefail

readelf=$1 bin=$2
shift 2
segs=$("$readelf" -lW "$bin" | awk '$1 == "LOAD" { print $3, $2, $5 }')
for f in "$@"; do
	# The name is the last field (ppc64le adds "[<localentry>: N]" before
	# it); a copy the compiler specialised ("f.isra.0") counts as f.  On
	# ppc64le a static function is entered at its local entry point, N
	# bytes past its symbol, so the probe goes there.
	read -r addr local < <("$readelf" -sW "$bin" | awk -v f="$f" '
		$4 == "FUNC" && ($NF == f || ($NF ~ "^" f "\\.(isra|constprop)\\.")) {
			n = 0
			if (match($0, /<localentry>: [0-9]+/))
				n = substr($0, RSTART + 14, RLENGTH - 14)
			# 1 means "r2 not kept", not an offset
			if (n == 1)
				n = 0
			print $2, n
			if ($NF == f)
				exit
		}' | tail -1) || true
	[ -n "${addr:-}" ] || continue
	addr=$(printf '%x' $((0x$addr + local)))
	echo "$segs" | while read -r vaddr off filesz; do
		if (( 0x$addr >= vaddr && 0x$addr < vaddr + filesz )); then
			printf '%s 0x%x\n' "$f" $((0x$addr - vaddr + off))
			break
		fi
	done
done
