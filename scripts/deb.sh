#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh: the Debian packages (make deb).  dpkg-buildpackage builds in the
# source directory and writes the packages to its parent, so it runs on a
# copy of what the packages are made of in build/deb/faultaround-VERSION,
# and everything lands in build/deb/.  lintian then checks them at its
# default level; a warning or an error fails.
#
# It needs the packaging tools and nothing of make deps (no kernel source,
# qemu or cross compiler): the ones missing are installed first, and named.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

# dpkg-buildpackage refuses to start without build-essential, and debian/
# control asks for debhelper; lintian checks the result.
need=(build-essential dpkg-dev debhelper lintian)
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	info "make deb needs ${need[*]}; installing ${missing[*]}"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get install -y --no-install-recommends "${missing[@]}" ||
		die "cannot install ${missing[*]} (as root: apt-get install ${missing[*]})"
fi

out=$BUILD/deb
version=$(sed -n '1s/^faultaround (\([^)]*\)).*/\1/p' "$top/debian/changelog")
src=$out/faultaround-$version
rm -rf "$out"
mkdir -p "$src"
# The library's build needs these and nothing else of the tree (its check
# runs the lines of README.md).
(cd "$top" && tar -cf - debian include libfaultaround man examples README.md) | tar -C "$src" -xf -
info "dpkg-buildpackage in ${src#"$top"/}"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -30 "$out/build.log" >&2
	die "dpkg-buildpackage failed (log: ${out#"$top"/}/build.log)"
}
changes=$(ls "$out"/faultaround_"$version"_*.changes)
lintian --fail-on warning,error "$changes" >"$out/lintian.log" 2>&1 || {
	cat "$out/lintian.log" >&2
	die "lintian: ${changes#"$top"/}"
}
ls "$out"/*.deb | sed "s|^$top/|[faultaround] built |"
