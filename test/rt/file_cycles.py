#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""file_cycles.py LIBVASTRT.a [RUNTIME_DIR LAYER...]: the runtime's files
depend on one another without a cycle, so each can be read after the ones
it uses. File A uses file B when an object of A refers to a symbol B
defines (a call, or a variable such as vrt_cfg). Absolute addresses in
data (R_X86_64_64: the ICD dispatch table of base/object.c, which lists
the exported entry points of api/entry.c) are not uses: the table is
filled in, never called from.

With RUNTIME_DIR and its folders LAYER... from the top down
(runtime/CMakeLists.txt, VAST_RUNTIME_LAYERS), a file uses no file of a
folder above its own either; and the same uses, checked against the
folders in the reverse order, must break that rule (the check can fail)."""
import collections
import os
import subprocess
import sys
import tempfile


def objdump(flag, path):
    return subprocess.run(['objdump', flag, path], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def main():
    lib = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(['ar', 'x', lib], cwd=tmp, check=True)
        objs = sorted(f for f in os.listdir(tmp) if f.endswith('.o'))
        if len(objs) < 10:
            print(f'FAIL: only {len(objs)} objects in {lib}')
            return 1
        defined, refs = {}, collections.defaultdict(set)
        for o in objs:
            name = o[:-len('.c.o')] if o.endswith('.c.o') else o[:-2]
            path = os.path.join(tmp, o)
            for line in objdump('-t', path):
                f = line.split()
                if len(f) >= 6 and f[1] == 'g' and f[3] != '*UND*':
                    defined[f[-1]] = name
            for line in objdump('-r', path):
                f = line.split()
                if len(f) == 3 and f[1].startswith('R_X86_64') and f[1] != 'R_X86_64_64':
                    refs[name].add(f[2].split('-')[0].split('+')[0])
    uses = collections.defaultdict(dict)
    for a, syms in refs.items():
        for s in syms:
            b = defined.get(s)
            if b and b != a:
                uses[a].setdefault(b, s)
    if sum(len(v) for v in uses.values()) < 20:
        print('FAIL: too few uses between files found (objdump?)')
        return 1
    # Depth-first search for a back edge; report the cycle it closes.
    state, stack = {}, []

    def visit(a):
        state[a] = 1
        stack.append(a)
        for b in sorted(uses[a]):
            if state.get(b) == 1:
                cyc = stack[stack.index(b):] + [b]
                print('FAIL: runtime files use one another in a cycle:')
                for x, y in zip(cyc, cyc[1:]):
                    print(f'  {x}.c uses {y}.c ({uses[x][y]})')
                return False
            if b not in state and not visit(b):
                return False
        stack.pop()
        state[a] = 2
        return True

    for a in sorted(uses):
        if a not in state and not visit(a):
            return 1
    print(f'ok: {len(objs)} files, {sum(len(v) for v in uses.values())} uses, no cycle')
    if len(sys.argv) > 2:
        return check_layers(uses, sys.argv[2], sys.argv[3:])
    return 0


def upward(uses, folder, layers):
    """The uses of a file in a folder above the user's, as lines."""
    rank = {name: i for i, name in enumerate(layers)}
    return [f'  {a}.c ({folder[a]}/) uses {b}.c ({folder[b]}/, above it): {uses[a][b]}'
            for a in sorted(uses) for b in sorted(uses[a])
            if rank[folder[b]] < rank[folder[a]]]


def check_layers(uses, root, layers):
    folder = {}
    for layer in layers:
        for name in os.listdir(os.path.join(root, layer)):
            if name.endswith('.c'):
                folder[name[:-2]] = layer
    files = set(uses) | {b for v in uses.values() for b in v}
    lost = sorted(f for f in files if f not in folder)
    if lost:
        print(f'FAIL: objects whose source is in no folder of the layers: {", ".join(lost)}')
        return 1
    bad = upward(uses, folder, layers)
    if bad:
        print(f'FAIL: a runtime file uses one of a folder above its own ({" > ".join(layers)}):')
        print('\n'.join(bad))
        return 1
    if not upward(uses, folder, layers[::-1]):
        print('FAIL: the folders in the reverse order show no use upward either: '
              'nothing crosses them?')
        return 1
    across = sum(folder[a] != folder[b] for a in uses for b in uses[a])
    print(f'ok: {across} uses across {len(layers)} folders, none upward ({" > ".join(layers)})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
