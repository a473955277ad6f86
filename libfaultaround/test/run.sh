#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run.sh O EXAMPLES_O TESTDIR TEST...: run each test (program in O/test or
# shell script in TESTDIR), TAP on stdout; exit 1 if any failed.
O=$1 EXO=$2 TD=$3
shift 3
fail=0 total=0 failed=
for t in "$@"; do
	total=$((total + 1))
	echo "# ==== $t ===="
	case $t in
	*.sh) sh "$TD/$t" "$O" "$EXO" ;;
	*) "$O/test/$t" ;;
	esac
	rc=$?
	if [ $rc -ne 0 ]; then
		fail=$((fail + 1))
		failed="$failed $t"
		echo "# $t: FAILED (exit $rc)"
	fi
done
echo "# ==== summary: $((total - fail))/$total test programs passed${failed:+; failed:$failed} ===="
[ $fail -eq 0 ]
