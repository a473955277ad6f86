#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# faultaround(1): exit codes, subcommands, environment for the shim.
O=$1
. "$(dirname "$0")/tap.sh"
FA=$O/faultaround
PAGESIZE=$("$O/test/shim_victim" pagesize)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset FAULTAROUND FAULTAROUND_RULES FAULTAROUND_DEBUG FAULTAROUND_PRELOAD LD_PRELOAD

tap_plan 30

# rc NAME WANT CMD...: exit status of CMD (stdout/stderr to files)
rc() {
	name=$1 want=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [ $got -eq $want ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name"
		echo "# exit $got, want $want"
		sed 's/^/# stderr: /' "$tmp/err"
	fi
}

rc "--help" 0 "$FA" --help
tap_check "--help prints usage" grep -q '^Usage: faultaround' "$tmp/out"
rc "--version" 0 "$FA" --version
tap_check "--version prints version" grep -q '^faultaround [0-9]' "$tmp/out"
rc "no command" 1 "$FA"
rc "unknown option" 1 "$FA" --bogus true
rc "missing option argument" 1 "$FA" -s
rc "bad size" 1 "$FA" -s 12Q true
tap_check "bad size message" grep -q "bad size '12Q'" "$tmp/err"
rc "bad order" 1 "$FA" -o 999 true
rc "-s and -o together" 1 "$FA" -s 64K -o 2 true
rc "malformed rules" 1 "$FA" -r 'a=1M;;b' true
tap_check "malformed rules message" grep -q "rule 2: empty rule" "$tmp/err"
rc "command not found" 127 "$FA" faultaround-no-such-command
printf 'echo hi\n' > "$tmp/noexec"
chmod 644 "$tmp/noexec"
rc "command not executable" 126 "$FA" "$tmp/noexec"
rc "directory" 126 "$FA" "$tmp"
rc "exit status passed through" 42 "$FA" -s 64K -- sh -c 'exit 42'
rc "'--' stops subcommands" 127 "$FA" -- show
rc "info" 0 "$FA" info
tap_check "info lines" sh -c "grep -q '^supported: ' '$tmp/out' && grep -q '^page size: $PAGESIZE$' '$tmp/out' && grep -q '^mmu: ' '$tmp/out' && grep -q '^max order: ' '$tmp/out' && grep -q '^system default: ' '$tmp/out'"
rc "show: too many arguments" 1 "$FA" show 1 2
rc "show: bad pid" 1 "$FA" show abc

seq 1 5000 > "$tmp/data"
"$FA" -s 1M -r '*=64K' cat "$tmp/data" > "$tmp/cat.out" 2> /dev/null
tap_check "command output unchanged" cmp -s "$tmp/data" "$tmp/cat.out"

if fa_supported; then
	rc "show" 0 "$FA" show
	tap_check "show prints the defaults" sh -c "grep -q '^process default: ' '$tmp/out' && grep -q '^system default: ' '$tmp/out'"
	out=$("$FA" -o 2 grep FaultAroundOrder /proc/self/status)
	tap_check "-o sets the default across exec" [ "$out" = "FaultAroundOrder:	2" ]
	out=$("$FA" -s $(( $PAGESIZE * 5 )) grep FaultAroundOrder /proc/self/status)
	tap_check "-s rounds down to a power of two" [ "$out" = "FaultAroundOrder:	2" ]
	out=$("$FA" -r '*=64K' sh -c 'echo "$LD_PRELOAD|$FAULTAROUND_RULES"')
	tap_check "-r preloads the shim" [ "$out" = "$O/libfaultaround-preload.so|*=64K" ]
	cp "$O/libfaultaround-preload.so" "$tmp/shim.so"
	out=$(FAULTAROUND_PRELOAD=$tmp/shim.so "$FA" -r '*=64K' sh -c 'echo "$LD_PRELOAD"')
	tap_check "FAULTAROUND_PRELOAD overrides the shim path" [ "$out" = "$tmp/shim.so" ]
	rc "missing shim" 1 env FAULTAROUND_PRELOAD=/nonexistent/shim.so "$FA" -r '*=64K' true
else
	rc "show without the feature" 1 "$FA" show
	tap_check "show explains" grep -q 'kernel lacks fault-around hints' "$tmp/err"
	rc "default ignored without the feature" 0 "$FA" -o 2 true
	tap_check "warning without the feature" grep -q 'kernel lacks fault-around hints' "$tmp/err"
	out=$("$FA" -r '*=64K' sh -c 'echo "[$LD_PRELOAD]"' 2> /dev/null)
	tap_check "no shim without the feature" [ "$out" = "[]" ]
	tap_skip "FAULTAROUND_PRELOAD overrides the shim path" "kernel lacks fault-around hints"
	tap_skip "missing shim" "kernel lacks fault-around hints"
fi
tap_done
