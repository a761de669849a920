/*
 * parker.c - the futex behind parker.h.
 */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "parker.h"

static int
futex_wait(_Atomic int *word, int expected, const struct timespec *timeout)
{

	return (int)syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected,
	    timeout, NULL, 0);
}

static void
futex_wake(_Atomic int *word)
{

	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return;
}

bool
parker_park(struct parker *p, long long timeout_ns)
{
	struct timespec ts, *tsp = NULL;

	/* NOTIFIED -> EMPTY takes the permit; EMPTY -> PARKED announces us. */
	if (atomic_fetch_sub(&p->state, 1) == PARKER_NOTIFIED)
		return true;
	if (timeout_ns > 0) {
		ts.tv_sec = timeout_ns / 1000000000;
		ts.tv_nsec = timeout_ns % 1000000000;
		tsp = &ts;
	}
	for (;;) {
		if (futex_wait(&p->state, PARKER_PARKED, tsp) != 0 &&
		    errno == ETIMEDOUT)
			return atomic_exchange(&p->state, PARKER_EMPTY) ==
			    PARKER_NOTIFIED;
		int expected = PARKER_NOTIFIED;
		if (atomic_compare_exchange_strong(&p->state, &expected,
		    PARKER_EMPTY))
			return true;
	}
}

void
parker_unpark(struct parker *p)
{

	if (atomic_exchange(&p->state, PARKER_NOTIFIED) == PARKER_PARKED)
		futex_wake(&p->state);
	return;
}
