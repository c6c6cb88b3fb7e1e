#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""include_layers.py RUNTIME_DIR LAYER...: the runtime's folders are
layers. LAYER... are its folders from the top down (runtime/CMakeLists.txt,
VAST_RUNTIME_LAYERS); a file of one folder includes only headers of its
own folder or of folders below it, named "folder/header.h", or the public
"vast/..." headers; a folder's private header (NAME_int.h) only files of
its own folder include. Every source lies in one of those folders; vrt.h,
the whole interface for tests and tools, is included by none of them.

include_layers.py --self-test RUNTIME_DIR LAYER...: the check fails on a
copy of the tree with an include of the top folder's header planted in
three files of the bottom folder (as "top/top.h", as <top/top.h> and as
"bottom/../top/top.h"), with a private header of the bottom folder
included by a file of the top one, and with a source outside every
folder."""
import os
import re
import shutil
import sys
import tempfile

# "header" and <header>: the runtime folder is on the include path, so
# <api/api.h> reaches a folder as "api/api.h" does.
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
SOURCE = ('.c', '.h', '.def')
PUBLIC = 'include'  # runtime/include: the stub ABI, installed


def check(root, layers):
    """The problems found, as lines; [] when the layers hold."""
    rank = {name: i for i, name in enumerate(layers)}
    problems, files, includes = [], 0, 0
    for dirpath, dirs, names in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        top = rel_dir.split(os.sep)[0]
        if top == PUBLIC:
            dirs[:] = []
            continue
        for name in sorted(names):
            if not name.endswith(SOURCE):
                continue
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel == 'vrt.h':
                continue
            folder = top if rel_dir != '.' else None
            if folder not in rank or rel_dir != folder:
                problems.append(f'runtime/{rel}: not in a folder of the layers '
                                f'({", ".join(layers)})')
                continue
            files += 1
            text = open(os.path.join(dirpath, name), encoding='utf-8').read()
            for m in INCLUDE.finditer(text):
                angle = m.group(1) is None
                written = m.group(2) if angle else m.group(1)
                # "plan/../api/api.h" is api/api.h.
                inc = os.path.normpath(written)
                head = inc.split('/')[0]
                if angle and head not in rank and head != 'vast' and inc != 'vrt.h':
                    continue  # a system header: <stdio.h>, <CL/cl.h>
                includes += 1
                line = text.count('\n', 0, m.start()) + 1
                where = f'runtime/{rel}:{line}: includes "{written}"'
                if '/' not in inc:
                    if inc == 'vrt.h':
                        problems.append(f'{where}, the whole interface: include '
                                        f'"{folder}/{folder}.h"')
                    elif not os.path.isfile(os.path.join(dirpath, inc)):
                        problems.append(f'{where}, not a file of {folder}/')
                elif head == 'vast':
                    if not os.path.isfile(os.path.join(root, PUBLIC, inc)):
                        problems.append(f'{where}, not a public header')
                elif head in rank:
                    if rank[head] < rank[folder]:
                        problems.append(f'{where}, of {head}/, a folder above '
                                        f'{folder}/')
                    elif inc.endswith('_int.h') and head != folder:
                        problems.append(f'{where}, private to {head}/')
                    elif not os.path.isfile(os.path.join(root, inc)):
                        problems.append(f'{where}, no such file')
                else:
                    problems.append(f'{where}, of no folder of the layers')
    if files < 10 or includes < 10:
        problems.append(f'only {files} files and {includes} includes found under {root}')
    return problems


def self_test(root, layers):
    top, bottom = layers[0], layers[-1]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'runtime')
        shutil.copytree(root, copy)
        victims = sorted(f for f in os.listdir(os.path.join(copy, bottom)) if f.endswith('.c'))[:3]
        plants = [f'"{top}/{top}.h"', f'<{top}/{top}.h>', f'"{bottom}/../{top}/{top}.h"']
        for victim, plant in zip(victims, plants):
            with open(os.path.join(copy, bottom, victim), 'a', encoding='utf-8') as f:
                f.write(f'#include {plant}\n')
        # A folder's private header, included from a folder above: below
        # it, but not for it.
        with open(os.path.join(copy, bottom, f'{bottom}_int.h'), 'w', encoding='utf-8') as f:
            f.write('/* private */\n')
        above = sorted(f for f in os.listdir(os.path.join(copy, top)) if f.endswith('.c'))[0]
        with open(os.path.join(copy, top, above), 'a', encoding='utf-8') as f:
            f.write(f'#include "{bottom}/{bottom}_int.h"\n')
        with open(os.path.join(copy, 'stray.c'), 'w', encoding='utf-8') as f:
            f.write(f'#include "{bottom}/{bottom}.h"\n')
        got = check(copy, layers)
    want = [f'runtime/{bottom}/{v}' for v in victims] + [f'runtime/{top}/{above}',
                                                          'runtime/stray.c']
    missed = [w for w in want if not any(p.startswith(w) for p in got)]
    if missed or len(got) != len(want):
        print('FAIL: the check did not catch what was planted: missed', missed, 'got:')
        print('\n'.join('  ' + p for p in got))
        return 1
    print('ok: caught', *got, sep='\n  ')
    return 0


def main(argv):
    selftest = argv[:1] == ['--self-test']
    if selftest:
        argv = argv[1:]
    if len(argv) < 3:
        print(__doc__)
        return 2
    root, layers = os.path.abspath(argv[0]), argv[1:]
    if selftest:
        return self_test(root, layers)
    problems = check(root, layers)
    if problems:
        print('FAIL: a runtime file includes across the layers '
              f'({" > ".join(layers)}):')
        print('\n'.join('  ' + p for p in problems))
        return 1
    print(f'ok: every include of runtime/ stays in its folder or goes below it '
          f'({" > ".join(layers)})')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
