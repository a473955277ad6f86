# SPDX-License-Identifier: GPL-2.0
# Sourced by run_vmtests-peer.sh (scripts/peer-initramfs.sh) in the peer
# guests: the trace of "ksm_tests -U" that peer.trace=ksm-unmerge asks for.
#
# peer_ksm_trace CMD...: run CMD with "-d" added (the test then prints
# KSM's global counters and its own process's ksm_stat when it checks
# them) while ftrace records KSM's scan passes (ksm:ksm_start_scan and
# ksm_stop_scan, whose "seq" is full_scans), the processes entering and
# leaving KSM and every merge and unmerge event, and uprobes on the test's
# own ksm_do_scan() (with the number of passes it waits for: 2 after
# MADV_MERGEABLE, 1 after the two writes), assert_ksm_pages_count() and
# their returns, at the offsets scripts/peer-mm-build.sh wrote into
# ksm_tests.uprobes.  Prints the trace from the test's start with
# "PEER-KSM-TRACE: " before each line, then CMD's exit status.

peer_ksm_trace() {
	local t=/sys/kernel/tracing bin=/peer/mm/ksm_tests arg ret f off rc
	case $(uname -m) in
	x86_64) arg=%di ret=%ax ;;
	*) arg=%r3 ret=%r3 ;;
	esac
	if [ ! -w $t/uprobe_events ] || [ ! -d $t/events/ksm ]; then
		echo "PEER-KSM-TRACE: no uprobe_events or no ksm events in $t: not traced"
		"$@" -d
		return
	fi
	echo 0 >$t/tracing_on
	echo >$t/trace
	echo 16384 >$t/buffer_size_kb
	while read -r f off; do
		# both functions take an int or long first and return an int or
		# bool: the low 32 bits say it all
		echo "p:peer_ksm/$f $bin:$off arg=$arg:s32" >>$t/uprobe_events
		echo "r:peer_ksm/${f}_ret $bin:$off rc=$ret:s32" >>$t/uprobe_events
	done <$bin.uprobes
	[ -d $t/events/peer_ksm ] && echo 1 >$t/events/peer_ksm/enable
	echo 1 >$t/events/ksm/enable
	echo 1 >$t/tracing_on
	"$@" -d
	rc=$?
	echo 0 >$t/tracing_on
	echo 0 >$t/events/ksm/enable
	[ -d $t/events/peer_ksm ] && echo 0 >$t/events/peer_ksm/enable
	# (removing the uprobes empties the trace buffer: read it first)
	grep -v '^#' $t/trace | sed 's/^/PEER-KSM-TRACE: /'
	echo "PEER-KSM-TRACE: rc=$rc"
	echo >$t/uprobe_events
	echo >$t/trace
	return $rc
}
