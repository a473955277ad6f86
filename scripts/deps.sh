#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install every Debian package the project needs (idempotent).
# Host packages go in with apt-get; the ppc64el guest's busybox-static and
# liburing come from Debian's ppc64el archive through dpkg multiarch, fetched
# with apt-get download and unpacked into build/sysroot/ppc64le: installing
# them would conflict with the host's busybox-static and drag in a second
# libc6-dev, and the guest needs only their files.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

# Package: why.
host_pkgs=(
	linux-source-6.12	# the kernel we patch
	gcc-powerpc64le-linux-gnu	# cross compiler for the pseries guest
	libc6-dev-ppc64el-cross	# its libc (also shipped into the guest)
	qemu-system-ppc		# pseries guest (radix and hash)
	qemu-system-x86		# x86_64 guest
	make gcc git xz-utils	# build tools (git am applies the series)
	flex bison bc		# kernel build
	libelf-dev libssl-dev	# kernel build (objtool, certs)
	cpio rsync		# initramfs
	busybox-static		# x86_64 guest userland
	liburing-dev		# io_uring load in the stress test (host/x86_64)
	ccache			# incremental kernel rebuilds across clones
	gnuplot-nox		# benchmark charts (SVG)
	valgrind		# memory and leak checks of the preload shim (ASan cannot be preloaded)
)

guest_debs=(busybox-static liburing-dev liburing2)
sysroot=$BUILD/sysroot/ppc64le

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${host_pkgs[@]}"; do
	[ -n "$p" ] || continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

updated=0
apt_update() {
	[ $updated = 1 ] && return
	# A partial mirror sync of one index must not stop us: install reports
	# what is really missing.
	sudo_ apt-get update -q >"$BUILD/apt-update.log" 2>&1 ||
		warn "apt-get update reported errors (see build/apt-update.log)"
	updated=1
}

mkdir -p "$BUILD"
if [ ${#missing[@]} -gt 0 ]; then
	info "installing: ${missing[*]}"
	apt_update
	DEBIAN_FRONTEND=noninteractive sudo_ apt-get install -y -q "${missing[@]}" \
		>"$BUILD/apt-install.log" 2>&1 || {
		tail -15 "$BUILD/apt-install.log" >&2
		die "apt-get install failed for: ${missing[*]}"
	}
fi

if [ ! -f "$sysroot/.complete" ]; then
	if ! dpkg --print-foreign-architectures | grep -qx ppc64el; then
		info "enabling dpkg multiarch for ppc64el"
		sudo_ dpkg --add-architecture ppc64el
		updated=0
	fi
	apt_update
	mkdir -p "$BUILD/debs" "$sysroot"
	(
		cd "$BUILD/debs"
		for d in "${guest_debs[@]}"; do
			ls "${d}"_*_ppc64el.deb >/dev/null 2>&1 && continue
			apt-get download -q "$d:ppc64el" >/dev/null 2>"$BUILD/apt-download.log" ||
				{ cat "$BUILD/apt-download.log" >&2; die "apt-get download $d:ppc64el failed"; }
		done
		for deb in *_ppc64el.deb; do
			dpkg-deb -x "$deb" "$sysroot"
		done
	)
	touch "$sysroot/.complete"
fi
