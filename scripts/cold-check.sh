#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cold-check.sh [DIR]: time a cold `make check` as CI would meet it on a
# fresh machine: a new Debian 12 root made by debootstrap (default
# build/cold), with only what a fresh machine of this kind has (gcc, make,
# git, python3), no Debian package of ours installed, an empty ccache and
# a fresh clone of this repository's HEAD; `make check` there installs
# everything itself.  The chroot shares the host's kernel, CPUs and
# network.  Prints `time`'s real/user/sys and make check's summary; the
# whole log is DIR/cold-check.log.  With COLD_CHECK_RUNS=N, N-1 more runs
# follow in the same root, each from a fresh clone (packages installed and
# ccache filled by the runs before: a repeat, not cold), logs
# DIR/cold-check-2.log and on.  Needs root and debootstrap; DIR is removed
# first.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

dir=$(realpath -m "${1:-$BUILD/cold}")
root=$dir/root
mirror=http://deb.debian.org/debian

[ "$(id -u)" = 0 ] || die "cold-check.sh needs root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null ||
	die "debootstrap missing: apt-get install debootstrap"

unmount_all() {
	local m
	for m in tmp dev sys proc; do
		mountpoint -q "$root/$m" && umount -R "$root/$m"
	done
	return 0
}
trap unmount_all EXIT

if [ -d "$root" ]; then
	unmount_all
	rm -rf "$dir"
fi
mkdir -p "$dir"
info "debootstrap bookworm into ${dir#"$top"/}"
debootstrap --include=build-essential,git,python3,procps,time,ca-certificates \
	bookworm "$root" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
	{ tail -5 "$dir/debootstrap.log" >&2; die "debootstrap failed"; }
# The host's apt sources (bookworm, -updates, -security) and resolver.
if [ -d /etc/apt/sources.list.d ] && ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
	cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
	rm -f "$root/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$root/etc/"

mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"

rc=0
for i in $(seq 1 "${COLD_CHECK_RUNS:-1}"); do
	suffix=$([ "$i" = 1 ] || echo "-$i")
	git clone -q "$top" "$root/work/faultaround$suffix"
	info "$([ "$i" = 1 ] && echo cold || echo "repeat $i:") make check of $(git -C "$top" log --oneline -1) (log: ${dir#"$top"/}/cold-check$suffix.log)"
	chroot "$root" /bin/bash -c "cd /work/faultaround$suffix && time make check" \
		>"$dir/cold-check$suffix.log" 2>&1 || rc=1
	grep -E '^\[faultaround\]   |^(real|user|sys)\b|passed, .* failed, .* skipped$' "$dir/cold-check$suffix.log" | tail -20
	# Each run's build/ goes with it: the next one starts from a clone.
	rm -rf "$root/work/faultaround$suffix/build"
done
exit $rc
