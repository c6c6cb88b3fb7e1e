#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_trace.py - validates a VAST_TRACE file (Chrome trace-event format).

    python3 check_trace.py TRACE.json [--min-inflight N] [--min-sets N]

Checks: the file is JSON with a "traceEvents" list; every complete event
("ph":"X") has name, cat, pid, tid, ts, dur >= 0 and args with range and
bytes; the documented phase names appear (prepare, inspect or footprints, plan,
setup, gather, H2D, kernel, scatter, and reduce where rows were
inspected: footprints plan ranges from their boxes, runtime/plan/fpplan.c); events on one track nest or
are disjoint; per range (kernel, range id) the phases start in the order gather, H2D, kernel, D2H,
scatter, and each range has all five, except H2D where the range sent nothing
(its pages kept on the device, its LPT and fault word there already: a
launch that reuses a plan; paged/kargs.c, send_lpt_and_fault) and D2H where it
brought nothing back (a straight range whose written pages stay on the
device: paged.c, start_range); H2D then lies
between the range's gather and kernel, D2H between its kernel and scatter (device phases are mapped onto the
host clock with an error bound the trace states per track, clock_error_us,
which the comparison allows). With --min-inflight N, every kernel
has, at some instant, at least min(N, S) ranges in flight (from gather
start to scatter end), where S is the most frame sets any of its launches
had (the "plan" event of a launch says; a launch whose single work-group
row needs more than budget/N runs with fewer sets): the pipeline really
was that deep. With --min-sets N, some launch had at least N frame sets.
"""
import json
import sys

PHASES = ["gather", "H2D", "kernel", "D2H", "scatter"]
# Every range has these; H2D and D2H may be absent (nothing to move).
MAYBE = ["H2D", "D2H"]
ALWAYS = [p for p in PHASES if p not in MAYBE]
NAMES = ["prepare", "plan", "setup"] + ALWAYS
# A launch's pages come from its inspector or its footprint descriptors.
PLANNERS = ["inspect", "footprints"]
# Timestamps are written with 3 decimals (nanoseconds); allow that rounding.
EPS = 0.002


def fail(msg):
    print("check_trace: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    opts = {"--min-inflight": 0, "--min-sets": 0}
    for o in opts:
        if o in args:
            i = args.index(o)
            opts[o] = int(args[i + 1])
            del args[i:i + 2]
    min_inflight, min_sets = opts["--min-inflight"], opts["--min-sets"]
    if len(args) != 1:
        fail("usage: check_trace.py TRACE.json [--min-inflight N] [--min-sets N]")
    with open(args[0]) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents list")
    events = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    clock_error = {e["tid"]: e["args"].get("clock_error_us", 0.0)
                   for e in doc["traceEvents"]
                   if e.get("ph") == "M" and e.get("name") == "thread_name"}
    for e in events:
        for key in ("name", "cat", "pid", "tid", "ts", "dur", "args"):
            if key not in e:
                fail("event without '%s': %r" % (key, e))
        if e["dur"] < 0 or "range" not in e["args"] or "bytes" not in e["args"]:
            fail("bad event: %r" % e)
    names = {e["name"] for e in events}
    for n in NAMES:
        if n not in names:
            fail("no '%s' event" % n)
    if not names & set(PLANNERS):
        fail("no '%s' event" % "' or '".join(PLANNERS))
    if "inspect" in names and "reduce" not in names:
        fail("no 'reduce' event")

    # One track: sorted by start, each event either ends before the next
    # starts or contains it (a stack of open events).
    tracks = {}
    for e in events:
        tracks.setdefault(e["tid"], []).append(e)
    for tid, evs in tracks.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in evs:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"] + EPS:
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"] + EPS:
                fail("track %s: '%s' at %.3f overlaps '%s' at %.3f without nesting" %
                     (tid, e["name"], e["ts"], stack[-1]["name"], stack[-1]["ts"]))
            stack.append(e)

    ranges = {}
    for e in events:
        if e["name"] in PHASES:
            key = (e["args"].get("kernel"), e["args"]["range"])
            ranges.setdefault(key, []).append(e)
    if not ranges:
        fail("no ranges")
    # A kernel may be launched several times: a range id repeats, once per
    # launch, so the phases of one key are matched in launch order.
    spans = {}
    for key, evs in ranges.items():
        by = {p: sorted(e["ts"] for e in evs if e["name"] == p) for p in PHASES}
        err = {p: max([clock_error.get(e["tid"], 0.0) for e in evs if e["name"] == p] + [0.0])
               for p in PHASES}
        counts = {len(by[p]) for p in ALWAYS}
        if len(counts) != 1 or any(len(by[p]) > min(counts) for p in MAYBE):
            fail("range %r: phases %r appear unevenly" % (key, {p: len(v) for p, v in by.items()}))
        slack = EPS + err["gather"] + err["H2D"] + err["kernel"]
        for t in by["H2D"]:
            if not any(g - slack <= t <= k + slack for g, k in zip(by["gather"], by["kernel"])):
                fail("range %r: 'H2D' at %.3f lies between no 'gather' and its 'kernel'" % (key, t))
        slack = EPS + err["kernel"] + err["D2H"] + err["scatter"]
        for t in by["D2H"]:
            if not any(k - slack <= t <= c + slack for k, c in zip(by["kernel"], by["scatter"])):
                fail("range %r: 'D2H' at %.3f lies between no 'kernel' and its 'scatter'" % (key, t))
        for n in range(counts.pop()):
            starts = [by[p][n] for p in ALWAYS]
            for a, b, pa, pb in zip(starts, starts[1:], ALWAYS, ALWAYS[1:]):
                if b + EPS + err[pa] + err[pb] < a:
                    fail("range %r: '%s' starts at %.3f, before '%s' at %.3f" %
                         (key, pb, b, pa, a))
            end = max(e["ts"] + e["dur"] for e in evs if e["name"] == "scatter"
                      and e["ts"] == by["scatter"][n])
            spans.setdefault(key[0], []).append((starts[0], end))

    sets = {}
    for e in events:
        if e["name"] == "plan" and "sets" in e["args"]:
            k = e["args"].get("kernel")
            sets[k] = max(sets.get(k, 0), e["args"]["sets"])
    if max(sets.values(), default=0) < min_sets:
        fail("at most %d frame sets in a launch, want >= %d" % (max(sets.values(), default=0), min_sets))
    deepest = 0
    for kernel, sp in spans.items():
        marks = sorted([(t0, 1) for t0, _ in sp] + [(t1, -1) for _, t1 in sp],
                       key=lambda m: (m[0], m[1]))
        depth = most = 0
        for _, d in marks:
            depth += d
            most = max(most, depth)
        want = min(min_inflight, sets.get(kernel, 0))
        if most < want:
            fail("kernel '%s': at most %d ranges in flight, want >= %d" % (kernel, most, want))
        deepest = max(deepest, most)
    print("check_trace: ok: %d events, %d tracks, %d ranges, up to %d in flight" %
          (len(events), len(tracks), sum(len(v) for v in spans.values()), deepest))


if __name__ == "__main__":
    main()
