#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The examples run, and explain themselves on a kernel without the feature.
EXO=$2
. "$(dirname "$0")/tap.sh"
tap_plan 4
for e in seq_scan random_lookup service_default advice_scan; do
	out=$("$EXO/$e" 2>&1)
	r=$?
	if [ $r -ne 0 ]; then
		tap_not_ok "$e (exit $r)"
		echo "$out" | sed 's/^/# /'
	elif ! fa_supported && ! echo "$out" | grep -q 'kernel lacks fault-around hints'; then
		tap_not_ok "$e (no explanation)"
	else
		tap_ok "$e"
		echo "$out" | sed 's/^/# /'
	fi
done
tap_done
