/*
 * outcome.h - a comparison's rows as programs and people read them: each
 * row as a JSON object, its figures and what it judged in words, and the
 * rows in one of table.h's formats; for people, the lines above the table
 * (the metric, BASE and NEW, what every row shares, how the change and
 * the p were taken), the broken and undecided cells named first, and
 * below it the count of each verdict, the runs a busy machine shared and
 * whether any cell could pass Holm with these runs.
 */
#ifndef BENCH_OUTCOME_H
#define BENCH_OUTCOME_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "judge.h"

/* What a comparison judged, for its lines: the files, the shared cell. */
struct outcome_what {
	const cJSON *docs[2];		/* BASE, NEW */
	char shared[800];		/* the words of every row's key */
	size_t family;			/* the cells of Holm's family */
	char machines[1024];		/* how BASE's and NEW's machines
					   differ (--allow-other-machine),
					   or ab's builds */
};

/* A row as programs read it: every figure, then what it judged. */
cJSON *outcome_row_json(const struct judge_row *r,
    const struct compare_opts *o, const struct outcome_what *w);

/*
 * Writes the rows, json their outcome_row_json objects, in o->format;
 * incomplete names the file ("NEW", "BASE") a sweep did not finish, or
 * is NULL.
 */
void outcome_write(FILE *out, const struct judge_row *rows, size_t n,
    const struct compare_opts *o, const struct outcome_what *w, cJSON *json,
    const char *incomplete);

#endif /* BENCH_OUTCOME_H */
