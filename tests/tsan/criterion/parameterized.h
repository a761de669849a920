/*
 * parameterized.h - Criterion's parameterized tests, for the
 * ThreadSanitizer build only (see criterion.h).
 */
#ifndef TSAN_CRITERION_PARAMETERIZED_H
#define TSAN_CRITERION_PARAMETERIZED_H

#include "criterion.h"

/* The cleanup, if any, is not called: each test runs in its own child. */
#define cr_make_param_array(Type, Array, Len, ...)			\
	((struct criterion_test_params){ .size = sizeof(Type),		\
	    .params = (Array), .length = (Len) })

#define ParameterizedTestParameters(Suite, Name)			\
	static struct criterion_test_params CRS_ID(Suite, Name, params)(void)

#define ParameterizedTest(Param, Suite, Name, ...)			\
	static void CRS_ID(Suite, Name, fn)(Param);			\
	static void CRS_ID(Suite, Name, thunk)(void *p)		\
	{								\
		CRS_ID(Suite, Name, fn)(p);				\
	}								\
	CRS_REGISTER(Suite, Name, .pfn = CRS_ID(Suite, Name, thunk),	\
	    .params = CRS_ID(Suite, Name, params), __VA_ARGS__)		\
	static void CRS_ID(Suite, Name, fn)(Param)

#endif /* TSAN_CRITERION_PARAMETERIZED_H */
