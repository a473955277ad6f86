#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# uapi_numbers.sh KERNEL_TREE: the numbers in include/uapi/linux/faultaround.h
# must equal the ones the kernel series puts in the kernel's own uapi headers
# (asm-generic and every architecture with its own mman.h).  TAP output.
set -u
tree=${1:?usage: uapi_numbers.sh KERNEL_TREE}
here=$(cd "$(dirname "$0")" && pwd)
ours=$here/../include/uapi/linux/faultaround.h
n=0 fail=0

# The value the project header gives NAME, through the C preprocessor.
ours_value() {
	printf '#include "%s"\n%s\n' "$ours" "$1" | cc -E -P - 2>/dev/null | tail -1 | tr -d ' ()'
}

# The value a kernel header gives NAME: its #define line, or for a macro
# built from others (MADV_FAULTAROUND_AUTO, MADV_FAULTAROUND_UNSET) what the
# preprocessor makes of it.
kernel_value() {
	local v

	v=$(sed -n "s/^#[[:space:]]*define[[:space:]]\\{1,\\}$1[[:space:]]\\{1,\\}\\([0-9a-fx]*\\).*/\\1/p" "$2" | head -1)
	if [ -z "$v" ] && grep -q "define[[:space:]]*$1\\b" "$2"; then
		v=$(printf '#include "%s"\n%s\n' "$2" "$1" | cc -E -P - 2>/dev/null | tail -1 | tr -d ' ()')
	fi
	echo "$v"
}

check() {
	name=$1 file=$2
	n=$((n + 1))
	want=$(kernel_value "$name" "$tree/$file")
	got=$(ours_value "$name")
	if [ -z "$want" ]; then
		echo "not ok $n $name in $file # kernel header lacks it"
		fail=1
	elif [ "$((want))" = "$((got))" ]; then
		echo "ok $n $name = $got ($file)"
	else
		echo "not ok $n $name: ours $got, $file has $want"
		fail=1
	fi
}

echo "TAP version 13"
echo "1..16"
for f in include/uapi/asm-generic/mman-common.h arch/alpha/include/uapi/asm/mman.h \
	 arch/mips/include/uapi/asm/mman.h arch/parisc/include/uapi/asm/mman.h \
	 arch/xtensa/include/uapi/asm/mman.h; do
	check MADV_FAULTAROUND "$f"
done
check MADV_FAULTAROUND_SHIFT include/uapi/asm-generic/mman-common.h
check MADV_FAULTAROUND_MASK include/uapi/asm-generic/mman-common.h
check MADV_FAULTAROUND_AUTO include/uapi/asm-generic/mman-common.h
check MADV_FAULTAROUND_UNSET include/uapi/asm-generic/mman-common.h
check PR_SET_FAULTAROUND include/uapi/linux/prctl.h
check PR_GET_FAULTAROUND include/uapi/linux/prctl.h
check PR_FAULTAROUND_UNSET include/uapi/linux/prctl.h
check PR_FAULTAROUND_AUTO include/uapi/linux/prctl.h
# The order encoding, compared as an expression for a few orders: none,
# the largest of any MMU so far, the largest the ABI carries.
for o in 0 9 253; do
	n=$((n + 1))
	k=$(printf '#include "%s"\nMADV_FAULTAROUND_ORDER(%s)\n' \
		"$tree/include/uapi/asm-generic/mman-common.h" $o | cc -E -P - | tail -1 | tr -d " \t")
	u=$(ours_value "MADV_FAULTAROUND_ORDER($o)")
	if [ -n "$k" ] && [ "$((k))" = "$((u))" ]; then
		echo "ok $n MADV_FAULTAROUND_ORDER($o) = $((u))"
	else
		echo "not ok $n MADV_FAULTAROUND_ORDER($o): ours $u, kernel $k"
		fail=1
	fi
done
exit $fail
