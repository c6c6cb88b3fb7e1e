/* SPDX-License-Identifier: MIT */
/*
 * response.c - @FILE arguments, as gcc reads them (libiberty's expandargv).
 *
 * An argument @FILE is replaced by the arguments FILE holds: separated by
 * white space, grouped by single or double quotes, a backslash escaping
 * the next character anywhere (inside quotes too). What FILE holds is
 * expanded in turn, so a response file may name others. An @FILE that
 * cannot be read stays an argument as it is, as in gcc, where it then
 * names a missing input.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* Deeper than any real use: a file that names itself stops here. */
#define MAX_NESTING 64

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = 0, cap = 4096;
	char *s = malloc(cap);
	size_t r;
	while (s && (r = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			s = realloc(s, cap *= 2);
	}
	bool bad = ferror(f);
	fclose(f);
	if (!s) {
		fprintf(stderr, "vastcc: error: out of memory\n");
		exit(1);
	}
	if (bad) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

static bool expand(char *const *args, size_t nargs, int depth, strv *out,
                   strv *owned);

/* The words of `text` (modified in place: each word is written over the
 * text it came from, and owned by `text`). */
static void split_words(char *text, strv *words)
{
	char *in = text;
	while (*in) {
		while (isspace((unsigned char)*in))
			in++;
		if (!*in)
			break;
		char *word = in, *w = in;
		char quote = 0;
		for (; *in && (quote || !isspace((unsigned char)*in)); in++) {
			if (*in == '\\' && in[1])
				*w++ = *++in;
			else if (quote && *in == quote)
				quote = 0;
			else if (!quote && (*in == '\'' || *in == '"'))
				quote = *in;
			else
				*w++ = *in;
		}
		bool more = *in != '\0';
		*w = '\0';
		strv_push(words, word);
		if (more)
			in++; /* past the separator, which w may have overwritten */
	}
}

static bool expand_file(const char *arg, int depth, strv *out, strv *owned)
{
	if (depth >= MAX_NESTING) {
		fprintf(stderr, "vastcc: error: response file '%s' nested more than %d deep\n",
		        arg + 1, MAX_NESTING);
		return false;
	}
	char *text = read_all(arg + 1);
	if (!text) {
		strv_push(out, arg);
		return true;
	}
	strv_push(owned, text);
	strv words = {0};
	split_words(text, &words);
	bool ok = expand(words.v, words.n, depth + 1, out, owned);
	strv_free(&words);
	return ok;
}

static bool expand(char *const *args, size_t nargs, int depth, strv *out,
                   strv *owned)
{
	for (size_t i = 0; i < nargs; i++) {
		if (args[i][0] == '@' && args[i][1]) {
			if (!expand_file(args[i], depth, out, owned))
				return false;
		} else {
			strv_push(out, args[i]);
		}
	}
	return true;
}

bool expand_response_files(int argc, char **argv, strv *out, strv *owned)
{
	return expand(argv, (size_t)argc, 0, out, owned);
}
