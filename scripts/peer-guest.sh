#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The peer runs inside the guest (/peer/run, started by guest-init for
# faultaround.mode=peer): the kernel's mm selftests with run_vmtests.sh, once
# per setting named by peer.settings= on the command line, in a chroot of
# the peer root (scripts/peer-debs.sh).  Settings:
#
#   stock      the unpatched kernel, as it boots
#   none       the patched kernel, nothing set
#   max        the system default at the largest order
#              (PAGE_SIZE << max_order written to default_bytes)
#   auto-proc  the whole run under "faultaround -a --" (a process default of
#              the self-sizing window, inherited by every test)
#   auto-sys   "auto" written to default_bytes; SKIPPED when the kernel
#              refuses it with EINVAL
#
# On a kernel without the series (no /sys/kernel/mm/faultaround) the
# settings that need it are SKIPPED, so one command line serves both.
#
# peer.cats= (comma-separated) runs only those run_vmtests.sh categories,
# "none" none of them.  peer.stress=SECONDS then runs stress-ng's VM
# stressors with --verify on ext4 for that long, while /peer/churn changes
# hints, advice, process defaults and the system default on the same files,
# and a sampler records the most the load took of the ext4 and of memory.
# peer.load=overfill runs the load of before 2026-12-03 instead, which
# overfilled both (kept to show what ext4 does on a full device).
# peer.stress_rounds=N runs that load N times, one after the other
# ("# peer-stress-round: I of N" before each), for a mean and a spread.
# peer.churn_hints=0 runs the churner with -n: no hint, process or system
# default takes effect, the load a kernel without the series carries.
# Each test runs under a time limit (peer.timeout=, seconds): a hang is a
# failure, and the run goes on.  peer.trace=ksm-unmerge runs
# "ksm_tests -U" traced (peer/peer-ksm-trace.sh); peer.repeat=N runs the
# suite N times in each setting ("# peer-repeat: I of N" before each).
# peer.loop=uffd-events|cow|khugepaged|khugepaged-s2|khugepaged-cpu0 runs,
# in place of the suite, only uffd-unit-tests' events tests (-f events),
# cow, or khugepaged (-s2: with -s 2; -cpu0: bound to CPU 0 with
# taskset), peer.repeat times a
# setting, under the time limit of peer/peer-timeout.sh (which prints the
# kernel stacks of a hung run's threads, and returns 137): a line per run
# with its seconds, the output of a failed one, and a count.
# peer.watchdog=SECONDS prints, that often, every process's state and
# wchan and every process in D state (its main thread) with its kernel
# stack, using only the
# shell's builtins: a guest where no
# process can fork any more (so that the per-test limit, which forks
# "sleep", stops too) still says where its tasks wait.  The host (scripts/peer-report.py) reads
# the console: "# peer-setting: BEGIN|END|SKIPPED" and run_vmtests.sh's TAP.

r=/peer/root
fa=/sys/kernel/mm/faultaround
settings=none cats= timeout=180 stress= load=fit trace= repeat=1 watchdog= rounds=1 loop=
churn_opt=
for arg in $(cat /proc/cmdline); do
	case $arg in
	peer.settings=*) settings=$(echo "${arg#peer.settings=}" | tr , ' ') ;;
	peer.timeout=*) timeout=${arg#peer.timeout=} ;;
	peer.cats=*) cats=$(echo "${arg#peer.cats=}" | tr , ' ') ;;
	peer.stress=*) stress=${arg#peer.stress=} ;;
	peer.load=*) load=${arg#peer.load=} ;;
	peer.trace=*) trace=${arg#peer.trace=} ;;
	peer.repeat=*) repeat=${arg#peer.repeat=} ;;
	peer.watchdog=*) watchdog=${arg#peer.watchdog=} ;;
	peer.stress_rounds=*) rounds=${arg#peer.stress_rounds=} ;;
	peer.loop=*) loop=${arg#peer.loop=} ;;
	peer.churn_hints=0) churn_opt=-n ;;
	esac
done

# What the suite needs around it: the kernel's filesystems inside the
# chroot, hugetlbfs, cgroup2 (charge_reserved_hugetlb.sh), a swap device
# (the COW and pageout tests swap out; /dev/ram1, brd.rd_nr=2), and the
# launcher in /faultaround.
mount -t proc proc $r/proc
mount -t sysfs sysfs $r/sys
mount -t debugfs debugfs $r/sys/kernel/debug
mount -t tracefs tracefs $r/sys/kernel/tracing 2>/dev/null
mount -t devtmpfs devtmpfs $r/dev
mkdir -p $r/dev/hugepages $r/dev/shm
mount -t hugetlbfs hugetlbfs $r/dev/hugepages
mount -t hugetlbfs hugetlbfs $r/mnt/huge
mount -t tmpfs tmpfs $r/dev/shm
mount -t tmpfs tmpfs $r/tmp
mount -t tmpfs tmpfs $r/run
mount -t cgroup2 cgroup2 $r/sys/fs/cgroup 2>/dev/null
mount -o bind /faultaround $r/faultaround
mkdir -p $r/mnt/ext4
[ -n "${FA_EXT4DIR:-}" ] && mount -o bind "$FA_EXT4DIR" $r/mnt/ext4
if [ -b /dev/ram1 ] && mkswap /dev/ram1 >/dev/null 2>&1 && swapon /dev/ram1; then
	swap="$(($(cat /sys/block/ram1/size) / 2048)) MiB on /dev/ram1"
	swapdev=/dev/ram1
else
	swap=none
	swapdev=
fi
echo "# peer-guest: mem $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB," \
	"hugepages $(cat /proc/sys/vm/nr_hugepages) x $(awk '/Hugepagesize/ {print $2}' /proc/meminfo) kB," \
	"swap $swap, cpus $(nproc), timeout ${timeout}s per test"

# Every category run_vmtests.sh knows, but our own (the make check suite),
# unless peer.cats= names some.
[ -n "$cats" ] || cats=$(sed -n 's/.*CATEGORY="\([a-z0-9_-]*\)".*/\1/p' $r/peer/mm/run_vmtests.sh |
	sort -u | grep -vx faultaround | tr '\n' ' ')
echo "# peer-guest: categories $cats"

in_root() {
	chroot $r /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LD_LIBRARY_PATH=/faultaround/libfaultaround PEER_TIMEOUT="$timeout" PEER_TRACE="$trace" \
		PEER_SWAP="$swapdev" "$@"
}

# watch SECONDS: the watchdog of peer.watchdog=, forking nothing once
# started (read -t on a FIFO that nobody writes is its sleep).
watch() {
	local f k v pid comm state line _
	mkfifo /tmp/watchdog.fifo
	exec 3<>/tmp/watchdog.fifo
	while :; do
		read -t "$1" line <&3
		for f in /proc/[0-9]*/status; do
			state= comm= pid=${f#/proc/} pid=${pid%/status}
			while read -r k v; do
				case $k in Name:) comm=$v ;; State:) state=$v ;; esac
			done 2>/dev/null <"$f"
			line=
			read -r line 2>/dev/null </proc/$pid/cmdline
			# kernel threads (no command line) only when in D state
			case $state in D*) ;; *) [ -n "$line" ] || continue ;; esac
			read -r line 2>/dev/null </proc/$pid/wchan
			echo "# peer-watchdog: pid $pid comm $comm state $state wchan $line"
			case $state in D*) ;; *) continue ;; esac
			while read -r line; do
				echo "# peer-watchdog:   $line"
			done 2>/dev/null </proc/$pid/stack
		done
		read -r line _ </proc/uptime
		echo "# peer-watchdog: checked at ${line}s"
	done
}
wdpid=
if [ -n "$watchdog" ]; then
	watch "$watchdog" &
	wdpid=$!
fi

# Swap in use and in all, in kB, at a setting's start and end: what a
# test leaves in use stays so after it exits, and peer_timeout()
# (peer/peer-timeout.sh) empties it before the next test.
swap_kb() {
	awk '/^SwapTotal/ {t = $2} /^SwapFree/ {f = $2} END {print t - f, t}' /proc/meminfo
}

swap_used() {
	set -- $(swap_kb)
	echo "$1 of $2 kB"
}

# loop_run I: run I of peer.loop= in this setting ($pre), its output kept
# only where it fails.  Returns its exit status.
loop_run() {
	local lrc=0 cmd t0 tr
	case $loop in
	uffd-events) cmd="./uffd-unit-tests -f events" ;;
	cow) cmd=./cow ;;
	khugepaged) cmd=./khugepaged ;;
	# order-2 anonymous THP, as run_vmtests.sh's second khugepaged run
	khugepaged-s2) cmd="./khugepaged -s 2" ;;
	# one CPU: every fault and MADV_PAGEOUT on it, to tell whether
	# collapse_max_ptes_swap's failures need a second CPU's LRU batch
	# (they do not: bound, it fails as often)
	khugepaged-cpu0) cmd="taskset -c 0 ./khugepaged" ;;
	*) echo "# peer-loop: unknown peer.loop=$loop"; return 2 ;;
	esac
	# cow's hangs were in its io_uring tests: record io_uring's events,
	# kept only for a failed run
	tr=$r/sys/kernel/tracing
	if [ "$loop" = cow ] && [ -d $tr/events/io_uring ]; then
		echo 0 >$tr/tracing_on
		echo >$tr/trace
		echo 8192 >$tr/buffer_size_kb
		echo 1 >$tr/events/io_uring/enable
		echo 1 >$tr/tracing_on
	fi
	t0=$(cut -d. -f1 /proc/uptime)
	in_root bash -c ". /peer/mm/peer-timeout.sh && cd /peer/mm && peer_timeout $pre $cmd" \
		>/tmp/loop.log 2>&1 || lrc=$?
	echo "# peer-loop: $loop $s run $1 rc=$lrc $(($(cut -d. -f1 /proc/uptime) - t0))s"
	[ -w $tr/tracing_on ] && echo 0 >$tr/tracing_on
	if [ "$lrc" != 0 ]; then
		sed 's/^/# peer-loop-log: /' /tmp/loop.log
		[ "$loop" = cow ] && grep -v '^#' $tr/trace | tail -300 | sed 's/^/# peer-loop-trace: /'
	fi
	return $lrc
}

orig=
[ -f $fa/default_bytes ] && orig=$(cat $fa/default_bytes)
[ "$cats" = none ] && settings=
for s in $settings; do
	pre=
	case $s in
	max|auto-proc|auto-sys)
		if [ ! -d $fa ]; then
			echo "# peer-setting: SKIPPED $s: this kernel has no $fa (no fault-around hints)"
			continue
		fi
		;;
	esac
	case $s in
	stock|none) ;;
	max)
		# (busybox has no getconf: the page size from smaps, in kB)
		kb=$(awk '/^KernelPageSize/ {print $2; exit}' /proc/self/smaps)
		bytes=$((kb * 1024 << $(cat $fa/max_order)))
		echo "$bytes" >$fa/default_bytes || { echo "# peer-setting: SKIPPED $s: writing $bytes to default_bytes failed"; continue; }
		;;
	auto-proc) pre="/faultaround/libfaultaround/faultaround -a --" ;;
	auto-sys)
		if ! err=$( (echo auto >$fa/default_bytes) 2>&1); then
			case $err in
			*"Invalid argument"*) echo "# peer-setting: SKIPPED $s: this kernel refuses 'auto' in default_bytes (EINVAL: $err)" ;;
			*) echo "# peer-setting: SKIPPED $s: writing 'auto' to default_bytes failed: $err" ;;
			esac
			continue
		fi
		;;
	*) echo "# peer-setting: SKIPPED $s: unknown setting"; continue ;;
	esac
	echo "# peer-setting: BEGIN $s default_bytes=$(cat $fa/default_bytes 2>/dev/null || echo -)" \
		"process=$([ -n "$pre" ] && echo auto || echo unset) swap used $(swap_used)"
	start=$(cut -d. -f1 /proc/uptime)
	rc=0
	failed=0
	for i in $(seq "$repeat"); do
		if [ -n "$loop" ]; then
			loop_run "$i" || { failed=$((failed + 1)); rc=1; }
			continue
		fi
		[ "$repeat" = 1 ] || echo "# peer-repeat: $i of $repeat"
		# a failure (1) in any pass outranks a later pass's skips (4)
		in_root sh -c "cd /peer/mm && exec $pre bash ./run_vmtests-peer.sh -t '$cats'" ||
			{ prc=$?; [ "$rc" = 1 ] || rc=$prc; }
	done
	[ -z "$loop" ] || echo "# peer-loop: $loop $s $((repeat - failed)) passed, $failed failed of $repeat"
	# Our own test of the stock window: it must skip where the default
	# is not the stock one, and pass where it is.
	# It also writes the system default, and must leave it as it was.
	before=$(cat $fa/default_bytes 2>/dev/null || echo -)
	in_root sh -c "cd /tmp && exec $pre /peer/mm/faultaround_stock" >/tmp/own.log 2>&1
	orc=$?
	after=$(cat $fa/default_bytes 2>/dev/null || echo -)
	[ "$before" = "$after" ] && kept="default_bytes kept ($after)" ||
		kept="default_bytes CHANGED from $before to $after"
	echo "# peer-own: $s faultaround_stock rc=$orc $(grep -E '^ok ' /tmp/own.log | grep -vc '# SKIP') passed," \
		"$(grep -cE '^not ok' /tmp/own.log) failed, $(grep -cE '^ok .*# SKIP' /tmp/own.log) skipped, $kept"
	sed 's/^/# peer-own-log: /' /tmp/own.log
	echo "# peer-setting: END $s rc=$rc $(($(cut -d. -f1 /proc/uptime) - start))s, swap used $(swap_used)"
	[ -n "$orig" ] && echo "$orig" >$fa/default_bytes
done

# The stress load.  "fit" takes at most about 52 MiB of files on the
# 128 MiB ext4 (readahead 16, mmap 16, msync 8, madvise 4 fixed by
# stress-ng, the churner 8) and bounds what is not a file: mremap 16 MiB,
# pagemove 4 MiB, and mlock to RLIMIT_MEMLOCK (64 MiB), which applies
# because capsh drops CAP_IPC_LOCK (as root the stressor locks 256K
# pages: 16 GiB with 64K pages).  "overfill" is the load of before:
# readahead's 64 MiB file, the churner's 512 pages (32 MiB with 64K pages)
# and mlock unbounded.
case $load in
fit)
	sizes="--readahead-bytes 16M --msync-bytes 8M --pagemove-bytes 4M"
	churn_bytes=8388608
	wrap="capsh --drop=cap_ipc_lock -- -c" limit="ulimit -l 65536 &&"
	;;
overfill)
	sizes="--msync-bytes 16M"
	churn_bytes=$((512 * $(awk '/^KernelPageSize/ {print $2; exit}' /proc/self/smaps) * 1024))
	wrap="sh -c" limit=
	;;
*) echo "# peer-stress: unknown peer.load=$load"; exit 1 ;;
esac

# sample DIR: every half second, the most of DIR's filesystem in use, the
# least memory available and the most memory mlocked, until
# /tmp/sample.stop appears.
sample() {
	local used most=0 avail least= locked mlocked=0
	while [ ! -e /tmp/sample.stop ]; do
		used=$(df -k "$1" | awk 'NR == 2 {print $3}')
		avail=$(awk '/^MemAvailable/ {print $2}' /proc/meminfo)
		locked=$(awk '/^Mlocked/ {print $2}' /proc/meminfo)
		[ "$used" -gt "$most" ] && most=$used
		[ -z "$least" ] || [ "$avail" -lt "$least" ] && least=$avail
		[ "$locked" -gt "$mlocked" ] && mlocked=$locked
		echo "$most $least $mlocked" >/tmp/sample.peak
		sleep 0.5
	done
}

rc=0
i=0
while [ -n "$stress" ] && [ "$stress" != 0 ] && [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	d=/mnt/ext4/stress
	rm -rf $r$d
	mkdir -p $r$d
	[ "$rounds" -gt 1 ] && echo "# peer-stress-round: $i of $rounds"
	echo "# peer-stress: BEGIN ${stress}s in $d ($(grep " $r/mnt/ext4 " /proc/mounts | cut -d' ' -f3 || echo tmpfs)), load $load"
	rm -f /tmp/sample.stop
	sample $r$d &
	sampler=$!
	in_root /peer/churn $churn_opt $d "$stress" "$churn_bytes" >/tmp/churn.log 2>&1 &
	churn=$!
	in_root $wrap "$limit exec stress-ng --temp-path $d --verify --metrics-brief \
		--timeout ${stress}s $sizes \
		--mmap 1 --mmap-file --mmap-bytes 16M --madvise 1 --fault 1 \
		--mremap 1 --mremap-bytes 16M --msync 1 --mlock 1 \
		--vm-segv 1 --pagemove 1 --readahead 1" >/tmp/stress.log 2>&1
	src=$?
	sed 's/^/# peer-stress-ng: /' /tmp/stress.log
	wait $churn
	crc=$?
	sed 's/^/# peer-churn: /' /tmp/churn.log
	touch /tmp/sample.stop
	wait $sampler
	read -r most least mlocked </tmp/sample.peak
	size=$(df -k $r$d | awk 'NR == 2 {print $2}')
	total=$(awk '/^MemTotal/ {print $2}' /proc/meminfo)
	echo "# peer-stress: peak ext4 used ${most} of ${size} kB ($((most * 100 / size))%)," \
		"least MemAvailable ${least} of ${total} kB ($((least * 100 / total))%), most Mlocked ${mlocked} kB"
	echo "# peer-stress: END stress-ng rc=$src churn rc=$crc"
	[ $src = 0 ] && [ $crc = 0 ] || rc=1
	[ -n "$orig" ] && echo "$orig" >$fa/default_bytes
done
# The watchdog holds guest-init's output pipe open: stop it, or the
# guest never powers off.
[ -n "$wdpid" ] && kill "$wdpid"
exit $rc
