/* SPDX-License-Identifier: MIT */
/*
 * fuzz_stubjson.c - libFuzzer target over libvastrt's reader of
 * `vastcc --emit-json` files (runtime/program/stubjson.c, docs/json.md).
 *
 * Each input is read twice: as it is (nearly always refused by the seal,
 * the checksum at its end) and as the text before a seal that this target
 * adds, so the mutations reach the JSON parser and the table checks. A
 * finding is a crash, a leak or an out-of-bounds access (ASan, UBSan,
 * LeakSanitizer), or a refusal without an error message. Seeds: the
 * --emit-json files of the examples without their seal (README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vrt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_back(const char *text, size_t len)
{
	char *error = NULL;
	vast_program_info *p = vrt_stub_from_json(text, len, &error);
	if (!p && !error)
		abort(); /* a refusal must say why */
	vrt_stub_json_free(p);
	free(error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_back((const char *)data, size);
	char tail[64];
	snprintf(tail, sizeof tail, VAST_JSON_SEAL_HEAD "%016llx" VAST_JSON_SEAL_TAIL,
	         vast_hash_bytes(VAST_HASH_SEED, data, size));
	size_t t = strlen(tail);
	char *sealed = malloc(size + t);
	if (!sealed)
		return 0;
	memcpy(sealed, data, size);
	memcpy(sealed + size, tail, t);
	read_back(sealed, size + t);
	free(sealed);
	return 0;
}
