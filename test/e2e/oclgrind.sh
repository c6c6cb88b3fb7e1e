#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# oclgrind.sh - the differential test of one example (diff.sh) on
# Oclgrind, an OpenCL 1.2 device simulator:
#
#   VAST_BUILD=build bash test/e2e/oclgrind.sh EXAMPLE [ARGS...]
#
# The runtime must use only what an OpenCL 1.2 platform has (an ICD
# loader hands a 2.0 call to a 1.2 platform's dispatch table, which ends
# before it). OCL_ICD_VENDORS names a directory holding Oclgrind's .icd
# alone, so no other platform is seen. Oclgrind simulates every work-item:
# the sizes are small, one budget (VAST_E2E_MEMS, default 10%) and no
# deep-pipeline runs. Exit status 77 (skipped) when Oclgrind is not
# installed (apt-get install oclgrind; .ci/install-deps installs it).
set -u
me="e2e/oclgrind_${1:-?}"
icd=
for lib in ${VAST_OCLGRIND_ICD:-} /usr/lib/oclgrind/liboclgrind-rt-icd.so \
	/usr/local/lib/oclgrind/liboclgrind-rt-icd.so /usr/lib/*/oclgrind/liboclgrind-rt-icd.so; do
	[ -f "$lib" ] && { icd=$lib; break; }
done
if [ -z "$icd" ]; then
	echo "$me: skipped: Oclgrind is not installed (apt-get install oclgrind)"
	exit 77
fi
vendors=$(mktemp -d "${TMPDIR:-/tmp}/vast-oclgrind.XXXXXX") || { echo "$me: FAIL: mktemp" >&2; exit 1; }
trap 'rm -rf "$vendors"' EXIT
echo "$icd" > "$vendors/oclgrind.icd"
export OCL_ICD_VENDORS=$vendors
# The one platform is Oclgrind's, and it is OpenCL 1.x.
if command -v clinfo >/dev/null; then
	ver=$(clinfo --raw 2>/dev/null | sed -n 's/.*CL_PLATFORM_VERSION[[:space:]]*//p' | head -n 1)
	case $ver in
	"OpenCL 1."*"Oclgrind"*) ;;
	*) echo "$me: FAIL: the platform with OCL_ICD_VENDORS=$vendors is '$ver', not Oclgrind's OpenCL 1.x" >&2
	   exit 1 ;;
	esac
fi
VAST_E2E_MEMS=${VAST_E2E_MEMS:-10%} VAST_E2E_PIPELINE=0 bash "$(dirname "$0")/diff.sh" "$@"
