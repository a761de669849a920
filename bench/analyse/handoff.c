/*
 * handoff.c - matrix's pairs of PUs grouped by what they share, and as a
 * grid (see handoff.h).
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

void
handoff_grid(FILE *out, const cJSON *rows, int n, bool queue)
{
	const char *field = queue ? "queue_ns" : "line_ns";
	const cJSON *r;
	int i = 0;

	fprintf(out, "\none way, ns, %s (rows: from; columns: to)\n%6s",
	    queue ? "through the queue" : "a cache line", "");
	for (r = rows->child; r != NULL && i < n; r = r->next, i++)
		fprintf(out, " %7d", results_int(r, "to", 0));
	i = 0;
	cJSON_ArrayForEach(r, rows) {
		if (i++ % n == 0)
			fprintf(out, "\n%6d", results_int(r, "from", 0));
		fprintf(out, " %7.0f", results_num(r, field));
	}
	fprintf(out, "\n");
	return;
}
