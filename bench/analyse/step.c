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

/* Field f of row as a change on the worse side: a ratio's, less 1. */
static double
step_worse(const cJSON *row, const char *f, bool ratio, int worse)
{

	return worse * (results_num(row, f) - (ratio ? 1 : 0));
}

/*
 * A cell that did not regress is not slower when it is equivalent, or
 * when each way its verdict sees a change rules out a rise past the
 * threshold on the worse side: the interval, and what the interval of
 * the center misses (issue 44): the worse tail (a slow minority: 3 of 12
 * runs twice as slow, the interval inside the threshold) and, in two
 * regimes, the slow share's interval against its margin (20 % -> 40 %
 * slow, the mean +17 %) and the shift inside them (a fast regime faster
 * while more runs fall in the slow one is `improved`, the mean up). A
 * bisection asks whether a commit is slower like BAD, not whether it is
 * within the threshold both ways, which a noisy cell takes far longer to
 * show. An absent figure (a row of pair, one regime) rules nothing out
 * and nothing in; the interval must be there. What blocked goes in seen.
 */
static bool
step_not_slower(const cJSON *row, const char *verdict, double threshold,
    char *seen, size_t len)
{
	int worse = strcmp(results_str(row, "better", "lower"), "higher") ==
	    0 ? -1 : 1;
	double tail = step_worse(row, "tail_change", false, worse);
	double share = step_worse(row, worse > 0 ? "slow_share_change_hi" :
	    "slow_share_change_lo", false, worse);
	double within = step_worse(row, "within_regimes", true, worse);

	seen[0] = '\0';
	if (strcmp(verdict, "equivalent") == 0 || (strcmp(verdict,
	    "improved") == 0 && results_true(row, "exact")))
		return true;
	if (!(step_worse(row, worse > 0 ? "ratio_hi" : "ratio_lo", true,
	    worse) < threshold))
		snprintf(seen, len, "its interval does not rule out %+g %%",
		    100 * worse * threshold);
	else if (tail > threshold)
		snprintf(seen, len, "its %s percentile moved %+.1f %%", worse > 0 ?
		    "90th" : "10th", 100 * worse * tail);
	else if (share > results_num(row, "slow_share_margin"))
		snprintf(seen, len, "its slow share %g/%g -> %g/%g may have "
		    "moved %+.0f points, past its margin of %.0f",
		    results_num(row, "slow_base"), results_num(row, "runs_base"),
		    results_num(row, "slow_new"), results_num(row, "runs_new"),
		    100 * worse * share, 100 * results_num(row,
		    "slow_share_margin"));
	else if (within > threshold)
		snprintf(seen, len, "within regimes %+.1f %%", 100 * worse *
		    within);
	return seen[0] == '\0';
}

/* Whether the verdict's why names the measure seen names already. */
static bool
step_said(const char *why, const char *seen)
{
	static const char *const measures[] = { "percentile", "slow share",
	    "within regimes" };
	size_t i;

	for (i = 0; i < sizeof(measures) / sizeof(measures[0]); i++)
		if (strstr(seen, measures[i]) != NULL &&
		    strstr(why, measures[i]) != NULL)
			return true;
	return false;
}

void
step_judge(const cJSON *rows, const char *filter, double threshold,
    struct step *st)
{
	const cJSON *row, *told = NULL;
	char seen[160], why[160] = "";
	int rank, worst = -1;
	const char *v;

	cJSON_ArrayForEach(row, rows) {
		if (!label_key_holds(filter, results_str(row, "cell", "")))
			continue;
		v = results_str(row, "verdict", "");
		rank = strcmp(v, "broken") == 0 ? 3 :
		    strcmp(v, "regressed") == 0 ? 2 :
		    !step_not_slower(row, v, threshold, seen, sizeof(seen));
		if (rank > worst) {
			worst = rank;
			told = row;
			snprintf(why, sizeof(why), "%s", rank == 1 &&
			    !step_said(results_str(row, "why", ""), seen) ?
			    seen : "");
		}
	}
	st->mark = worst < 0 ? STEP_OPEN : (enum step_mark[]){ STEP_GOOD,
	    STEP_OPEN, STEP_SLOWER, STEP_SKIP }[worst];
	snprintf(st->verdict, sizeof(st->verdict), "%s", told == NULL ?
	    "no such cell" : results_str(told, "verdict", "?"));
	snprintf(st->why, sizeof(st->why), "%s%s%s", results_str(told, "why",
	    ""), why[0] != '\0' && results_str(told, "why", "")[0] != '\0' ?
	    "; " : "", why);
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
	cJSON_AddStringToObject(row, "better", results_str(res, "better",
	    "lower"));
	cJSON_AddBoolToObject(row, "exact", results_true(res, "exact"));
	cJSON_AddNumberToObject(row, "ratio", results_num(res, "ratio"));
	cJSON_AddNumberToObject(row, "ratio_lo", results_num(res, "lo"));
	cJSON_AddNumberToObject(row, "ratio_hi", results_num(res, "hi"));
	cJSON_AddNumberToObject(row, "p", results_num(res, "p"));
	cJSON_AddNumberToObject(row, "runs_new", results_num(res, "processes"));
	cJSON_AddItemToArray(rows, row);
	return rows;
}
