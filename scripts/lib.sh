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
# report headers of the kernel source).  The one benign WARNING is pseries'
# complaint about qemu's blank NVRAM, printed at every boot.
kernel_report_re='Oops|BUG:|kernel BUG at|WARNING:|KASAN|Kernel panic|possible circular locking|INFO: lockdep|Call Trace:|UBSAN|general protection fault'
kernel_benign_re='WARNING: nvram corruption detected: 0-length partition'
