#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The newcomer's tour, run as the guest's demo.  Each line is printed by the
# programs themselves on the booted kernel.
ex=/faultaround/libfaultaround/examples
echo "== faultaround demo on $(uname -r) ($(uname -m))"
faultaround --info
echo
echo "== 1. stock kernel behaviour: no hint, system default ($(cat /sys/kernel/mm/faultaround/default_bytes) bytes)"
$ex/window
echo "== 2. a per-mapping hint: madvise(MADV_FAULTAROUND_ORDER(k))"
for k in 0 2 4; do $ex/window $k; done
echo "== 3. a per-process default set by the launcher, kept across execve"
faultaround -o 3 -- $ex/window
faultaround -o 3 -- $ex/window 1
echo "== 4. what the library does with bytes (portable across page sizes)"
$ex/seq_scan
$ex/random_lookup
echo "== 5. no number at all: the advice programs already give, and the self-sizing window"
for a in "" sequential random auto; do $ex/advice_scan $a; done
old=$(cat /sys/kernel/mm/faultaround/default_bytes)
if [ "$(id -u)" = 0 ] && echo auto >/sys/kernel/mm/faultaround/default_bytes 2>/dev/null; then
	echo "== 6. the self-sizing window as the system default (root): echo auto > default_bytes"
	faultaround --info | grep '^system default'
	$ex/advice_scan
	$ex/window
	echo "$old" >/sys/kernel/mm/faultaround/default_bytes
fi
