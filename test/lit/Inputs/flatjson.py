# SPDX-License-Identifier: MIT
# flatjson.py - `vastcc --report` JSON as stable lines for FileCheck: one
# line per kernel, parameter, access and helper, keys in report order.
#   file vadd.cl cl_options=""
#   kernel vadd: line=1 col=1 virtualizable=true merge_exact=true
#   param vadd.c: index=2 kind=global type="__global float *" ... mode=W
#   access vadd 6:3: form=subscript mode=W size=4 params=c ...
#   footprint vadd 6:3: affine=true offset="4*lsz0*grp0 + 4*lid0" loops=...
#   helper get: cloned=true
# Reads the report on stdin (or the file named as the first argument).
import json
import sys


def val(v):
    if isinstance(v, dict):  # a footprint's loop: var=from..to:step
        return "%s=[%s..%s):%s" % (v["var"], v["from"], v["to"], v["step"])
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(val(x) if isinstance(x, (dict, str)) else str(x) for x in v)
    if isinstance(v, str):
        return v if v and " " not in v and '"' not in v else json.dumps(v)
    return str(v)


def fields(obj, skip):
    return " ".join("%s=%s" % (k, val(v)) for k, v in obj.items() if k not in skip)


def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    text = src.read()
    # Several .cl inputs with --report=- give one document after another.
    dec = json.JSONDecoder()
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        doc, pos = dec.raw_decode(text, pos)
        print("file %s %s" % (doc["file"], fields(doc, ("file", "kernels", "helpers"))))
        for k in doc.get("kernels", []):
            print("kernel %s: %s" % (k["name"], fields(k, ("name", "params", "accesses"))))
            for p in k.get("params", []):
                print("param %s.%s: %s" % (k["name"], p["name"], fields(p, ("name",))))
            for a in k.get("accesses", []):
                print("access %s %d:%d: %s" % (k["name"], a["line"], a["col"],
                                              fields(a, ("line", "col", "footprint"))))
                if "footprint" in a:
                    print("footprint %s %d:%d: %s" % (k["name"], a["line"], a["col"],
                                                     fields(a["footprint"], ())))
        for h in doc.get("helpers", []):
            print("helper %s: %s" % (h["name"], fields(h, ("name",))))


main()
