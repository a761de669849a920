/*
 * params.h - a parameterized test over every entry of a registry: the
 * indices 0..n-1, as many as the registry holds, so a new queue or design
 * is tested like the others.
 */
#ifndef TESTS_PARAMS_H
#define TESTS_PARAMS_H

#include <stddef.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

static void
params_free(struct criterion_test_params *p)
{

	cr_free(p->params);
	return;
}

/* The parameters 0..n-1, in memory Criterion gives each test's process. */
#define PARAMS_INDICES(n)						\
	cr_make_param_array(size_t, params_indices(n), (n), params_free)

static inline size_t *
params_indices(size_t n)
{
	size_t *v = cr_malloc((n ? n : 1) * sizeof(*v)), i;

	for (i = 0; i < n; i++)
		v[i] = i;
	return v;
}

#endif /* TESTS_PARAMS_H */
