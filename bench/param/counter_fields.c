/*
 * counter_fields.c - the counters a run may record, as the fields of a
 * results cell that hold them (param.h): the designs' (DB_DISP_COUNTERS) and
 * perf's (measure/counters.h), named here from their lists so the results'
 * side never includes the layers that count them.
 */
#include <stddef.h>
#include <string.h>

#include <dispatchbench/dispatcher.h>

#include "counters.h"
#include "param.h"

#define COUNTER_FIELD(n, what)		#n "_per_dispatch",
#define PERF_FIELD(n, type, config)	"perf_" #n "_per_dispatch",
const char *const params_counters[] = {
	DB_DISP_COUNTERS(COUNTER_FIELD)
	COUNTERS_SOFTWARE(PERF_FIELD)
	COUNTERS_HARDWARE(PERF_FIELD)
};
#undef COUNTER_FIELD
#undef PERF_FIELD
const size_t nparams_counters = sizeof(params_counters) /
    sizeof(params_counters[0]);

bool
params_counter(const char *name)
{
	size_t i;

	for (i = 0; i < nparams_counters; i++)
		if (strcmp(params_counters[i], name) == 0)
			return true;
	return false;
}
