#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# host-calibration.sh: the emulated tables checked against a real CPU
# (docs/benchmarks.md, "Host calibration").  The same fabench workloads,
# with the same options, on the host's stock kernel with wall-clock time
# and in the x86_64 guest on the stock 7.2 kernel under qemu -icount (a
# nanosecond is an instruction); from the two, per workload, nanoseconds of
# real time per fault and per guest instruction, and whether the guest's
# instruction count ranks the columns a stock kernel has (Baseline,
# MADV_SEQUENTIAL / MADV_RANDOM, populate) the way the host's CPU does.
#
#   host-calibration.sh host     fabench built natively, HOSTCAL_ROUNDS
#                                rounds of both of its runs (base: the
#                                Baseline of every workload, cost mode;
#                                columns: populate and advice), --repeat 1
#                                each, alternating which runs first, so
#                                every cell's runs are spread over the
#                                whole measurement; /proc/loadavg is read
#                                before and after each fabench run.  The
#                                host's rows of the raw data are replaced.
#   host-calibration.sh guest    the same in the x86_64 guest, stock kernel,
#                                -icount (BENCH_CALIBRATION=1 scripts/bench.sh,
#                                HOSTCAL_GUEST_REPEAT runs per cell), then
#                                import-guest
#   host-calibration.sh import-guest   the guest's rows of the raw data
#                                from build/bench/x86_64-calibration-*-raw.csv
#   host-calibration.sh report   docs/results/host-calibration.txt and .svg
#                                from the raw data alone
#   (no argument: host, guest, report)
#
#   HOSTCAL_ROUNDS=40        host rounds (runs per cell)
#   HOSTCAL_GUEST_REPEAT=10  guest runs per cell (-icount: deterministic)
#   HOSTCAL_LOADED=1.5       a host round is "loaded" when the 1-minute load
#                            average before or after one of its runs is
#                            above this (the benchmark itself, one busy
#                            process, accounts for up to 1.0)
#   HOSTCAL_DIR=/dev/shm     where fabench's files go on the host (tmpfs,
#                            as the guest's /tmp)
#   HOSTCAL_OUT=docs/results where host-calibration{.txt,.svg,-raw.csv} go
#   HOSTCAL_NAME=host-calibration   their name (another pass of the host's
#                            runs beside the first: host-calibration-pass2)
#
# Not part of make check: it measures, and needs a quiet host.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

rounds=${HOSTCAL_ROUNDS:-40}
guest_repeat=${HOSTCAL_GUEST_REPEAT:-10}
loaded=${HOSTCAL_LOADED:-1.5}
hostdir=${HOSTCAL_DIR:-/dev/shm}
out=${HOSTCAL_OUT:-$top/docs/results}
name=${HOSTCAL_NAME:-host-calibration}
raw=$out/$name-raw.csv
txt=$out/$name.txt
svg=$out/$name.svg
fabench=$BUILD/host/bench/fabench

# What both sides run: keep in step with bench/run-bench's calibration
# (which gives --pages, --execs, --repeat, --dir and --guest itself; its
# pages and execs for 4K pages are these).
# shellcheck disable=SC2054  # (commas: fabench's lists)
common=(--pages 16384 --density 4,16,64,256 --execs 20)
# shellcheck disable=SC2054
args_base=(--mode cost --workloads seq,rand,touch,exec,smallfiles,mixed)
# shellcheck disable=SC2054
args_columns=(--mode populate,advice --workloads seq,rand,mixed)

header='source,round,run_of,load1,load5,load15,load1_after,mode,workload,column,pages,density,run,minor_faults,seconds'

# rows SOURCE ROUND RUN_OF LOAD1 LOAD5 LOAD15 LOAD1_AFTER FABENCH-RAW: the
# raw file's runs as rows of ours; its description as "# SOURCE RUN_OF:"
# lines (round 1 only).  A cell that did not run is an error: the two
# sides must have the same cells.
rows() {
	local src=$1 round=$2 of=$3 l1=$4 l5=$5 l15=$6 e1=$7 f=$8
	awk -F, -v src="$src" -v round="$round" -v of="$of" -v l1="$l1" -v l5="$l5" \
		-v l15="$l15" -v e1="$e1" '
	/^# fabench raw data/ { next }
	/^# / {
		if ($0 ~ /^# (kernel|arch|page_size|feature|system_default_bytes|emulated|icount_shift|repeat|modes|workloads|pages|touch_pages|files|execs|child_pages)=/)
			meta = meta " " substr($0, 3)
		next
	}
	$1 == "mode" { if (round == 1) print "# " src " " of ":" meta; next }
	$10 != "ok" { printf "cell %s %s %s density %s: %s %s\n", $1, $2, $3, $6, $10, $13 >"/dev/stderr"; bad = 1; next }
	{
		printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", src, round, of, l1, l5, l15, e1,
			$1, $2, $3, $5, $6, $9, $11, $12
	}
	END { exit bad }' "$f"
}

# replace SOURCE FILE: the raw data with SOURCE's rows and lines from FILE.
replace() {
	local src=$1 new=$2 tmp
	mkdir -p "$out"
	tmp=$(mktemp "$out/.host-calibration-raw.XXXXXX")
	{
		echo "# host-calibration raw data v1: one line per run; scripts/host-calibration.sh report prints host-calibration.txt again"
		echo "$header"
		if [ -f "$raw" ]; then
			grep -v -e '^# host-calibration raw data' -e "^$header\$" -e "^# $src " \
				-e "^$src," "$raw" || true
		fi
		cat "$new"
	} >"$tmp"
	chmod 644 "$tmp"
	mv "$tmp" "$raw"
}

host() {
	local tmp r of order l1 l5 l15 e1 new
	make -s -C "$top/bench" O="$BUILD/host/bench" LIBFA_O="$BUILD/host/libfaultaround" "$fabench"
	tmp=$(mktemp -d "$hostdir/host-calibration.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	new=$tmp/rows
	{
		echo "# host meta: date=$(date -u +%Y-%m-%dT%H:%M:%SZ) cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1) family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1) model=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1) hypervisor=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor:[[:space:]]*//p' | grep . || echo none) cpus=$(nproc) kernel=$(uname -r) rounds=$rounds dir=$hostdir($(stat -f -c %T "$hostdir")) fabench-source=$(git -C "$top" rev-parse --short HEAD):bench thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo '?')"
	} >"$new"
	info "host: $rounds rounds of fabench ${common[*]} --repeat 1 (base, columns) in $hostdir"
	for r in $(seq 1 "$rounds"); do
		order="base columns"
		[ $((r % 2)) = 0 ] && order="columns base"
		for of in $order; do
			read -r l1 l5 l15 _ </proc/loadavg
			if [ "$of" = base ]; then
				"$fabench" "${args_base[@]}" "${common[@]}" --repeat 1 --guest host \
					--dir "$tmp" --raw "$tmp/$of.raw" >"$tmp/$of.txt"
			else
				"$fabench" "${args_columns[@]}" "${common[@]}" --repeat 1 --guest host \
					--dir "$tmp" --raw "$tmp/$of.raw" >"$tmp/$of.txt"
			fi
			read -r e1 _ </proc/loadavg
			rows host "$r" "$of" "$l1" "$l5" "$l15" "$e1" "$tmp/$of.raw" >>"$new" ||
				die "host round $r ($of): a cell did not run (tables: $tmp/$of.txt)"
			info "host round $r/$rounds $of: load average $l1 $l5 $l15 before, $e1 after"
		done
	done
	replace host "$new"
	info "host rows in ${raw#"$top"/}"
}

# import-guest: the guest's runs from scripts/bench.sh's outputs.
import_guest() {
	local tmp of f h g sec same=yes
	tmp=$(mktemp)
	{
		echo "# icount meta: qemu=$(qemu-system-x86_64 --version | head -1) -icount shift=0, 1 vCPU, -cpu max; console header: $(grep -m1 '^# fabench-run: bench=' "$BUILD/bench/x86_64-calibration-base.txt" | sed 's/^# //')"
		# The same code on both sides: the guest's fabench is built by
		# make guest with the host's gcc and flags; debug info (paths)
		# may differ, the loaded sections must not.
		h=$BUILD/host/bench/fabench g=$BUILD/x86_64/bench/fabench
		if [ -x "$h" ] && [ -x "$g" ]; then
			for sec in .text .rodata .data; do
				cmp -s <(objcopy -O binary --only-section=$sec "$h" /dev/stdout) \
					<(objcopy -O binary --only-section=$sec "$g" /dev/stdout) || same=no
			done
			echo "# icount meta: guest fabench .text/.rodata/.data identical to the host's: $same"
		fi
	} >"$tmp"
	for of in base columns; do
		f=$BUILD/bench/x86_64-calibration-$of-raw.csv
		[ -s "$f" ] || die "${f#"$top"/} missing: run 'host-calibration.sh guest'"
		rows icount 1 "$of" "" "" "" "" "$f" >>"$tmp" || die "${f#"$top"/}: a cell did not run"
	done
	replace icount "$tmp"
	rm -f "$tmp"
	info "guest rows in ${raw#"$top"/}"
}

guest() {
	BENCH_CALIBRATION=1 BENCH_GUESTS=x86_64 BENCH_REPEAT=$guest_repeat "$top/scripts/bench.sh"
	import_guest
}

# report: the tables and the chart, from the raw data only.
report() {
	local tmp
	[ -s "$raw" ] || die "${raw#"$top"/} missing: run 'host-calibration.sh host' and 'guest'"
	tmp=$(mktemp -d)
	awk -F, -v thr="$loaded" -v dat="$tmp/rel.dat" -v npi="$tmp/npi.dat" '
	function abs(x) { return x < 0 ? -x : x }
	function wkey(w, d) { return (w == "rand" || w == "mixed") ? w "-d" d : w }
	/^# (host|icount) / {
		meta[++nmeta] = substr($0, 3)
		# The options that size the workloads must be the same on both sides.
		if ($0 ~ /^# (host|icount) (base|columns):/) {
			nf = split($0, f, " "); ov = ""
			for (i = 1; i <= nf; i++)
				if (f[i] ~ /^(pages|touch_pages|files|execs|child_pages|page_size)=/) ov = ov " " f[i]
			if (!(f[2] in opts)) opts[f[2]] = ov
			if (opts[f[2]] != ov) optbad = 1
		}
		next
	}
	/^#/ || $1 == "source" { next }
	{
		n++; src[n] = $1; rnd[n] = $2; wk[n] = wkey($9, $12); col[n] = $10
		flt[n] = $14; sec[n] = $15
		if ($1 == "host") {
			if (!($2 in rseen)) { rseen[$2] = 1; nrounds++ }
			if ($4 + 0 > thr || $7 + 0 > thr) rloaded[$2] = 1
			if (!(($2, $3) in lseen)) {	# one reading per fabench run
				lseen[$2, $3] = 1
				for (i = 4; i <= 7; i += 3) {
					nl++; lsum += $i
					if (nl == 1 || $i + 0 < lmin) lmin = $i + 0
					if (nl == 1 || $i + 0 > lmax) lmax = $i + 0
				}
				l5s = l5s (l5s == "" ? "" : " ") $5
			}
		}
	}
	# mean and standard error of (SRC, W, C); 0 runs: m = -1
	function stat(s, w, c,   k) {
		k = s SUBSEP w SUBSEP c
		N = cnt[k]
		if (!N) { M = -1; SE = 0; F = 0; return }
		M = sum[k] / N; F = fs[k] / N
		V = N > 1 ? (sq[k] - N * M * M) / (N - 1) : 0
		SE = V > 0 ? sqrt(V / N) : 0
	}
	function order(s, w,   i, j, t, line) {	# the columns of w by time on s
		for (i = 1; i <= nc[w]; i++) { o[i] = cl[w, i]; stat(s, w, o[i]); om[i] = M; ose[i] = SE }
		for (i = 2; i <= nc[w]; i++)
			for (j = i; j > 1 && om[j] < om[j - 1]; j--) {
				t = o[j]; o[j] = o[j - 1]; o[j - 1] = t
				t = om[j]; om[j] = om[j - 1]; om[j - 1] = t
				t = ose[j]; ose[j] = ose[j - 1]; ose[j - 1] = t
			}
		line = o[1]
		for (i = 2; i <= nc[w]; i++)
			line = line (om[i] - om[i - 1] <= sqrt(ose[i] ^ 2 + ose[i - 1] ^ 2) ? " ~ " : " < ") o[i]
		return line
	}
	END {
		for (r in rloaded) nloaded++
		unl = nrounds - nloaded
		# Loaded rounds are left out when ten or more are not.
		drop = nloaded > 0 && unl >= 10
		for (i = 1; i <= n; i++) {
			if (src[i] == "host" && drop && (rnd[i] in rloaded)) continue
			k = src[i] SUBSEP wk[i] SUBSEP col[i]
			cnt[k]++; sum[k] += sec[i]; sq[k] += sec[i] * sec[i]; fs[k] += flt[i]
			w = wk[i]
			if (!(w in wseen)) { wseen[w] = 1; wfound[++nwf] = w }
			if (!((w, col[i]) in cseen)) { cseen[w, col[i]] = 1 }
		}
		# Fixed orders: workloads, and columns as fabench prints them.
		nw = split("seq touch rand-d4 rand-d16 rand-d64 rand-d256 mixed-d4 mixed-d16 mixed-d64 mixed-d256 exec smallfiles", pref, " ")
		for (i = 1; i <= nw; i++) if (pref[i] in wseen) { wl[++nwl] = pref[i]; wdone[pref[i]] = 1 }
		for (i = 1; i <= nwf; i++) if (!(wfound[i] in wdone)) wl[++nwl] = wfound[i]
		ncols = split("Baseline MADV_SEQUENTIAL MADV_RANDOM SEQ+RANDOM POPULATE_READ MAP_POPULATE", cols, " ")
		split("Baseline MADV_SEQ MADV_RAND SEQ+RAND POP_READ MAP_POP", sh, " ")
		for (i = 1; i <= ncols; i++) short[cols[i]] = sh[i]	# labels of the chart
		for (j = 1; j <= nwl; j++) {
			w = wl[j]
			for (i = 1; i <= ncols; i++)
				if ((w, cols[i]) in cseen) {
					stat("host", w, cols[i]); hn = N
					stat("icount", w, cols[i])
					if (hn && N) cl[w, ++nc[w]] = cols[i]
					else missing = missing " " w "/" cols[i]
				}
		}

		print "host calibration: fabench on the host CPU (wall clock) and in the x86_64 guest"
		print "under qemu TCG -icount (a guest nanosecond is an instruction), same options:"
		print "  fabench --pages 16384 --density 4,16,64,256 --execs 20, runs: base (--mode cost:"
		print "  Baseline of every workload) and columns (--mode populate,advice)"
		for (i = 1; i <= nmeta; i++) print "  " meta[i]
		printf "host: %d rounds, each one run of every cell (--repeat 1), base and columns in\n", nrounds
		print "  alternating order; Baseline pools the Baseline runs of every block of a workload"
		printf "host load average (1 min) before/after each fabench run: min %.2f, mean %.2f, max %.2f\n",
			lmin, nl ? lsum / nl : 0, lmax
		printf "host 5-min load at each run: %s\n", l5s
		if (nloaded)
			printf "LOADED: %d of %d rounds had a 1-min load above %s (%s)\n", nloaded, nrounds, thr,
				drop ? "left out below" : "fewer than 10 quiet rounds: kept, figures below are from a loaded host"
		else
			printf "no round had a 1-min load above %s (the benchmark itself counts up to 1.0; 2 CPUs)\n", thr
		if (missing != "") print "not on both sides (left out):" missing
		if (optbad || opts["host"] != opts["icount"])
			printf "OPTIONS DIFFER: host%s; icount%s\n", opts["host"], opts["icount"]
		else
			printf "workload sizes the same on both sides:%s\n", opts["host"]
		print ""
		print "per cell: runs, mean time, standard error of the mean in % of the mean, mean minor"
		print "faults; rel = time / Baseline of the same side; host/icount = host ns per guest instruction"
		printf "%-11s %-16s %4s %11s %6s %7s %4s %11s %6s %7s %7s %7s %9s\n", "workload", "column",
			"n", "host ms", "+-%", "faults", "n", "icount ms", "+-%", "faults", "rel h", "rel i", "ns/instr"
		for (j = 1; j <= nwl; j++) {
			w = wl[j]
			stat("host", w, "Baseline"); hb = M; hbse = SE
			stat("icount", w, "Baseline"); gb = M; gbse = SE
			for (i = 1; i <= nc[w]; i++) {
				c = cl[w, i]
				stat("host", w, c); hn = N; hm = M; hse = SE; hf = F
				stat("icount", w, c); gn = N; gm = M; gse = SE; gf = F
				printf "%-11s %-16s %4d %11.6f %5.2f%% %7.0f %4d %11.6f %5.2f%% %7.0f %7.3f %7.3f %9.4f\n",
					w, c, hn, hm * 1e3, 100 * hse / hm, hf, gn, gm * 1e3, 100 * gse / gm, gf,
					hm / hb, gm / gb, hm / gm
			}
		}
		print ""
		print "column order by mean time (fastest first; ~: within one standard error of the"
		print "difference, sqrt(se1^2 + se2^2), a tie).  rank-agrees no: some pair of columns is"
		print "ordered one way on the host and the other way under -icount, neither a tie; a pair"
		print "tied on either side agrees.  One column: nothing to rank (yes).  Listed: the pairs"
		print "that disagree or are tied on one side only (A vs B: (A - B) / B, in standard errors)."
		for (j = 1; j <= nwl; j++) {
			w = wl[j]; agree[w] = "yes"
			printf "%-11s host:   %s\n", w, order("host", w)
			printf "%-11s icount: %s\n", "", order("icount", w)
			for (a = 1; a <= nc[w]; a++)
				for (b = a + 1; b <= nc[w]; b++) {
					stat("host", w, cl[w, a]); ha = M; hsa = SE
					stat("host", w, cl[w, b]); hbm = M; hd = ha - M; hs = sqrt(hsa ^ 2 + SE ^ 2); ht = abs(hd) <= hs
					stat("icount", w, cl[w, a]); ga = M; gsa = SE
					stat("icount", w, cl[w, b]); gbm = M; gd = ga - M; gs = sqrt(gsa ^ 2 + SE ^ 2); gt = abs(gd) <= gs
					if (ht == gt && (ht || (hd > 0) == (gd > 0)))
						continue
					v = !ht && !gt ? "DISAGREE" : "tie on one side"
					if (v == "DISAGREE") agree[w] = "no"
					printf "%-11s   %s vs %s: %s: host %+.2f%% (%.1f se), icount %+.2f%% (%.1f se)\n", "",
						cl[w, a], cl[w, b], v, 100 * hd / hbm, (hs > 0 ? abs(hd) / hs : 0),
						100 * gd / gbm, (gs > 0 ? abs(gd) / gs : 0)
				}
		}
		print ""
		print "per workload, Baseline: host-ns-per-fault = host ns / host faults; icount-instr-per-fault"
		print "= guest instructions / guest faults; ns-per-instr = host ns / guest instructions"
		for (j = 1; j <= nwl; j++) {
			w = wl[j]
			stat("host", w, "Baseline"); hb = M; hf = F
			stat("icount", w, "Baseline"); gb = M; gf = F
			if (hb <= 0 || gb <= 0 || hf <= 0 || gf <= 0) {
				printf "%s: Baseline not measured on both sides, or without faults: no model line\n", w
				continue
			}
			# The chart: time / Baseline per column, and ns per instruction.
			printf "%s %.4f\n", w, hb / gb >npi
			stat("host", w, "Baseline"); hbse = SE
			stat("icount", w, "Baseline"); gbse = SE
			for (i = 2; i <= nc[w]; i++) {
				c = cl[w, i]
				stat("host", w, c); hm = M; hse = SE
				stat("icount", w, c); gm = M; gse = SE
				printf "%s %.4f %.4f %.4f %.4f %s%s\n", w, hm / hb,
					hm / hb * sqrt((hse / hm) ^ 2 + (hbse / hb) ^ 2), gm / gb,
					gm / gb * sqrt((gse / gm) ^ 2 + (gbse / gb) ^ 2), short[c],
					agree[w] == "no" ? "(rank!)" : "" >dat
			}
			printf "model: %s host-ns-per-fault %.1f icount-instr-per-fault %.1f ns-per-instr %.4f rank-agrees %s\n",
				w, hb * 1e9 / hf, gb * 1e9 / gf, hb / gb, agree[w]
		}
	}' "$raw" >"$txt"
	cat "$txt"
	if command -v gnuplot >/dev/null && [ -s "$tmp/rel.dat" ]; then
		cat >"$tmp/plot.gp" <<EOF
set terminal svg size 1600,900 dynamic noenhanced font 'sans,10'
set output '$svg'
set multiplot layout 2,1 title 'host calibration: fabench on the host CPU (wall clock) vs x86_64 qemu -icount (instructions), stock kernels'
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.85 border -1
set key outside right
set grid ytics
set xtics scale 0 font 'sans,8'
set title 'time relative to the Baseline of the same side (lower is better; bars: standard error; (rank!): the two order the columns differently)'
set ylabel 'time / Baseline'
set yrange [0:*]
plot '$tmp/rel.dat' using 2:3:xtic(strcol(1)."\n".strcol(6)) title 'host (wall clock)', '' using 4:5 title 'guest (-icount)', 1 with lines lc 'black' dt 2 notitle
set title 'Baseline: host nanoseconds per guest instruction'
set ylabel 'host ns / guest instruction'
set style histogram clustered gap 1
plot '$tmp/npi.dat' using 2:xtic(1) title 'ns per instruction'
unset multiplot
EOF
		gnuplot "$tmp/plot.gp" || warn "gnuplot failed: no ${svg#"$top"/}"
	fi
	rm -rf "$tmp"
}

case ${1:-all} in
host) host ;;
guest) guest ;;
import-guest) import_guest ;;
report) report ;;
all) host; guest; report ;;
*) die "usage: host-calibration.sh [host|guest|import-guest|report]" ;;
esac
