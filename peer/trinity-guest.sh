#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The trinity run inside the guest (/peer/run of the initramfs that
# scripts/peer-trinity.sh packs; guest-init starts it for
# faultaround.mode=peer, its output goes to the console through /dev/kmsg).
# trinity 1.9 (Debian's, in the peer root of scripts/peer-debs.sh) fuzzes
# the system calls named by peer.trinity.calls= (comma-separated) for
# peer.trinity.ops= operations (trinity -N), as nobody, in a chroot of the
# peer root, with peer/trinity-preload.c preloaded: it turns about half of
# the fuzzed madvise(), process_madvise() and prctl() calls into the
# series' advice and prctl options, valid and invalid, and logs each.
#
# While trinity runs, the fault_around tracepoint is on (tracefs; the
# kernel's ring buffer in overwrite mode, so entries + overrun of every CPU
# is every event, even those the buffer no longer holds); the sources of
# the events it still holds are counted.  The host (scripts/peer-trinity.sh)
# reads these lines from the console:
#
#   # peer-trinity: unknown NAME...   names trinity does not know (not run)
#   # peer-trinity: BEGIN ...
#   # peer-trinity-out: ...           trinity's output (its last 400 lines)
#   # peer-trinity: ran N             "Ran N syscalls" as trinity printed it
#   # peer-trinity: rewritten R accepted A einval E other O
#   # peer-trinity-kind: COUNT CALL KIND RESULT
#   # peer-trinity: tracepoint events T by-source SOURCE=COUNT,...
#   # peer-trinity: END rc=RC kernel=patched|stock

r=/peer/root
t=$r/sys/kernel/tracing
ops=12000 calls=mmap,munmap,mremap,madvise,process_madvise,mprotect,mseal,prctl,fork,execve
limit=1500 children=2
# shellcheck disable=SC2013  # (words: the command line)
for arg in $(cat /proc/cmdline); do
	case $arg in
	peer.trinity.ops=*) ops=${arg#peer.trinity.ops=} ;;
	peer.trinity.calls=*) calls=${arg#peer.trinity.calls=} ;;
	peer.trinity.timeout=*) limit=${arg#peer.trinity.timeout=} ;;
	peer.trinity.children=*) children=${arg#peer.trinity.children=} ;;
	esac
done

mount -t proc proc $r/proc
mount -t sysfs sysfs $r/sys
mount -t tracefs tracefs $r/sys/kernel/tracing 2>/dev/null ||
	mount -t debugfs debugfs $r/sys/kernel/debug 2>/dev/null
mount -t devtmpfs devtmpfs $r/dev
mkdir -p $r/dev/shm
mount -t tmpfs tmpfs $r/dev/shm
mount -t tmpfs tmpfs $r/tmp
mount -t tmpfs tmpfs $r/run
w=/tmp/trinity
mkdir -p $r$w
chown 65534:65534 $r$w
chmod 755 $r$w

in_root() {
	chroot $r /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=$w "$@"
}
# As nobody: trinity refuses to run as root (--dropprivs is experimental).
as_nobody() {
	in_root capsh --gid=65534 --groups=65534 --uid=65534 -- -c "cd $w && $1"
}

kernel=stock
[ -d /sys/kernel/mm/faultaround ] && kernel=patched
echo "# peer-trinity: kernel $(uname -r) ($kernel), mem $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB, cpus $(nproc)"

# The names trinity knows: "-L" lists them ("64-bit entrypoint 9 mmap :
# Enabled" on x86_64, "NAME : Enabled" where it has one table); an unknown
# name passed to -c makes trinity exit.
as_nobody "trinity -L" >/tmp/trinity.list 2>&1
known='' unknown=''
for c in $(echo "$calls" | tr , ' '); do
	if grep -qE "(^| )$c : " /tmp/trinity.list; then
		known="$known $c"
	else
		unknown="$unknown $c"
	fi
done
grep -E "(^| )($(echo "$calls" | tr , '|')) : " /tmp/trinity.list | sed 's/^/# peer-trinity-list: /'
echo "# peer-trinity: known${known:- none}"
echo "# peer-trinity: unknown${unknown:- none}"
[ -n "$known" ] || { echo "# peer-trinity: END rc=1 kernel=$kernel (no system call to fuzz)"; exit 1; }
cargs=
for c in $known; do cargs="$cargs -c $c"; done
# Only the 64-bit entry points on x86_64: the wrapper sees only what goes
# through syscall(), and trinity makes 32-bit calls with int 0x80 itself.
arch=
[ "$(uname -m)" = x86_64 ] && arch="-a 64"

trace=0
if [ -d $t/events/fault_around/fault_around ]; then
	echo 0 >$t/tracing_on
	echo 4096 >$t/buffer_size_kb
	echo >$t/trace
	echo 1 >$t/options/overwrite
	echo 1 >$t/events/fault_around/fault_around/enable
	echo 1 >$t/tracing_on
	trace=1
fi

echo "# peer-trinity: BEGIN ops=$ops children=$children limit=${limit}s calls$known"
start=$(cut -d. -f1 /proc/uptime)
timeout -s KILL "$limit" chroot $r /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=$w \
	capsh --gid=65534 --groups=65534 --uid=65534 -- -c "cd $w && exec env \
	LD_PRELOAD=/peer/trinity-preload.so FA_TRINITY_LOG=$w/preload.log \
	trinity -q -l off --stats $arch -C $children -N $ops \
	--disable-fds=sockets,perf,drm $cargs" >/tmp/trinity.out 2>&1 </dev/null
rc=$?
secs=$(($(cut -d. -f1 /proc/uptime) - start))
[ $rc = 137 ] && echo "# peer-trinity: trinity killed after ${limit}s"
# Children trinity left behind (a kill, a stuck call): every process of
# nobody's, by its /proc entry.
for p in /proc/[0-9]*; do
	grep -q '^Uid:[[:space:]]*65534[[:space:]]' "$p/status" 2>/dev/null && kill -9 "${p#/proc/}" 2>/dev/null
done
[ $trace = 1 ] && echo 0 >$t/events/fault_around/fault_around/enable

n=$(wc -l </tmp/trinity.out)
echo "# peer-trinity: trinity rc=$rc in ${secs}s, $n lines of output, the last 400:"
tail -400 /tmp/trinity.out | sed 's/^/# peer-trinity-out: /'
ran=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' /tmp/trinity.out | tail -1)
echo "# peer-trinity: ran ${ran:-unknown}"

log=$r$w/preload.log
[ -f $log ] || : >$log
echo "# peer-trinity: rewritten $(grep -c . $log) accepted $(grep -c 'ret=[0-9]' $log)" \
	"einval $(grep -c 'errno=22$' $log) other $(grep 'ret=-1 ' $log | grep -vc 'errno=22$')"
awk '{ res = $4 == "ret=-1" ? $5 : "ret>=0"; print $1, $2, res }' $log | sort | uniq -c |
	sort -k2,2 -k1,1nr | sed 's/^ */# peer-trinity-kind: /'

if [ $trace = 1 ]; then
	total=0
	for s in "$t"/per_cpu/cpu*/stats; do
		e=$(awk '/^entries:/ {print $2}' "$s")
		o=$(awk '/^overrun:/ {print $2}' "$s")
		total=$((total + e + o))
	done
	src=$(grep -o 'source=[^ ]*' $t/trace | sort | uniq -c |
		awk '{ sub(/source=/, "", $2); printf "%s%s=%s", n++ ? "," : "", $2, $1 }')
	# Two events of each source, as the buffer has them.
	grep -o 'source=[^ ]*' $t/trace | sort -u | while read -r v; do
		grep -m2 " $v\$" $t/trace | sed 's/^/# peer-trinity-event: /'
	done
	echo "# peer-trinity: tracepoint events $total by-source ${src:-none} (sources of the $(grep -c 'source=' $t/trace) still in the buffer)"
else
	echo "# peer-trinity: tracepoint events none (this kernel has no fault_around tracepoint)"
fi
# trinity's own verdict: it stops early when the kernel taints.
sed 's/^/# peer-trinity: tainted /' /proc/sys/kernel/tainted
echo "# peer-trinity: END rc=$rc kernel=$kernel"
[ -n "$ran" ] && [ "$ran" -gt 0 ] || exit 1
exit 0
