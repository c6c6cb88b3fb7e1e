# SPDX-License-Identifier: MIT
# manpages.cmake - the man pages' ENVIRONMENT comes from README.md's tables
# of variables ("### Compile time", "### Run time"), so the two cannot
# drift: docs/man/NAME.1.in, its @VAST_COMPILE_ENVIRONMENT@ and
# @VAST_RUNTIME_ENVIRONMENT@ filled with one .TP entry per table row,
# becomes <build>/share/man/man1/NAME.1 at configure time (editing README.md
# or a page configures again). test/docs/environment.sh checks that every
# variable the code reads is in both.
#
# The cells are markdown; vast_md_to_roff knows what the tables use:
# `code` (bold), *emphasis* (italic), **strong**, [text](url), \| and the
# few non-ASCII characters listed below. Anything else non-ASCII stops the
# configure with the row to fix.

# vast_md_inline_to_roff(OUT TEXT): TEXT outside code spans, as roff.
function(vast_md_inline_to_roff out text)
  string(REGEX REPLACE "\\*\\*([^*]+)\\*\\*" "\\\\fB\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "\\*([^* ][^*]*)\\*" "\\\\fI\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "\\[([^]]*)\\]\\(([^)]*)\\)" "\\1 (\\2)" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# vast_md_to_roff(OUT CELL WHERE): a table cell as one line of roff text;
# WHERE names the cell in an error.
function(vast_md_to_roff out cell where)
  string(REPLACE "\\|" "|" cell "${cell}")
  string(REPLACE "\\" "\\e" cell "${cell}")
  # Code spans as bold, their '-' a minus (option names); the rest inline.
  set(roff "")
  while(cell MATCHES "^([^`]*)`([^`]*)`(.*)$")
    set(code "${CMAKE_MATCH_2}")
    set(rest "${CMAKE_MATCH_3}")
    vast_md_inline_to_roff(plain "${CMAKE_MATCH_1}")
    string(REPLACE "-" "\\-" code "${code}")
    string(APPEND roff "${plain}\\fB${code}\\fR")
    set(cell "${rest}")
  endwhile()
  vast_md_inline_to_roff(plain "${cell}")
  string(APPEND roff "${plain}")
  foreach(pair "−;\\(mi" "×;\\(mu" "µ;\\(*m" "—;\\(em" "–;\\(en" "…;..."
               "≥;\\(>=" "≤;\\(<=" "→;\\(->" "’;'" "‘;\\(oq" "“;\\(lq" "”;\\(rq")
    list(GET pair 0 from)
    list(GET pair 1 to)
    string(REPLACE "${from}" "${to}" roff "${roff}")
  endforeach()
  if(roff MATCHES "[^\t -~]")
    message(FATAL_ERROR "README.md, ${where}: a character cmake/manpages.cmake "
            "cannot put in a man page (add it to vast_md_to_roff's list)")
  endif()
  # A line must not begin with a control character.
  if(roff MATCHES "^[.']")
    set(roff "\\&${roff}")
  endif()
  set(${out} "${roff}" PARENT_SCOPE)
endfunction()

# vast_readme_environment(OUT HEADING): the first table under
# "### HEADING" of README.md as .TP entries.
function(vast_readme_environment out heading)
  # One list item a line: the text's own ';', '[' and ']' (which would
  # split or join items) held as control characters meanwhile.
  file(READ ${PROJECT_SOURCE_DIR}/README.md text)
  string(ASCII 1 semicolon)
  string(ASCII 2 open)
  string(ASCII 3 close)
  string(REPLACE ";" "${semicolon}" text "${text}")
  string(REPLACE "[" "${open}" text "${text}")
  string(REPLACE "]" "${close}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(in_section FALSE)
  set(in_table FALSE)
  set(roff "")
  foreach(line IN LISTS lines)
    string(REPLACE "${semicolon}" ";" line "${line}")
    string(REPLACE "${open}" "[" line "${line}")
    string(REPLACE "${close}" "]" line "${line}")
    if(line STREQUAL "### ${heading}")
      set(in_section TRUE)
    elseif(in_section AND line MATCHES "^\\|")
      set(in_table TRUE)
      # A row: "| name | meaning |"; the header and the rule have no code.
      if(line MATCHES "^\\| *(`[^|]*`[^|]*) \\| (.*) \\|$")
        set(meaning "${CMAKE_MATCH_2}")
        vast_md_to_roff(tag "${CMAKE_MATCH_1}" "${heading}")
        vast_md_to_roff(text "${meaning}" "${heading}, row ${tag}")
        string(APPEND roff ".TP\n${tag}\n${text}\n")
      endif()
    elseif(in_table OR (in_section AND line MATCHES "^#"))
      break()
    endif()
  endforeach()
  if(roff STREQUAL "")
    message(FATAL_ERROR "README.md has no table under '### ${heading}' "
            "(cmake/manpages.cmake reads the man pages' ENVIRONMENT there)")
  endif()
  string(REGEX REPLACE "\n$" "" roff "${roff}")
  set(${out} "${roff}" PARENT_SCOPE)
endfunction()

vast_readme_environment(VAST_COMPILE_ENVIRONMENT "Compile time")
vast_readme_environment(VAST_RUNTIME_ENVIRONMENT "Run time")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/README.md)
foreach(page vastcc.1 vastrun.1)
  configure_file(${PROJECT_SOURCE_DIR}/docs/man/${page}.in
    ${CMAKE_BINARY_DIR}/share/man/man1/${page} @ONLY)
endforeach()
