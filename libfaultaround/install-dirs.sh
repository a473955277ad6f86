#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# install-dirs.sh check LIST DIR...: before make install, whether each DIR
# can be made or written to, said plainly when not (install(1) would say
# "cannot change permissions of ..." half-way through); the DIRs that do
# not exist yet are added to LIST, so that uninstall removes them again.
# install-dirs.sh remove LIST: after make uninstall, remove those of LIST
# that are empty, deepest first, and keep the others in LIST.
set -u
cmd=$1 list=$2
shift 2
case $cmd in
check)
	for d in "$@"; do
		p=$d new=
		while [ ! -e "$p" ]; do
			new="$new $p"
			p=$(dirname "$p")
		done
		if [ ! -d "$p" ] || [ ! -w "$p" ]; then
			who="$(id -un 2>/dev/null), uid $(id -u)"
			if [ "$p" = "$d" ]; then
				echo "make install: this user ($who) cannot write to $d." >&2
			else
				echo "make install: cannot create $d: this user ($who) cannot write to $p." >&2
			fi
			echo "Install as root (sudo make install), or under a prefix of your own:" \
				"make install PREFIX=\$HOME/.local" >&2
			exit 1
		fi
		for n in $new; do
			grep -qxF "$n" "$list" 2>/dev/null || echo "$n" >> "$list"
		done
	done
	;;
remove)
	[ -f "$list" ] || exit 0
	# Deepest first: longest paths first.
	awk '{ print length($0) " " $0 }' "$list" | sort -rn | cut -d' ' -f2- > "$list.tmp"
	: > "$list.keep"
	while IFS= read -r d; do
		[ -d "$d" ] && ! rmdir "$d" 2>/dev/null && echo "$d" >> "$list.keep"
	done < "$list.tmp"
	mv "$list.keep" "$list"
	rm -f "$list.tmp"
	[ -s "$list" ] || rm -f "$list"
	;;
*)
	echo "usage: $0 check LIST DIR... | remove LIST" >&2
	exit 2
	;;
esac
