#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/trace_summary.py DIR|FILE... - each VAST_TRACE file's phases:
total milliseconds per (track, event), setup phases (range -1) apart, the
span from the first event to the last, and the host time before the
first launch's range 0 starts."""
import collections, glob, json, os, sys

def summary(path):
    t = json.load(open(path))
    ev = t["traceEvents"] if isinstance(t, dict) else t
    names = {(e["pid"], e.get("tid")): e["args"].get("name")
             for e in ev if e.get("ph") == "M"}
    xs = [e for e in ev if e.get("ph") == "X"]
    if not xs:
        return f"{os.path.basename(path)}: no events"
    agg = collections.defaultdict(lambda: [0, 0.0])
    for e in xs:
        whole = e.get("args", {}).get("range") == -1
        k = (names.get((e["pid"], e["tid"]), "?"), e["name"] + (" (launch)" if whole else ""))
        agg[k][0] += 1
        agg[k][1] += e["dur"] / 1000
    t0 = min(e["ts"] for e in xs)
    span = (max(e["ts"] + e["dur"] for e in xs) - t0) / 1000
    lines = [f"{os.path.basename(path)}: span {span:.1f} ms"]
    # Host time before the first range starts: from the first event to
    # the first range-0 "plan" (its LPT), what planning costs up front.
    r0 = [e["ts"] for e in xs if e["name"] == "plan" and e.get("args", {}).get("range") == 0]
    if r0:
        lines.append(f"  before range 0: {(min(r0) - t0) / 1000:.2f} ms")
    for (track, name), (n, ms) in sorted(agg.items()):
        lines.append(f"  {track:16} {name:22} x{n:<4} {ms:9.2f} ms")
    return "\n".join(lines)

paths = []
for a in sys.argv[1:]:
    paths += sorted(glob.glob(os.path.join(a, "*.json"))) if os.path.isdir(a) else [a]
for p in paths:
    print(summary(p))
