/*
 * golock.h - the Go runtime's own lock, runtime.mutex on a futex, as Go
 * 1.19 builds it on Linux (src/runtime/lock_futex.go lock2, unlock2):
 * the lock the stealing model's sched.lock is under --yield go.
 *
 * One 32-bit key: UNLOCKED, LOCKED, or SLEEPING (some thread may sleep on
 * it). A locker first swaps in LOCKED; if the lock was held it spins, on
 * a multiprocessor, 4 times over 30 PAUSEs each, then yields the CPU once
 * (sched_yield), then swaps in SLEEPING and sleeps on the futex, and does
 * it all again when woken. Whoever swaps SLEEPING out in an unlock wakes
 * one sleeper. A locker that swapped SLEEPING out, or slept, takes the
 * lock as SLEEPING, so that a sleeper left behind is still woken: which
 * is why an unlock may wake when nobody sleeps, as Go's does.
 *
 * The golock_* namespace. What a lock or an unlock did is added to the
 * caller's struct golock_count: every step counted is a step of Go's.
 */
#ifndef DISPATCHERS_GOLOCK_H
#define DISPATCHERS_GOLOCK_H

#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GOLOCK_UNLOCKED		0u	/* mutex_unlocked, lock_futex.go:26 */
#define GOLOCK_LOCKED		1u	/* mutex_locked */
#define GOLOCK_SLEEPING		2u	/* mutex_sleeping */
#define GOLOCK_ACTIVE_SPIN	4	/* active_spin, lock_futex.go:30 */
#define GOLOCK_ACTIVE_SPIN_CNT	30	/* active_spin_cnt: PAUSEs a round */
#define GOLOCK_PASSIVE_SPIN	1	/* passive_spin: osyields */

struct golock {
	_Atomic uint32_t key;
};

/* What lock2 and unlock2 did; the caller's, so no thread shares one. */
struct golock_count {
	uint64_t spins;		/* acquisitions that spun (lock held at the Xchg) */
	uint64_t yields;	/* osyield: sched_yield */
	uint64_t sleeps;	/* futexsleep */
	uint64_t wakes;		/* futexwakeup in unlock2 */
};

/*
 * ncpu, as Go reads it once at start (osinit, getproccount in
 * os_linux.go:97-122: the bits of the first thread's affinity mask),
 * before the harness binds any thread to one PU: a lock made from a bound
 * thread must still see the machine.
 */
static int golock_ncpu = 1;

__attribute__((constructor)) static void
golock_osinit(void)
{
	uint64_t buf[64 * 1024 / 64];		/* maxCPUs bits */
	long i, r;
	int n = 0;

	r = syscall(SYS_sched_getaffinity, 0, sizeof(buf), buf);
	for (i = 0; i < r / (long)sizeof(buf[0]); i++)
		n += __builtin_popcountll(buf[i]);
	if (n > 0)
		golock_ncpu = n;
	return;
}

static inline void
golock_init(struct golock *l)
{

	atomic_init(&l->key, GOLOCK_UNLOCKED);
	return;
}

/* procyield(cycles): asm_amd64.s, a PAUSE a cycle (YIELD on arm64). */
static inline void
golock_procyield(int cycles)
{

	while (cycles-- > 0) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ __volatile__("yield" ::: "memory");
#else
		atomic_signal_fence(memory_order_seq_cst);
#endif
	}
	return;
}

/* The loads of `for l.key == mutex_unlocked`, then Cas(unlocked, wait). */
static inline bool
golock_try(struct golock *l, uint32_t wait)
{
	uint32_t v;

	while (atomic_load_explicit(&l->key, memory_order_relaxed) ==
	    GOLOCK_UNLOCKED) {
		v = GOLOCK_UNLOCKED;
		if (atomic_compare_exchange_strong(&l->key, &v, wait))
			return true;
	}
	return false;
}

/* lock2, lock_futex.go:51-109. */
static inline void
golock_lock(struct golock *l, struct golock_count *c)
{
	uint32_t v, wait;
	int i, spin;

	/* Speculative grab for lock (:60). */
	v = atomic_exchange(&l->key, GOLOCK_LOCKED);
	if (v == GOLOCK_UNLOCKED)
		return;
	/* LOCKED or SLEEPING: a SLEEPING swapped out is put back (:65-72). */
	wait = v;
	/* On uniprocessors, no point spinning (:74-79). */
	spin = golock_ncpu > 1 ? GOLOCK_ACTIVE_SPIN : 0;
	c->spins += spin > 0;
	for (;;) {
		/* Try for lock, spinning (:82-89). */
		for (i = 0; i < spin; i++) {
			if (golock_try(l, wait))
				return;
			golock_procyield(GOLOCK_ACTIVE_SPIN_CNT);
		}
		/* Try for lock, rescheduling (:92-99). */
		for (i = 0; i < GOLOCK_PASSIVE_SPIN; i++) {
			if (golock_try(l, wait))
				return;
			c->yields++;
			sched_yield();
		}
		/* Sleep (:102-107): futexsleep, os_linux.go:62-75. */
		v = atomic_exchange(&l->key, GOLOCK_SLEEPING);
		if (v == GOLOCK_UNLOCKED)
			return;
		wait = GOLOCK_SLEEPING;
		c->sleeps++;
		(void)syscall(SYS_futex, &l->key, FUTEX_WAIT_PRIVATE,
		    GOLOCK_SLEEPING, NULL, NULL, 0);
	}
}

/* unlock2, lock_futex.go:115-122; futexwakeup, os_linux.go:81-85. */
static inline void
golock_unlock(struct golock *l, struct golock_count *c)
{

	if (atomic_exchange(&l->key, GOLOCK_UNLOCKED) == GOLOCK_SLEEPING) {
		c->wakes++;
		(void)syscall(SYS_futex, &l->key, FUTEX_WAKE_PRIVATE, 1, NULL,
		    NULL, 0);
	}
	return;
}

#endif /* DISPATCHERS_GOLOCK_H */
