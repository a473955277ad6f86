#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-count.sh LOG...: print "PASSED FAILED SKIPPED" for the TAP in LOG.
# Counts the result lines of test programs (column 0, between the runner's
# BEGIN/END markers or in a plain TAP log) and KUnit's test cases (indented
# one level; KUnit's per-suite summary line is not counted again).
set -euo pipefail

awk '
/^# faultaround-test: BEGIN/ { inprog = 1; next }
/^# faultaround-test: END/ { inprog = 0; next }
{
	line = $0
	indented = (line ~ /^    (not )?ok [0-9]+ /)
	toplevel = (line ~ /^(not )?ok [0-9]+ /)
	if (!indented && !toplevel)
		next
	# KUnit: count cases (indented), not suites (column 0 outside programs).
	if (toplevel && !inprog && kunit)
		next
	if (indented && inprog)
		next
	sub(/^ +/, "", line)
	if (line ~ /# *SKIP/)
		s++
	else if (line ~ /^not ok/)
		f++
	else
		p++
}
/^ *# Subtest:/ { if (!inprog) kunit = 1 }
END { printf "%d %d %d\n", p, f, s }
' "$@"
