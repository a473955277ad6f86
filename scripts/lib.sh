# SPDX-License-Identifier: GPL-2.0
# Shared by the scripts/ helpers: paths and messages.

: "${top:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${BUILD:=$top/build}"
export BUILD

info() { printf '[faultaround] %s\n' "$*" >&2; }
warn() { printf '[faultaround] warning: %s\n' "$*" >&2; }
die() { printf '[faultaround] error: %s\n' "$*" >&2; exit 1; }

# What counts as a kernel report on a guest's console (scripts/qemu-run.sh
# fails a run on any; scripts/report-re-test.sh checks these against the
# report headers of the kernel source).  Besides the debug options' reports,
# the OOM killer and ext4's lost writes: a guest whose load does not fit
# its memory or its disk has not tested what it claims to.  The one benign
# WARNING is pseries' complaint about qemu's blank NVRAM, printed at every
# boot.
kernel_report_re='Oops|BUG:|kernel BUG at|WARNING:|KASAN|Kernel panic|possible circular locking|INFO: lockdep|Call Trace:|UBSAN|general protection fault|invoked oom-killer|oom-kill:|Out of memory|EXT4-fs error|Delayed block allocation failed|This should not happen'
kernel_benign_re='WARNING: nvram corruption detected: 0-length partition'

# report_kinds CONSOLE: what the kernel reports on CONSOLE are, one line,
# most telling first ("2 kernel reports: OOM kill, ext4 data loss"), or
# nothing when there are none.
report_kinds() {
	local lines n
	lines=$(grep -E "$kernel_report_re" "$1" | grep -vE "$kernel_benign_re" || true)
	[ -n "$lines" ] || return 0
	n=$(printf '%s\n' "$lines" | grep -c .)
	printf '%s\n' "$lines" | awk -v n="$n" '
		/invoked oom-killer|oom-kill:|Out of memory/ { k["OOM kill"] = 1; next }
		/Delayed block allocation|This should not happen|EXT4-fs error/ { k["ext4 data loss or error"] = 1; next }
		/KASAN/ { k["KASAN"] = 1; next }
		/lockdep|circular locking/ { k["lockdep"] = 1; next }
		/UBSAN/ { k["UBSAN"] = 1; next }
		/Kernel panic/ { k["panic"] = 1; next }
		/Oops|BUG|general protection/ { k["BUG or Oops"] = 1; next }
		/WARNING:/ { k["WARNING"] = 1; next }
		{ k["call trace"] = 1 }
		END {
			split("OOM kill|ext4 data loss or error|KASAN|lockdep|UBSAN|panic|BUG or Oops|WARNING|call trace", order, "|")
			for (i = 1; i in order; i++)
				if (order[i] in k)
					s = s (s ? ", " : "") order[i]
			printf "%d kernel report line%s (%s)\n", n, n == 1 ? "" : "s", s
		}'
}
