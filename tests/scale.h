/*
 * scale.h - the sizes of the stress tests: the quick suite's, or a long
 * run's from the environment (the `stress` target sets them).
 */
#ifndef TESTS_SCALE_H
#define TESTS_SCALE_H

#include <stdlib.h>

static inline unsigned long
scale(const char *name, unsigned long quick)
{
	const char *v = getenv(name);
	unsigned long n = v != NULL ? strtoul(v, NULL, 10) : 0;

	return n > 0 ? n : quick;
}

#endif /* TESTS_SCALE_H */
