#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# bench.sh O [N] [REPEATS]: mmap+munmap cost without and with the shim.
O=$1 N=${2:-20000} R=${3:-10}
B=$O/test/bench_mmap
SHIM=$O/libfaultaround-preload.so
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG
echo "# kernel $(uname -r), hints supported: $([ -r /sys/kernel/mm/faultaround/max_order ] && echo yes || echo no)"
"$B" "$N" "$R" "no shim" --components
env LD_PRELOAD="$SHIM" "$B" "$N" "$R" "shim, no variables"
env LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*.db=0;/usr/lib/*=64K' "$B" "$N" "$R" "shim, rules, no match" 2> /dev/null
env LD_PRELOAD="$SHIM" FAULTAROUND_RULES='*.db=0;/usr/lib/*=64K;fa_bench*=2M' "$B" "$N" "$R" "shim, rules, match" 2> /dev/null
