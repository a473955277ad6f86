#!/bin/sh
# run.sh REPS OUT.csv: every pattern x {warm,cold} x REPS, one at a time,
# each traced by farsig.bt; appends one CSV row per run to OUT.csv.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-5}
out=${2:-runs.csv}
bin=/tmp/farsig/farsig
file=/var/tmp/farsig/data.bin
ino=$(stat -c %i "$file")
base=0x600000000000
len=$(stat -c %s "$file")

echo "rep,pattern,state,pages,touches,resident_before,minflt,majflt,elapsed_ns,vma_rss_kb,vma_file_pmd_mapped_kb,faults,filemap_fault_calls,map_pages_calls,map_pages_window_pages,ra_sync,ra_async,faults_with_fra_change,fra_changes_seg_faultaround,fra_changes_seg_filemap_fault,ch_start,ch_size,ch_async_size,ch_ra_pages,ch_mmap_miss,ch_prev_pos,nd_start,nd_size,nd_async_size,nd_ra_pages,nd_mmap_miss,nd_prev_pos,mmap_miss_max,start0,size0,async_size0,ra_pages0,mmap_miss0,prev_pos0,fwd_near_faults,same_delta_faults,start1,size1,async_size1,ra_pages1,mmap_miss1,prev_pos1,ra_order" > "$out"
for rep in $(seq 1 "$reps"); do
	for state in warm cold; do
		for pat in seq rand stride16 thr2half thr2alt; do
			res=$(BPFTRACE_MAP_KEYS_MAX=65536 nice -n 10 bpftrace "$here/farsig.bt" \
				"$ino" "$base" "$len" -c "$bin $file $pat $state $rep" 2>&1 |
				grep -e '^PROG,' -e '^BT,')
			prog=$(echo "$res" | grep '^PROG,' | cut -d, -f2-)
			bt=$(echo "$res" | grep '^BT,' | cut -d, -f2-)
			if [ -z "$prog" ] || [ -z "$bt" ]; then
				echo "run failed: $rep $state $pat: $res" >&2
				exit 1
			fi
			echo "$rep,$prog,$bt" >> "$out"
			echo "$rep $state $pat done" >&2
			sleep 1
		done
	done
done
