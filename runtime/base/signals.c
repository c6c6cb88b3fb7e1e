/* SPDX-License-Identifier: MIT */
/*
 * signals.c - the statistics and the trace of a run that SIGINT or
 * SIGTERM ends.
 *
 * Only when VAST_STATS or VAST_TRACE is set, and not for a signal the
 * program ignores. Installed at the runtime's start; a handler there
 * already (the program's, or the driver's: PoCL's LLVM installs one that
 * removes its temporary files, then raises the signal again) is chained
 * to, and a handler the program installs later replaces ours.
 *
 * The handler does only what is async-signal-safe: it writes the
 * signal's number to a pipe. A thread of the runtime's ("vast signals")
 * waits on it, with every signal blocked; woken, it writes the report and
 * the trace as they are (stats.c, trace.c: the executors may still be
 * running, nothing waits for them), then puts back the disposition it
 * found and raises the signal again: by default the process ends of it
 * and its parent sees its exit status; a handler found runs, and if the
 * process goes on (a program that stops cleanly on SIGINT), the report
 * and the trace at exit are written again, whole, and the signals are
 * caught again. A second signal while the thread writes ends the process
 * at once, as does one in a child forked from the process, which has no
 * such thread.
 */
#define _GNU_SOURCE /* pipe2, pthread_setname_np */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base/base.h"

static const int sigs[] = {SIGINT, SIGTERM};
#define NSIGS 2
static struct sigaction found[NSIGS]; /* the dispositions before ours */
static int ours[NSIGS];               /* caught by on_signal */
static int wake[2] = {-1, -1};        /* the handler writes, the thread reads */
static pid_t owner;                   /* the process the thread belongs to */
static volatile sig_atomic_t caught;

static int index_of(int sig)
{
	return sig == SIGINT ? 0 : 1;
}

/* sig's disposition as found, sig unblocked and raised: the process ends,
 * or a handler found runs. Async-signal-safe. */
static void pass_on(int sig)
{
	sigaction(sig, &found[index_of(sig)], NULL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	if (caught || getpid() != owner || write(wake[1], &b, 1) != 1)
		pass_on(sig);
	else
		caught = 1;
	errno = saved;
}

static void catch_them(void)
{
	for (int i = 0; i < NSIGS; i++) {
		if (!ours[i])
			continue;
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(sigs[i], &sa, NULL);
	}
}

static void *watch(void *arg)
{
	(void)arg;
	for (;;) {
		unsigned char b;
		ssize_t r = read(wake[0], &b, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1)
			return NULL; /* the program closed it: no report */
		vrt_progress_clear();
		vrt_stats_signal(b == SIGINT ? "SIGINT" : "SIGTERM");
		vrt_trace_signal();
		pass_on(b);
		/* A handler found ran and the process goes on. */
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, b);
		pthread_sigmask(SIG_BLOCK, &one, NULL);
		vrt_stats_rearm();
		vrt_trace_rearm();
		catch_them();
		caught = 0;
	}
}

void vrt_signals_install(void)
{
	int any = 0;
	if (!vrt_cfg.stats && !vrt_cfg.trace)
		return;
	for (int i = 0; i < NSIGS; i++)
		if (sigaction(sigs[i], NULL, &found[i]) == 0 &&
		    ((found[i].sa_flags & SA_SIGINFO) || found[i].sa_handler != SIG_IGN))
			any = ours[i] = 1;
	if (!any || pipe2(wake, O_CLOEXEC))
		return;
	owner = getpid();
	/* The thread takes none of the program's signals. */
	sigset_t all, prev;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &prev);
	pthread_t t;
	int err = pthread_create(&t, NULL, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	if (err) {
		close(wake[0]);
		close(wake[1]);
		wake[0] = wake[1] = -1;
		return;
	}
	pthread_setname_np(t, "vast signals");
	pthread_detach(t);
	catch_them();
}
