#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/report.sh CSV DIR - turns bench/run.sh's results.csv into
#   DIR/summary.txt   the ratios of DESIGN.md section 5, one per line
#   DIR/speedups.png  per workload: throughput of each mode relative to resident
#   DIR/phases.png    per workload, vast mode: where the time went (inspector,
#                     the rest of the runtime's launch work, outside the runtime)
#   DIR/bandwidth.png the copy bandwidth probe
# Only rows with status=ok count. Charts need gnuplot (Debian: gnuplot-nox);
# without it the summary is still written and the script says so.

set -u
CSV=${1:?usage: report.sh CSV DIR}
DIR=${2:?usage: report.sh CSV DIR}
mkdir -p "$DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Workload label: the name, plus the size when the run has several sizes.
awk -F, -v tmp="$TMP" '
	function lbl(w, tb) { return nsizes > 1 ? sprintf("%s-%.3gG", w, tb / 2^30) : w }
	function gm(sum, n) { return n ? sprintf("%.3f", exp(sum / n)) : "n/a" }
	# Pure-output workloads: the share of their data (the bytes= they
	# print) that is input, from their buffers (examples/NAME/host.c). At
	# a quarter of the data, issue 9 wants h2d <= 1.02 x the input: the
	# outputs are written whole, not filled from the host first.
	BEGIN { inshare["sobelfilter"] = 1 / 2; inshare["medianfilter"] = 1 / 2
	        inshare["blackscholes"] = 3 / 5 }
	NR == 1 { next }
	$1 == "bandwidth" { if ($6 == "ok") { bw[$3] = $2 / $5 / 1e9; if ($4 != "host") bwdev = $4 } next }
	{ key = $1 SUBSEP $14; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	  if (!($14 in sz)) { sz[$14] = 1; nsizes++ }
	  if ($3 == "resident" || !((key) in data)) data[key] = $2
	  if ($6 == "ok") { secs[key, $3] = $5; dev[key, $3] = $4
	                    insp[key, $3] = $12; tot[key, $3] = $13; h2d[key, $3] = $10
	                    kms[key, $3] = $NF } }
	END {
		sf = tmp "/speedups.dat"; pf = tmp "/phases.dat"; bf = tmp "/bandwidth.dat"
		print "workload vast paged pocl manual" > sf
		for (i = 1; i <= nk; i++) {
			key = order[i]; split(key, kk, SUBSEP); w = kk[1]; b = data[key]; tb = kk[2]
			r = secs[key, "resident"]
			line = lbl(w, tb)
			split("vast paged pocl manual", ms, " ")
			for (m = 1; m <= 4; m++) {
				s = secs[key, ms[m]]
				line = line " " ((r != "" && s != "" && s > 0) ? sprintf("%.4f", r / s) : "-")
			}
			print line > sf
			if (secs[key, "vast"] != "" && tot[key, "vast"] != "") {
				all = secs[key, "vast"] * 1000; t = tot[key, "vast"]; ins = insp[key, "vast"]
				out = all - t; if (out < 0) out = 0
				den = ins + (t - ins) + out; if (den <= 0) den = 1
				printf "%s %.2f %.2f %.2f\n", lbl(w, tb), 100 * ins / den,
				       100 * (t - ins) / den, 100 * out / den > pf
				nph++
			}
			# The ratios of DESIGN.md section 5.
			v = secs[key, "vast"]; p = secs[key, "pocl"]; g = secs[key, "paged"]
			mn = secs[key, "manual"]
			if (r != "" && v != "") { s1 += log(r / v); n1++ }
			rv = secs[key, "resident-vast"]
			if (rv != "" && v != "") { s1v += log(rv / v); n1v++ }
			if (p != "" && v != "") { s2 += log(p / v); n2++ }
			if (p != "" && r != "") { s2r += log(p / r); n2r++ }
			if (r != "" && g != "") { s3 += log(g / r); n3++ }
			kp = kms[key, "paged"]; kr = kms[key, "resident-vast"]
			if (kp != "" && kr != "" && kp > 0 && kr > 0) {
				s4 += log(kp / kr); n4++
				pk = pk sprintf("  %s: paged %.1f ms / original %.1f ms = %.3f\n", lbl(w, tb), kp, kr, kp / kr)
			}
			if (mn != "" && v != "") mm = mm sprintf("  %s: manual/vast = %.3f (goal >= 0.98)\n", lbl(w, tb), mn / v)
			if (v != "" && insp[key, "vast"] != "" && v > 0)
				ish = ish sprintf("  %s: %.2f%% (goal <= 3%%)\n", lbl(w, tb), insp[key, "vast"] / (v * 10))
			if (w ~ /^(blackscholes|reduction|medianfilter|sobelfilter|mersennetwister)$/ && v != "" && ("pinned-h2d" in bw)) {
				# Every streamed byte is copied once by the host beside the
				# DMA (bench/hostbw.c): the bound is the slower of the two.
				bd = bw["pinned-h2d"]; bn = "pinned h2d"
				if (("host-copy-beside-h2d" in bw) && bw["host-copy-beside-h2d"] < bd) {
					bd = bw["host-copy-beside-h2d"]; bn = "the host copy beside the DMA"
				}
				st = st sprintf("  %s: %.2f GB/s of data = %.0f%% of pinned h2d %.2f GB/s; %.0f%% of the bound, %s at %.2f GB/s (goal >= 85%%)\n",
				                lbl(w, tb), b / v / 1e9, 100 * (b / v / 1e9) / bw["pinned-h2d"], bw["pinned-h2d"],
				                100 * (b / v / 1e9) / bd, bn, bd)
			}
			# The triad streams 2 bytes in for 1 out: bound by its inputs
			# over the link while its outputs come back (duplex in bw.c).
			if (w == "triad" && ("duplex-h2d" in bw)) {
				tm = v != "" ? v : rv; tb2 = 1.5 * bw["duplex-h2d"]
				if (tm != "")
					tr = tr sprintf("  %s: %.2f GB/s of data = %.0f%% of the bound %.2f GB/s (2/3 of its data in at %.2f GB/s, the link h2d while d2h runs; goal >= 90%%)\n",
					                lbl(w, tb), b / tm / 1e9, 100 * (b / tm / 1e9) / tb2, tb2, bw["duplex-h2d"])
			}
		}
		for (m in bw) { printf "%s %.3f\n", m, bw[m] > bf; nbw++ }
		print "device (resident): " rdev
		print "geomean vast vs resident throughput:   " gm(s1, n1) " over " n1 " (goal >= 0.9)"
		print "geomean vast vs resident-vast throughput: " gm(s1v, n1v) " over " n1v " (same runtime, everything resident)"
		print "geomean vast vs pocl speedup:          " gm(s2, n2) " over " n2 " (goal >= 10)"
		print "geomean resident vs pocl speedup:      " gm(s2r, n2r) " over " n2r
		print "geomean paged vs resident time:        " gm(s3, n3) " over " n3 " (goal <= 1.05)"
		print "geomean paged kernel vs original kernel (data resident): " gm(s4, n4) " over " n4 " (goal <= 1.05)"
		printf "%s", pk
		printf "matrixmul vs hand-partitioned:\n%s", mm ? mm : "  n/a\n"
		printf "inspector share of vast time:\n%s", ish ? ish : "  n/a\n"
		printf "streaming workloads (data bytes / vast seconds):\n%s", st ? st : "  n/a\n"
		if (stm) printf "streaming workloads, arrays mapped from their buffers (-m; data bytes / vast-mapped seconds):\n%s", stm
		if (tr) printf "triad against the link:\n%s", tr
		printf "pure-output workloads, vast mode (h2d bytes / input bytes):\n%s", po ? po : "  n/a\n"
		if (nbw) { print "copy bandwidth (" bwdev "):"; for (m in bw) printf "  %s: %.2f GB/s\n", m, bw[m] }
		print nph + 0 > tmp "/nphases"
		print nbw + 0 > tmp "/nbw"
	}' "$CSV" >"$DIR/summary.txt" || exit 1
cat "$DIR/summary.txt"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "report.sh: gnuplot not found (apt-get install gnuplot-nox): no charts" >&2
	exit 0
fi
# Only the modes that have a number somewhere get a bar (gnuplot warns
# about all-missing columns); the x labels ride on the first.
PLOT=""
for c in 2 3 4 5; do
	if awk -v c=$c 'NR > 1 && $c != "-" { f = 1 } END { exit !f }' "$TMP/speedups.dat"; then
		if [ -z "$PLOT" ]; then
			PLOT="\"$TMP/speedups.dat\" using $c:xtic(1) title columnheader,"
		else
			PLOT="$PLOT \"\" using $c title columnheader,"
		fi
	fi
done
[ -n "$PLOT" ] || PLOT="\"$TMP/speedups.dat\" using (1):xtic(1) notitle,"
DEV=$(sed -n 's/^device (resident): //p' "$DIR/summary.txt" | tr -d '"')
gnuplot <<EOF || exit 1
set terminal pngcairo size 1200,600 noenhanced font ",10"
set datafile missing "-"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30
set key top right
set grid ytics
set output "$DIR/speedups.png"
set title "Throughput relative to resident (higher is better), resident on $DEV"
set logscale y
set ylabel "resident seconds / mode seconds"
plot $PLOT 1 with lines lc rgb "black" dt 2 notitle
EOF
if [ "$(cat "$TMP/nphases")" -gt 0 ]; then
	gnuplot <<EOF || exit 1
set terminal pngcairo size 1200,600 noenhanced font ",10"
set style data histogram
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -30
set key outside bottom center horizontal
set yrange [0:100]
set ylabel "% of end-to-end seconds"
set output "$DIR/phases.png"
set title "vast mode (budget = 1/4 of the data): time per phase"
plot "$TMP/phases.dat" using 2:xtic(1) title "inspector + PAS", \
     "" using 3 title "other runtime launch work", "" using 4 title "outside the runtime (host program, setup)"
EOF
else
	echo "report.sh: no vast rows with runtime stats: no phases chart" >&2
fi
if [ "$(cat "$TMP/nbw")" -gt 0 ]; then
	gnuplot <<EOF || exit 1
set terminal pngcairo size 800,500 noenhanced font ",10"
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics
set ylabel "GB/s"
set yrange [0:*]
set output "$DIR/bandwidth.png"
set title "host<->device copy bandwidth"
plot "$TMP/bandwidth.dat" using 0:2:xtic(1) with boxes notitle
EOF
fi
echo "charts in $DIR" >&2
