#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# faultaround(1): exit codes, the --show/--info grammar, checks of every
# SIZE it takes or passes on, the environment for the shim.
O=$1
. "$(dirname "$0")/tap.sh"
FA=$O/faultaround
PAGESIZE=$("$O/test/shim_victim" pagesize)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG FAULTAROUND_PRELOAD LD_PRELOAD
# Programs named show and info, first in PATH; a PATH every user can search
# (execvp reports EACCES, 126, when a directory it cannot search is in it).
mkdir "$tmp/bin"
for p in show info; do
	printf '#!/bin/sh\necho "program %s ran"\ntouch "%s/%s.ran"\n' $p "$tmp" $p > "$tmp/bin/$p"
	chmod +x "$tmp/bin/$p"
done
PATH=$tmp/bin:/usr/local/bin:/usr/bin:/bin
export PATH

tap_plan 95

# rc NAME WANT CMD...: exit status of CMD (stdout/stderr to files)
rc() {
	rm -f "$tmp/show.ran" "$tmp/info.ran"
	tap_rc "$@"
}
# err NAME TEXT: the last command's stderr has TEXT
err() { tap_check "$1" grep -qF -- "$2" "$tmp/err"; }
# ran NAME PROGRAM: whether the last command ran PROGRAM (show or info)
ran() { tap_check "$1" [ -e "$tmp/$2.ran" ]; }
not_ran() { tap_check "$1" [ ! -e "$tmp/$2.ran" ]; }

rc "--help" 0 "$FA" --help
tap_check "--help prints usage" grep -q '^Usage: faultaround' "$tmp/out"
tap_check "--help lists every size suffix (K/M/G/T)" grep -q 'K/M/G/T' "$tmp/out"
long=$(awk 'length > 79' "$tmp/out")
tap_check "--help: no line of 80 columns or more" [ -z "$long" ]
[ -z "$long" ] || echo "$long" | sed 's/^/# too long: /'
tap_check "--help: the shim's places as faultaround(1) lists them" \
	sh -c "tr '\\n' ' ' < '$tmp/out' | grep -q 'next to this program, in ../lib relative to it, *or in'"
rc "--version" 0 "$FA" --version
tap_check "--version prints version" grep -q '^faultaround [0-9]' "$tmp/out"
rc "--version with an argument: 125, as --info" 125 "$FA" -V extra
err "names it" "--version: unexpected argument 'extra'"
rc "--help with an argument: 125" 125 "$FA" --help extra

# Usage errors: 125, like env, nice and timeout.
rc "no command: 125" 125 "$FA"
rc "unknown option: 125" 125 "$FA" --bogus true
rc "missing option argument: 125" 125 "$FA" -s
rc "bad size: 125" 125 "$FA" -s 12Q true
err "bad size message" "-s: bad size '12Q'"
rc "bad order: 125" 125 "$FA" -o 999 true
cp "$tmp/err" "$tmp/o.err"
rc "-s and -o together: 125" 125 "$FA" -s 64K -o 2 true
err "names both" "-s and -o exclude each other"
# -s, -o and -a all set the one default: any two are refused, in any order,
# and the message names the options given.
rc "-a -o 3: 125" 125 "$FA" -a -o 3 true
err "-a -o 3 names both" "-a and -o exclude each other"
rc "-o 3 -a: 125" 125 "$FA" -o 3 -a true
rc "-a -s 1M: 125" 125 "$FA" -a -s 1M true
err "-a -s 1M names -a and -s" "-a and -s exclude each other"
tap_check "-a -s 1M does not name -o" sh -c "! grep -q -- '-o' '$tmp/err'"
rc "-s auto -o 3: 125" 125 "$FA" -s auto -o 3 true
rc "-a --show: 125" 125 "$FA" -a --show
err "-a --show names -a" "take no -s, -o, -a, -r or -R"
# Messages quote what was given, with control characters escaped.
rc "-o '': 125" 125 "$FA" -o '' true
err "-o '' quotes the empty value" "-o: bad order '': expected a number from 0 to 253"
rc "-o order:3: 125" 125 "$FA" -o order:3 true
tap_check "-o order:3 quotes what was given" sh -c \
	"grep -qF -- \"-o: bad order 'order:3'\" '$tmp/err' && ! grep -q 'order:order' '$tmp/err'"
esc=$(printf '\033')
rc "a size with control characters: 125" 125 "$FA" -s "1${esc}[2J" true
tap_check "the control character is escaped, not echoed" sh -c \
	"grep -qF 'bad size '\''1\\x1b[2J'\' '$tmp/err' && ! grep -q '$esc' '$tmp/err'"
rc "a rule with control characters: 125" 125 "$FA" -r "a${esc}c=bad" true
tap_check "the rule's pattern is escaped, not echoed" sh -c \
	"grep -qF 'a\\x1bc' '$tmp/err' && ! grep -q '$esc' '$tmp/err'"
rc "malformed rules: 125" 125 "$FA" -r 'a=1M;;b' true
err "malformed rules message" "rule 2: empty rule"
# A rule's order is checked like -o: by the same parser, the same range.
rc "order in a rule checked like -o: 125" 125 "$FA" -r 'a=order:999' true
tap_check "the same range as -o" sh -c \
	"grep -q 'a number from 0 to 253' '$tmp/o.err' && grep -q 'a number from 0 to 253' '$tmp/err'"

# The command's own status; 126 and 127 like env.
rc "command not found: 127" 127 "$FA" faultaround-no-such-command
printf 'echo hi\n' > "$tmp/noexec"
chmod 644 "$tmp/noexec"
rc "command not executable: 126" 126 "$FA" "$tmp/noexec"
rc "directory: 126" 126 "$FA" "$tmp"
rc "exit status passed through" 42 "$FA" -s 64K -- sh -c 'exit 42'

# show and info: options; a program by those names only after "--".
rc "'show' alone is refused: 125" 125 "$FA" show
err "and points to --show and --" "For the hints use --show;"
not_ran "program show did not run" show
rc "'-v info' is refused: 125" 125 "$FA" -v info
not_ran "program info did not run" info
rc "'-s 64K show' is refused: 125" 125 "$FA" -s 64K show
not_ran "program show did not run (-s)" show
rc "'-o -- show' ('--' is -o's argument) is refused: 125" 125 "$FA" -o -- show
rc "'-- show' runs the program show" 0 "$FA" -- show
ran "program show ran" show
rc "'-v -- info' runs the program info" 0 "$FA" -v -- info
ran "program info ran" info
rc "--info" 0 "$FA" --info
tap_check "--info lines" sh -c "grep -q '^supported: ' '$tmp/out' && grep -q '^page size: $PAGESIZE$' '$tmp/out' && grep -q '^mmu: ' '$tmp/out' && grep -q '^max order: ' '$tmp/out' && grep -q '^system default: ' '$tmp/out'"
not_ran "--info does not run the program info" info
rc "-v --info" 0 "$FA" -v --info
rc "--info with an argument: 125" 125 "$FA" --info x
rc "--show=1: 125" 125 "$FA" --show=1
err "says how --show takes its PID" "option '--show' takes no '=': use '--show 1'"
rc "--info=1: 125" 125 "$FA" --info=1
err "says --info takes nothing" "option '--info' takes no argument"
rc "'info' alone is refused: 125" 125 "$FA" info
err "and points to --info for what the kernel supports" \
	"For what the kernel supports use --info"
rc "--show: too many arguments: 125" 125 "$FA" --show 1 2
rc "--show: bad pid: 125" 125 "$FA" --show abc
rc "--show with --info: 125" 125 "$FA" --show --info
rc "--show with -o: 125" 125 "$FA" -o 2 --show

# What the environment hands down: checked, and the launcher's own wins.
rc "malformed FAULTAROUND from the environment: 125" 125 env FAULTAROUND=12Q "$FA" true
err "names the variable" "FAULTAROUND (from the environment): bad size '12Q'"
rc "malformed FAULTAROUND_RULES from the environment: 125" 125 \
	env FAULTAROUND_RULES='x=order:300' "$FA" true
err "names the variable and the rule" "FAULTAROUND_RULES (from the environment): rule 1 ('x')"
rc "empty FAULTAROUND is ignored (as by the shim)" 0 env FAULTAROUND= "$FA" true
rc "-s replaces a malformed FAULTAROUND" 0 env FAULTAROUND=12Q "$FA" -s 64K true
out=$(FAULTAROUND=1M "$FA" -o 2 sh -c 'echo "[$FAULTAROUND]"' 2> /dev/null)
tap_check "-o drops an inherited FAULTAROUND" [ "$out" = "[]" ]
out=$(FAULTAROUND_RULES='bad' "$FA" -r '*=64K' sh -c 'echo "[$FAULTAROUND_RULES]"' 2> /dev/null)
tap_check "-r replaces an inherited FAULTAROUND_RULES" [ "$out" = "[*=64K]" ]

rc "LIBFAULTAROUND_DISABLE: the command runs" 0 env LIBFAULTAROUND_DISABLE=1 "$FA" -o 2 true
err "and the message names LIBFAULTAROUND_DISABLE, not the kernel" \
	"fault-around hints disabled by LIBFAULTAROUND_DISABLE; running without a default"

# With the feature: this kernel's, or the stand-in's (test/fake_kernel.c)
# with the launcher built on it.
fa_hint_setup "$O" "$tmp/hint"
if [ "$HMODE" = kernel ]; then FS=$FA; else FS=$O/test/fake/faultaround; fi
out=$(env $HENV "$FS" -a -- "$O/test/shim_victim" status)
tap_check "-a ($HMODE) sets the self-sizing window" [ "$out" = "default order 254" ]
[ "$out" = "default order 254" ] || echo "# $out"
# "auto" in default_bytes: the stand-in's file, or this kernel's as it is.
if [ "$HMODE" = kernel ]; then
	sysdef=$(cat /sys/kernel/mm/faultaround/default_bytes)
else
	sysdef=auto
	echo auto > "$HSYSFS/default_bytes"
fi
out=$(env $HENV "$FS" --info | grep '^system default: ')
if [ "$sysdef" = auto ]; then
	tap_check "--info ($HMODE) names auto as the system default" \
		[ "$out" = "system default: auto (the self-sizing window)" ]
else
	tap_check "--info ($HMODE) gives the system default in bytes" \
		[ "$out" != "${out#"system default: $sysdef bytes ("}" ]
fi
[ "$HMODE" = kernel ] || echo 65536 > "$HSYSFS/default_bytes"
# -r adds the shim unless LD_PRELOAD has that very file (ld.so separates
# entries with colons or blanks); a path that merely contains its name is
# another file.
sshim=$(dirname "$FS")/libfaultaround-preload.so
old=/nonexistent/libfaultaround-preload.so.old
out=$(env $HENV LD_PRELOAD="$old" "$FS" -r '*=64K' sh -c 'echo "$LD_PRELOAD"' 2> /dev/null)
tap_check "-r ($HMODE) adds the shim after a path that contains its name" [ "$out" = "$old:$sshim" ]
[ "$out" = "$old:$sshim" ] || echo "# $out"
out=$(env $HENV LD_PRELOAD="/nonexistent/a.so $sshim" "$FS" -r '*=64K' sh -c 'echo "$LD_PRELOAD"' 2> /dev/null)
tap_check "-r ($HMODE) does not add the shim a second time" [ "$out" = "/nonexistent/a.so $sshim" ]

seq 1 5000 > "$tmp/data"
"$FA" -s 1M -r '*=64K' cat "$tmp/data" > "$tmp/cat.out" 2> /dev/null
tap_check "command output unchanged" cmp -s "$tmp/data" "$tmp/cat.out"

if fa_supported; then
	max=$(cat /sys/kernel/mm/faultaround/max_order)
	rc "--show" 0 "$FA" --show
	tap_check "--show prints the defaults" sh -c "grep -q '^process default: ' '$tmp/out' && grep -q '^system default: ' '$tmp/out'"
	out=$("$FA" -o 2 grep FaultAroundOrder /proc/self/status)
	tap_check "-o sets the default across exec" [ "$out" = "FaultAroundOrder:	2" ]
	out=$("$FA" -s $(( $PAGESIZE * 5 )) grep FaultAroundOrder /proc/self/status)
	tap_check "-s rounds down to a power of two" [ "$out" = "FaultAroundOrder:	2" ]
	# The command must load the shim: the guests' grep is busybox's,
	# static, so faultaround (dynamic) runs it, and the default the shim
	# would set there is what grep inherits.
	out=$(FAULTAROUND=order:3 LD_PRELOAD="$O/libfaultaround-preload.so" \
		"$FA" -o 2 -- "$FA" grep FaultAroundOrder /proc/self/status)
	tap_check "-o wins over an inherited FAULTAROUND with the shim loaded" \
		[ "$out" = "FaultAroundOrder:	2" ]
	[ "$out" = "FaultAroundOrder:	2" ] || echo "# $out"
	out=$("$FA" -r '*=64K' sh -c 'echo "$LD_PRELOAD|$FAULTAROUND_RULES"')
	tap_check "-r preloads the shim" [ "$out" = "$O/libfaultaround-preload.so|*=64K" ]
	cp "$O/libfaultaround-preload.so" "$tmp/shim.so"
	out=$(FAULTAROUND_PRELOAD=$tmp/shim.so "$FA" -r '*=64K' sh -c 'echo "$LD_PRELOAD"')
	tap_check "FAULTAROUND_PRELOAD overrides the shim path" [ "$out" = "$tmp/shim.so" ]
	rc "missing shim: 125" 125 env FAULTAROUND_PRELOAD=/nonexistent/shim.so "$FA" -r '*=64K' true
	# Refused (125) or taken (the kernel clamps): the same for both.
	"$FA" -o $((max + 1)) true 2> "$tmp/o.err"
	o_rc=$?
	"$FA" -r "a=order:$((max + 1))" true 2> "$tmp/r.err"
	r_rc=$?
	echo "# order $((max + 1)): -o exit $o_rc, -r exit $r_rc"
	sed 's/^/# /' "$tmp/o.err" "$tmp/r.err"
	tap_check "above the kernel's maximum: -o exits 0 or 125" \
		[ $o_rc = 0 -o $o_rc = 125 ]
	tap_check "above the kernel's maximum: a rule exits as -o does" [ $o_rc = $r_rc ]
else
	rc "--show without the feature: 125" 125 "$FA" --show
	tap_check "--show explains" grep -q 'kernel lacks fault-around hints' "$tmp/err"
	rc "default ignored without the feature" 0 "$FA" -o 2 true
	tap_check "warning without the feature" grep -q 'kernel lacks fault-around hints' "$tmp/err"
	out=$("$FA" -r '*=64K' sh -c 'echo "[$LD_PRELOAD]"' 2> /dev/null)
	tap_check "no shim without the feature" [ "$out" = "[]" ]
	for t in "-o wins over an inherited FAULTAROUND with the shim loaded" \
		 "FAULTAROUND_PRELOAD overrides the shim path" "missing shim: 125" \
		 "above the kernel's maximum: -o exits 0 or 125" \
		 "above the kernel's maximum: a rule exits as -o does"; do
		tap_skip "$t" "kernel lacks fault-around hints"
	done
fi
tap_done
