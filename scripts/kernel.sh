#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel.sh ARCH [VARIANT]: build the guest kernel for ARCH (ppc64le|x86_64).
#
#   1. unpack /usr/src/linux-source-7.2.tar.xz into build/linux once, as a
#      git tree whose first commit is the tarball (keyed by its checksum);
#   2. apply kernel/patches/part1/series, then part2/series (part 2 is the
#      RFC on top of part 1) with git am in a side worktree, then move
#      build/linux to the result with one git checkout, so only files whose
#      content changed get a new mtime and the build stays incremental;
#   3. configure from allnoconfig plus kernel/configs/ fragments, only when
#      the fragments changed, and check every requested option took;
#   4. build in build/kernel/ARCH[-VARIANT] (one directory per config).
#
# VARIANT "debug" adds debug.config (and debug-ARCH.config if present).
# VARIANT "stock" builds the unpatched kernel from a worktree at the tarball
# (build/linux-stock), for the benchmarks' cost comparison; "NAME-stock"
# builds it with NAME's fragments (peer-stock: the peer runs' stock kernel).
# A configuration with CONFIG_MODULES builds its modules too.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-ppc64le}
variant=${2:-}
tarball=${LINUX_TARBALL:-/usr/src/linux-source-7.2.tar.xz}
src=$BUILD/linux
amtree=$BUILD/linux-am
series_dirs=("$top/kernel/patches/part1" "$top/kernel/patches/part2")
cfgdir=$top/kernel/configs

case $arch in
ppc64le)
	karch=powerpc
	cross=powerpc64le-linux-gnu-
	image=vmlinux
	;;
x86_64)
	karch=x86
	cross=
	image=arch/x86/boot/bzImage
	;;
*)
	die "unknown ARCH '$arch' (ppc64le or x86_64)"
	;;
esac

out=$BUILD/kernel/$arch${variant:+-$variant}
# The fragments' variant: "peer" for both peer and peer-stock.
frag_variant=${variant%-stock}
[ "$frag_variant" = stock ] && frag_variant=
stock=0
case $variant in stock|*-stock) stock=1 ;; esac
git_id=(-c user.name=faultaround -c user.email=faultaround@localhost)

unpack() {
	local sum
	[ -r "$tarball" ] || die "$tarball missing: run 'make deps' (package linux-source-7.2)"
	sum=$(stat -c '%s %Y' "$tarball")
	if [ -f "$src/.faultaround-tarball" ] &&
	   [ "$(cat "$src/.faultaround-tarball")" = "$sum" ]; then
		return
	fi
	info "unpacking $(basename "$tarball") into $src (once per tarball)"
	rm -rf "$src" "$amtree" "$BUILD/linux-stock" "$BUILD/kernel"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	(
		cd "$src"
		git init -q
		git config user.name faultaround
		git config user.email faultaround@localhost
		git config gc.auto 0
		# Debian's .gitignore ignores the whole top level: add by force.
		git add -f -A
		git commit -q -m "$(basename "$tarball" .tar.xz) $(env -u ARCH -u MAKEFLAGS -u MAKELEVEL make -s --no-print-directory kernelversion)"
		git tag base
		git worktree add -q --detach "$amtree" base
	)
	echo "$sum" >"$src/.faultaround-tarball"
}

series_hash() {
	local d p
	{
		for d in "${series_dirs[@]}"; do
			cat "$d/series" 2>/dev/null || true
			while read -r p; do
				case $p in ''|'#'*) continue ;; esac
				cat "$d/$p"
			done < <(cat "$d/series" 2>/dev/null || true)
		done
	} | sha256sum | cut -d' ' -f1
}

apply_series() {
	local want have d p head
	want=$(series_hash)
	have=$(cat "$src/.faultaround-series" 2>/dev/null || true)
	[ "$want" = "$have" ] && return
	(
		cd "$amtree"
		git am --abort >/dev/null 2>&1 || true
		git checkout -q -f --detach base
		git clean -q -fdx
		for d in "${series_dirs[@]}"; do
			[ -f "$d/series" ] || continue
			while read -r p; do
				case $p in ''|'#'*) continue ;; esac
				[ -f "$d/$p" ] || die "${d#"$top"/}/series names $p, which does not exist"
				if ! git "${git_id[@]}" am -q "$d/$p" >"$BUILD/git-am.log" 2>&1; then
					sed 's/^/  /' "$BUILD/git-am.log" | head -20 >&2
					git am --abort >/dev/null 2>&1 || true
					die "patch ${d##*/}/$p does not apply to linux-source-7.2"
				fi
			done <"$d/series"
		done
	)
	head=$(git -C "$amtree" rev-parse HEAD)
	git -C "$src" checkout -q -f --detach "$head"
	echo "$want" >"$src/.faultaround-series"
	info "kernel tree at $(git -C "$src" log --oneline -1 | cut -c1-60)"
}

configure() {
	local frags=("$cfgdir/base.config" "$cfgdir/$arch.config")
	local want have line sym val got bad=0
	if [ -n "$frag_variant" ]; then
		frags+=("$cfgdir/$frag_variant.config")
		[ -f "$cfgdir/$frag_variant-$arch.config" ] && frags+=("$cfgdir/$frag_variant-$arch.config")
	fi
	[ -n "${FAULTAROUND_EXTRA_CONFIG:-}" ] && frags+=("$FAULTAROUND_EXTRA_CONFIG")
	mkdir -p "$out"
	want=$(cat "${frags[@]}" | sha256sum | cut -d' ' -f1)
	have=$(cat "$out/.faultaround-config" 2>/dev/null || true)
	[ "$want" = "$have" ] && [ -f "$out/.config" ] && return
	if [ $stock = 1 ] || [ "$variant" = nohints ]; then
		# The unpatched kernel has none of the feature's options; the
		# patched one without them has the hints off (their default).
		cat "${frags[@]}" | grep -v FAULT_AROUND >"$out/fragments.config"
	else
		cat "${frags[@]}" >"$out/fragments.config"
	fi
	kmake KCONFIG_ALLCONFIG="$out/fragments.config" allnoconfig >"$out/config.log" 2>&1 ||
		{ tail -20 "$out/config.log" >&2; die "kernel configuration failed"; }
	# allnoconfig drops silently what it cannot satisfy: say what and why.
	# A later fragment overrides an earlier one: check the last setting.
	while read -r line; do
		case $line in
		CONFIG_*=*)
			sym=${line%%=*}; val=${line#*=}
			if [ "$val" = n ]; then
				grep -q "^$sym=" "$out/.config" && { warn "$sym wanted n, got on"; bad=1; }
			else
				got=$(grep "^$sym=" "$out/.config" | cut -d= -f2- || true)
				[ "$got" = "$val" ] || { warn "$sym=$val requested, .config has '${got:-not set}'"; bad=1; }
			fi
			;;
		esac
	done < <(tac "$out/fragments.config" | awk -F= '/^CONFIG_/ && !seen[$1]++' | tac)
	[ $bad = 0 ] || die "kernel config fragments not satisfied (kernel/configs/)"
	echo "$want" >"$out/.faultaround-config"
}

kmake() {
	local cc=${cross}gcc
	command -v ccache >/dev/null && cc="ccache $cc"
	# Paths under the checkout are hashed relative to it, so that another
	# clone (CI's) hits the cache this one filled.  Depend mode takes the
	# headers from the compiler's -MMD list instead of running the
	# preprocessor first: on an empty cache the default mode took 1.35 to
	# 1.49 times as long as no ccache, depend mode 0.96 to 1.06, and hits
	# are as fast (docs/results/ccache-mode.txt).
	CCACHE_DEPEND=1 CCACHE_BASEDIR=$top make -C "$src" O="$out" ARCH="$karch" CROSS_COMPILE="$cross" CC="$cc" \
		KBUILD_BUILD_TIMESTAMP=2026-01-01 KBUILD_BUILD_USER=faultaround \
		KBUILD_BUILD_HOST=faultaround "$@"
}

build() {
	local log=$out/build.log start=$SECONDS
	info "building $arch${variant:+ ($variant)} kernel in ${out#"$top"/}"
	local targets=("$(basename "$image")")
	grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
	if ! kmake -j"$(nproc)" "${targets[@]}" ${KBUILD_EXTRA_TARGETS:-} >"$log" 2>&1; then
		# Show the compiler's complaint, not make's wall of text.
		grep -E -B2 -A6 ': (error|fatal error|undefined reference)|^ERROR:|Error [0-9]' "$log" |
			head -60 >&2 || tail -30 "$log" >&2
		die "kernel build failed (full log: ${log#"$top"/})"
	fi
	grep -E ': warning:' "$log" | sort -u | head -20 >&2 || true
	ln -sf "$out/$image" "$out/image"
	info "kernel ready: ${out#"$top"/}/$image ($((SECONDS - start)) s)"
}

# The tree is the tarball's with the series applied (or the stock one).
tree_current() {
	[ -r "$tarball" ] && [ -f "$src/.faultaround-tarball" ] &&
		[ "$(cat "$src/.faultaround-tarball")" = "$(stat -c '%s %Y' "$tarball")" ] ||
		return 1
	if [ $stock = 1 ]; then
		[ -d "$BUILD/linux-stock" ]
	else
		[ "$(series_hash)" = "$(cat "$src/.faultaround-series" 2>/dev/null || true)" ]
	fi
}

mkdir -p "$BUILD"
# One source tree serves every build: unpacking and applying the series
# take it exclusively, builds and a look at a current tree share it, so a
# second kernel.sh (another ARCH, check.sh's checkpatch stage) waits
# instead of rewriting it under a build, and does not wait for a build
# when the tree needs no change.
exec 9>"$BUILD/.kernel-tree.lock"
flock -s 9
if ! tree_current; then
	flock -u 9
	flock -x 9
	unpack
	if [ $stock = 1 ]; then
		[ -d "$BUILD/linux-stock" ] ||
			git -C "$src" worktree add -q --detach "$BUILD/linux-stock" base
	else
		apply_series
	fi
	flock -s 9
fi
[ $stock = 1 ] && src=$BUILD/linux-stock
[ "${KERNEL_STEP:-build}" = tree ] && exit 0
mkdir -p "$out"
exec 8>"$out/.build.lock"
flock -x 8
configure
build
