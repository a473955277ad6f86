#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-build-check.sh [--link] [ARCH...]: is every patch of the series
# buildable on its own, without new warnings at W=1?  For each patch, in a
# side worktree (build/linux-bisect) and build directory
# (build/kernel/ARCH-bisect):
#   - compile every .c file the series touches, with W=1, and compare the
#     warnings with those of the unpatched tree (-Werror=implicit-function-
#     declaration names a patch that uses what a later one declares);
#   - with --link, also link vmlinux (one incremental kernel build per
#     patch, several of them full because patches touch linux/mm.h).
# After the last patch it compiles the touched files with W=1 in every
# combination of FAULT_AROUND_HINTS, DEBUG_FS, SYSFS and FTRACE, against the
# unpatched tree in the same configuration.
# ARCH is ppc64le, x86_64 (the guests' configurations) or arm64-4k,
# arm64-16k, arm64-64k: allnoconfig with the feature, THP (and so contpte),
# KUnit, sysfs, debugfs and ftrace, for the page sizes no guest has
# (aarch64-linux-gnu-gcc from gcc-aarch64-linux-gnu).
# Prints TAP; not part of make check: run it before sending the series.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

link=0
if [ "${1:-}" = --link ]; then
	link=1
	shift
fi
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(ppc64le x86_64)
tree=$BUILD/linux-bisect
n=0 failed=0

KERNEL_STEP=tree "$top/scripts/kernel.sh" ppc64le || die "cannot prepare the kernel tree"
[ -d "$tree" ] || git -C "$BUILD/linux" worktree add -q --detach "$tree" base
head=$(git -C "$BUILD/linux" rev-parse HEAD)
mapfile -t commits < <(git -C "$BUILD/linux" rev-list --reverse base.."$head")
mapfile -t files < <(git -C "$BUILD/linux" diff --name-only base "$head" -- '*.c')

tap() { n=$((n + 1)); echo "$1 $n $2"; [ "$1" = ok ] || failed=1; }

for arch in "${archs[@]}"; do
	case $arch in
	ppc64le) karch=powerpc cross=powerpc64le-linux-gnu- ;;
	x86_64) karch=x86 cross= ;;
	arm64-4k | arm64-16k | arm64-64k) karch=arm64 cross=aarch64-linux-gnu- ;;
	*) die "unknown ARCH $arch" ;;
	esac
	out=$BUILD/kernel/$arch-bisect
	mkdir -p "$out"
	kmake() {
		make -s -C "$tree" O="$out" ARCH="$karch" CROSS_COMPILE="$cross" \
			CC="ccache ${cross}gcc" "$@"
	}
	case $arch in
	arm64-*)
		command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing: apt install gcc-aarch64-linux-gnu"
		pages=${arch#arm64-}
		mkdir -p "$BUILD/kernel/$arch"
		git -C "$tree" checkout -q --detach "$head"
		kmake allnoconfig >/dev/null
		"$tree/scripts/config" --file "$out/.config" \
			--enable "ARM64_${pages^^}_PAGES" --enable ADVISE_SYSCALLS \
			--enable TRANSPARENT_HUGEPAGE --enable FAULT_AROUND_HINTS \
			--enable SYSFS --enable DEBUG_FS --enable FTRACE \
			--enable KUNIT --enable FAULT_AROUND_KUNIT_TEST --enable EXPERT
		kmake olddefconfig >/dev/null
		cp "$out/.config" "$BUILD/kernel/$arch/.config"
		;;
	*)
		[ -f "$BUILD/kernel/$arch/.config" ] || "$top/scripts/kernel.sh" "$arch" >/dev/null ||
			die "cannot configure $arch"
		;;
	esac
	objs_of() {
		local f o=()
		for f in "${files[@]}"; do
			[ -f "$tree/$f" ] || continue
			# built only with the feature and KUnit
			case $f in
			mm/fault_around*_kunit.c)
				grep -q '^CONFIG_FAULT_AROUND_KUNIT_TEST=y' "$out/.config" || continue ;;
			esac
			o+=("${f%.c}.o")
		done
		echo "${o[@]}"
	}
	warnings() { # the W=1 warnings of the touched objects, without line numbers
		rm -f $(for o in $(objs_of); do echo "$out/$o"; done)
		kmake W=1 -j"$(nproc)" $(objs_of) 2>&1 | grep -E ': warning:' |
			sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u
	}

	git -C "$tree" checkout -q --detach base
	cp "$BUILD/kernel/$arch/.config" "$out/.config"
	kmake olddefconfig >/dev/null 2>&1
	kmake -j"$(nproc)" prepare >/dev/null 2>&1
	base_warn=$(warnings)

	for c in "${commits[@]}"; do
		subj=$(git -C "$tree" log -1 --format=%s "$c")
		git -C "$tree" checkout -q --detach "$c"
		kmake olddefconfig >/dev/null 2>&1
		new=$(comm -13 <(echo "$base_warn") <(warnings))
		if [ -n "$new" ]; then
			tap "not ok" "$arch W=1 new warnings: $subj"
			echo "$new" | sed 's/^/# /'
		else
			tap ok "$arch W=1 no new warnings: $subj"
		fi
		if [ $link = 1 ]; then
			if kmake -j"$(nproc)" vmlinux >"$out/build.log" 2>&1; then
				tap ok "$arch links: $subj"
			else
				tap "not ok" "$arch links: $subj"
				grep -E ': error:' "$out/build.log" | head -5 | sed 's/^/# /'
			fi
		fi
	done

	# Every combination of the feature and the interfaces it hooks into:
	# no W=1 warning in the touched files that the unpatched tree does not
	# have with the same configuration.  SYSFS=n needs EXPERT.
	for combo in $(seq 0 15); do
		want=() desc=""
		for bit in 0 1 2 3; do
			opt=$(echo FAULT_AROUND_HINTS DEBUG_FS SYSFS FTRACE | cut -d' ' -f$((bit + 1)))
			if [ $(((combo >> bit) & 1)) = 1 ]; then
				want+=("--enable $opt") desc="$desc $opt=y"
			else
				want+=("--disable $opt") desc="$desc $opt=n"
			fi
		done
		configure_combo() {
			cp "$BUILD/kernel/$arch/.config" "$out/.config"
			# shellcheck disable=SC2068
			"$tree/scripts/config" --file "$out/.config" --enable EXPERT ${want[@]}
			kmake olddefconfig >/dev/null 2>&1
			kmake -j"$(nproc)" prepare >/dev/null 2>&1
		}
		git -C "$tree" checkout -q --detach base
		configure_combo
		base_warn=$(warnings)
		git -C "$tree" checkout -q --detach "$head"
		configure_combo
		got=""
		for w in "${want[@]}"; do
			opt=${w#* }
			case $w in
			--enable*) grep -q "^CONFIG_$opt=y" "$out/.config" || got="$got $opt" ;;
			*) grep -q "^CONFIG_$opt=y" "$out/.config" && got="$got $opt" ;;
			esac
		done
		if [ -n "$got" ]; then
			tap "not ok" "$arch W=1 with$desc # could not configure:$got"
			continue
		fi
		# The KUnit suite is not built without the feature.
		new=$(comm -13 <(echo "$base_warn") <(warnings))
		if [ -n "$new" ]; then
			tap "not ok" "$arch W=1 no new warnings with$desc"
			echo "$new" | sed 's/^/# /'
		else
			tap ok "$arch W=1 no new warnings with$desc"
		fi
	done
done
echo "1..$n"
exit $failed
