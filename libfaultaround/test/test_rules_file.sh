#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Rules from a file: faultaround -R FILE and the shim's
# FAULTAROUND_RULES_FILE, errors with the file's line, rules too long for
# the environment; and faultaround -q.
O=$1
. "$(dirname "$0")/tap.sh"
FA=$O/faultaround
V=$O/test/shim_victim
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_RULES_FILE FAULTAROUND_DEBUG \
	FAULTAROUND_PRELOAD LD_PRELOAD LIBFAULTAROUND_DISABLE
fa_hint_setup "$O" "$tmp/hint"
if [ "$HMODE" = kernel ]; then FS=$FA; else FS=$O/test/fake/faultaround; fi
SHIM=$HSHIM

tap_plan 42

rc() { tap_rc "$@"; }
err() {
	if grep -qF -- "$2" "$tmp/err"; then tap_ok "$1"; else
		tap_not_ok "$1"; sed 's/^/# stderr: /' "$tmp/err"; fi
}

cat > "$tmp/good" <<'RULES'
# the victim's own file first
fa_victim*=order:1

  *.db = 1M ; *.idx=0;
/usr/lib/*=unset
RULES
printf '# comment\n\na=64K\nb=12Q\nc=1M\n' > "$tmp/bad"
printf '# only a comment\n\n' > "$tmp/empty"

rc "-R FILE with comments, blank lines and two rules a line" 0 "$FA" -R "$tmp/good" true
rc "-R: a bad line: 125" 125 "$FA" -R "$tmp/bad" true
err "the message names the file and the line" "-R: $tmp/bad:4: rule 1 ('b'): bad size '12Q'"
rc "-R: no such file: 125" 125 "$FA" -R "$tmp/none" true
err "the message says why" "$tmp/none: No such file or directory"
rc "-R: a file with no rule: 125" 125 "$FA" -R "$tmp/empty" true
err "the message says there is none" "no rules (only blank lines and comments)"
rc "-r and -R together: 125" 125 "$FA" -r 'a=1M' -R "$tmp/good" true
err "the message names both" "-r and -R exclude each other"
rc "FAULTAROUND_RULES_FILE from the environment is checked: 125" 125 \
	env FAULTAROUND_RULES_FILE="$tmp/bad" "$FA" true
err "the message names the variable and the line" \
	"FAULTAROUND_RULES_FILE (from the environment): $tmp/bad:4:"
rc "FAULTAROUND_RULES and FAULTAROUND_RULES_FILE together: 125" 125 \
	env FAULTAROUND_RULES='a=1M' FAULTAROUND_RULES_FILE="$tmp/good" "$FA" true

# -R hands the shim an absolute path in the one variable.
out=$(cd "$tmp" && env $HENV FAULTAROUND_RULES='x=1M' "$FS" -R good \
	sh -c 'echo "$FAULTAROUND_RULES_FILE|$FAULTAROUND_RULES"' 2> /dev/null)
tap_check "-R ($HMODE) passes the file's absolute path and drops FAULTAROUND_RULES" \
	[ "$out" = "$tmp/good|" ]
[ "$out" = "$tmp/good|" ] || echo "# $out"

# The shim reads the file.
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES_FILE="$tmp/good" \
	"$V" child --report-hint > /dev/null 2> "$tmp/err"
tap_check "FAULTAROUND_RULES_FILE ($HMODE): the shim applies the file's rules" \
	grep -q '^file hint: 1$' "$tmp/err"
grep -q '^file hint: 1$' "$tmp/err" || sed 's/^/# /' "$tmp/err"
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES_FILE="$tmp/bad" FAULTAROUND_DEBUG=1 \
	"$V" status > /dev/null 2> "$tmp/err"
err "FAULTAROUND_RULES_FILE ($HMODE), debug: a bad line is said once, with its number" \
	"libfaultaround-preload: FAULTAROUND_RULES_FILE: $tmp/bad:4: rule 1 ('b')"
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES_FILE="$tmp/good" FAULTAROUND_RULES='*=0' \
	FAULTAROUND_DEBUG=1 "$V" status > /dev/null 2> "$tmp/err"
err "both variables ($HMODE), debug: said, and nothing applied" \
	"both FAULTAROUND_RULES and FAULTAROUND_RULES_FILE are set; hints disabled"

# More rules than the environment holds (execve(2) takes at most 128 KiB
# a string): 6000 rules, about 290 KiB, the one that matches last.
i=0
while [ $i -lt 6000 ]; do
	echo "/no/such/directory/number/$i/lib*.so.*=order:0"
	i=$((i + 1))
done > "$tmp/big"
echo 'fa_victim*=order:1' >> "$tmp/big"
size=$(wc -c < "$tmp/big")
echo "# rules file of $size bytes"
rc "-R with $size bytes of rules" 0 env $HENV "$FS" -R "$tmp/big" true
env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_RULES_FILE="$tmp/big" \
	"$V" child --report-hint > /dev/null 2> "$tmp/err"
tap_check "FAULTAROUND_RULES_FILE ($HMODE): the last of 6001 rules applies" \
	grep -q '^file hint: 1$' "$tmp/err"

# Without the feature the shim does not even look at the rules file: its
# errors are not said, and a pipe or FIFO is neither read nor opened.  RS is
# the real shim, forced to lack the feature.  The guests have no /dev/stdin
# (it is /proc/self/fd/0 anyway), and their cat and echo are busybox's,
# linked statically: no shim loads into them, so those checks skip there.
RS=$O/libfaultaround-preload.so
mkfifo "$tmp/fifo"
stdin=/dev/stdin
[ -e "$stdin" ] || stdin=/proc/self/fd/0
dynamic() { grep -qa 'ld-linux\|ld64\.so' "$(readlink -f "$(command -v "$1")")"; }
if dynamic cat && dynamic echo; then
env LIBFAULTAROUND_DISABLE=1 LD_PRELOAD="$RS" FAULTAROUND_DEBUG=1 \
	FAULTAROUND_RULES_FILE="$tmp/bad" "$V" status > /dev/null 2> "$tmp/err"
tap_check "shim without the feature, debug: the file is not read, one line says so" \
	sh -c "[ \$(grep -c . '$tmp/err') -eq 1 ] && grep -qF \
		'disabled by LIBFAULTAROUND_DISABLE; FAULTAROUND_RULES_FILE ignored' '$tmp/err'"
sed 's/^/# stderr: /' "$tmp/err"
out=$(echo hello | env LIBFAULTAROUND_DISABLE=1 LD_PRELOAD="$RS" \
	FAULTAROUND_RULES_FILE="$stdin" cat 2> "$tmp/err")
tap_check "shim without the feature: FAULTAROUND_RULES_FILE=$stdin left unread" \
	[ "$out" = hello ]
out=$(timeout 10 env LIBFAULTAROUND_DISABLE=1 LD_PRELOAD="$RS" \
	FAULTAROUND_RULES_FILE="$tmp/fifo" echo hi 2> "$tmp/err")
tap_check "shim without the feature: a FIFO with no writer is not opened" [ "$out" = hi ]

# With it, a rules path that is not a regular file (a pipe, a FIFO) is
# refused: never read, never waited for.
out=$(echo hello | env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_DEBUG=1 \
	FAULTAROUND_RULES_FILE="$stdin" cat 2> "$tmp/err")
tap_check "shim ($HMODE): FAULTAROUND_RULES_FILE=$stdin left unread" [ "$out" = hello ]
err "shim ($HMODE), debug: refused as not a regular file" \
	"FAULTAROUND_RULES_FILE: $stdin: not a regular file; hints disabled"
out=$(timeout 10 env $HENV LD_PRELOAD="$SHIM" FAULTAROUND_DEBUG=1 \
	FAULTAROUND_RULES_FILE="$tmp/fifo" echo hi 2> "$tmp/err")
tap_check "shim ($HMODE): a FIFO with no writer does not block" [ "$out" = hi ]
err "shim ($HMODE), debug: the FIFO refused" "$tmp/fifo: not a regular file"
else
	for t in "shim without the feature, debug: the file is not read, one line says so" \
		"shim without the feature: FAULTAROUND_RULES_FILE=$stdin left unread" \
		"shim without the feature: a FIFO with no writer is not opened" \
		"shim ($HMODE): FAULTAROUND_RULES_FILE=$stdin left unread" \
		"shim ($HMODE), debug: refused as not a regular file" \
		"shim ($HMODE): a FIFO with no writer does not block" \
		"shim ($HMODE), debug: the FIFO refused"; do
		tap_skip "$t" "cat and echo are linked statically here"
	done
fi

# The launcher refuses them, names the option or the variable and the
# path, and leaves the command's stdin to the command.
printf 'a=0\n' | { "$FA" -R "$stdin" true > /dev/null 2> "$tmp/err"
	echo "rc $?"; cat; } > "$tmp/out"
tap_check "-R $stdin: 125, stdin unread" \
	[ "$(cat "$tmp/out")" = "$(printf 'rc 125\na=0')" ]
err "-R $stdin: named, with why" "faultaround: -R: $stdin: not a regular file"
printf 'a=0\n' | { env FAULTAROUND_RULES_FILE="$stdin" "$FA" -- cat \
	2> "$tmp/err"; echo "rc $?"; cat; } > "$tmp/out"
tap_check "FAULTAROUND_RULES_FILE=$stdin: 125, stdin unread" \
	[ "$(cat "$tmp/out")" = "$(printf 'rc 125\na=0')" ]
err "FAULTAROUND_RULES_FILE=$stdin: named, with why" \
	"FAULTAROUND_RULES_FILE (from the environment): $stdin: not a regular file"
rc "-R FIFO with no writer: 125 at once" 125 timeout 10 "$FA" -R "$tmp/fifo" true
err "-R FIFO: named, with why" "-R: $tmp/fifo: not a regular file"
rc "-R /dev/zero: 125" 125 "$FA" -R /dev/zero true
err "-R /dev/zero: named, with why" "-R: /dev/zero: not a regular file"

# An -r too long for the environment: execve(2) says E2BIG; -R is the way.
# One string may be at most 32 pages with its NUL (MAX_ARG_STRLEN), 2 MiB
# with 64K pages: "$big=64K" fits as the launcher's argument, and
# "FAULTAROUND_RULES=$big=64K" is one byte over it in the environment.
page=$(getconf PAGESIZE 2>/dev/null || awk '/^KernelPageSize/ { print $2 * 1024; exit }' /proc/self/smaps)
# Where 32 pages are the whole argument space too (64K pages and an 8 MiB
# stack: both 2 MiB), the launcher itself cannot be started so: skip.
big=$(head -c $((32 * page - 22)) /dev/zero | tr '\0' a)
"$FA" -q -r "$big=64K" true > "$tmp/out" 2> "$tmp/err"
got=$?
if [ $got -eq 126 ] && ! grep -q '^faultaround: ' "$tmp/err"; then
	tap_skip "-r longer than the environment takes: 126" "the launcher's own exec is refused here"
	tap_skip "the message points to -R" "the launcher's own exec is refused here"
else
	tap_check "-r longer than the environment takes: 126" [ $got -eq 126 ]
	err "the message points to -R" "-R FILE reads them from a file"
fi

# A file -R can read but not make absolute (deeper than PATH_MAX): the
# message names -R and the file.
# (env -C is coreutils'; busybox's env, in the guests, lacks it.)
if env -C / true 2> /dev/null; then
	n=$(head -c 200 /dev/zero | tr '\0' d)
	deep="env -C $tmp"
	i=0
	while [ $i -lt 22 ]; do
		$deep mkdir $n
		deep="$deep env -C $n"
		i=$((i + 1))
	done
	$deep sh -c 'echo a=0 > r'
	$deep "$FA" -q -R r true > /dev/null 2> "$tmp/err"
	tap_check "-R FILE deeper than PATH_MAX: 125" [ $? -eq 125 ]
	err "the message names -R and the file" "faultaround: -R: r: File name too long"
else
	tap_skip "-R FILE deeper than PATH_MAX: 125" "no env -C"
	tap_skip "the message names -R and the file" "no env -C"
fi

# -q: nothing said when the kernel lacks the feature (here: disabled).
rc "-q -o 2 without the feature: runs" 0 env LIBFAULTAROUND_DISABLE=1 "$FA" -q -o 2 true
tap_check "and says nothing" [ ! -s "$tmp/err" ]
rc "-q -R without the feature: runs" 0 env LIBFAULTAROUND_DISABLE=1 "$FA" -q -R "$tmp/good" true
tap_check "and says nothing" [ ! -s "$tmp/err" ]
rc "-q -v: 125" 125 "$FA" -q -v true
tap_done
