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

tap_plan 4
echo "# hints: $HMODE; $CHILDREN children, each run limited to $LIMIT s, $(nproc) CPUs"
# The programs below depend on fork() keeping memory private while other
# threads store on other CPUs: checked first, on its own.  qemu 7.2's TCG
# (Debian 12's) broke that in a POWER guest with two vCPUs (a parent's
# store lost, or a child's store showing up in the parent; radix and hash
# alike), which once left glibc's loader lock free with its waiters asleep
# and hung the parent here.  It set a radix PTE's reference and change bits
# with a plain load and store, which can undo fork()'s write-protection done
# meanwhile on the other vCPU; later qemu raises a storage interrupt
# instead ("target/ppc: Generate storage interrupts for radix RC changes"),
# and Debian's qemu 10.0.2 (bookworm-backports, see scripts/deps.sh) keeps
# the stores.
timeout "$LIMIT" "$O/test/fork_private" 300 2 >"$tmp/fp" 2>&1
rc=$?
echo "# fork_private, every CPU: $(tail -1 "$tmp/fp") (exit $rc)"
if [ $rc -eq 0 ]; then
	tap_ok "fork() keeps each thread's stores private (fork_private)"
else
	head -5 "$tmp/fp" | sed 's/^#* */# /'
	tap_not_ok "fork() keeps each thread's stores private (fork_private)"
fi

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
run "shim ($HMODE), a rule that matches nothing" $HENV LD_PRELOAD="$HSHIM" \
	FAULTAROUND_RULES='nothing-is-called-this=64K'
run "shim ($HMODE), rules for the mapped files and the libraries" $HENV \
	LD_PRELOAD="$HSHIM" FAULTAROUND_RULES='fa_fork_*=64K;*.so*=order:1'
tap_done
