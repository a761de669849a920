/*
 * step.c - a step of a bisection as its verdicts read (see step.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "label.h"
#include "params.h"
#include "results.h"
#include "step.h"

const char *const step_marks[] = { "untested", "not slower", "slower",
    "skipped", "inconclusive" };

/*
 * A cell that did not regress is not slower when it is equivalent or
 * improved, or when its interval rules out a rise past the threshold: a
 * bisection asks whether a commit is slower like BAD, not whether it is
 * within the threshold both ways, which a noisy cell takes far longer to
 * show.
 */
static bool
step_not_slower(const cJSON *row, const char *verdict, double threshold)
{

	return strcmp(verdict, "equivalent") == 0 ||
	    strcmp(verdict, "improved") == 0 ||
	    results_num(row, "ratio_hi") - 1 < threshold;
}

void
step_judge(const cJSON *rows, const char *filter, double threshold,
    struct step *st)
{
	const cJSON *row, *told = NULL;
	int rank, worst = -1;
	const char *v;

	cJSON_ArrayForEach(row, rows) {
		if (!label_key_holds(filter, results_str(row, "cell", "")))
			continue;
		v = results_str(row, "verdict", "");
		rank = strcmp(v, "broken") == 0 ? 3 :
		    strcmp(v, "regressed") == 0 ? 2 :
		    !step_not_slower(row, v, threshold);
		if (rank > worst) {
			worst = rank;
			told = row;
		}
	}
	st->mark = worst < 0 ? STEP_OPEN : (enum step_mark[]){ STEP_GOOD,
	    STEP_OPEN, STEP_SLOWER, STEP_SKIP }[worst];
	snprintf(st->verdict, sizeof(st->verdict), "%s", told == NULL ?
	    "no such cell" : results_str(told, "verdict", "?"));
	snprintf(st->why, sizeof(st->why), "%s", results_str(told, "why", ""));
	snprintf(st->cell, sizeof(st->cell), "%s", results_str(told, "cell",
	    ""));
	st->ratio = results_num(told, "ratio");
	st->lo = results_num(told, "ratio_lo");
	st->hi = results_num(told, "ratio_hi");
	st->p = results_num(told, "p");
	st->runs = results_int(told, "runs_new", 0);
	return;
}

cJSON *
step_pair_rows(const cJSON *doc)
{
	cJSON *rows = cJSON_CreateArray(), *row;
	const cJSON *res = results_obj(doc, "result");
	char key[1024];

	if (doc == NULL)
		return rows;
	params_key(results_obj(doc, "cell"), true, key, sizeof(key));
	row = cJSON_CreateObject();
	cJSON_AddStringToObject(row, "cell", key);
	cJSON_AddStringToObject(row, "verdict", results_str(res, "verdict",
	    "?"));
	cJSON_AddNumberToObject(row, "ratio", results_num(res, "ratio"));
	cJSON_AddNumberToObject(row, "ratio_lo", results_num(res, "lo"));
	cJSON_AddNumberToObject(row, "ratio_hi", results_num(res, "hi"));
	cJSON_AddNumberToObject(row, "p", results_num(res, "p"));
	cJSON_AddNumberToObject(row, "runs_new", results_num(res, "processes"));
	cJSON_AddItemToArray(rows, row);
	return rows;
}
