/*
 * indices.h - a parameterized test over every entry of a registry: the
 * indices 0..n-1, as many as the registry holds, so a new queue or design
 * is tested like the others.
 */
#ifndef TESTS_INDICES_H
#define TESTS_INDICES_H

#include <stddef.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

static inline void
indices_free(struct criterion_test_params *p)
{

	cr_free(p->params);
	return;
}

/* The parameters 0..n-1, in memory Criterion gives each test's process. */
#define INDICES(n)							\
	cr_make_param_array(size_t, indices_alloc(n), (n), indices_free)

static inline size_t *
indices_alloc(size_t n)
{
	size_t *v = cr_malloc((n ? n : 1) * sizeof(*v)), i;

	for (i = 0; i < n; i++)
		v[i] = i;
	return v;
}

#endif /* TESTS_INDICES_H */
