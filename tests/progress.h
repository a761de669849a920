/*
 * progress.h - waiting on a count with a deadline: a test whose task or
 * item is lost fails, saying how far it got, within PROGRESS_STALL_S of
 * its last progress, instead of hanging until ctest's timeout.
 */
#ifndef TESTS_PROGRESS_H
#define TESTS_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "measure.h"

#define PROGRESS_STALL_S	30.0

/*
 * Waits until *count reaches total: true, or false once it has not moved
 * for PROGRESS_STALL_S.
 */
static inline bool
progress_wait(_Atomic uint64_t *count, uint64_t total)
{
	uint64_t last = atomic_load(count), now;
	double moved = measure_now();

	while ((now = atomic_load(count)) < total) {
		if (now != last) {
			last = now;
			moved = measure_now();
		} else if (measure_now() - moved > PROGRESS_STALL_S) {
			return false;
		}
		usleep(1000);
	}
	return true;
}

#endif /* TESTS_PROGRESS_H */
