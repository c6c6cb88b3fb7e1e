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
 * running, nothing waits for them). Then, by the disposition found:
 *  - SIG_DFL: the handler has returned at once; the thread puts SIG_DFL
 *    back and raises the signal again: the process ends of it, as it
 *    would have when the signal came, and its parent sees its exit
 *    status.
 *  - a handler: ours waits for the thread to say the report is out (a
 *    second pipe), then calls the one found itself, as the kernel would
 *    have: on the thread the signal interrupted, with its siginfo and
 *    context, under its mask and flags (ours is installed with them:
 *    without SA_RESTART a read() it interrupts fails with EINTR, with
 *    SA_RESETHAND the signal is SIG_DFL again). So a program waiting in
 *    pause() or read() for its handler to set a flag finds the flag set
 *    when the call returns. The wait is bounded (REPORT_WAIT_MS): the
 *    interrupted thread may hold a lock the report needs (stderr's, the
 *    trace's, malloc's; not the runtime's, which the report does not
 *    take), and then the program's handler runs without the report. If
 *    the handler returns, the process goes on: the report and the trace
 *    at exit are written again, whole. The disposition stays what the
 *    handler left: ours is never put back over a SIG_DFL it set ("press
 *    again to force quit") or a handler it installed.
 * A second signal while a report is under way is not reported: it goes
 * straight to the disposition found (SIG_DFL ends the process at once),
 * as does one in a child forked from the process, which has no such
 * thread. A handler found that leaves by siglongjmp never says the
 * process went on: the runtime reports no later signal, and not at exit.
 */
#define _GNU_SOURCE /* pipe2, pthread_setname_np */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

/* How long a handler found waits for the report: a report is out in
 * milliseconds and a trace of a million events in about a second;
 * longer, the thread waits for a lock the interrupted thread holds. */
#define REPORT_WAIT_MS 5000

/* On the wake pipe, beside the signals' numbers: a handler found that
 * the wait gave up on returned; the thread rearms once its late report
 * is out. */
#define WENT_ON 0

static const int sigs[] = {SIGINT, SIGTERM};
#define NSIGS 2
static struct sigaction found[NSIGS]; /* the dispositions before ours */
static int wake[2] = {-1, -1};        /* the handler writes, the thread reads */
static int done[2] = {-1, -1};        /* the thread writes: a report is out */
static pid_t owner;                   /* the process the thread belongs to */
static int busy;                      /* a signal's report under way; atomic */

static int index_of(int sig)
{
	return sig == SIGINT ? 0 : 1;
}

static int chains(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) || sa->sa_handler != SIG_DFL;
}

/* sig's disposition as found, sig unblocked and raised: the process ends
 * (found: SIG_DFL). Async-signal-safe. */
static void pass_on(int sig)
{
	sigaction(sig, &found[index_of(sig)], NULL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}

/* The report and the trace at exit come again, and the next signal is
 * reported. Async-signal-safe. */
static void went_on(void)
{
	vrt_stats_rearm();
	vrt_trace_rearm();
	__atomic_store_n(&busy, 0, __ATOMIC_SEQ_CST);
}

/* 1 when the thread took sig to report; 0 when a report is under way, or
 * this is a forked child. */
static int hand_to_thread(int sig)
{
	int idle = 0;
	if (getpid() != owner ||
	    !__atomic_compare_exchange_n(&busy, &idle, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return 0;
	/* A report the last wait gave up on says so late: not this one. */
	unsigned char b;
	while (read(done[0], &b, 1) == 1)
		;
	b = (unsigned char)sig;
	if (write(wake[1], &b, 1) == 1)
		return 1;
	__atomic_store_n(&busy, 0, __ATOMIC_SEQ_CST);
	return 0;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* 1 when the thread says the report is out, 0 when the wait gave up. */
static int await_report(void)
{
	double until = now_ms() + REPORT_WAIT_MS;
	for (;;) {
		double left = until - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = done[0], .events = POLLIN};
		int r = poll(&p, 1, (int)left + 1);
		unsigned char b;
		if (r > 0 && read(done[0], &b, 1) == 1)
			return 1;
		if (r < 0 && errno != EINTR)
			return 0;
	}
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
	int saved = errno;
	const struct sigaction *f = &found[index_of(sig)];
	int reporting = hand_to_thread(sig);
	if (!chains(f)) {
		if (!reporting)
			pass_on(sig); /* the process ends */
		errno = saved;
		return;
	}
	int out = reporting && await_report();
	errno = saved;
	if (f->sa_flags & SA_SIGINFO)
		f->sa_sigaction(sig, info, context);
	else
		f->sa_handler(sig);
	/* The handler returned: the process goes on. */
	saved = errno;
	if (out) {
		went_on();
	} else if (reporting) {
		unsigned char b = WENT_ON;
		ssize_t w = write(wake[1], &b, 1);
		(void)w; /* lost: the report at exit does not come */
	}
	errno = saved;
}

static void catch_signal(int i)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	if (chains(&found[i])) {
		/* As the kernel would run the handler found. */
		sa.sa_mask = found[i].sa_mask;
		sa.sa_flags = SA_SIGINFO | (found[i].sa_flags & (SA_RESTART | SA_NODEFER |
		                                                 SA_RESETHAND | SA_ONSTACK));
	} else {
		/* The thread ends the process soon; the interrupted call goes
		 * on meanwhile. */
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
	}
	sigaction(sigs[i], &sa, NULL);
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
		if (b == WENT_ON) {
			went_on();
			continue;
		}
		vrt_progress_clear();
		vrt_stats_signal(b == SIGINT ? "SIGINT" : "SIGTERM");
		vrt_trace_signal();
		if (chains(&found[index_of(b)])) {
			/* The handler waits for this, then calls the one found. */
			ssize_t w = write(done[1], &b, 1);
			(void)w; /* lost: its wait gives up */
			continue;
		}
		pass_on(b);
		went_on(); /* not reached: SIG_DFL ends the process */
	}
}

static void close_pipes(void)
{
	for (int i = 0; i < 2; i++) {
		if (wake[i] >= 0)
			close(wake[i]);
		if (done[i] >= 0)
			close(done[i]);
		wake[i] = done[i] = -1;
	}
}

void vrt_signals_install(void)
{
	int ours[NSIGS] = {0}, any = 0;
	if (!vrt_cfg.stats && !vrt_cfg.trace)
		return;
	for (int i = 0; i < NSIGS; i++)
		if (sigaction(sigs[i], NULL, &found[i]) == 0 &&
		    ((found[i].sa_flags & SA_SIGINFO) || found[i].sa_handler != SIG_IGN))
			any = ours[i] = 1;
	if (!any)
		return;
	/* A handler never blocks on them; the thread blocks reading wake. */
	if (pipe2(wake, O_CLOEXEC) || pipe2(done, O_CLOEXEC | O_NONBLOCK) ||
	    fcntl(wake[1], F_SETFL, O_NONBLOCK)) {
		close_pipes();
		return;
	}
	owner = getpid();
	/* The thread takes none of the program's signals. */
	sigset_t all, prev;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &prev);
	pthread_t t;
	int err = pthread_create(&t, NULL, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	if (err) {
		close_pipes();
		return;
	}
	pthread_setname_np(t, "vast signals");
	pthread_detach(t);
	for (int i = 0; i < NSIGS; i++)
		if (ours[i])
			catch_signal(i);
}
