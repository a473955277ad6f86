#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench.sh O [N] [REPEATS]: what mmap costs through the preload shim, against
# plain mmap, in the two cases the shim treats differently, and what
# dlopen() of a library loaded already costs through it (bench_mmap.c).
O=$1 N=${2:-20000} R=${3:-10}
B=$O/test/bench_mmap
SHIM=$O/libfaultaround-preload.so
NOMATCH='*.db=0;/usr/lib/*=64K'
MATCH="$NOMATCH;fa_bench*=64K"
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG FAULTAROUND_TEST_SYSFS
echo "# kernel $(uname -r), hints supported: $([ -r /sys/kernel/mm/faultaround/max_order ] && echo yes || echo no)"
# The shim is active only where hints reach a kernel.  Without the feature
# the dlopen figures use the kernel stand-in (test/fake_kernel.c), which
# those paths never call: a dlopen() of a loaded library advises nothing.
DLSHIM=$SHIM DLENV=
if [ ! -r /sys/kernel/mm/faultaround/max_order ]; then
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	echo 8 >"$tmp/max_order" && echo 65536 >"$tmp/default_bytes"
	DLSHIM=$O/test/fake/libfaultaround-preload.so
	DLENV="FAULTAROUND_TEST_SYSFS=$tmp"
fi
for mode in repeat first; do
	echo "# $mode: $([ $mode = repeat ] && echo "mmap+munmap of a file mapped before" ||
		echo "open+mmap+munmap+close of a file never mapped before")"
	"$B" "$N" "$R" "no shim" $mode
	env LD_PRELOAD="$SHIM" "$B" "$N" "$R" "shim, no variables" $mode
	env LD_PRELOAD="$SHIM" FAULTAROUND_RULES="$NOMATCH" "$B" "$N" "$R" "shim, rules, no match" $mode 2> /dev/null
	env LD_PRELOAD="$SHIM" FAULTAROUND_RULES="$MATCH" "$B" "$N" "$R" "shim, rules, match" $mode 2> /dev/null
done
for mode in dlopen-name dlopen-path; do
	echo "# $mode: dlopen+dlclose of libm, loaded already, by $([ $mode = dlopen-name ] && echo "bare name (caller has a RUNPATH: the shim jumps)" || echo "path (the shim calls dlopen)")"
	"$B" "$N" "$R" "no shim" $mode
	env LD_PRELOAD="$SHIM" "$B" "$N" "$R" "shim, no variables" $mode
	env $DLENV LD_PRELOAD="$DLSHIM" FAULTAROUND_RULES="$MATCH" "$B" "$N" "$R" \
		"shim, rules${DLENV:+ (stand-in)}" $mode 2> /dev/null
done
echo "# components (no shim)"
"$B" "$N" "$R" "" components
