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
# tap_rc NAME WANT CMD...: CMD exits WANT; its stdout and stderr go to
# $tmp/out and $tmp/err, and stderr is shown when it does not.
tap_rc() {
	name=$1 want=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [ $got -eq $want ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name"
		echo "# exit $got, want $want"
		sed 's/^/# stderr: /' "$tmp/err"
	fi
}
tap_done() { echo "# $tap_n tests, $tap_fail failed"; [ $tap_fail -eq 0 ] && [ $tap_n -eq "$tap_planned" ]; }
# Kernel support as the library sees it
fa_supported() { [ -r /sys/kernel/mm/faultaround/max_order ] && [ -z "$LIBFAULTAROUND_DISABLE" ]; }
# fa_hint_setup O DIR: how the tests that need hints reach a kernel with
# them.  HMODE=kernel: this one, through the installed shim.  Otherwise
# HMODE=stand-in: the test builds of the shim and the library with
# test/fake_kernel.c, its sysfs files in DIR/sysfs and its call log in
# DIR/sysfs/calls (HLOG).  HSHIM is the shim to preload, HENV the
# environment, HSYSFS the sysfs directory.
fa_hint_setup() {
	if fa_supported; then
		HMODE=kernel HSHIM=$1/libfaultaround-preload.so HENV= HLOG=
		HSYSFS=/sys/kernel/mm/faultaround
	else
		HMODE=stand-in HSHIM=$1/test/fake/libfaultaround-preload.so
		mkdir -p "$2/sysfs" && echo 8 >"$2/sysfs/max_order" &&
			echo 65536 >"$2/sysfs/default_bytes"
		HLOG=$2/sysfs/calls HSYSFS=$2/sysfs
		HENV="FAULTAROUND_TEST_SYSFS=$2/sysfs LD_LIBRARY_PATH=$1/test/fake"
	fi
}
