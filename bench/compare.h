/*
 * compare.h - two results, cell by cell: the ratio of medians NEW/BASE
 * with its interval, a rank test, and a verdict a CI job can act on.
 */
#ifndef BENCH_COMPARE_H
#define BENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

enum compare_format { COMPARE_TABLE, COMPARE_MARKDOWN, COMPARE_JSON,
	COMPARE_CSV };

struct compare_opts {
	double threshold;		/* the effect worth detecting, 0.05 = 5 % */
	double alpha;			/* per cell */
	enum compare_format format;
	bool allow_other_machine;
	const char *metric;		/* a run field; default cpu_us_per_dispatch */
	const char *plot_dir;		/* draws ratio.png/.svg there; NULL: not */
};

#define COMPARE_NO_REGRESSION	0
#define COMPARE_REGRESSED	1
#define COMPARE_BAD_INPUT	(-1)

void compare_defaults(struct compare_opts *o);

/*
 * Writes the comparison of new against base to out. Returns
 * COMPARE_REGRESSED when a cell regressed, COMPARE_BAD_INPUT with a
 * one-line reason in err when the two cannot be compared.
 */
int compare_docs(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    FILE *out, char *err, size_t errlen);

#endif /* BENCH_COMPARE_H */
