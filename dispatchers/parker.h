/*
 * parker.h - a one-permit thread parker on a futex, with the semantics of
 * Java's LockSupport.park/unpark: an unpark before the park is not lost.
 *
 * The parker_* namespace: one thread parks on its own parker; any thread
 * may unpark it.
 */
#ifndef DISPATCHERS_PARKER_H
#define DISPATCHERS_PARKER_H

#include <stdatomic.h>
#include <stdbool.h>

struct parker {
	_Atomic int state;	/* PARKER_EMPTY, _PARKED or _NOTIFIED */
};

#define PARKER_EMPTY	0
#define PARKER_PARKED	(-1)
#define PARKER_NOTIFIED	1

static inline void
parker_init(struct parker *p)
{

	atomic_init(&p->state, PARKER_EMPTY);
	return;
}

/*
 * Sleeps until unparked, or for at most timeout_ns when it is positive.
 * Returns true when a permit was taken, false on timeout. May return true
 * spuriously, as park() may: callers re-check their condition.
 */
bool parker_park(struct parker *p, long long timeout_ns);

/* Gives the permit; wakes the thread if it sleeps. */
void parker_unpark(struct parker *p);

#endif /* DISPATCHERS_PARKER_H */
