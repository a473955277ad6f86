# SPDX-License-Identifier: GPL-2.0
#
# workloads.sh: the real-program workloads, sourced (busybox sh) by the
# guest's smoke test and by the benchmarks.  Each wl_* function runs one
# Debian program from the programs image, which /init mounts at $PROGRAMS
# (scripts/guest-init), in a chroot with a clean environment, and prints
# what the program printed.  The words in $RUN go before the program
# inside the chroot: empty for a plain run, "$FA -o 0 --" for the
# launcher, "$FA -r RULES --" for the preload shim, "perf stat ... --".
#
#   wl_sqlite [NAME]   sqlite3 point lookups through mmap, NAME.sql
#                      (default lookups-smoke; lookups: 1000 of them)
#   wl_pystart         python3 startup alone (python3 -c pass)
#   wl_python          python3 startup and an import-heavy script
#   wl_cc DIR [PROG..] make + gcc: zlib's example programs into DIR
#                      (inside the chroot, under /tmp; default: all nine)
#   wl_zpipe DIR       round trip through DIR/zpipe (checks the compile)
#   wl_cc_zpipe DIR    the smoke run's compile: zpipe alone, then the trip
#   wl_rg              rg --mmap over a ~60 MB file for two needle lines
#   wl_git             git grep over HEAD of a packed repository of the
#                      image's Python sources (objects read through mmap)
#   wl_sqlite_pk [NAME] sqlite3 point lookups by rowid in one statement,
#                      NAME.sql (default pk-smoke; pk: 4000 of them)
#   wl_pyimport        python3 startup and the import of a large package
#                      set: numpy, yaml, requests, jinja2
#   wl_fio seq|rand    fio's mmap engine reading big.txt (~60 MB) in 4K
#                      blocks, 8 times: all of it in order, or 16 MB of
#                      random blocks; prints job, error and KB read (fio
#                      asks MADV_SEQUENTIAL or MADV_RANDOM, its fadvise_hint)
#   wl_lmdb COUNT [nordahead]
#                      COUNT LMDB point reads through its read-only map
#                      (lmdb-reads.py; nordahead: MDB_NORDAHEAD, which
#                      advises the map MADV_RANDOM)
#   wl_weights         numpy.memmap sum of a 64 MB float32 weights file
#                      (weights-sum.py), import of numpy included
#
# The data and sources are described in bench/programs/gen-data.sh and
# zlib-examples.mk; the expected outputs sit next to them in $DATA.

PROGRAMS=${PROGRAMS:-/mnt/programs}
DATA=/opt/faultaround
FA=/faultaround/libfaultaround/faultaround
RUN=${RUN:-}

# in_image CMD...: run CMD in the image's chroot, after $RUN.
in_image() {
	env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin HOME=/root TMPDIR=/tmp \
		chroot "$PROGRAMS" $RUN "$@"
}

wl_sqlite() {
	in_image sqlite3 -batch -readonly "$DATA/kv.db" <"$PROGRAMS$DATA/${1:-lookups-smoke}.sql"
}

wl_pystart() {
	in_image python3 -c pass
}

wl_python() {
	in_image python3 "$DATA/imports.py"
}

wl_cc() {
	dir=$1
	shift
	mkdir -p "$PROGRAMS$dir" &&
		in_image make --no-print-directory -f "$DATA/zlib/Makefile" -C "$dir" "$@"
}

wl_zpipe() {
	in_image sh -c "echo faultaround | $1/zpipe | $1/zpipe -d"
}

wl_cc_zpipe() {
	wl_cc "$1" -s zpipe && wl_zpipe "$1"
}

wl_rg() {
	in_image rg --mmap --no-filename -n faultaround-needle "$DATA/big.txt"
}

# The pattern is programs-image.sh's git_pattern, whose matches it keeps
# as git-grep.expected.  The guest's root may not own the image's files:
# safe.directory lets git read the repository all the same (on the
# command line, which git trusts, as the image has no config file).
wl_git() {
	in_image git -c safe.directory='*' --git-dir="$DATA/repo.git" grep -n -F -e 'mmap.mmap(' HEAD
}

wl_sqlite_pk() {
	in_image sqlite3 -batch -readonly "$DATA/kv.db" <"$PROGRAMS$DATA/${1:-pk-smoke}.sql"
}

wl_pyimport() {
	in_image python3 -c 'import numpy, yaml, requests, jinja2; print("OK")'
}

# --thread: one process; --gtod_reduce: no clock reads per block;
# --invalidate=0: the file stays in the page cache (fio drops it before
# each job by default), so that a warm run reads a cached file; --loops=8:
# fio maps the file afresh for each loop, so that the reads and their
# faults weigh more against fio's start (some 160 ms of CPU on the host
# whether it reads 4K or 60 MB; still some 60% of a random-read run on
# x86_64 under -icount).  Fields 3, 5 and 6 of the terse output do
# not change from run to run.
wl_fio() {
	case $1 in
	seq) set -- seq --rw=read ;;
	rand) set -- rand --rw=randread --io_size=16m ;;
	*) echo "wl_fio: seq or rand, not '$1'" >&2; return 2 ;;
	esac
	name=$1
	shift
	in_image fio --name="$name" --filename="$DATA/big.txt" --readonly --ioengine=mmap \
		--bs=4k --thread --gtod_reduce=1 --invalidate=0 --loops=8 --minimal "$@" | cut -d';' -f3,5,6
}

wl_lmdb() {
	in_image python3 "$DATA/lmdb-reads.py" "$DATA/kv.mdb" "$@"
}

wl_weights() {
	in_image python3 "$DATA/weights-sum.py" "$DATA/weights.f32"
}

# Run as a command (so that timeout can wrap it): workloads.sh wl_NAME ARGS.
case ${0##*/} in
workloads.sh) [ $# -gt 0 ] && "$@" ;;
esac
