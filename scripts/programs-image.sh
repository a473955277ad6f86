#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# programs-image.sh ARCH: build build/ARCH/programs.ext4, the disk of real
# programs the guest mounts read-only at /mnt/programs (scripts/guest-init)
# and runs in a chroot: a Debian root unpacked from the .debs that
# scripts/deps.sh fetched for the guest's architecture (build/debs/DEBARCH,
# their list in closure.txt), with the workloads' files and data from
# bench/programs/ under /opt/faultaround.  Made without mounting anything
# (mke2fs -d), and again only when the package list, this script or the
# files it takes from bench/programs/ change.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

arch=${1:-ppc64le}
case $arch in
ppc64le) debarch=ppc64el ;;
x86_64) debarch=amd64 ;;
*) die "unknown ARCH '$arch'" ;;
esac

debs=$BUILD/debs/$debarch
closure=$debs/closure.txt
progs=$top/bench/programs
img=$BUILD/$arch/programs.ext4
root=$BUILD/$arch/programs-root
data=$BUILD/programs-data
# What git grep looks for in the repository below: a handful of lines.
git_pattern='mmap.mmap('

[ -f "$closure" ] || die "$closure missing: run 'make deps'"

# What goes into the image (the guest's scripts go into the initramfs).
gen=("$progs/gen-data.sh" "$progs/imports.py" "$progs/gen-lmdb.py" "$progs/lmdb-reads.py"
	"$progs/gen-weights.py" "$progs/weights-sum.py")
run=("$progs/imports.py" "$progs/lmdb-reads.py" "$progs/weights-sum.py")
inputs=("$closure" "$0" "${gen[@]}" "$progs/zlib-examples.mk")
key=$(cat "${inputs[@]}" | sha256sum | cut -d' ' -f1)
if [ -f "$img" ] && [ "$(cat "$img.key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
info "building the programs image for $arch ($(wc -l <"$closure") packages)"
start=$SECONDS

# The workloads' data is the same for every architecture: made once.
data_key=$(cat "${gen[@]}" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$data/.key" 2>/dev/null)" != "$data_key" ]; then
	rm -rf "$data"
	"$progs/gen-data.sh" "$data.tmp"
	mv "$data.tmp" "$data"
	echo "$data_key" >"$data/.key"
fi

rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib" "$root/usr/lib64"
# Merged /usr, as on an installed bookworm system; tar must keep these
# links when a package ships /bin or /lib as directories.
for d in bin sbin lib lib64; do ln -s "usr/$d" "$root/$d"; done
while read -r name ver pkgarch; do
	deb=$debs/${name}_${ver//:/%3a}_$pkgarch.deb
	[ -f "$deb" ] || die "$deb missing: run 'make deps'"
	dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root"
done <"$closure"

# zlib1g-dev ships the C sources of zlib's examples: the compile workload.
mkdir -p "$root/opt/faultaround/zlib"
cp "$root"/usr/share/doc/zlib1g-dev/examples/*.[ch] "$root/opt/faultaround/zlib/"
cp "$progs/zlib-examples.mk" "$root/opt/faultaround/zlib/Makefile"
cp "${run[@]}" "$data"/* "$root/opt/faultaround/"
# libblas3 and liblapack3 (numpy's) provide libblas.so.3 and
# liblapack.so.3 through update-alternatives in their postinst, which
# unpacking does not run: the links it makes, to the one implementation.
for lib in blas lapack; do
	for f in "$root"/usr/lib/*/"$lib/lib$lib.so.3"; do
		if [ -e "$f" ]; then ln -sfn "$lib/lib$lib.so.3" "${f%/"$lib"/*}/lib$lib.so.3"; fi
	done
done
# Documentation is not run; dropping it is what path-exclude setups do.
rm -rf "$root"/usr/share/{doc,man,info,locale,lintian}

# git grep's repository: the image's own Python sources (the standard
# library and dist-packages, real code, some 20 MB) committed once into a
# bare repository and packed by git gc, as a clone would leave it.  The
# host's git is Debian 12's, as the image's; fixed names, dates and one
# pack thread make the same repository, and so the same answer, every time.
# Made before the byte-compiling below, which adds no .py file.
repo=$root/opt/faultaround/repo.git
pyver=$(cd "$root/usr/lib" && ls -d python3.[0-9]* | head -1)
git -c init.defaultBranch=master init -q --bare "$repo"
(
	export GIT_DIR=$repo GIT_WORK_TREE=$root/usr/lib GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent \
		GIT_AUTHOR_NAME=faultaround GIT_AUTHOR_EMAIL=faultaround@localhost \
		GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_NAME=faultaround \
		GIT_COMMITTER_EMAIL=faultaround@localhost GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
	git add -f -- ":(glob)$pyver/**/*.py" ':(glob)python3/dist-packages/**/*.py' \
		':(exclude,glob)**/_sysconfigdata*'
	git commit -q -m "Python sources of the programs image"
	git -c pack.threads=1 gc -q
	rm -f "$repo/index"
	git grep -n -F -e "$git_pattern" HEAD >"$root/opt/faultaround/git-grep.expected" ||
		die "git grep finds no '$git_pattern' in the image's Python sources"
)
info "git repository: $(du -sm "$repo" | cut -f1) MB, pack $(du -k "$repo"/objects/pack/*.pack | cut -f1) KB"

# Byte-compile Python's modules as Debian's postinst (py3compile) would,
# else every run compiles them again and cannot store the result on a
# read-only disk.  The format depends on the Python version, not the arch.
if [ "$(python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')" = "$pyver" ]; then
	python3 -m compileall -q -j0 -s "$root" -p / -x '/lib2to3/tests/' \
		"$root/usr/lib/$pyver" "$root/usr/lib/python3/dist-packages" >/dev/null ||
		die "compileall failed for the image's $pyver"
else
	warn "the host's python3 is not $pyver: the image's modules stay uncompiled"
fi

# Mount points for guest-init: the kernel's filesystems, tmpfs /tmp and
# /run, the guest's /faultaround (launcher, shim, tests), and the
# ld.so.cache that the image's own ldconfig writes at boot (the host's
# ldconfig skips foreign ELF files, so it cannot write a ppc64el cache).
mkdir -p "$root"/{proc,sys,dev,tmp,run,faultaround,root,etc}
chmod 1777 "$root/tmp"
: >"$root/etc/ld.so.cache"

size=$(du -sm "$root" | cut -f1)
size=$((size + size / 8 + 64))
rm -f "$img.tmp"
mke2fs -q -t ext4 -L fa-programs -m 0 -d "$root" "$img.tmp" "${size}M" >/dev/null
mv "$img.tmp" "$img"
echo "$key" >"$img.key"
info "programs image ready: ${img#"$top"/} (${size} MB, $((SECONDS - start)) s)"
