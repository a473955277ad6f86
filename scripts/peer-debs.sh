#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-debs.sh ARCH: the Debian root the peer runs use in the guest, in
# build/peer/ARCH/root: bash (run_vmtests.sh is a bash script), the
# libraries some mm selftests link (libcap, libnuma, with their -dev
# packages to build against), stress-ng and trinity.  apt resolves the
# closure for the guest's architecture against an empty dpkg status, as for
# the programs image (scripts/deps.sh), and the .debs are fetched once into
# build/debs/peer-DEBARCH.  The guest chroots into the root; busybox fills
# in the commands the closure lacks (awk, sed, mount, modprobe, ...).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-x86_64}
case $arch in
ppc64le) debarch=ppc64el busybox=$BUILD/sysroot/ppc64le/bin/busybox ;;
x86_64) debarch=amd64 busybox=/bin/busybox ;;
*) die "unknown ARCH '$arch'" ;;
esac

# Package: why.
pkgs=(
	bash			# run_vmtests.sh and its helper scripts
	libcap-dev		# mlock-random-test, memfd_secret link -lcap
	libcap2-bin		# capsh: stress-ng's mlock without CAP_IPC_LOCK
	libnuma-dev		# ksm_tests, migration, rmap link -lnuma
	procps			# pgrep and ps PID: charge_reserved_hugetlb.sh finds its writer with them
	psmisc			# killall --wait: and waits for it to go (busybox's killall cannot)
	stress-ng		# the VM stressors
	trinity			# the system call fuzzer
)

debs=$BUILD/debs/peer-$debarch
root=$BUILD/peer/$arch/root
key=$(printf '%s\n' "$debarch" "${pkgs[@]}" | cat - "$0" | sha256sum | cut -d' ' -f1)
[ -f "$root/.key" ] && [ "$(cat "$root/.key")" = "$key" ] && exit 0

mkdir -p "$debs"
closure=$debs/closure.txt
if [ "$(cat "$debs/closure.key" 2>/dev/null)" != "$key" ]; then
	apt-get -s -q -o Dir::State::status=/dev/null \
		-o APT::Architecture="$debarch" -o APT::Architectures::="$debarch" \
		-o APT::Install-Recommends=false -o APT::Install-Suggests=false \
		install "${pkgs[@]}" 2>"$debs/resolve.log" |
		sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*\[\([a-z0-9]*\)\]).*$/\1 \2 \3/p' >"$closure.tmp"
	grep -q '^bash ' "$closure.tmp" ||
		{ cat "$debs/resolve.log" >&2; die "apt could not resolve the peer packages for $debarch"; }
	mv "$closure.tmp" "$closure"
	echo "$key" >"$debs/closure.key"
fi
want=()
while read -r name ver pkgarch; do
	[ -f "$debs/${name}_${ver//:/%3a}_$pkgarch.deb" ] && continue
	if [ "$pkgarch" = all ]; then want+=("$name=$ver"); else want+=("$name:$pkgarch=$ver"); fi
done <"$closure"
if [ ${#want[@]} -gt 0 ]; then
	info "downloading ${#want[@]} $debarch packages for the peer runs"
	(cd "$debs" && apt-get download -q "${want[@]}" >/dev/null 2>"$debs/download.log") ||
		{ cat "$debs/download.log" >&2; die "apt-get download of the peer packages failed"; }
fi

rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" "$root/usr/lib64"
for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
while read -r name ver pkgarch; do
	dpkg-deb --fsys-tarfile "$debs/${name}_${ver//:/%3a}_$pkgarch.deb" |
		tar -x --keep-directory-symlink -C "$root"
done <"$closure"
rm -rf "$root"/usr/share/{doc,man,info,locale,lintian}
cp "$busybox" "$root/usr/bin/busybox"
# The applet names from the host's busybox (the same Debian version): the
# ppc64el one does not run here.
for a in $(/bin/busybox --list-full); do
	[ -e "$root/$a" ] || [ -L "$root/$a" ] || ln -s /usr/bin/busybox "$root/$a"
done
mkdir -p "$root"/{proc,sys,dev,tmp,run,faultaround,peer,root,etc,mnt/huge}
chmod 1777 "$root/tmp"
: >"$root/etc/ld.so.cache"
# The closure has no passwd: the tests that look users up (on-fault-limit
# through sudo, which is absent) skip; root and nobody are enough for ls -l.
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
echo "$key" >"$root/.key"
info "peer root ready: ${root#"$top"/} ($(wc -l <"$closure") packages, $(du -sm "$root" | cut -f1) MB)"
