# SPDX-License-Identifier: LGPL-2.1-or-later
# Minimal TAP helpers for the shell tests (sourced).
tap_n=0
tap_fail=0
tap_plan() { tap_planned=$1; echo "TAP version 13"; echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1"; }
tap_not_ok() { tap_n=$((tap_n + 1)); tap_fail=$((tap_fail + 1)); echo "not ok $tap_n $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1 # SKIP $2"; }
# tap_check NAME CMD...: ok if CMD succeeds
tap_check() { name=$1; shift; if "$@"; then tap_ok "$name"; else tap_not_ok "$name"; fi; }
tap_done() { echo "# $tap_n tests, $tap_fail failed"; [ $tap_fail -eq 0 ] && [ $tap_n -eq "$tap_planned" ]; }
# Kernel support as the library sees it
fa_supported() { [ -r /sys/kernel/mm/faultaround/max_order ] && [ -z "$LIBFAULTAROUND_DISABLE" ]; }
