#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh ARCH MMU MODE [VARIANT]: boot the guest under qemu (TCG) and
# follow its console.
#
#   MODE check  run the tests; stream their TAP; fail on a failed test, on a
#               kernel report (Oops, BUG, WARNING, KASAN, lockdep, panic, an
#               OOM kill, ext4 losing data) or when the guest does not
#               finish in time.  Writes build/results/NAME.{console,counts}
#               and, when it fails, NAME.note: what failed, in one line
#               (QEMU_NOTE names another file, in any mode).
#   MODE demo   the newcomer's tour; MODE bench the benchmarks;
#   MODE shell  an interactive shell on the console.
#
# ARCH ppc64le (pseries, VOF, power9; MMU radix or hash) or x86_64.
# QEMU_PSERIES_CAPS: more pseries machine options, comma-separated.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-ppc64le}
mmu=${2:-radix}
mode=${3:-check}
variant=${4:-}
# A hang guard, not a budget; KASAN and lockdep make the debug kernel slower.
timeout_s=${QEMU_TIMEOUT:-$([ "$variant" = debug ] && echo 1800 || echo 900)}
kdir=$BUILD/kernel/$arch${variant:+-$variant}
initrd=${QEMU_INITRD:-$BUILD/$arch/initramfs.cpio.gz}
append="faultaround.mode=$mode faultaround.test panic=-1 loglevel=7 ${QEMU_APPEND:-}"

case $arch in
ppc64le)
	name=pseries-$mmu
	# Both on POWER9: hash through disable_radix, because Debian's ppc64el
	# libm uses POWER9 instructions that qemu's POWER8 lacks.
	case $mmu in
	radix) mmu_arg= ;;
	hash) mmu_arg=disable_radix ;;
	*) die "unknown MMU '$mmu' (radix or hash)" ;;
	esac
	cmd=(qemu-system-ppc64 -M "pseries,x-vof=on${QEMU_PSERIES_CAPS:+,$QEMU_PSERIES_CAPS}" -cpu power9 -vga none -net none
	     -kernel "$kdir/vmlinux")
	append="console=hvc0 $mmu_arg $append"
	;;
x86_64)
	name=x86_64
	cmd=(qemu-system-x86_64 -M pc -cpu max -no-reboot -net none
	     -kernel "$kdir/arch/x86/boot/bzImage")
	append="console=ttyS0 $append"
	;;
*) die "unknown ARCH '$arch'" ;;
esac
name+=${variant:+-$variant}
smp=${QEMU_SMP:-2}
# The x86_64 guest has no ACPI and finds its CPUs in SeaBIOS's MP table,
# which lists one CPU per package: a plain -smp 2 gave it one CPU.
if [ "$arch" = x86_64 ] && [ "$smp" -gt 1 ] 2>/dev/null; then
	smp="$smp,sockets=$smp,cores=1,threads=1"
fi
cmd+=(-m "${QEMU_MEM:-2G}" -smp "$smp" -nographic -initrd "$initrd"
      -append "$append" ${QEMU_EXTRA:-})

[ -f "$initrd" ] || die "$initrd missing: run 'make initramfs ARCH=$arch'"
# The Debian programs (scripts/programs-image.sh), read-only: every run
# sees the same bytes, and runs side by side can share the file.
programs=$BUILD/$arch/programs.ext4
if [ -f "$programs" ]; then
	cmd+=(-drive "file=$programs,if=none,id=programs,format=raw,readonly=on"
	      -device virtio-blk-pci,drive=programs)
fi

if [ "$mode" = shell ]; then
	exec "${cmd[@]}"
fi

results=$BUILD/results
mkdir -p "$results"
console=$results/$name${mode/check/}.console
[ "$mode" = check ] && console=$results/$name.console
console=${QEMU_CONSOLE:-$console}
counts=$results/$name.counts

# What counts as a kernel report on the console: scripts/lib.sh.
report_re=$kernel_report_re
benign_re=$kernel_benign_re

info "booting $name ($mode), timeout ${timeout_s}s"
start=$SECONDS
set +e
timeout -k 5 "$timeout_s" "${cmd[@]}" </dev/null 2>&1 | stdbuf -o0 tr -d '\r' | tee "$console" |
	awk -v mode="$mode" -v report="$report_re" -v benign="$benign_re" '
	# Kernel reports are shown whatever the mode.
	$0 ~ report && $0 !~ benign { print "!! " $0; fflush(); next }
	mode != "check" && started { print; fflush(); next }
	/^# faultaround-guest:/ { started = 1 }
	# KUnit results and the tests TAP, as they arrive.
	/^ *(not )?ok [0-9]+ / || /^# faultaround-/ || /^FAULTAROUND-DONE/ || /# Subtest:/ { print; fflush() }
	'
qrc=${PIPESTATUS[0]}
set -e
elapsed=$((SECONDS - start))

fail=()
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	stage="booting (no test had started)"
	last=$(grep -E '^# faultaround-test: (BEGIN|END)' "$console" | tail -1 || true)
	case $last in
	*BEGIN*) stage="running test ${last##* }" ;;
	*END*) stage="after test ${last#*END } (powering off)" ;;
	esac
	grep -q '^FAULTAROUND-DONE' "$console" && stage="powering off after the tests"
	fail+=("guest timed out after ${timeout_s}s while $stage")
	warn "$name: last console lines:"
	tail -15 "$console" | sed 's/^/    /' >&2
fi
grep -q '^FAULTAROUND-DONE' "$console" || fail+=("guest did not finish (qemu exit $qrc)")
if [ "$arch" = ppc64le ] && ! grep -qi "^# faultaround-guest: .* mmu=$mmu " "$console"; then
	fail+=("guest did not run the $mmu MMU: $(grep -m1 '^# faultaround-guest:' "$console" || echo 'no guest header')")
fi
reports=$(report_kinds "$console")
[ -n "$reports" ] && fail+=("console: $reports, see ${console#"$top"/}")

if [ "$mode" = check ]; then
	"$top/scripts/tap-count.sh" "$console" >"$counts"
	read -r p f s <"$counts"
	# A test program that crashed without a "not ok" still fails the run.
	crashed=$(grep -E '^# faultaround-test: END .* rc=[^0]' "$console" | sed 's/.*END //' || true)
	[ -n "$crashed" ] && [ "$f" = 0 ] && fail+=("test programs failed: $crashed")
	[ "$f" -gt 0 ] && fail+=("$f test(s) failed")
	[ $((p + f + s)) -gt 0 ] || fail+=("no test ran")
	# A kernel built with the series' KUnit suites must have run them: a
	# boot that did not tested less than its counts say.
	if grep -q '^CONFIG_FAULT_AROUND_KUNIT_TEST=y' "$kdir/.config"; then
		for suite in fault_around fault_around_window fault_around_shmem; do
			grep -q "^ *# Subtest: $suite\$" "$console" ||
				fail+=("KUnit suite $suite did not run")
		done
	fi
	info "$name: $p passed, $f failed, $s skipped (${elapsed}s)"
fi

# What failed, for the summary line of make check (scripts/check.sh).
note=${QEMU_NOTE:-}
[ "$mode" = check ] && note=${note:-$results/$name.note}
[ -n "$note" ] && rm -f "$note"
if [ ${#fail[@]} -gt 0 ]; then
	for m in "${fail[@]}"; do warn "$name: $m"; done
	[ -n "$note" ] && printf '%s; ' "${fail[@]}" | sed 's/; $/\n/' >"$note"
	[ "$mode" = check ] && [ -f "$counts" ] && read -r p f s <"$counts" &&
		[ "$f" = 0 ] && echo "$p 1 $s" >"$counts"
	exit 1
fi
