# on_tty.py CMD ARGS...: runs CMD with its standard error on a pseudo-
# terminal and copies what it wrote there to standard output; exits with
# CMD's status. For tests of what a program prints on a terminal.
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the terminal's other side is closed
        break
    if not chunk:
        break
    out += chunk
rc = proc.wait()
sys.stdout.write(out.decode().replace("\r\n", "\n"))
sys.exit(rc)
