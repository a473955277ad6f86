#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make install into a scratch DESTDIR: the headers under the library's own
# names (nothing in include/linux), a program built against them with
# pkg-config runs, the static library links, and make uninstall leaves no
# file, and no directory it made, behind; an unwritable prefix is said
# before anything is installed.  Needs make and the compiler, so the host runs it and the
# guests do not.  The Makefile passes FA_MAKE, FA_CC and FA_CFLAGS.
O=$1
. "$(dirname "$0")/tap.sh"
src=$(cd "$(dirname "$0")/.." && pwd)
MAKE=${FA_MAKE:-make} CC=${FA_CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/root

tap_plan 18

# The directories the build was configured with (so nothing is rebuilt):
# PREFIX LIBDIR INCLUDEDIR BINDIR MANDIR PKGCONFIGDIR.
eval "$("$MAKE" -s --no-print-directory -C "$src" O="$O" print-install-dirs)"
inc=$d$INCLUDEDIR lib=$d$LIBDIR

tap_check "make install DESTDIR" "$MAKE" -s --no-print-directory -C "$src" O="$O" \
	DESTDIR="$d" install
(cd "$inc" 2>/dev/null && find . -type f | sort) > "$tmp/headers"
printf './faultaround.h\n./faultaround/uapi.h\n' > "$tmp/want"
tap_check "headers: <faultaround.h> and <faultaround/uapi.h> only" cmp -s "$tmp/headers" "$tmp/want"
sed 's/^/# /' "$tmp/headers"
tap_check "<faultaround/uapi.h> is the project's uapi header" \
	cmp -s "$inc/faultaround/uapi.h" "$src/../include/uapi/linux/faultaround.h"
tap_check "library, shim, CLI, pkg-config file, man pages" sh -c "
	[ -x '$lib/libfaultaround.so.1' ] && [ -f '$lib/libfaultaround.a' ] &&
	[ -x '$lib/libfaultaround-preload.so' ] && [ -x '$d$BINDIR/faultaround' ] &&
	[ -f '$d$PKGCONFIGDIR/libfaultaround.pc' ] &&
	[ -f '$d$MANDIR/man1/faultaround.1' ] &&
	[ -f '$d$MANDIR/man3/faultaround_set.3' ] &&
	[ -f '$d$MANDIR/man7/faultaround.7' ]"
tap_check "an alias page is a link to the page that documents it" sh -c "
	[ -L '$d$MANDIR/man3/faultaround_set_bytes.3' ] &&
	cmp -s '$d$MANDIR/man3/faultaround_set_bytes.3' '$O/man/faultaround_set.3'"
tap_check "the pkg-config file names no placeholder" \
	sh -c "! grep -q 'invalid' '$d$PKGCONFIGDIR/libfaultaround.pc'"

cat > "$tmp/prog.c" <<'PROG'
#include <faultaround.h>
#include <stdio.h>

int main(void)
{
	/* <faultaround.h> alone declares prctl() and madvise(). */
	int (*set_default)(int, ...) = prctl;

	(void)set_default;
	printf("%s %d %d %d\n", LIBFAULTAROUND_VERSION,
	       faultaround_bytes_to_order(65536, 4096, 9),
	       MADV_FAULTAROUND_UNSET ==
	       (MADV_FAULTAROUND | (FAULTAROUND_UNSET << MADV_FAULTAROUND_SHIFT)),
	       faultaround_check_version(FAULTAROUND_VERSION_MAJOR,
					 FAULTAROUND_VERSION_MINOR));
	return 0;
}
PROG
if command -v pkg-config > /dev/null; then
	export PKG_CONFIG_PATH="$d$PKGCONFIGDIR" PKG_CONFIG_SYSROOT_DIR="$d"
	cflags=$(pkg-config --cflags libfaultaround) libs=$(pkg-config --libs libfaultaround)
	tap_check "pkg-config names the installed headers and library" \
		[ "$(echo $cflags $libs)" = "-I$inc -L$lib -lfaultaround" ]
	echo "# pkg-config: $cflags $libs"
else
	cflags="-I$inc" libs="-L$lib -lfaultaround"
	tap_skip "pkg-config names the installed headers and library" "no pkg-config"
fi
(cd "$tmp" && $CC -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE $FA_CFLAGS $cflags \
	-o prog prog.c $libs) > "$tmp/cc.log" 2>&1
tap_check "a program builds against the installed headers" [ -x "$tmp/prog" ]
sed 's/^/# /' "$tmp/cc.log"
out=$(LD_LIBRARY_PATH=$lib "$tmp/prog" 2>&1)
version=$(sed -n 's/^#define LIBFAULTAROUND_VERSION[[:space:]]*"\(.*\)"/\1/p' "$src/include/faultaround.h")
tap_check "and runs with the installed library" [ "$out" = "$version 4 1 1" ]
[ "$out" = "$version 4 1 1" ] || echo "# $out"
(cd "$tmp" && $CC -std=c11 -Wall -Werror -D_GNU_SOURCE $FA_CFLAGS $cflags \
	-o prog-static prog.c "$lib/libfaultaround.a" -pthread) > "$tmp/cc.log" 2>&1
out=$("$tmp/prog-static" 2>&1)
tap_check "the static library links" [ "$out" = "$version 4 1 1" ]
sed 's/^/# /' "$tmp/cc.log"

# Installing under another prefix recompiles the one object that names the
# directories (the launcher looks for the shim there), and so does the
# next build with the configured ones; nothing else.
compiled() { grep -- ' -c -o ' "$1" | sed 's/.* -c -o \([^ ]*\) .*/\1/' | tr '\n' ' '; }
"$MAKE" --no-silent --no-print-directory -C "$src" O="$O" PREFIX="$tmp/elsewhere" install \
	> "$tmp/elsewhere.log" 2>&1
got=$(compiled "$tmp/elsewhere.log")
tap_check "make install PREFIX=elsewhere compiles cli.o alone" [ "$got" = "$O/obj/cli/cli.o " ]
[ "$got" = "$O/obj/cli/cli.o " ] || echo "# compiled: $got"
"$MAKE" --no-silent --no-print-directory -C "$src" O="$O" PREFIX="$PREFIX" LIBDIR="$LIBDIR" \
	INCLUDEDIR="$INCLUDEDIR" SHIMDIR="$SHIMDIR" all > "$tmp/back.log" 2>&1
got=$(compiled "$tmp/back.log")
tap_check "and the next build compiles cli.o alone" [ "$got" = "$O/obj/cli/cli.o " ]
[ "$got" = "$O/obj/cli/cli.o " ] || echo "# compiled: $got"

tap_check "make uninstall DESTDIR" "$MAKE" -s --no-print-directory -C "$src" O="$O" \
	DESTDIR="$d" uninstall
left=$(find "$d" -type f 2>/dev/null)
tap_check "uninstall leaves no file" [ -z "$left" ]
[ -z "$left" ] || echo "$left" | sed 's/^/# left: /'
tap_check "uninstall removes the directories install made" [ ! -e "$d" ]
[ ! -e "$d" ] || find "$d" | sed 's/^/# left: /'

# A directory that was there before, empty, stays.
d2=$tmp/root2
mkdir -p "$d2$BINDIR"
"$MAKE" -s --no-print-directory -C "$src" O="$O" DESTDIR="$d2" install > "$tmp/i2.log" 2>&1 &&
	"$MAKE" -s --no-print-directory -C "$src" O="$O" DESTDIR="$d2" uninstall >> "$tmp/i2.log" 2>&1
left=$(find "$d2" -mindepth 1 | while read -r f; do
	case "$d2$BINDIR" in "$f"|"$f"/*) ;; *) echo "$f" ;; esac; done)
tap_check "uninstall keeps an empty directory that was there before" \
	sh -c "[ -d '$d2$BINDIR' ] && [ -z '$left' ]"
[ -z "$left" ] || echo "$left" | sed 's/^/# left: /'
sed 's/^/# /' "$tmp/i2.log"

# An unwritable prefix (a user's make install to /usr/local): said plainly,
# with what to do, before anything is installed.
mkdir -p "$tmp/ro/usr"
chmod 755 "$tmp" "$tmp/ro"
chmod 555 "$tmp/ro/usr"
if [ "$(id -u)" = 0 ]; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	as_user=
fi
$as_user sh "$src/install-dirs.sh" check "$tmp/list" "$tmp/ro/usr/local/include/faultaround" \
	> /dev/null 2> "$tmp/ro.err"
rc=$?
tap_check "an unwritable prefix: install stops first" sh -c "[ $rc = 1 ] && [ ! -e '$tmp/list' ]"
tap_check "and says where it cannot write, and what to do instead" \
	sh -c "grep -qF 'cannot create $tmp/ro/usr/local/include/faultaround: this user' '$tmp/ro.err' &&
	       grep -qF 'cannot write to $tmp/ro/usr.' '$tmp/ro.err' &&
	       grep -qF 'make install PREFIX=\$HOME/.local' '$tmp/ro.err'"
sed 's/^/# /' "$tmp/ro.err"
chmod 755 "$tmp/ro/usr"
tap_done
