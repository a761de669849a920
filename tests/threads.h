/*
 * threads.h - the process's thread count, for tests that check a run or a
 * design leaves no thread behind.
 */
#ifndef TESTS_THREADS_H
#define TESTS_THREADS_H

#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "measure.h"

static void *
threads_helper(void *arg)
{

	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

/*
 * The count to come back to. A runtime's helper threads (a sanitizer's)
 * start with the first pthread_create, so one thread is started, joined
 * and waited out of /proc first.
 */
static inline long
threads_baseline(void)
{
	pthread_t helper;
	pid_t tid;
	char path[64];
	int k;

	pthread_create(&helper, NULL, threads_helper, &tid);
	pthread_join(helper, NULL);
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (k = 0; k < 10000 && access(path, F_OK) == 0; k++)
		usleep(1000);
	return measure_status(0, "Threads");
}

/*
 * The count once it is back to before, or after 10 s. pthread_join
 * returns when the kernel clears the thread's tid, a moment before /proc
 * stops counting it.
 */
static inline long
threads_settle(long before)
{
	int k;

	for (k = 0; k < 10000 && measure_status(0, "Threads") != before; k++)
		usleep(1000);
	return measure_status(0, "Threads");
}

#endif /* TESTS_THREADS_H */
