#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-soak.sh (make soak): the full peer runs.  The kernel's own mm
# selftests on the stock and the patched kernel in every setting, on
# x86_64, pseries radix and pseries hash (scripts/peer-mm.sh); then
# stress-ng next to the churner on the x86_64 debug kernel and its stock
# twin (scripts/peer-stress.sh).  Prints each guest's "peer:" line and how
# long it all took; PEER_DOCS=1 copies results and logs to
# docs/results/peer-*.
#
#   PEER_GUESTS   which guests (default: "x86_64 pseries-radix pseries-hash")
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

start=$SECONDS
rc=0
lines=()
for g in ${PEER_GUESTS:-x86_64 pseries-radix pseries-hash}; do
	case $g in
	x86_64) args=(x86_64) ;;
	pseries-radix) args=(ppc64le radix) ;;
	pseries-hash) args=(ppc64le hash) ;;
	*) die "unknown guest '$g'" ;;
	esac
	t=$SECONDS
	"$top/scripts/peer-mm.sh" "${args[@]}" || rc=1
	lines+=("$(grep '^peer: ' "$BUILD/results/peer-$g.md" 2>/dev/null || echo "peer: mm-selftests $g did not report") ($((SECONDS - t))s)")
done
if [ -x "$top/scripts/peer-stress.sh" ]; then
	t=$SECONDS
	"$top/scripts/peer-stress.sh" x86_64 || rc=1
	lines+=("$(grep '^peer: ' "$BUILD/results/peer-stress-x86_64.md" 2>/dev/null || echo "peer: stress x86_64 did not report") ($((SECONDS - t))s)")
fi
printf '%s\n' "${lines[@]}"
info "soak took $((SECONDS - start))s"
exit $rc
