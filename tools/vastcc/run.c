/* SPDX-License-Identifier: MIT */
/*
 * run.c - running the real compiler, and the driver's temporary directory.
 *
 * Commands run with fork/execvp (no shell, so no quoting surprises). Under
 * -v each command is printed to stderr before it runs; under -### it is
 * printed and not run, like gcc. A command too long for execve (the
 * user's @FILEs, which vastcc reads, may hold a whole link's objects)
 * runs as `cc @FILE`, its arguments in a response file of our own.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "driver.h"

static void print_command(const strv *cmd)
{
	for (size_t i = 0; i < cmd->n; i++)
		fprintf(stderr, "%s\"%s\"", i ? " " : " ", cmd->v[i]);
	fputc('\n', stderr);
}

/* Linux's execve takes 2 MiB of arguments and environment together (a
 * quarter of the stack limit) and 128 KiB per string; past this many
 * bytes of arguments a command goes through a response file, leaving the
 * environment room. gcc and clang both read @FILE. */
#define RESPONSE_FILE_BYTES (100 * 1024)

/* What the arguments take of execve's room: the strings and the
 * pointers to them. */
static size_t command_bytes(const strv *cmd)
{
	size_t n = 0;
	for (size_t i = 0; i < cmd->n; i++)
		n += strlen(cmd->v[i]) + 1 + sizeof(char *);
	return n;
}

/* One argument as gcc's and clang's @FILE reading takes it back: every
 * white space character, quote and backslash escaped; an empty one as
 * "". */
static void put_response_word(FILE *f, const char *word)
{
	if (!*word)
		fputs("\"\"", f);
	for (const char *c = word; *c; c++) {
		if (isspace((unsigned char)*c) || *c == '\'' || *c == '"' || *c == '\\')
			fputc('\\', f);
		fputc(*c, f);
	}
	fputc('\n', f);
}

/* cmd's arguments after the program, written to a response file in the
 * temporary directory; "@FILE" (malloc'd), or NULL after an error. */
static char *write_response_file(const strv *cmd)
{
	static int seq;
	size_t n = strlen(temp_dir()) + 32;
	char *arg = malloc(n);
	if (!arg) {
		fprintf(stderr, "vastcc: error: out of memory\n");
		exit(1);
	}
	snprintf(arg, n, "@%s/cmd-%d.rsp", temp_dir(), seq++);
	const char *path = arg + 1;
	FILE *f = fopen(path, "w");
	if (f) {
		for (size_t i = 1; i < cmd->n; i++)
			put_response_word(f, cmd->v[i]);
		bool bad = ferror(f);
		if (fclose(f) == 0 && !bad)
			return arg;
	}
	fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", path, strerror(errno));
	free(arg);
	return NULL;
}

static int spawn(const strv *cmd)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "vastcc: error: cannot fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execvp(cmd->v[0], cmd->v);
		fprintf(stderr, "vastcc: error: cannot run '%s': %s\n", cmd->v[0],
		        strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	fprintf(stderr, "vastcc: error: '%s' terminated by signal %d\n",
	        cmd->v[0], WTERMSIG(status));
	return 1;
}

int run_command(const strv *cmd, const options *opt)
{
	/* -### shows the command whole: nothing runs, and a response file
	 * would be gone by the time anyone read it. */
	if (opt->dry_run) {
		print_command(cmd);
		return 0;
	}
	if (command_bytes(cmd) <= RESPONSE_FILE_BYTES) {
		if (opt->verbose)
			print_command(cmd);
		return spawn(cmd);
	}
	char *rsp = write_response_file(cmd);
	if (!rsp)
		return 1;
	strv short_cmd = {0};
	strv_push(&short_cmd, cmd->v[0]);
	strv_push(&short_cmd, rsp);
	if (opt->verbose)
		print_command(&short_cmd);
	int rc = spawn(&short_cmd);
	strv_free(&short_cmd);
	free(rsp);
	return rc;
}

static char *tmp_path;

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
			remove_tree(sub);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static void remove_temp_dir(void)
{
	if (tmp_path)
		remove_tree(tmp_path);
}

const char *temp_dir(void)
{
	if (tmp_path)
		return tmp_path;
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	size_t n = strlen(base) + 32;
	tmp_path = malloc(n);
	snprintf(tmp_path, n, "%s/vastcc-XXXXXX", base);
	if (!mkdtemp(tmp_path)) {
		fprintf(stderr, "vastcc: error: cannot create a temporary directory in '%s': %s\n",
		        base, strerror(errno));
		exit(1);
	}
	atexit(remove_temp_dir);
	return tmp_path;
}
