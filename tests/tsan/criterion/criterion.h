/*
 * criterion.h - the part of Criterion's API the tests use, for the
 * ThreadSanitizer build only.
 *
 * Criterion cannot start under ThreadSanitizer (Snaipe/Criterion#274, open:
 * its boxfort arena looks for a free address in a range TSan's shadow
 * memory has taken, and gives up with "Could not initialize inheritable
 * arena"). So that the same test files run under TSan, this header and
 * runner.c register each Test and run it in a forked child, as Criterion
 * does; a failed assertion, a crash, a timeout or a TSan report (exit
 * status 66) fails the test.
 */
#ifndef TSAN_CRITERION_H
#define TSAN_CRITERION_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct criterion_test_params {
	size_t size;
	void *params;
	size_t length;
};

struct crs_test {
	const char *suite;
	const char *name;
	void (*fn)(void);
	void (*pfn)(void *);
	struct criterion_test_params (*params)(void);
	double timeout;
	struct crs_test *next;
};

#define cr_malloc	malloc
#define cr_free		free

void crs_register(struct crs_test *t);
void crs_check(int ok, const char *file, int line, const char *expr,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void crs_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2),
    noreturn));

#define CRS_ID(s, n, what)	crs_##what##_##s##_##n

#define CRS_REGISTER(Suite, Name, ...)					\
	static struct crs_test CRS_ID(Suite, Name, t) = { .suite = #Suite,	\
	    .name = #Name, __VA_ARGS__ };					\
	__attribute__((constructor)) static void				\
	CRS_ID(Suite, Name, reg)(void)					\
	{								\
		crs_register(&CRS_ID(Suite, Name, t));			\
	}

#define Test(Suite, Name, ...)						\
	static void CRS_ID(Suite, Name, fn)(void);			\
	CRS_REGISTER(Suite, Name, .fn = CRS_ID(Suite, Name, fn), __VA_ARGS__) \
	static void CRS_ID(Suite, Name, fn)(void)

#define cr_assert(Cond, ...)						\
	crs_check((Cond) != 0, __FILE__, __LINE__, #Cond, " " __VA_ARGS__)
#define cr_assert_not(Cond, ...)	cr_assert(!(Cond), __VA_ARGS__)
#define cr_assert_fail(...)		cr_assert(0, __VA_ARGS__)
#define cr_assert_eq(A, B, ...)		cr_assert((A) == (B), __VA_ARGS__)
#define cr_assert_neq(A, B, ...)	cr_assert((A) != (B), __VA_ARGS__)
#define cr_assert_null(P, ...)		cr_assert((P) == NULL, __VA_ARGS__)
#define cr_assert_not_null(P, ...)	cr_assert((P) != NULL, __VA_ARGS__)
#define cr_assert_lt(A, B, ...)		cr_assert((A) < (B), __VA_ARGS__)
#define cr_assert_leq(A, B, ...)	cr_assert((A) <= (B), __VA_ARGS__)
#define cr_assert_gt(A, B, ...)		cr_assert((A) > (B), __VA_ARGS__)
#define cr_assert_geq(A, B, ...)	cr_assert((A) >= (B), __VA_ARGS__)
#define cr_assert_str_eq(A, B, ...)	cr_assert(strcmp((A), (B)) == 0, __VA_ARGS__)
#define cr_assert_str_neq(A, B, ...)	cr_assert(strcmp((A), (B)) != 0, __VA_ARGS__)
#define cr_skip_test(...)		crs_skip(__VA_ARGS__)
#define cr_log_warn(...)						\
	(fprintf(stderr, "warning: " __VA_ARGS__), fputc('\n', stderr))
#define cr_log_info(...)						\
	(fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))
#define cr_assert_float_eq(A, B, Eps, ...)				\
	cr_assert(fabs((double)(A) - (double)(B)) <= (Eps), __VA_ARGS__)

#endif /* TSAN_CRITERION_H */
