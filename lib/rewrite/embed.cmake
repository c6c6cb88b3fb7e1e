# SPDX-License-Identifier: MIT
# cmake -DIN=prelude.cl -DOUT=prelude.inc -P embed.cmake
# Turns a text file into the bytes of a C array initializer, NUL-terminated,
# so no escaping rule of C string literals can bite.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" hex "${hex}")
file(WRITE "${OUT}.tmp" "/* generated from ${IN}; do not edit */\n${hex}\n0x00\n")
file(RENAME "${OUT}.tmp" "${OUT}")
