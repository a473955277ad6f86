#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# report-re-test.sh LINUX: TAP.  The guest runner fails a run on a console
# line that matches kernel_report_re (scripts/lib.sh).  Check that every
# report header the kernel tree LINUX prints for what the debug guest
# enables (KASAN, KFENCE, lockdep, DEBUG_ATOMIC_SLEEP, DEBUG_LIST and
# DEBUG_VM through WARN and BUG, oopses and panics), and the OOM killer's
# and ext4's lost-write reports, matches it: the headers
# are taken from the source's format strings, so a reworded report in a
# newer kernel fails here instead of passing unseen in the guests.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

linux=${1:?LINUX tree}
n=0 bad=0

# FILE MIN-COUNT ERE: the format strings of FILE that start with ERE (at
# least MIN-COUNT of them), each printed with its conversions filled in.
cases=(
	"mm/kasan/report.c 1 BUG: KASAN:"
	"mm/kfence/report.c 3 BUG: KFENCE:"
	"kernel/locking/lockdep.c 12 (WARNING|BUG): "
	"kernel/sched/core.c 1 BUG: sleeping function"
	"kernel/panic.c 3 (WARNING: |Kernel panic)"
	"lib/bug.c 1 kernel BUG at"
	"arch/x86/kernel/dumpstack.c 1 Oops: "
	"arch/powerpc/kernel/traps.c 1 Oops: "
	"mm/oom_kill.c 1 %s invoked oom-killer"
	"mm/oom_kill.c 1 oom-kill:"
	"fs/ext4/inode.c 2 (Delayed block allocation failed|This should not happen)"
	"fs/ext4/super.c 2 EXT4-fs error"
)

for c in "${cases[@]}"; do
	read -r file min start <<<"$c"
	lines=$(grep -ohE "\"$start[^\"]*" "$linux/$file" | sed 's/^"//; s/\(\\n\)*$//; s/%[-0-9.*#l]*[a-zA-Z]/X/g' || true)
	count=$(printf '%s' "$lines" | grep -c . || true)
	n=$((n + 1))
	if [ "$count" -ge "$min" ]; then
		echo "ok $n $file prints $count report header(s) starting '$start'"
	else
		echo "not ok $n $file prints $count report header(s) starting '$start', expected $min or more"
		bad=1
	fi
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		n=$((n + 1))
		if grep -qE "$kernel_report_re" <<<"$line" && ! grep -qE "$kernel_benign_re" <<<"$line"; then
			echo "ok $n caught: $line"
		else
			echo "not ok $n not caught: $line"
			bad=1
		fi
	done <<<"$lines"
done

# The one line let through, and no more than it.
n=$((n + 1))
if grep -qE "$kernel_benign_re" <<<"WARNING: nvram corruption detected: 0-length partition" &&
   ! grep -qE "$kernel_benign_re" <<<"WARNING: mm/memory.c:1 at do_fault_around+0x0/0x10, CPU#0: init/1"; then
	echo "ok $n only the blank-NVRAM warning is benign"
else
	echo "not ok $n the benign pattern lets through more than the blank-NVRAM warning"
	bad=1
fi
echo "1..$n"
exit $bad
