# SPDX-License-Identifier: GPL-2.0
# Shared by the scripts/ helpers: paths and messages.

: "${top:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${BUILD:=$top/build}"
export BUILD

info() { printf '[faultaround] %s\n' "$*" >&2; }
warn() { printf '[faultaround] warning: %s\n' "$*" >&2; }
die() { printf '[faultaround] error: %s\n' "$*" >&2; exit 1; }
