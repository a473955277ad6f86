#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The preload shim: stdout, stderr and exit status of shim_victim (mmap,
# mmap64, errno, dlopen, fork, exec) are identical with and without it, and
# its hints land where they should.  Where this kernel lacks the feature,
# the hint tests run the real shim code against the kernel stand-in
# (test/fake_kernel.c, test builds only).
O=$1
. "$(dirname "$0")/tap.sh"
V=$O/test/shim_victim
SHIM=$O/libfaultaround-preload.so
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG FAULTAROUND_TEST_SYSFS
fa_hint_setup "$O" "$tmp"

tap_plan 47
echo "# hints: $HMODE"

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
# stdout and exit status with the baseline's; stderr is left in $tmp/err.
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
# quiet NAME: the run before wrote nothing to stderr
quiet() {
	if [ -s "$tmp/err" ]; then
		tap_not_ok "$1"
		sed 's/^/# stderr: /' "$tmp/err"
	else
		tap_ok "$1"
	fi
}
# one_line NAME TEXT: the run before wrote one line to stderr, with TEXT
one_line() {
	if [ "$(grep -c . "$tmp/err")" -eq 1 ] && grep -qF -- "$2" "$tmp/err"; then
		tap_ok "$1"
	else
		tap_not_ok "$1"
		sed 's/^/# stderr: /' "$tmp/err"
	fi
}

same "shim without variables" ""
quiet "shim without variables is silent"
same "FAULTAROUND_RULES matching everything" "" FAULTAROUND_RULES='*=64K'
same "FAULTAROUND=1M" "" FAULTAROUND=1M
same "both, with debug log" "" FAULTAROUND=order:0 FAULTAROUND_RULES='fa_victim*=order:1;*.so*=unset;*=0' FAULTAROUND_DEBUG=1
same "debug alone" noexec FAULTAROUND_DEBUG=1
one_line "debug alone says why the shim does nothing" \
	"neither FAULTAROUND nor FAULTAROUND_RULES is set; nothing to do"
same "malformed FAULTAROUND_RULES" noexec FAULTAROUND_RULES='*=bogus'
quiet "malformed rules: silent"
same "malformed FAULTAROUND_RULES, debug" noexec FAULTAROUND_RULES='*=bogus' FAULTAROUND_DEBUG=1
one_line "malformed rules, debug: said once" "FAULTAROUND_RULES: rule 1"
same "malformed FAULTAROUND" noexec FAULTAROUND=12Q
quiet "malformed size: silent"
same "malformed FAULTAROUND, debug" noexec FAULTAROUND=12Q FAULTAROUND_DEBUG=1
one_line "malformed size, debug: said once" "FAULTAROUND: bad size '12Q'"
same "kernel without the feature" noexec LIBFAULTAROUND_DISABLE=1 FAULTAROUND=64K FAULTAROUND_RULES='*=64K'
quiet "kernel without the feature: silent"
same "kernel without the feature, debug" noexec LIBFAULTAROUND_DISABLE=1 FAULTAROUND=64K FAULTAROUND_RULES='*=64K' FAULTAROUND_DEBUG=1
one_line "LIBFAULTAROUND_DISABLE, debug: said once, and named" \
	"fault-around hints disabled by LIBFAULTAROUND_DISABLE; FAULTAROUND_RULES ignored"

# A non-test program: output unchanged.
seq 1 2000 > "$tmp/data"
env LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*=1M' FAULTAROUND=64K cat "$tmp/data" > "$tmp/cat.out" 2> /dev/null
tap_check "system program output unchanged" cmp -s "$tmp/data" "$tmp/cat.out"

# The stand-in must not be in what gets installed.
tap_check "installed shim and library carry no kernel stand-in" \
	sh -c "! grep -q FAULTAROUND_TEST_SYSFS '$SHIM' '$O/libfaultaround.so.1' &&
	       grep -q FAULTAROUND_TEST_SYSFS '$O/test/fake/libfaultaround-preload.so'"

# From here on the shim is active (rules parsed, hints reach a kernel),
# against a baseline run in the same environment.
SHIM=$HSHIM
env $HENV "$V" > "$tmp/base.out" 2> "$tmp/base.err"
base_rc=$?
env $HENV "$V" noexec > "$tmp/base1.out" 2> /dev/null
same "active ($HMODE): rules matching everything" "" $HENV FAULTAROUND_RULES='*=64K'
quiet "active ($HMODE): silent"
same "active ($HMODE): both, with debug log" "" $HENV FAULTAROUND=order:0 FAULTAROUND_RULES='fa_victim*=order:1;*.so*=unset;*=0' FAULTAROUND_DEBUG=1
tap_check "active ($HMODE): the debug log says what it did" \
	grep -q 'libfaultaround-preload: mmap .*fa_victim.*: order 1$' "$tmp/err"

# The debug log goes to the descriptor that was stderr when the program
# started, and nowhere if there was none: a program started with stderr
# closed gets 2 for the first file it opens.
seq 1 2000 > "$tmp/mapped"
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*=64K' FAULTAROUND_DEBUG=1 \
	"$V" output "$tmp/data.out" "$tmp/mapped" 2>&-
rc=$?
printf 'fd 2\nend\n' > "$tmp/data.want"
tap_check "active ($HMODE): debug with stderr closed at start: no log in the file that got fd 2" \
	sh -c "[ $rc = 0 ] && cmp -s '$tmp/data.want' '$tmp/data.out'"
[ $rc = 0 ] || echo "# exit $rc"
cmp -s "$tmp/data.want" "$tmp/data.out" || sed 's/^/# data.out: /' "$tmp/data.out"
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*=64K' FAULTAROUND_DEBUG=1 \
	"$V" output "$tmp/data.out" "$tmp/mapped" reopen 2> "$tmp/err"
rc=$?
tap_check "active ($HMODE): debug, stderr closed by the program: no log in the file that got fd 2" \
	sh -c "[ $rc = 0 ] && cmp -s '$tmp/data.want' '$tmp/data.out'"
cmp -s "$tmp/data.want" "$tmp/data.out" || sed 's/^/# data.out: /' "$tmp/data.out"
tap_check "active ($HMODE): ...and the log still goes to the stderr it started with" \
	grep -q "libfaultaround-preload: mmap $tmp/mapped .*: order" "$tmp/err"
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*=64K' FAULTAROUND_DEBUG=1 \
	"$V" output "$tmp/data.out" "$tmp/mapped" 2>&- 3>"$tmp/fd3"
tap_check "active ($HMODE): the log takes no descriptor the program had open" \
	sh -c "cmp -s '$tmp/data.want' '$tmp/data.out' && [ ! -s '$tmp/fd3' ]"

# faultaround_for_each_vma(3): a callback's stop comes back as it is, and
# its -1 with its own errno.
out=$(env $HENV "$V" walk | tr '\n' ' ')
tap_check "for_each_vma ($HMODE): the callback's 7, and its -1 with its errno" \
	[ "$out" = "stop: 7 error: -1 EDOM " ]
[ "$out" = "stop: 7 error: -1 EDOM " ] || echo "# $out"

# The shim cannot be built with ASan (it is preloaded into programs that are
# not): valgrind checks it instead, where there is one.
if command -v valgrind > /dev/null 2>&1 && [ "${FA_SANITIZE:-0}" != 1 ]; then
	env $HENV LD_PRELOAD="$SHIM" FAULTAROUND=64K FAULTAROUND_RULES='fa_victim*=order:1;*=0' \
		valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$V" noexec > "$tmp/vg.out" 2> "$tmp/vg.err"
	rc=$?
	if [ $rc -eq 3 ] && cmp -s "$tmp/base1.out" "$tmp/vg.out"; then
		tap_ok "valgrind ($HMODE): no memory error or leak with the shim"
	else
		tap_not_ok "valgrind ($HMODE): no memory error or leak with the shim"
		echo "# exit $rc (want 3)"
		sed 's/^/# /' "$tmp/vg.err"
	fi
else
	tap_skip "valgrind ($HMODE): no memory error or leak with the shim" "no valgrind, or an ASan build"
fi

# hint LABEL ORDER: the victim's report says LABEL has hint ORDER
hint() {
	if grep -q "^$1 hint: $2\$" "$tmp/err"; then
		return 0
	fi
	grep "^$1 hint" "$tmp/err" | sed 's/^/# got: /'
	return 1
}
env $HENV LD_PRELOAD="$SHIM" \
	FAULTAROUND_RULES='fa_victim*=order:1;libfa_plugin*=order:1;librt*=order:1' \
	"$V" child --report-hint > /dev/null 2> "$tmp/err"
tap_check "rule applied to a later mmap" hint file 1
tap_check "rule applied on return from dlopen by path" hint plugin-path 1
if [ "${FA_SANITIZE:-0}" = 1 ] && "${FA_CC:-cc}" --version 2>/dev/null | grep -q clang; then
	# clang's ASan runtime is a shared object here, and its dlopen
	# interceptor, not the plugin, is the caller the shim sees.
	tap_skip "rule applied on return from a bare-name dlopen by a library without RUNPATH" \
		"clang's shared ASan runtime calls dlopen for the plugin"
else
	tap_check "rule applied on return from a bare-name dlopen by a library without RUNPATH" \
		hint plugin-loaded 1
fi
if [ "${FA_SANITIZE:-0}" = 1 ]; then
	# the victim finds that plugin only through its RUNPATH (see above)
	tap_skip "rule applied after a bare-name dlopen by the RUNPATH program, at the next dlopen" \
		"ASan loses the caller's RUNPATH in dlopen"
	tap_skip "the shim keeps a hint the program set itself" \
		"ASan loses the caller's RUNPATH in dlopen"
else
	tap_check "rule applied after a bare-name dlopen by the RUNPATH program, at the next dlopen" \
		hint plugin-name 1
	tap_check "the shim keeps a hint the program set itself" hint own 2
fi
tap_check "rule applied again to a library loaded again after dlclose" \
	hint plugin-path-again 1
# ...as the shim's log says (the stand-in cannot tell the two apart).
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_DEBUG=1 FAULTAROUND_RULES='libfa_plugin_path*=order:1' \
	"$V" child --report-hint > /dev/null 2> "$tmp/err"
first=$(sed '/^loading plugin-path again$/q' "$tmp/err" | grep -c 'libfa_plugin_path.so.*: order 1$')
again=$(sed '1,/^loading plugin-path again$/d' "$tmp/err" | grep -c 'libfa_plugin_path.so.*: order 1$')
echo "# hinted mappings: $first at the first load, $again at the second"
tap_check "the shim's log shows the library hinted at both loads" \
	sh -c "[ '$first' -gt 0 ] && [ '$first' = '$again' ]"
out=$(env $HENV LD_PRELOAD="$SHIM" FAULTAROUND=order:0 "$V" status)
tap_check "FAULTAROUND sets the process default" [ "$out" = "default order 0" ]
# Above the maximum: the kernel clamps (the ABI issue), or the library
# refuses and the debug log says so; never dropped unseen.
out=$(env $HENV LD_PRELOAD="$SHIM" FAULTAROUND=order:200 FAULTAROUND_DEBUG=1 "$V" status 2> "$tmp/err")
max=$(cat "$HSYSFS/max_order")
tap_check "an order above the kernel's maximum is clamped, or said in debug" \
	sh -c "[ '$out' = 'default order $max' ] ||
	       grep -q 'FAULTAROUND=order:200: cannot set process default (order 200, kernel maximum $max)' '$tmp/err'"

# What the ABI carries is taken: the self-sizing window, an order above the
# maximum (stored as the maximum), order 0 (a hint of its own), unset (no
# hint), and ENOMEM for a range with a hole.
out=$(env $HENV LD_PRELOAD="$SHIM" FAULTAROUND=auto "$V" status)
tap_check "FAULTAROUND=auto sets the self-sizing window" [ "$out" = "default order 254" ]
env $HENV "$V" abi > "$tmp/abi.out" 2>&1
printf '%s\n' "hint auto: 254" "hint 253: $max" "hint 0: 0" "hint unset: 255" \
	"default auto: 254" "default 253: $max" \
	"hint on a range with a hole: Cannot allocate memory" > "$tmp/abi.want"
if cmp -s "$tmp/abi.want" "$tmp/abi.out"; then
	tap_ok "auto, the largest order, order 0, unset and a hole are taken as the kernel takes them"
else
	tap_not_ok "auto, the largest order, order 0, unset and a hole are taken as the kernel takes them"
	diff "$tmp/abi.want" "$tmp/abi.out" | sed 's/^/# /'
fi
# valgrind, as above, on the hole check and on forked children of a
# multithreaded program (shim_forker) that map files under the shim.
if command -v valgrind > /dev/null 2>&1 && [ "${FA_SANITIZE:-0}" != 1 ]; then
	env $HENV valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$V" abi > "$tmp/vg.out" 2> "$tmp/vg.err"
	rc=$?
	tap_check "valgrind ($HMODE): the range checks are clean" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/vg.err" | head -30
	# Memory errors in the parent and in every child; no leak check.  A
	# child forked while another thread is inside the dynamic loader or
	# malloc inherits that thread's half-done allocations, which memcheck
	# reports as lost at the child's exit whatever the shim does (32 bytes
	# strdup()ed under _dl_open(), and the same without the shim in 2 of 8
	# runs on a loaded host); the shim's leaks are checked above, in a
	# process that does not fork.  shim_forker's watchdog reports a hung
	# child itself; the timeout only guards valgrind on a loaded host.
	# Not with clang's build: there shim_forker under valgrind took 49 s,
	# 466 s and more than 300 s in three runs on 2026-12-03, against 2 s
	# for gcc's build and 1 s for clang's without valgrind; not looked
	# into yet.  gcc's build runs the same shim code under valgrind.
	mkdir -p "$tmp/forker"
	if "${FA_CC:-cc}" --version 2>/dev/null | grep -q clang; then
		rc=skip
	else
		env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES='fa_fork_*=64K;*.so*=order:1' \
			timeout 600 valgrind -q --error-exitcode=99 --leak-check=no \
			"$O/test/shim_forker" "$tmp/forker" 10 > "$tmp/vg.out" 2> "$tmp/vg.err"
		rc=$?
	fi
	if [ "$rc" = skip ]; then
		tap_skip "valgrind ($HMODE): forked children of a threaded program have no memory error" \
			"clang's build does not finish under valgrind"
	else
		tap_check "valgrind ($HMODE): forked children of a threaded program have no memory error" [ $rc -eq 0 ]
	fi
	# On failure: the program's own lines and every report, whole.
	if [ "$rc" != skip ] && [ "$rc" -ne 0 ]; then
		echo "# valgrind exit status $rc"
		sed 's/^/# /' "$tmp/vg.out"
		awk '/Invalid|uninitialised|Process terminating|Syscall param/ { on = 1 }
		     on { print "# " $0 } /^==[0-9]+== $/ { on = 0 }' "$tmp/vg.err" | head -80
	fi
else
	tap_skip "valgrind ($HMODE): the range checks are clean" "no valgrind, or an ASan build"
	tap_skip "valgrind ($HMODE): forked children of a threaded program have no memory error" "no valgrind, or an ASan build"
fi

# A dlopen() of a library that is loaded already advises nothing.
if [ "$HMODE" = kernel ]; then
	tap_skip "dlopen of loaded libraries advises no mapping again" "needs the stand-in's call log"
else
	calls() {
		rm -f "$HLOG"
		env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*=64K' "$V" dlopen-loop "$1" &&
			grep -c ' madvise ' "$HLOG"
	}
	# (the first round loads libm, the second gives it its rules)
	n1=$(calls 1) n20=$(calls 20)
	echo "# madvise calls: $n1 with 1 round of dlopen/dlclose, $n20 with 20"
	tap_check "dlopen of loaded libraries advises no mapping again" \
		sh -c "[ '${n1:-0}' -gt 0 ] && [ '$n1' = '$n20' ]"
fi
tap_done
