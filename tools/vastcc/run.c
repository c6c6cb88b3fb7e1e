/* SPDX-License-Identifier: MIT */
/*
 * run.c - running the real compiler, and the driver's temporary directory.
 *
 * Commands run with fork/execvp (no shell, so no quoting surprises). Under
 * -v each command is printed to stderr before it runs; under -### it is
 * printed and not run, like gcc.
 */
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

int run_command(const strv *cmd, const options *opt)
{
	if (opt->verbose || opt->dry_run)
		print_command(cmd);
	if (opt->dry_run)
		return 0;
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
