#!/bin/bash
# SPDX-License-Identifier: MIT
# stats.sh VAST vadd.cl CHECK [VASTRUN PLAIN]: what the runtime reports of a
# run (host_stats.c's programs; VAST is built with the runtime, PLAIN with
# cc only):
#   time      2,000 launches queued at once, then a read: the kernel's
#             total_ms (VAST_STATS=kv) adds the time each launch ran, not
#             the time it waited in the queue, so the sum stays within the
#             run's wall time; natively and paged (100 launches at 50%).
#   table     VAST_STATS=1 prints a table (a line naming the pid and the
#             program, a header, one row per kernel: launches, native,
#             paged, split, time and its share, bytes each way, compulsory
#             bytes, planning); VAST_STATS=kv the key=value lines with the
#             same fields and a process line.
#   progress  a paged launch on a terminal (script(1) makes one) past
#             VAST_PROGRESS seconds shows a progress line; with stderr a
#             file, none.
#   signal    a run killed by SIGTERM or SIGINT writes its statistics and
#             its trace, then dies of the signal (exit status 128+N, the
#             driver's handler run too); a program's own handler runs
#             after the report, on the thread the signal interrupted,
#             with its siginfo, and before that thread's sigsuspend() or
#             read() returns (one that waited there for ever would hang:
#             a run still there 30 s after the signal fails), also when
#             that thread holds stderr's lock, which the report needs;
#             when it stops cleanly the report and the trace at exit come
#             too; a handler that resets the signal to SIG_DFL keeps it
#             so, and a second signal ends the run; with neither
#             VAST_STATS nor VAST_TRACE set the runtime has no thread
#             waiting for them.
#   trace     VAST_TRACE with %p: one file per process, named and marked
#             with its pid, holding its 2,000 queued launches (two
#             processes of one shell, and, given VASTRUN and PLAIN, two
#             under vastrun); a path that cannot be written
#             is reported at the start of the run, and the run goes on.
#   log       VAST_LOG=info: each line carries the seconds since start,
#             and a line that 100 launches would repeat comes once.
set -u
vast=$1 src=$2 what=$3 vastrun=${4:-} plain=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_LOG VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_DEVICES VAST_PROGRESS
export VAST_JIT=0 VAST_CACHE_DIR=$tmp/cache
fail=0
bad() { echo "FAIL: $*"; fail=1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

case $what in
time)
	for run in "native 2000" "paged 100 VAST_DEVICE_MEM=50%"; do
		set -- $run
		name=$1 n=$2
		shift 2
		t0=$(now_ms)
		if ! env "$@" VAST_STATS=kv "$vast" "$src" queue "$n" 2>"$tmp/$name.err"; then
			bad "$name: exit status"; cat "$tmp/$name.err"; continue
		fi
		wall=$(( $(now_ms) - t0 ))
		line=$(grep '^vast: kernel vadd ' "$tmp/$name.err")
		launches=$(echo "$line" | sed -n 's/.* launches=\([0-9]*\) .*/\1/p')
		total=$(echo "$line" | sed -n 's/.* total_ms=\([0-9.]*\) .*/\1/p')
		if [ "$launches" != "$n" ] || [ -z "$total" ]; then
			bad "$name: launches='$launches' total_ms='$total', want $n and a time"
			cat "$tmp/$name.err"; continue
		fi
		if ! awk -v t="$total" -v w="$wall" 'BEGIN { exit !(t > 0 && t <= w) }'; then
			bad "$name: total_ms=$total for $n queued launches, the run took $wall ms"
		else
			echo "ok: $name: $n queued launches, total_ms=$total within the run's $wall ms"
		fi
	done
	;;
table)
	if ! env VAST_STATS=1 VAST_DEVICE_MEM=50% "$vast" "$src" queue 20 2>"$tmp/t.err"; then
		bad "table: exit status"; cat "$tmp/t.err"; exit 1
	fi
	cat "$tmp/t.err"
	prog=$(basename "$vast")
	grep -Eq "^vast: pid [0-9]+ .*$prog: 20 launches of 1 kernel in [0-9.]+ s$" "$tmp/t.err" ||
		bad "table: no line naming the pid and '$prog'"
	grep -Eq '^vast: +Time\(%\) +Time\(ms\) +Launches +Native +Paged +Split +Ranges +H2D +D2H +Compulsory +Plan\(ms\) +Kernel$' "$tmp/t.err" ||
		bad "table: no header"
	row=$(grep -E ' vadd$' "$tmp/t.err")
	# Time(%) Time(ms) Launches Native Paged Split Ranges H2D D2H Compulsory Plan(ms) Kernel
	echo "$row" | awk '{ exit !($2 >= 0 && $2 <= 100 && $3 > 0 && $4 == 20 && $5 == 0 &&
		$6 == 20 && $7 == 0 && $8 >= 40) }' || bad "table: row '$row'"
	grep -q 'launches=' "$tmp/t.err" && bad "table: key=value lines with VAST_STATS=1"
	if ! env VAST_STATS=kv VAST_DEVICE_MEM=50% "$vast" "$src" queue 20 2>"$tmp/kv.err"; then
		bad "kv: exit status"; cat "$tmp/kv.err"; exit 1
	fi
	cat "$tmp/kv.err"
	grep -Eq "^vast: process pid=[0-9]+ program=.*$prog run_ms=[0-9.]+$" "$tmp/kv.err" ||
		bad "kv: no process line"
	grep -Eq '^vast: kernel vadd launches=20 native=0 ranges=([4-9][0-9]|[0-9]{3,}) .* paged=20 split=0$' \
		"$tmp/kv.err" || bad "kv: no kernel line with launches=20 native=0 paged=20 split=0"
	grep -q 'Time(%)' "$tmp/kv.err" && bad "kv: a table with VAST_STATS=kv"
	[ $fail = 0 ] && echo "ok: table and key=value lines"
	;;
progress)
	# A launch of a few hundred milliseconds, shown from its start.
	export VAST_DEVICE_MEM=10% VAST_PROGRESS=0.001
	if ! script -qfec "'$vast' '$src' big" /dev/null >"$tmp/tty.out" 2>&1; then
		bad "tty: exit status"; cat -v "$tmp/tty.out"
	elif ! grep -aEq "vast: kernel 'vadd': range [0-9]+/[0-9]+, [0-9.]+ [KMG]?i?B moved" "$tmp/tty.out"; then
		bad "tty: no progress line"; cat -v "$tmp/tty.out"
	else
		echo "ok: tty: $(tr '\r' '\n' <"$tmp/tty.out" | grep -a "range" | tail -n 1)"
	fi
	if ! "$vast" "$src" big 2>"$tmp/file.err"; then
		bad "file: exit status"; cat "$tmp/file.err"
	elif [ -s "$tmp/file.err" ]; then
		bad "file: stderr not a terminal, yet:"; cat -v "$tmp/file.err"
	else
		echo "ok: file: nothing on stderr"
	fi
	VAST_PROGRESS=0 script -qfec "'$vast' '$src' big" /dev/null >"$tmp/off.out" 2>&1
	grep -aq "range" "$tmp/off.out" && bad "VAST_PROGRESS=0: a progress line"
	;;
signal)
	# Job control: a background job keeps SIGINT (a shell without it
	# starts one ignoring it).
	set -m
	sigrun() { # NAME SIGNAL WANT-STATUS ENV... (MODE: loop; TWICE: the signal again after
		# "once"; PIPED: VAST_TRACE a pipe, each trace written appended to NAME.trace)
		local name=$1 sig=$2 want=$3 pid rc
		shift 3
		if [ -n "${PIPED:-}" ]; then
			env "$@" VAST_TRACE=/dev/fd/3 "$vast" "$src" "${MODE:-loop}" >"$tmp/$name.out" \
				2>"$tmp/$name.err" 3> >(cat >"$tmp/$name.trace") &
		else
			env "$@" "$vast" "$src" "${MODE:-loop}" >"$tmp/$name.out" 2>"$tmp/$name.err" &
		fi
		pid=$!
		if ! said ready "$tmp/$name.out" $pid; then
			bad "$name: never ready"; cat "$tmp/$name.err"
			kill -KILL $pid 2>/dev/null; wait $pid; return 1
		fi
		threads=$(cat /proc/$pid/task/*/comm 2>/dev/null)
		kill -"$sig" $pid
		if [ -n "${TWICE:-}" ]; then
			if ! said once "$tmp/$name.out" $pid; then
				bad "$name: never said once"; cat "$tmp/$name.err"
				kill -KILL $pid 2>/dev/null; wait $pid; return 1
			fi
			kill -"$sig" $pid
		fi
		if ! ended $pid; then
			bad "$name: still running 30 s after SIG$sig"; cat "$tmp/$name.err"
			kill -KILL $pid; wait $pid; return 1
		fi
		wait $pid
		rc=$?
		[ $rc = "$want" ] || { bad "$name: exit status $rc, want $want"; cat "$tmp/$name.err"; return 1; }
	}
	said() { # WORD FILE PID: the program printed WORD within 60 s, still running
		for _ in $(seq 600); do
			grep -qs "^$1$" "$2" && return 0
			running $3 || return 1
			sleep 0.1
		done
		return 1
	}
	ended() { # PID: gone, or a zombie, within 30 s
		for _ in $(seq 300); do
			running $1 || return 0
			sleep 0.1
		done
		return 1
	}
	running() { # PID: neither gone nor a zombie
		local state
		state=$(sed 's/.*) //' /proc/$1/stat 2>/dev/null | cut -d' ' -f1)
		[ -n "$state" ] && [ "$state" != Z ]
	}
	for sig in TERM INT; do
		want=$(( 128 + $(kill -l $sig) ))
		sigrun "$sig" $sig $want VAST_STATS=kv VAST_DEVICE_MEM=50% VAST_TRACE="$tmp/$sig.json" || continue
		echo "$threads" | grep -q "vast signals" || bad "SIG$sig: no thread of the runtime's for signals"
		line=$(grep '^vast: kernel vadd ' "$tmp/$sig.err")
		l=$(echo "$line" | sed -n 's/.* launches=\([0-9]*\) .*/\1/p')
		[ -n "$l" ] && [ "$l" -ge 1 ] || { bad "SIG$sig: no statistics"; cat "$tmp/$sig.err"; continue; }
		grep -q "^vast: process .* signal=SIG$sig" "$tmp/$sig.err" || bad "SIG$sig: the report does not name the signal"
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert any(e.get("ph") == "X" and e["name"] == "kernel" for e in d["traceEvents"])' "$tmp/$sig.json" ||
			{ bad "SIG$sig: no trace, or one without a kernel"; continue; }
		echo "ok: SIG$sig: exit status $want, $line; trace written"
	done
	# The program's own handler, there before the runtime's start, runs
	# after the report, on the thread the signal interrupted (the one
	# thread not blocking it), before that thread's sigsuspend() or read()
	# returns, with the kill's siginfo when the handler found is the
	# program's (read); the program stops cleanly: the report and the
	# trace at exit come too, whole.
	for run in "graceful TERM sigsuspend()" "read INT read()"; do
		set -- $run
		if MODE=$1 PIPED=1 sigrun "$1" "$2" 0 VAST_STATS=kv VAST_DEVICE_MEM=50%; then
			n=$(grep -c '^vast: process ' "$tmp/$1.err")
			for _ in $(seq 50); do # the pipe's reader may still be writing
				traces=$(grep -c '^{"displayTimeUnit"' "$tmp/$1.trace")
				[ "$traces" = 2 ] && break
				sleep 0.1
			done
			if [ "$n" != 2 ] || ! grep -q "^vast: process .* signal=SIG$2" "$tmp/$1.err"; then
				bad "$1: $n reports, want the signal's and the exit's"; cat "$tmp/$1.err"
			elif [ "$traces" != 2 ]; then
				bad "$1: $traces traces written, want the signal's and the exit's"
			else
				echo "ok: $1: SIG$2 in $3: exit status 0, a report and a trace at the signal and at exit"
			fi
		fi
	done
	# A handler that resets the signal to SIG_DFL ("press again to force
	# quit") keeps it so: the second signal ends the run, unreported.
	for sig in INT TERM; do
		want=$(( 128 + $(kill -l $sig) ))
		if MODE=twice TWICE=1 sigrun "twice-$sig" $sig $want VAST_STATS=kv VAST_DEVICE_MEM=50%; then
			n=$(grep -c '^vast: process .* signal=' "$tmp/twice-$sig.err")
			if [ "$n" != 1 ]; then
				bad "twice-$sig: $n reports, want the first signal's"; cat "$tmp/twice-$sig.err"
			else
				echo "ok: twice-$sig: the handler's SIG_DFL kept, exit status $want at the second SIG$sig"
			fi
		fi
	done
	# The thread the signal interrupted holds a lock the report needs
	# (stderr's): the wait for the report gives up, the program's handler
	# runs, and the report comes once the program lets go of the lock.
	if MODE=locked sigrun locked INT 0 VAST_STATS=kv VAST_DEVICE_MEM=50%; then
		if ! grep -q '^vast: process .* signal=SIGINT' "$tmp/locked.err"; then
			bad "locked: no report of the signal"; cat "$tmp/locked.err"
		else
			echo "ok: locked: SIGINT with stderr locked: exit status 0, the signal's report after"
		fi
	fi
	# Nothing asked: the signals are the program's (and its driver's): the
	# runtime has no thread waiting for them.
	sigrun plain TERM 143 VAST_DEVICE_MEM=50% &&
		if echo "$threads" | grep -q "vast signals"; then
			bad "plain: the runtime waits for signals with neither VAST_STATS nor VAST_TRACE"
		elif [ -s "$tmp/plain.err" ]; then
			bad "plain: printed"; cat "$tmp/plain.err"
		else
			echo "ok: plain: no thread of the runtime's for signals, nothing printed"
		fi
	;;
trace)
	two() { # DIR PREFIX...: two processes of one shell, each its own trace
		local dir=$1 f pids n=0
		shift
		mkdir -p "$dir"
		if ! env VAST_TRACE="$dir/t-%p.json" "$@" sh -c \
			'"$1" "$2" queue 2000 && "$1" "$2" queue 2000' sh "$vast" "$src" 2>"$dir/err"; then
			bad "$dir: exit status"; cat "$dir/err"; return 1
		fi
		for f in "$dir"/t-*.json; do
			[ -e "$f" ] || continue
			n=$((n + 1))
			pid=${f##*/t-}
			pid=${pid%.json}
			python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
pids = {e.get("pid") for e in d["traceEvents"]}
assert pids == {int(sys.argv[2])}, pids
n = sum(e.get("ph") == "X" and e["name"] == "submit" for e in d["traceEvents"])
assert n == 2000, "%d submit events, want 2000" % n' "$f" "$pid" ||
				{ bad "$dir: $f: events not of pid $pid"; return 1; }
		done
		[ $n = 2 ] || { bad "$dir: $n trace files, want 2: $(ls "$dir")"; return 1; }
		echo "ok: $dir: two traces, one per process, each with its pid"
	}
	two "$tmp/shell"
	if [ -n "$vastrun" ]; then
		vast=$plain two "$tmp/vastrun" "$vastrun"
	fi
	# A bad path: said before the program's first output, not at exit.
	VAST_TRACE=$tmp/no/such/dir/t.json "$vast" "$src" loop >"$tmp/bad.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		grep -q ready "$tmp/bad.log" && break
		sleep 0.1
	done
	kill -KILL $pid
	wait $pid 2>/dev/null
	if ! grep -q "^vast: warning: cannot write the trace '.*/no/such/dir/t.json'" "$tmp/bad.log"; then
		bad "bad path: no warning while it ran"; cat "$tmp/bad.log"
	elif [ "$(grep -n . "$tmp/bad.log" | grep -m1 -E 'warning|ready' | grep -c warning)" != 1 ]; then
		bad "bad path: warned after the program's first output"; cat "$tmp/bad.log"
	else
		echo "ok: bad path: $(grep warning "$tmp/bad.log")"
	fi
	;;
log)
	if ! env VAST_LOG=info VAST_DEVICE_MEM=50% "$vast" "$src" queue 100 2>"$tmp/log"; then
		bad "log: exit status"; cat "$tmp/log"; exit 1
	fi
	n=$(grep -c "kernel 'vadd': .* bytes of buffers, budget .*: paged" "$tmp/log")
	[ "$n" = 1 ] || bad "log: the paged line $n times for 100 launches, want once"
	grep -Eq "^vast: info: \[[0-9]+\.[0-9]{3}\] kernel 'vadd'" "$tmp/log" || bad "log: no timestamp"
	grep -Ev "^vast: info: \[[0-9]+\.[0-9]{3}\] " "$tmp/log" | grep -q . &&
		bad "log: lines without a timestamp"
	[ $fail = 0 ] && echo "ok: log: $(wc -l <"$tmp/log") lines: $(head -n 3 "$tmp/log")"
	[ $fail = 0 ] || cat "$tmp/log"
	;;
*)
	echo "usage: stats.sh VAST vadd.cl time|table|progress|signal|trace|log [VASTRUN PLAIN]"; exit 2 ;;
esac
exit $fail
