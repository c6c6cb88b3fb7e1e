# SPDX-License-Identifier: MIT
# fnv1a.py FILE - prints the stub lines vastcc must emit for FILE's bytes:
# `.source_hash = 0x...ull,` (FNV-1a 64, vast_hash_bytes in vast/stub.h)
# and `.source_size = Null,`, so a test can check the stub's hash is exact.
import sys

data = open(sys.argv[1], "rb").read()
h = 14695981039346656037
for b in data:
    h ^= b
    h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
print(".source_hash = 0x%016xull," % h)
print(".source_size = %dull," % len(data))
