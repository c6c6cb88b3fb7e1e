/* SPDX-License-Identifier: MIT */
/*
 * colmap.c - user columns for locations in the preprocessed text.
 *
 * `clang -E` keeps lines (through linemarkers) but not columns: a macro
 * expansion changes the length of its line, comments vanish, and the
 * indentation of a line becomes spaces. A location in the preprocessed
 * text is mapped back by lining up the tokens of its preprocessed line
 * with the tokens of the user's file from that line on, read once per
 * file, directives and comments skipped. Each macro invocation of the
 * user's file (a macro name, with its parenthesized arguments when the
 * macro is function-like) stands for any run of preprocessed tokens, a
 * glob `*`; every other user token must equal the next preprocessed
 * token. Matching is the classic wildcard match (lazy stars, backtracking
 * to the last star), and the preprocessed line must be consumed entirely;
 * the user's tokens may go on (a line holds the tokens of a comment's or
 * an invocation's later lines). A token then maps to its user token, or,
 * inside an expansion, to the invocation's macro name: clang's expansion
 * location, which docs/report.md promises. Lines come out of the match as
 * well, so a token that clang -E moved up after a multi-line comment gets
 * its own line back.
 *
 * The macro names come from the same clang process (-dD prints every
 * #define; preprocess.c records and blanks them). When the match fails
 * (an unknown builtin macro, a line clang -E rearranged), the location
 * stays as it was. No second parse, no second process: the cost is one
 * tokenization per user file and one per queried line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

typedef struct cm_tok {
	unsigned off, len;    /* into the buffer tokenized */
	unsigned line, col;   /* user files: 1-based */
} cm_tok;

typedef struct cm_file {
	const char *name;     /* interned */
	char *buf;            /* owned; NULL for the main file */
	const char *src;
	cm_tok *toks; unsigned ntoks, captoks;
	unsigned *first;      /* per line: first token on or after it */
	unsigned nlines;
	int ok;
} cm_file;

typedef struct cm_macro {
	char *name;
	int funclike;
} cm_macro;

struct an_colmap {
	cm_macro *macros; unsigned nmacros, capmacros;
	unsigned *hash; unsigned hcap;  /* open addressing: index + 1 */
	cm_file *files; unsigned nfiles, capfiles;
	/* the last line mapped */
	unsigned line_off;
	int line_valid;
	cm_tok *ptoks; unsigned nptoks, capptoks;
	cm_tok *map;          /* per preprocessed token: its user token */
	unsigned capmap;
	int line_ok;
};

static unsigned hash_str(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static an_colmap *colmap(an_ctx *c)
{
	if (!c->cm)
		c->cm = an_xcalloc(1, sizeof *c->cm);
	return c->cm;
}

static cm_macro *find_macro(an_colmap *m, const char *s, size_t n)
{
	if (!m->hcap)
		return NULL;
	for (unsigned h = hash_str(s, n) & (m->hcap - 1);; h = (h + 1) & (m->hcap - 1)) {
		if (!m->hash[h])
			return NULL;
		cm_macro *x = &m->macros[m->hash[h] - 1];
		if (!strncmp(x->name, s, n) && !x->name[n])
			return x;
	}
}

static void rehash(an_colmap *m)
{
	free(m->hash);
	m->hcap = m->hcap ? m->hcap * 2 : 1024;
	m->hash = an_xcalloc(m->hcap, sizeof *m->hash);
	for (unsigned i = 0; i < m->nmacros; i++) {
		const char *s = m->macros[i].name;
		unsigned h = hash_str(s, strlen(s)) & (m->hcap - 1);
		while (m->hash[h])
			h = (h + 1) & (m->hcap - 1);
		m->hash[h] = i + 1;
	}
}

/* A #define seen by the preprocessor; the last definition's kind wins.
 * #undef is not followed: a name used after its #undef is then a star
 * that absorbs just itself, which maps it right all the same. */
void an_colmap_define(an_ctx *c, const char *name, size_t n, int funclike)
{
	an_colmap *m = colmap(c);
	cm_macro *x = find_macro(m, name, n);
	if (x) {
		x->funclike = funclike;
		return;
	}
	x = AN_PUSH(m->macros, m->nmacros, m->capmacros);
	x->name = an_strndup(name, n);
	x->funclike = funclike;
	if (m->nmacros * 2 > m->hcap)
		rehash(m);
	else {
		unsigned h = hash_str(name, n) & (m->hcap - 1);
		while (m->hash[h])
			h = (h + 1) & (m->hcap - 1);
		m->hash[h] = m->nmacros;
	}
}

/* Builtin macros -dD does not print (C99 6.10.8, clang's extensions). */
static void define_builtins(an_ctx *c)
{
	static const char *const names[] = {
		"__LINE__", "__FILE__", "__COUNTER__", "__DATE__", "__TIME__",
		"__BASE_FILE__", "__INCLUDE_LEVEL__", "__TIMESTAMP__", "__FILE_NAME__"
	};
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
		an_colmap_define(c, names[i], strlen(names[i]), 0);
}

/* ---- tokens ------------------------------------------------------------ */

static int is_id(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '$';
}

/* Past the block comment that opens at s[i]: the index after its end
 * (n when unterminated), the lines it spans counted in *line and where
 * the last begins in *bol. */
static size_t skip_block_comment(const char *s, size_t n, size_t i, unsigned *line, size_t *bol)
{
	i += 2;
	while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
		if (s[i] == '\n') {
			++*line;
			*bol = i + 1;
		}
		i++;
	}
	return i + 2 < n ? i + 2 : n;
}

/* Tokenizes s[0..n): identifiers, pp-numbers, literals and single-char
 * punctuators (both sides are split the same way, so `+=` being two
 * tokens does not matter). user: skip comments and directive lines. */
static void tokenize(const char *s, size_t n, int user, cm_tok **toks,
                     unsigned *ntoks, unsigned *cap)
{
	unsigned line = 1;
	size_t bol = 0, i = 0;
	int at_bol = 1;
	while (i < n) {
		char ch = s[i];
		if (ch == '\n') {
			line++;
			bol = ++i;
			at_bol = 1;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
			i++;
			continue;
		}
		if (ch == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
			i++;
			continue;
		}
		if (user && ch == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
			continue;
		}
		if (user && ch == '/' && i + 1 < n && s[i + 1] == '*') {
			i = skip_block_comment(s, n, i, &line, &bol);
			continue;
		}
		if (user && at_bol && ch == '#') {
			/* a directive, up to its unescaped end of line */
			while (i < n && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
					line++;
					i += 2;
					bol = i;
					continue;
				}
				if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
					i = skip_block_comment(s, n, i, &line, &bol);
					continue;
				}
				i++;
			}
			continue;
		}
		at_bol = 0;
		size_t b = i;
		if (is_id((unsigned char)ch) && !(ch >= '0' && ch <= '9')) {
			while (i < n && is_id((unsigned char)s[i]))
				i++;
		} else if ((ch >= '0' && ch <= '9') ||
		           (ch == '.' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
			i++;
			while (i < n) {
				if ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))
					i++;
				else if (is_id((unsigned char)s[i]) || s[i] == '.')
					i++;
				else
					break;
			}
		} else if (ch == '"' || ch == '\'') {
			i++;
			while (i < n && s[i] != ch && s[i] != '\n')
				i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
			if (i < n && s[i] == ch)
				i++;
		} else {
			i++;
		}
		cm_tok *t = AN_PUSH(*toks, *ntoks, *cap);
		t->off = (unsigned)b;
		t->len = (unsigned)(i - b);
		t->line = line;
		t->col = (unsigned)(b - bol) + 1;
	}
}

static cm_file *user_file(an_ctx *c, const char *name)
{
	an_colmap *m = colmap(c);
	for (unsigned i = 0; i < m->nfiles; i++)
		if (m->files[i].name == name)
			return &m->files[i];
	cm_file *f = AN_PUSH(m->files, m->nfiles, m->capfiles);
	memset(f, 0, sizeof *f);
	f->name = name;
	size_t n = 0;
	if (!strcmp(name, c->path)) {
		f->src = (const char *)c->p->source;
		n = c->p->source_size;
	} else {
		/* a user header: read as clang named it */
		FILE *fp = fopen(name, "rb");
		if (!fp)
			return f;
		size_t cap = 0;
		for (;;) {
			if (n + 4096 > cap) {
				cap = (n + 4096) * 2;
				char *nb = realloc(f->buf, cap);
				if (!nb) {
					fclose(fp);
					return f;
				}
				f->buf = nb;
			}
			size_t r = fread(f->buf + n, 1, cap - n, fp);
			if (!r)
				break;
			n += r;
		}
		fclose(fp);
		f->src = f->buf;
	}
	if (!f->src)
		return f;
	tokenize(f->src, n, 1, &f->toks, &f->ntoks, &f->captoks);
	unsigned last = f->ntoks ? f->toks[f->ntoks - 1].line : 0;
	f->nlines = last + 1;
	f->first = an_xmalloc((f->nlines + 1) * sizeof *f->first);
	unsigned t = 0;
	for (unsigned l = 0; l <= f->nlines; l++) {
		while (t < f->ntoks && f->toks[t].line < l)
			t++;
		f->first[l] = t;
	}
	f->ok = 1;
	return f;
}

/* ---- matching ---------------------------------------------------------- */

typedef struct cm_item {
	unsigned tok;         /* the user token (the macro name for a star) */
	int star;
} cm_item;

/* The user's tokens from index t on, as literals and stars. */
static unsigned make_items(an_colmap *m, cm_file *f, unsigned t, cm_item *it,
                           unsigned max)
{
	unsigned n = 0;
	while (t < f->ntoks && n < max) {
		cm_tok *k = &f->toks[t];
		cm_macro *mac = find_macro(m, f->src + k->off, k->len);
		it[n].tok = t;
		it[n].star = 0;
		t++;
		if (mac && (!mac->funclike ||
		            (t < f->ntoks && f->toks[t].len == 1 && f->src[f->toks[t].off] == '('))) {
			it[n].star = 1;
			if (mac->funclike) {
				int depth = 0;
				for (; t < f->ntoks; t++) {
					char ch = f->toks[t].len == 1 ? f->src[f->toks[t].off] : 0;
					if (ch == '(')
						depth++;
					else if (ch == ')' && --depth == 0) {
						t++;
						break;
					}
				}
			}
		}
		n++;
	}
	return n;
}

/* Lines up the preprocessed line (m->ptoks over text) with the user's
 * tokens from `line` on; fills m->map. */
static int match_line(an_colmap *m, cm_file *f, const char *text, unsigned line)
{
	if (!f->ok || line >= f->nlines)
		return 0;
	unsigned np = m->nptoks;
	/* an invocation may take many tokens; a line rarely more than a few
	 * hundred user tokens */
	unsigned max = np + 64;
	if (max > 4096)
		return 0;
	cm_item *it = an_xmalloc(max * sizeof *it);
	unsigned ni = make_items(m, f, f->first[line], it, max);
	int *owner = an_xmalloc((np + 1) * sizeof *owner);
	unsigned i = 0, k = 0, star_i = 0;
	int star = -1, ok = 1;
	while (i < np) {
		const cm_tok *p = &m->ptoks[i];
		if (k < ni && it[k].star) {
			star = (int)k;
			star_i = i;
			k++;
			continue;
		}
		if (k < ni) {
			const cm_tok *u = &f->toks[it[k].tok];
			if (u->len == p->len && !memcmp(f->src + u->off, text + p->off, p->len)) {
				owner[i++] = (int)k++;
				continue;
			}
		}
		if (star < 0) {
			ok = 0;
			break;
		}
		/* the last star absorbs one more token */
		owner[star_i++] = star;
		i = star_i;
		k = (unsigned)star + 1;
	}
	if (ok) {
		if (np > m->capmap) {
			m->capmap = np * 2;
			m->map = realloc(m->map, m->capmap * sizeof *m->map);
			if (!m->map) {
				m->capmap = 0;
				ok = 0;
			}
		}
		for (unsigned j = 0; ok && j < np; j++) {
			const cm_tok *u = &f->toks[it[owner[j]].tok];
			m->map[j] = *u;
			if (it[owner[j]].star)
				m->map[j].len = 0; /* inside an expansion */
		}
	}
	free(owner);
	free(it);
	return ok;
}

/* The user's location of the preprocessed text's byte `off`, whose
 * presumed location (after #line) is `loc`. */
an_loc an_colmap_loc(an_ctx *c, an_loc loc, unsigned off)
{
	an_colmap *m = c->cm;
	const char *text = c->p->text;
	if (!m || !loc.file || off > c->p->len || !loc.line)
		return loc;
	unsigned b = off;
	while (b > 0 && text[b - 1] != '\n')
		b--;
	if (!m->line_valid || m->line_off != b) {
		unsigned e = off;
		while (e < c->p->len && text[e] != '\n')
			e++;
		m->line_off = b;
		m->line_valid = 1;
		m->nptoks = 0;
		m->line_ok = 0;
		unsigned s = b;
		while (s < e && (text[s] == ' ' || text[s] == '\t'))
			s++;
		if (s < e && text[s] == '#')
			return loc; /* #line, #pragma */
		tokenize(text + b, e - b, 0, &m->ptoks, &m->nptoks, &m->capptoks);
		cm_file *f = user_file(c, loc.file);
		m->line_ok = m->nptoks && match_line(m, f, text + b, loc.line);
	}
	if (!m->line_ok)
		return loc;
	unsigned col = off - b; /* 0-based in the preprocessed line */
	unsigned j = 0;
	while (j + 1 < m->nptoks && m->ptoks[j].off + m->ptoks[j].len <= col)
		j++;
	const cm_tok *p = &m->ptoks[j];
	const cm_tok *u = &m->map[j];
	loc.line = u->line;
	loc.col = u->col;
	unsigned end = p->off + p->len;
	if (u->len && col >= p->off && col - p->off < u->len)
		loc.col += col - p->off; /* inside the token */
	else if (col >= end && u->len == p->len)
		loc.col += u->len + (col - end); /* past the line's last token */
	return loc;
}

void an_colmap_start(an_ctx *c)
{
	colmap(c);
	define_builtins(c);
}

void an_colmap_free(an_ctx *c)
{
	an_colmap *m = c->cm;
	if (!m)
		return;
	for (unsigned i = 0; i < m->nmacros; i++)
		free(m->macros[i].name);
	free(m->macros);
	free(m->hash);
	for (unsigned i = 0; i < m->nfiles; i++) {
		free(m->files[i].buf);
		free(m->files[i].toks);
		free(m->files[i].first);
	}
	free(m->files);
	free(m->ptoks);
	free(m->map);
	free(m);
	c->cm = NULL;
}
