# SPDX-License-Identifier: MIT
# linked_compiler.py PROGRAM - prints the string vastcc recorded in PROGRAM
# as the compiler that linked it (vast_linked_compiler, tools/vastcc/paths.c),
# read from the symbol's bytes in the file.
import subprocess
import sys

prog = sys.argv[1]
out = subprocess.run(['objdump', '-t', prog], capture_output=True, text=True, check=True).stdout
for line in out.splitlines():
    f = line.split()
    if f and f[-1] == 'vast_linked_compiler':
        addr, section, size = int(f[0], 16), f[-3], int(f[-2], 16)
        break
else:
    sys.exit('no vast_linked_compiler in ' + prog)
hdr = subprocess.run(['objdump', '-h', prog], capture_output=True, text=True, check=True).stdout
for line in hdr.splitlines():
    f = line.split()
    if len(f) >= 6 and f[1] == section:
        vma, off = int(f[3], 16), int(f[5], 16)
        break
with open(prog, 'rb') as fp:
    fp.seek(off + addr - vma)
    print(fp.read(size).rstrip(b'\0').decode())
