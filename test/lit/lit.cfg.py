# SPDX-License-Identifier: MIT
# lit configuration of vastcc's golden tests: one behaviour per file, RUN
# and CHECK lines beside the input. Run with
#   python3 /usr/lib/llvm-19/build/utils/lit/lit.py --param vast_build=build test/lit
# Substitutions:
#   %vastcc    the vastcc of the build tree
#   %vastcxx   the same, invoked as vastc++
#   %vastrun   the vastrun of the build tree
#   %flatjson  `vastcc --report` JSON as one stable line per kernel,
#              parameter, access and helper (Inputs/flatjson.py)
import os
import platform
import sys
import lit.formats

config.name = "vastcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cl", ".c", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

build = lit_config.params.get("vast_build") or os.environ.get("VAST_BUILD", "build")
build = os.path.abspath(build)
config.test_exec_root = os.path.join(build, "test", "lit")
# The host's machine ("x86_64") for REQUIRES: of tests of one target's flags.
config.available_features.add(platform.machine())

llvm_bin = "/usr/lib/llvm-19/bin"
config.substitutions.append(("%vastrun", os.path.join(build, "bin", "vastrun")))
config.substitutions.append(("%vastcxx", os.path.join(build, "bin", "vastc++")))
config.substitutions.append(("%vastcc", os.path.join(build, "bin", "vastcc")))
config.substitutions.append(("%flatjson", "%s %s" % (
    sys.executable, os.path.join(config.test_source_root, "Inputs", "flatjson.py"))))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%not", os.path.join(llvm_bin, "not")))
config.environment["PATH"] = os.pathsep.join([llvm_bin, os.environ.get("PATH", "")])
# Never the user's cache of programs compiled at run time (~/.cache/vastcc):
# the one ctest's tests use (test/CMakeLists.txt).
config.environment["VAST_CACHE_DIR"] = os.path.join(build, "test-cache")
for var in ("VAST_CC", "VAST_CXX", "VAST_CLANG", "TMPDIR", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
