#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-summary.sh CSV...: the %chg of time to the Baseline (the system
# default) of every cell of fabench CSV files (build/bench/NAME.csv, one
# per guest), one line per mode and workload, with the stddev of the
# column's own mean in parentheses, for docs/benchmarks.md.  Cells that did
# not run print "-".  Nothing is computed that the CSV does not hold.
[ $# -gt 0 ] || { echo "usage: bench-summary.sh NAME.csv..." >&2; exit 2; }
for csv in "$@"; do
	name=$(basename "$csv" .csv)
	awk -F, -v name="$name" '
	/^#/ || $1 == "mode" { next }
	{
		key = $1 SUBSEP $2
		if (!(key in seen)) { seen[key] = 1; rows[++n] = key; mode[n] = $1; wl[n] = $2 }
		if ($3 == "Baseline")
			next
		col = $3; if ($1 == "global" || $1 == "hint") col = ($3 ~ /^[0-9]+$/ ? "o" $3 : $3)
		cell[key] = cell[key] sprintf(" %s:%s", col,
			$5 == "ok" ? sprintf("%+.1f%%(%.1f)", $12, $11) : "-")
	}
	END {
		printf "%s: %%chg time to baseline (stddev %%)\n", name
		for (i = 1; i <= n; i++)
			printf "  %-8s %-10s%s\n", mode[i], wl[i], cell[rows[i]]
	}' "$csv"
done
