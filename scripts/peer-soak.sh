#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# peer-soak.sh [PART...] (make soak, make soak-mm, make soak-stress): the
# full peer runs.  Part "mm": the kernel's own mm selftests, every
# category, on the stock and the patched kernel in every setting, on each
# guest of PEER_GUESTS (scripts/peer-mm.sh).  Part "stress": stress-ng next
# to the churner on the debug kernel and its stock twin of each guest of
# PEER_STRESS_GUESTS (scripts/peer-stress.sh).  No PART: both.  Prints each
# guest's "peer:" line with its seconds and how long it all took;
# PEER_DOCS=1 copies results and logs to docs/results/peer-*.
#
#   PEER_GUESTS          mm guests (default: "x86_64 pseries-radix pseries-hash")
#   PEER_STRESS_GUESTS   stress guests (default: "x86_64 pseries-radix")
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

# guest_args NAME: ARCH and MMU of a guest's name.
guest_args() {
	case $1 in
	x86_64) echo x86_64 ;;
	pseries-radix) echo ppc64le radix ;;
	pseries-hash) echo ppc64le hash ;;
	*) die "unknown guest '$1'" ;;
	esac
}

parts=${*:-mm stress}
start=$SECONDS
rc=0
lines=()
for p in $parts; do
	case $p in
	mm)
		for g in ${PEER_GUESTS:-x86_64 pseries-radix pseries-hash}; do
			t=$SECONDS
			# shellcheck disable=SC2046
			"$top/scripts/peer-mm.sh" $(guest_args "$g") || rc=1
			lines+=("$(grep '^peer: ' "$BUILD/results/peer-$g.md" 2>/dev/null ||
				echo "peer: mm-selftests $g did not report") ($((SECONDS - t))s)")
		done
		;;
	stress)
		for g in ${PEER_STRESS_GUESTS:-x86_64 pseries-radix}; do
			t=$SECONDS
			# shellcheck disable=SC2046
			"$top/scripts/peer-stress.sh" $(guest_args "$g") || rc=1
			lines+=("$(grep '^peer: ' "$BUILD/results/peer-stress-$g.md" 2>/dev/null ||
				echo "peer: stress $g did not report") ($((SECONDS - t))s)")
			if [ "${PEER_DOCS:-0}" = 1 ]; then
				mkdir -p "$top/docs/results"
				cp "$BUILD/results/peer-stress-$g"* "$top/docs/results/"
			fi
		done
		;;
	*) die "unknown part '$p' (mm or stress)" ;;
	esac
done
printf '%s\n' "${lines[@]}"
info "soak ($parts) took $((SECONDS - start))s"
exit $rc
