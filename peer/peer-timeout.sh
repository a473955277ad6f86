# SPDX-License-Identifier: GPL-2.0
# Sourced by run_vmtests-peer.sh (scripts/peer-initramfs.sh) in the peer
# guests: the time limit around each of the kernel's mm selftests.
#
# peer_timeout CMD...: run CMD; past $PEER_TIMEOUT seconds (default 180)
# print what each thread of CMD and of its children is doing in the kernel
# (state, wchan, the kernel stack from /proc), so that a hang leaves a
# trace on the console, then SIGKILL them all and return 137.  With
# PEER_TRACE=ksm-unmerge, "./ksm_tests -U" runs traced (peer-ksm-trace.sh).
# With PEER_SWAP set to the guest's swap device, CMD starts with it empty.
# CMD ends with the THP settings as it found them.

# peer_empty_swap: empty the swap, as a test run alone after boot finds
# it.  What a test leaves in use stays in use after it exits:
# transhuge-stress, which maps as much as the guest has memory, leaves all
# of it so, and the tests after it would otherwise run with no swap.
peer_empty_swap() {
	local used
	[ -n "${PEER_SWAP:-}" ] || return 0
	used=$(awk '/^SwapTotal/ {t = $2} /^SwapFree/ {f = $2} END {print t - f}' /proc/meminfo)
	[ "$used" -gt 0 ] || return 0
	if swapoff "$PEER_SWAP" && swapon "$PEER_SWAP"; then
		echo "peer-swap: emptied before the test, $used kB were in use"
	else
		echo "peer-swap: NOT emptied: swapoff or swapon $PEER_SWAP failed"
	fi
}

# peer_thp_value FILE: a THP setting, the bracketed choice of a file that
# offers several.
peer_thp_value() {
	local v
	v=$(cat "$1" 2>/dev/null) || return 1
	case $v in *"["*"]"*) v=${v#*[}; v=${v%%]*} ;; esac
	echo "$v"
}

# peer_thp_settings: the THP settings the selftests change
# (thp_push_settings() in hugepage_settings.c), a "FILE VALUE" line each.
peer_thp_settings() {
	local d=/sys/kernel/mm/transparent_hugepage f v
	for f in "$d"/enabled "$d"/defrag "$d"/shmem_enabled "$d"/use_zero_page \
		"$d"/khugepaged/{defrag,alloc_sleep_millisecs,scan_sleep_millisecs} \
		"$d"/khugepaged/{max_ptes_none,max_ptes_swap,max_ptes_shared,pages_to_scan} \
		"$d"/hugepages-*/enabled "$d"/hugepages-*/shmem_enabled; do
		v=$(peer_thp_value "$f") && echo "$f $v"
	done
}

# peer_thp_restore SAVED: write back each setting that differs from SAVED
# (peer_thp_settings' lines).  A test killed by the time limit between
# thp_push_settings() and thp_pop_settings(), as cow was once, leaves
# PMD-sized THP off, and every THP test after it fails.
peer_thp_restore() {
	local f v now
	while read -r f v; do
		now=$(peer_thp_value "$f") || continue
		[ "$now" = "$v" ] && continue
		if echo "$v" >"$f" 2>/dev/null; then
			echo "peer-thp: ${f#/sys/kernel/mm/transparent_hugepage/} restored to $v (the test left $now)"
		else
			echo "peer-thp: ${f#/sys/kernel/mm/transparent_hugepage/} NOT restored to $v (the test left $now)"
		fi
	done <<<"$1"
}

# peer_tree PID: PID and its descendants, from each process's parent in
# /proc/*/stat (the field after the parenthesised name).
peer_tree() {
	local p=$1 c
	echo "$p"
	for c in $(for s in /proc/[0-9]*/stat; do
			sed -n 's/.*) [A-Za-z] \([0-9]*\) .*/\1 '"${s//[^0-9]/}"'/p' "$s" 2>/dev/null
		done | awk -v p="$p" '$1 == p { print $2 }'); do
		peer_tree "$c"
	done
}

peer_timeout() {
	local limit=${PEER_TIMEOUT:-180} t0 pid p t rc thp
	peer_empty_swap
	thp=$(peer_thp_settings)
	t0=$SECONDS
	if [ "${PEER_TRACE:-}" = ksm-unmerge ] && [ "$*" = "./ksm_tests -U" ]; then
		peer_ksm_trace "$@" &
	else
		# its own session and process group, so that what it leaves
		# behind can be found when it is gone
		setsid "$@" &
	fi
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ $((SECONDS - t0)) -ge "$limit" ]; then
			echo "PEER-TIMEOUT: killed after ${limit}s"
			for p in $(peer_tree "$pid"); do
				for t in /proc/"$p"/task/*; do
					echo "PEER-HANG: pid $p tid ${t##*/} comm $(cat "$t"/comm 2>/dev/null)" \
						"$(grep '^State' "$t"/status 2>/dev/null | tr '\t' ' ')" \
						"wchan $(cat "$t"/wchan 2>/dev/null)"
					sed 's/^/PEER-HANG:   /' "$t"/stack 2>/dev/null
				done
			done
			for p in $(peer_tree "$pid"); do kill -KILL "$p" 2>/dev/null; done
			break
		fi
		sleep 1
	done
	wait "$pid"
	rc=$?
	# A test that exits and leaves a process of its own running (as
	# charge_reserved_hugetlb.sh does when a check fails while its
	# write_to_hugetlbfs sleeps, waiting to be signalled) keeps the
	# suite's output pipe open, and run_vmtests.sh waits on it for ever.
	if kill -0 -- -"$pid" 2>/dev/null; then
		echo "PEER-LEFTOVER: the test left processes running; killed:" \
			"$(ps -o pid=,comm= -s "$pid" 2>/dev/null | tr '\n' ' ')"
		kill -KILL -- -"$pid" 2>/dev/null
	fi
	peer_thp_restore "$thp"
	echo "peer-elapsed: $((SECONDS - t0))s"
	return $rc
}
