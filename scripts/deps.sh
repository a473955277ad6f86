#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install every Debian package the project needs (idempotent).
# Host packages go in with apt-get; the ppc64el guest's busybox-static and
# liburing come from Debian's ppc64el archive through dpkg multiarch, fetched
# with apt-get download and unpacked into build/sysroot/ppc64le: installing
# them would conflict with the host's busybox-static and drag in a second
# libc6-dev, and the guest needs only their files.  qemu comes from
# bookworm-backports on Debian 12 (see install_qemu below).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

# Package: why.
host_pkgs=(
	gcc-powerpc64le-linux-gnu	# cross compiler for the pseries guest
	libc6-dev-ppc64el-cross	# its libc (also shipped into the guest)
	make gcc git xz-utils	# build tools (git am applies the series)
	clang			# the library's check runs a second time built with clang
	flex bison bc		# kernel build
	libelf-dev libssl-dev	# kernel build (objtool, certs)
	cpio rsync		# initramfs
	busybox-static		# x86_64 guest userland
	liburing-dev		# io_uring load in the stress test (host/x86_64)
	ccache			# incremental kernel rebuilds across clones
	gnuplot-nox		# benchmark charts (SVG)
	valgrind		# memory and leak checks of the preload shim (ASan cannot be preloaded)
	pkgconf			# the test that libfaultaround.pc names the installed library
	man-db			# man -l: the test that every manual page renders from the source tree
	build-essential dpkg-dev debhelper	# make deb: dpkg-buildpackage and dh build the Debian packages
	lintian			# make deb checks the packages it builds
	e2fsprogs		# mke2fs -d: the programs image without a root mount
	sqlite3			# builds the programs image's database (the format is portable)
	python3			# byte-compiles the image's Python stdlib, as Debian's postinst would
	python3-lmdb		# writes the programs image's LMDB database (the format is the same on both guests)
)

# The programs image (scripts/programs-image.sh): real programs from
# Debian's archives that both guests run from a virtio disk.  apt resolves
# their dependency closure for the guest's architecture alone, against an
# empty dpkg status so that nothing installed on the host counts, and the
# .debs are fetched into build/debs/DEBARCH once.
image_pkgs=(
	libc6			# the image's own C library serves everything in its chroot
	libc-bin		# ldconfig: the guest writes the image's ld.so.cache at boot
	dash			# /bin/sh for make's recipes and perf's helpers
	sqlite3			# point lookups on a database read through mmap
	python3			# interpreter startup and an import-heavy script (C extensions)
	gcc make libc6-dev	# a real compile: zlib's example programs
	zlib1g-dev		# libz for that compile, and it ships the C sources compiled
	ripgrep			# scans a large file through mmap (rg --mmap)
	linux-perf		# perf stat: fault counts, the fault_around tracepoint
	git			# git grep over the packfile of a repository made at image build time
	python3-numpy python3-yaml python3-requests python3-jinja2	# a large package set to import (C extensions, BLAS, pure Python); numpy.memmap reduces a weights file
	fio			# sequential and random 4K reads of a cached file with its mmap engine
	python3-lmdb		# LMDB point reads through its read-only map, with and without MDB_NORDAHEAD
)

# From Debian's sid, through an apt state of our own (sid_apt): the kernel
# we patch, Architecture: all, depending only on binutils and xz-utils.  The
# host's apt sources and its installed packages are not touched: nothing
# else comes from sid.
sid_pkgs=(linux-source-7.2)

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

# sid_apt ARGS...: apt-get with sid as its only source and lists of its own
# under build/apt-sid; the dpkg status is the host's, so that what apt
# resolves there is checked against what is installed.  The archive this
# machine reaches can serve a sid Release past its Valid-Until (sid's is a
# week); apt then drops the whole repository.  Its signature is still
# checked, only that date is not, and only in this private state.
sid_apt() {
	local dir=$BUILD/apt-sid
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	echo "deb http://deb.debian.org/debian sid main" >"$dir/sources.list"
	apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists="$dir/lists" \
		-o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root \
		-o Acquire::Check-Valid-Until=false "$@"
}

sid_missing=()
for p in "${sid_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		sid_missing+=("$p")
done
if [ ${#sid_missing[@]} -gt 0 ]; then
	info "installing from sid: ${sid_missing[*]}"
	sid_apt update >"$BUILD/apt-sid-update.log" 2>&1 ||
		{ tail -5 "$BUILD/apt-sid-update.log" >&2; die "apt-get update of sid failed"; }
	rm -f "$BUILD"/apt-sid/*.deb
	(cd "$BUILD/apt-sid" && sid_apt download "${sid_missing[@]}") >"$BUILD/apt-sid-download.log" 2>&1 ||
		{ tail -5 "$BUILD/apt-sid-download.log" >&2; die "apt-get download from sid failed"; }
	sudo_ dpkg -i "$BUILD"/apt-sid/*.deb >"$BUILD/apt-sid-install.log" 2>&1 ||
		{ tail -5 "$BUILD/apt-sid-install.log" >&2; die "dpkg -i of ${sid_missing[*]} failed"; }
fi

# qemu 10 or later for the guests: Debian 12's qemu 7.2 loses stores across
# fork() in a pseries guest with two vCPUs (its TCG sets a radix PTE's
# reference and change bits with a plain load and store).  On Debian 12 it
# comes from bookworm-backports, which apt gives priority 100: the source
# moves nothing by itself, and only the packages named here with
# /bookworm-backports (and what exists nowhere else) come from it.
qemu_pkgs=(qemu-system-ppc qemu-system-x86)	# pseries (radix, hash); x86_64
qemu_min=1:10
# What the two need from backports and not from bookworm: their own
# common and data packages (versioned to match) and a newer seabios.
qemu_bpo_deps=(qemu-system-common qemu-system-data seabios)
bpo_list=/etc/apt/sources.list.d/bookworm-backports.sources

qemu_ok() {
	local p v
	for p in "${qemu_pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || return 1
		v=$(dpkg-query -W -f='${Version}' "$p")
		dpkg --compare-versions "$v" ge "$qemu_min" || return 1
	done
}

install_qemu() {
	local codename want=() p plan=$BUILD/apt-qemu-plan.log
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	if [ "$codename" = bookworm ]; then
		if ! grep -Eqsw 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
			/etc/apt/sources.list.d/*.sources; then
			info "adding Debian's bookworm-backports (${bpo_list})"
			printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
				'Suites: bookworm-backports' 'Components: main' \
				'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
				sudo_ tee "$bpo_list" >/dev/null
			updated=0
		fi
		for p in "${qemu_pkgs[@]}" "${qemu_bpo_deps[@]}"; do
			want+=("$p/bookworm-backports")
		done
		# qemu's other packages installed at 7.2 (qemu-utils, the GUI
		# and block modules) depend on its 7.2 common package: they move
		# along instead of being removed.
		for p in $(dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${source:Package}\n' 2>/dev/null |
			   awk '$1 == "ii" && $3 == "qemu" { print $2 }'); do
			case " ${want[*]} " in *" $p/bookworm-backports "*) ;; *) want+=("$p/bookworm-backports") ;; esac
		done
	else
		want=("${qemu_pkgs[@]}")
	fi
	apt_update
	# Recommends left out: GUI, spice, opengl and block modules (and the
	# pipewire libraries they pull from backports) serve no -nographic
	# guest.  Refuse a plan that removes a package.
	sudo_ apt-get -s -q -o APT::Install-Recommends=false install "${want[@]}" >"$plan" 2>&1 ||
		{ tail -15 "$plan" >&2; die "apt cannot install qemu: ${want[*]} (see ${plan#"$top"/})"; }
	if grep -q '^Remv ' "$plan"; then
		grep '^Remv ' "$plan" >&2
		die "installing qemu would remove the packages above (see ${plan#"$top"/})"
	fi
	info "installing qemu: ${want[*]} ($(grep -c '^Inst ' "$plan") packages, $(grep '^Inst ' "$plan" | grep -c 'Backports') from backports)"
	DEBIAN_FRONTEND=noninteractive sudo_ apt-get install -y -q -o APT::Install-Recommends=false \
		"${want[@]}" >"$BUILD/apt-install-qemu.log" 2>&1 || {
		tail -15 "$BUILD/apt-install-qemu.log" >&2
		die "apt-get install failed for: ${want[*]}"
	}
	qemu_ok || die "qemu is older than $qemu_min after the install: $(dpkg-query -W -f='${Package} ${Version}\n' "${qemu_pkgs[@]}" | tr '\n' ' ')"
}

qemu_ok || install_qemu

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

# image_closure DEBARCH: "name version arch" of every package the image
# needs, as apt resolves it for DEBARCH with nothing installed.
image_closure() {
	apt-get -s -q -o Dir::State::status=/dev/null \
		-o APT::Architecture="$1" -o APT::Architectures::="$1" \
		-o APT::Install-Recommends=false -o APT::Install-Suggests=false \
		install "${image_pkgs[@]}" 2>"$BUILD/apt-resolve.log" |
		sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*\[\([a-z0-9]*\)\]).*$/\1 \2 \3/p'
}

# Fetch the closure for DEBARCH into build/debs/DEBARCH; closure.txt lists
# it for programs-image.sh and is redone only when image_pkgs change.
fetch_image_debs() {
	local debarch=$1 dir=$BUILD/debs/$1 key name ver arch want=()
	key=$(printf '%s\n' "$debarch" "${image_pkgs[@]}" | sha256sum | cut -d' ' -f1)
	[ -f "$dir/closure.txt" ] && [ "$(cat "$dir/closure.key" 2>/dev/null)" = "$key" ] && return
	mkdir -p "$dir"
	if ! dpkg --print-foreign-architectures | grep -qx "$debarch" &&
	   [ "$(dpkg --print-architecture)" != "$debarch" ]; then
		info "enabling dpkg multiarch for $debarch"
		sudo_ dpkg --add-architecture "$debarch"
		updated=0
	fi
	apt_update
	image_closure "$debarch" >"$dir/closure.txt.tmp"
	grep -q '^libc6 ' "$dir/closure.txt.tmp" ||
		{ cat "$BUILD/apt-resolve.log" >&2; die "apt could not resolve the programs image for $debarch"; }
	while read -r name ver arch; do
		[ -f "$dir/${name}_${ver//:/%3a}_$arch.deb" ] && continue
		if [ "$arch" = all ]; then want+=("$name=$ver"); else want+=("$name:$arch=$ver"); fi
	done <"$dir/closure.txt.tmp"
	if [ ${#want[@]} -gt 0 ]; then
		info "downloading ${#want[@]} $debarch packages for the programs image"
		(cd "$dir" && apt-get download -q "${want[@]}" >/dev/null 2>"$BUILD/apt-download.log") ||
			{ cat "$BUILD/apt-download.log" >&2; die "apt-get download for the $debarch programs image failed"; }
	fi
	mv "$dir/closure.txt.tmp" "$dir/closure.txt"
	echo "$key" >"$dir/closure.key"
}

fetch_image_debs amd64
fetch_image_debs ppc64el
