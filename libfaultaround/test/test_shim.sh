#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Shim transparency: stdout and exit status of shim_victim (mmap, mmap64,
# errno, dlopen, fork, exec) are identical with and without the shim.
O=$1
. "$(dirname "$0")/tap.sh"
V=$O/test/shim_victim
SHIM=$O/libfaultaround-preload.so
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG

tap_plan 20

"$V" > "$tmp/base.out" 2> "$tmp/base.err"
base_rc=$?
"$V" noexec > "$tmp/base1.out" 2> /dev/null
tap_check "baseline runs (fork and exec children)" \
	grep -q "^exec child status 7$" "$tmp/base.out"
# ...and finds both plugins, so that "same" below compares a dlopen() by
# bare name that only the caller's RUNPATH resolves.
if [ "${FA_SANITIZE:-0}" = 1 ]; then
	# libasan's dlopen interceptor is itself glibc's caller.
	tap_skip "baseline loads a plugin by path and one by RUNPATH" \
		"ASan loses the caller's RUNPATH in dlopen"
else
	tap_check "baseline loads a plugin by path and one by RUNPATH" \
		sh -c "grep -q '^main: plugin by path answers 42$' '$tmp/base.out' &&
		       grep -q '^main: plugin by name answers 42$' '$tmp/base.out'"
fi

# same NAME MODE ENV...: run the victim with the shim and ENV, compare
same() {
	name=$1 mode=$2
	shift 2
	env LD_PRELOAD="$SHIM" "$@" "$V" $mode > "$tmp/out" 2> "$tmp/err"
	rc=$?
	ref=$tmp/base.out want=$base_rc
	[ "$mode" = noexec ] && ref=$tmp/base1.out && want=3
	if cmp -s "$ref" "$tmp/out" && [ $rc -eq $want ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name"
		echo "# exit $rc (want $want); diff:"
		diff "$ref" "$tmp/out" | sed 's/^/# /'
		sed 's/^/# stderr: /' "$tmp/err"
	fi
}

same "shim without variables" ""
tap_check "shim without variables is silent" test ! -s "$tmp/err"
same "FAULTAROUND_RULES matching everything" "" FAULTAROUND_RULES='*=64K'
same "FAULTAROUND=1M" "" FAULTAROUND=1M
same "both, with debug log" "" FAULTAROUND=order:0 FAULTAROUND_RULES='fa_victim*=order:1;*.so*=unset;*=0' FAULTAROUND_DEBUG=1
same "malformed FAULTAROUND_RULES" noexec FAULTAROUND_RULES='*=bogus'
tap_check "malformed rules: one warning" \
	sh -c "[ \$(grep -c . '$tmp/err') -eq 1 ] && grep -q 'FAULTAROUND_RULES: rule 1' '$tmp/err'"
same "malformed FAULTAROUND" noexec FAULTAROUND=12Q
tap_check "malformed size: one warning" \
	sh -c "[ \$(grep -c . '$tmp/err') -eq 1 ] && grep -q \"FAULTAROUND: bad size '12Q'\" '$tmp/err'"
same "kernel without the feature" noexec LIBFAULTAROUND_DISABLE=1 FAULTAROUND=64K FAULTAROUND_RULES='*=64K'
tap_check "kernel without the feature: one warning" \
	sh -c "[ \$(grep -c . '$tmp/err') -eq 1 ] && grep -q 'kernel lacks fault-around hints' '$tmp/err'"

# The shim cannot be built with ASan (it is preloaded into programs that are
# not): valgrind checks it instead, where there is one.
if command -v valgrind > /dev/null 2>&1 && [ "${FA_SANITIZE:-0}" != 1 ]; then
	env LD_PRELOAD="$SHIM" FAULTAROUND=64K FAULTAROUND_RULES='fa_victim*=order:1;*=0' \
		valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$V" noexec > "$tmp/vg.out" 2> "$tmp/vg.err"
	rc=$?
	if [ $rc -eq 3 ] && cmp -s "$tmp/base1.out" "$tmp/vg.out"; then
		tap_ok "valgrind: no memory error or leak with the shim"
	else
		tap_not_ok "valgrind: no memory error or leak with the shim"
		echo "# exit $rc (want 3)"
		sed 's/^/# /' "$tmp/vg.err"
	fi
else
	tap_skip "valgrind: no memory error or leak with the shim" "no valgrind, or an ASan build"
fi

# A non-test program: output unchanged.
seq 1 2000 > "$tmp/data"
env LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*=1M' FAULTAROUND=64K cat "$tmp/data" > "$tmp/cat.out" 2> /dev/null
tap_check "system program output unchanged" cmp -s "$tmp/data" "$tmp/cat.out"

if fa_supported; then
	env LD_PRELOAD="$SHIM" FAULTAROUND_RULES='fa_victim*=order:1;libfa_plugin*=order:1' \
		"$V" child --report-hint > /dev/null 2> "$tmp/err"
	tap_check "rule applied to a later mmap" grep -q '^file hint:[[:space:]]*1$' "$tmp/err"
	tap_check "rule applied on return from dlopen by path" \
		grep -q '^plugin-path hint:[[:space:]]*1$' "$tmp/err"
	tap_check "rule applied after dlopen by name, at the next mmap" \
		grep -q '^plugin-name hint:[[:space:]]*1$' "$tmp/err"
	tap_check "a rescan keeps the program's own hint" \
		grep -q '^own hint:[[:space:]]*2$' "$tmp/err"
	out=$(env LD_PRELOAD="$SHIM" FAULTAROUND=order:0 "$V" status)
	tap_check "FAULTAROUND sets the process default" [ "$out" = "FaultAroundOrder:	0" ]
else
	tap_skip "rule applied to a later mmap" "kernel lacks fault-around hints"
	tap_skip "rule applied on return from dlopen by path" "kernel lacks fault-around hints"
	tap_skip "rule applied after dlopen by name, at the next mmap" "kernel lacks fault-around hints"
	tap_skip "a rescan keeps the program's own hint" "kernel lacks fault-around hints"
	tap_skip "FAULTAROUND sets the process default" "kernel lacks fault-around hints"
fi
tap_done
