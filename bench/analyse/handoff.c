/*
 * handoff.c - matrix's pairs of PUs grouped by what they share (see
 * handoff.h).
 */
#include <math.h>
#include <string.h>

#include "handoff.h"
#include "results.h"
#include "stats.h"

/* The median of field over the rows that share what shares names. */
static double
handoff_median(const cJSON *rows, const char *shares, const char *field,
    int *count)
{
	struct stats_summary st;
	double v[4096];
	const cJSON *r;
	int n = 0;

	cJSON_ArrayForEach(r, rows)
		if (n < 4096 && strcmp(results_str(r, "shares", ""), shares) ==
		    0 && isfinite(results_num(r, field)))
			v[n++] = results_num(r, field);
	*count = n;
	if (n == 0)
		return NAN;
	stats_summarize(v, (size_t)n, &st);
	return st.median;
}

cJSON *
handoff_groups(const cJSON *rows)
{
	static const char *const kinds[] = { "PU", "core", "L1", "L2", "L3",
	    "L4", "NUMA", "package", "machine" };
	cJSON *groups = cJSON_CreateArray(), *g;
	double line, queue;
	size_t i;
	int n, m;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		line = handoff_median(rows, kinds[i], "line_ns", &n);
		queue = handoff_median(rows, kinds[i], "queue_ns", &m);
		if (n == 0)
			continue;
		g = cJSON_CreateObject();
		cJSON_AddStringToObject(g, "shares", kinds[i]);
		cJSON_AddNumberToObject(g, "pairs", n);
		cJSON_AddNumberToObject(g, "line_ns", line);
		if (m > 0)
			cJSON_AddNumberToObject(g, "queue_ns", queue);
		cJSON_AddItemToArray(groups, g);
	}
	return groups;
}
