/*
 * outcome.c - a comparison's rows, written (see outcome.h).
 */
#include <math.h>
#include <string.h>

#include "counted.h"
#include "label.h"
#include "metric.h"
#include "outcome.h"
#include "probes.h"
#include "rank.h"
#include "results.h"
#include "runfields.h"
#include "table.h"

#define OUTCOME_BUSY_NAMED 6	/* busy cells named one by one, at most */

/* The change as people read it: "+14.0 % [+9.1, +19.2]", or why none. */
static void
outcome_effect(const struct judge_row *r, const char *unit, char *buf,
    size_t len)
{
	double lo, hi;
	size_t used;

	if (judge_is_broken(r)) {
		snprintf(buf, len, "NEW: %u of %u runs not ok",
		    judge_bad_runs(&r->b) + r->b.stalled, r->b.runs);
		return;
	}
	if (!r->tested) {
		snprintf(buf, len, r->missing ? "no NEW cell" : r->ca == NULL ?
		    "no BASE cell" : "too few ok runs");
		return;
	}
	if (r->exact) {
		snprintf(buf, len, "%+.3g %% exact", 100 * judge_as_change(r,
		    r->t.shift));
		return;
	}
	judge_change(r, &lo, &hi);
	metric_signed(judge_as_change(r, r->t.shift), lo, hi,
	    r->difference, buf, len);
	used = strlen(buf);
	if (r->difference && unit[0] != '\0')
		snprintf(buf + used, len - used, " %s", unit);
	else if (r->placed)
		snprintf(buf + used, len - used, " within placements");
	else if (r->regimes && isfinite(r->t.shift_strat))
		snprintf(buf + used, len - used, " 2 regimes, within %+.1f %%",
		    100 * judge_as_change(r, r->t.shift_strat));
	else if (r->regimes)
		snprintf(buf + used, len - used, " 2 regimes");
	return;
}

/* "6/6" ok runs with the figure of all, and the slow ones in two regimes. */
static void
outcome_runs(const struct judge_row *r, char *buf, size_t len)
{

	if (r->regimes)
		snprintf(buf, len, "%zu/%u %zu/%u slow %u->%u", r->a.n, r->a.runs,
		    r->b.n, r->b.runs, r->t.slow_a, r->t.slow_b);
	else if (r->placed)
		snprintf(buf, len, "%zu/%u %zu/%u far %u->%u%s", r->a.n,
		    r->a.runs, r->b.n, r->b.runs, r->on[RESULTS_FAR][0],
		    r->on[RESULTS_FAR][1], r->on[RESULTS_MOVED][0] +
		    r->on[RESULTS_MOVED][1] > 0 ? " (some moved)" : "");
	else
		snprintf(buf, len, "%zu/%u %zu/%u", r->a.n, r->a.runs, r->b.n,
		    r->b.runs);
	return;
}

/* The change in words (metric_verdict_words), and an equivalence's band. */
static const char *
outcome_words_for(const struct judge_row *r, const struct compare_opts *o,
    char *buf, size_t len)
{
	double est = r->tested ? judge_as_change(r, r->t.shift) : NAN;
	size_t used;

	/* An exact verdict's reason says it all, with the counts. */
	if (r->exact)
		est = NAN;
	metric_verdict_words(o->metric, r->verdict, "NEW", est, r->difference,
	    buf, len);
	used = strlen(buf);
	if (used > 0 && strcmp(r->verdict, "equivalent") == 0)
		snprintf(buf + used, len - used, ", within ±%g %%", 100 *
		    o->threshold);
	return buf;
}

/* What people read of a row: the runs, the change and the verdict as text. */
static void
outcome_row_people(const struct judge_row *r, const struct compare_opts *o,
    const struct metric *m, cJSON *j)
{
	char buf[400], words[160];

	outcome_runs(r, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "ok_runs", buf);
	outcome_effect(r, m->unit, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "change", buf);
	if (r->exact)
		snprintf(buf, sizeof(buf), "exact");
	else if (!isfinite(r->mde))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%s%s", table_sig3(r->difference ?
		    r->mde : r->mde * 100, words, sizeof(words)), r->difference ?
		    "" : " %");
	cJSON_AddStringToObject(j, "sees", buf);
	outcome_words_for(r, o, words, sizeof(words));
	snprintf(buf, sizeof(buf), "%s%s%s%s%s%s", r->verdict, words[0] ||
	    r->why[0] ? ": " : "", words, words[0] && r->why[0] ? "; " : "",
	    r->why, r->wide && strcmp(r->verdict, "inconclusive") == 0 ?
	    " (spread > threshold)" : "");
	cJSON_AddStringToObject(j, "verdict_text", buf);
	if (o->levels != NULL && isfinite(r->p_adj))
		snprintf(buf, sizeof(buf), "%.2g (level %.2g)", r->p_adj,
		    r->level);
	else
		table_sig3(r->p_adj, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "p_shown", buf);
	return;
}

/*
 * Whether the row was judged within placements of the CPUs, and each
 * side's runs on each placement (0 when it was not).
 */
static void
outcome_placements(const struct judge_row *r, cJSON *j)
{
	static const char *const key[RESULTS_SIDES][2] = {
	    { "near_base", "near_new" }, { "far_base", "far_new" },
	    { "moved_base", "moved_new" } };
	int k;

	cJSON_AddBoolToObject(j, "placed", r->placed);
	for (k = 0; k < RESULTS_SIDES; k++) {
		cJSON_AddNumberToObject(j, key[k][0], r->on[k][0]);
		cJSON_AddNumberToObject(j, key[k][1], r->on[k][1]);
	}
	return;
}

static cJSON *
outcome_arm_json(const struct judge_arm *arm)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "runs", arm->runs);
	cJSON_AddNumberToObject(j, "ok", arm->ok);
	cJSON_AddNumberToObject(j, "failed", arm->failed);
	cJSON_AddNumberToObject(j, "hung", arm->hung);
	cJSON_AddNumberToObject(j, "crashed", arm->crashed);
	cJSON_AddNumberToObject(j, "stalled", arm->stalled);
	cJSON_AddNumberToObject(j, "interrupted", arm->interrupted);
	cJSON_AddNumberToObject(j, "without_figure", arm->bare);
	cJSON_AddNumberToObject(j, RF(host_busy), arm->busy);
	cJSON_AddNumberToObject(j, "host_recorded", arm->hosted);
	cJSON_AddStringToObject(j, "errors", arm->errors);
	return j;
}

/* What the row's p is: adjusted over the family, or held to a look's level. */
static void
outcome_p_kind(const struct judge_row *r, const struct compare_opts *o,
    size_t family, char *buf, size_t len)
{

	if (r->exact)
		snprintf(buf, len, "none: exact counts, no test");
	else if (!isfinite(r->p_adj))
		snprintf(buf, len, "-");
	else if (o->levels != NULL)
		snprintf(buf, len, "unadjusted, held to its last look's level "
		    "%.2g (sequential)", r->level);
	else
		snprintf(buf, len, "Holm-adjusted over %zu cell%s", family,
		    family == 1 ? "" : "s");
	return;
}

/*
 * What the row judged, for programs: the metric and its unit, the cell
 * by what varies and what all rows share, each side, each side's plugin
 * files (with their checksums), the change in per cent, the kind of p,
 * the change in words.
 */
static void
outcome_row_labels(const struct judge_row *r, const struct compare_opts *o,
    const struct outcome_what *w, cJSON *j)
{
	double est = r->tested ? judge_as_change(r, r->t.shift) : NAN;
	bool ratio = r->tested && !r->difference;
	struct metric m;
	double lo = NAN, hi = NAN;
	char buf[200];

	metric_of(o->metric, &m);
	if (r->tested)
		judge_change(r, &lo, &hi);
	cJSON_AddStringToObject(j, "cell_shown", r->shown);
	cJSON_AddStringToObject(j, "cell_shared", w->shared);
	cJSON_AddStringToObject(j, "metric", o->metric);
	cJSON_AddStringToObject(j, "metric_words", m.quantity);
	cJSON_AddStringToObject(j, "unit", m.unit);
	cJSON_AddStringToObject(j, "better", m.higher_is_better ? "higher" :
	    "lower");
	cJSON_AddStringToObject(j, "base_side", o->sides[0] != NULL ?
	    o->sides[0] : "BASE");
	cJSON_AddStringToObject(j, "new_side", o->sides[1] != NULL ?
	    o->sides[1] : "NEW");
	cJSON_AddStringToObject(j, "plugins", r->plugins);
	cJSON_AddItemToObject(j, "base_plugins", label_plugins_json(r->ca,
	    w->docs[0]));
	cJSON_AddItemToObject(j, "new_plugins", label_plugins_json(r->cb,
	    w->docs[1]));
	cJSON_AddNumberToObject(j, "change_pct", ratio ? 100 * est : NAN);
	cJSON_AddNumberToObject(j, "change_pct_lo", ratio ? 100 * lo : NAN);
	cJSON_AddNumberToObject(j, "change_pct_hi", ratio ? 100 * hi : NAN);
	outcome_p_kind(r, o, w->family, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "p_kind", buf);
	cJSON_AddStringToObject(j, "in_words", metric_in_words(o->metric,
	    "NEW", est, r->difference, buf, sizeof(buf)));
	outcome_row_people(r, o, &m, j);
	return;
}

/*
 * A counted row that changed: the functions whose self instructions a
 * dispatch moved most between each side's median run (any run of an
 * exact side: they count alike); NULL for any other row.
 */
static cJSON *
outcome_functions(const struct judge_row *r, const struct compare_opts *o)
{
	const cJSON *a, *b;

	if (!counted_metric(o->metric) || (strcmp(r->verdict, "regressed") !=
	    0 && strcmp(r->verdict, "improved") != 0))
		return NULL;
	a = counted_median_in(results_arr(r->ca, "runs"), o->metric);
	b = counted_median_in(results_arr(r->cb, "runs"), o->metric);
	return a != NULL && b != NULL ? counted_functions(a, b) : NULL;
}

cJSON *
outcome_row_json(const struct judge_row *r, const struct compare_opts *o,
    const struct outcome_what *w)
{
	cJSON *j = cJSON_CreateObject(), *fns = outcome_functions(r, o);
	double lo = NAN, hi = NAN;
	bool ratio = r->tested && !r->difference;

	if (r->tested)
		judge_change(r, &lo, &hi);
	cJSON_AddStringToObject(j, "cell", r->cell);
	cJSON_AddNumberToObject(j, "runs_base", (double)r->a.n);
	cJSON_AddNumberToObject(j, "runs_new", (double)r->b.n);
	cJSON_AddItemToObject(j, "base_runs", outcome_arm_json(&r->a));
	cJSON_AddItemToObject(j, "new_runs", outcome_arm_json(&r->b));
	cJSON_AddNumberToObject(j, "median_base", r->a.median);
	cJSON_AddNumberToObject(j, "median_new", r->b.median);
	cJSON_AddStringToObject(j, "compared_as", !r->tested ? "-" :
	    r->difference ? "difference" : "ratio");
	cJSON_AddNumberToObject(j, "ratio", ratio ? exp(r->t.shift) : NAN);
	cJSON_AddNumberToObject(j, "ratio_lo", ratio ? lo + 1 : NAN);
	cJSON_AddNumberToObject(j, "ratio_hi", ratio ? hi + 1 : NAN);
	cJSON_AddNumberToObject(j, "difference", r->tested && r->difference ?
	    r->t.shift : NAN);
	cJSON_AddNumberToObject(j, "difference_lo", r->difference ? lo : NAN);
	cJSON_AddNumberToObject(j, "difference_hi", r->difference ? hi : NAN);
	cJSON_AddNumberToObject(j, "interval_conf", r->tested ? r->t.conf : NAN);
	cJSON_AddNumberToObject(j, "p", r->p_adj);
	cJSON_AddNumberToObject(j, "p_unadjusted", r->tested ? r->t.p : NAN);
	cJSON_AddNumberToObject(j, "p_shift", r->tested ? r->t.p_shift : NAN);
	cJSON_AddNumberToObject(j, "p_share", r->tested ? r->t.p_share : NAN);
	cJSON_AddNumberToObject(j, "p_within", r->tested ? r->t.p_strat : NAN);
	cJSON_AddNumberToObject(j, "p_new_higher", r->tested ? r->t.u /
	    ((double)r->a.n * (double)r->b.n) : NAN);
	cJSON_AddStringToObject(j, "correction", o->levels != NULL ?
	    "sequential" : "holm");
	cJSON_AddNumberToObject(j, "family", (double)w->family);
	cJSON_AddNumberToObject(j, "level", o->levels != NULL ? r->level :
	    o->alpha);
	cJSON_AddBoolToObject(j, "bimodal", r->regimes);
	outcome_placements(r, j);
	cJSON_AddNumberToObject(j, "slow_base", r->regimes ? r->t.slow_a : 0);
	cJSON_AddNumberToObject(j, "slow_new", r->regimes ? r->t.slow_b : 0);
	cJSON_AddNumberToObject(j, "within_regimes", ratio && r->regimes ?
	    exp(r->t.shift_strat) : NAN);
	cJSON_AddNumberToObject(j, "slow_share_change_lo", r->tested &&
	    r->split ? r->share_lo : NAN);
	cJSON_AddNumberToObject(j, "slow_share_change_hi", r->tested &&
	    r->split ? r->share_hi : NAN);
	cJSON_AddNumberToObject(j, "slow_share_margin", r->tested && r->split ?
	    fmin(1, r->margin) : NAN);
	cJSON_AddNumberToObject(j, "tail_change", r->tested ?
	    judge_as_change(r, r->tail) : NAN);
	cJSON_AddNumberToObject(j, "smallest_detectable", r->mde);
	cJSON_AddBoolToObject(j, "spread_wider_than_threshold", r->wide);
	cJSON_AddBoolToObject(j, "missing_in_new", r->missing);
	cJSON_AddStringToObject(j, "verdict", r->verdict);
	cJSON_AddStringToObject(j, "why", r->why);
	cJSON_AddBoolToObject(j, "exact", r->exact);
	cJSON_AddItemToObject(j, RF(instructions_by_function), fns != NULL ?
	    fns : cJSON_CreateNull());
	outcome_row_labels(r, o, w, j);
	return j;
}

static const struct table_col outcome_program[] = {
	{ "cell", NULL }, { "runs_base", NULL }, { "runs_new", NULL },
	{ "base_runs", NULL }, { "new_runs", NULL }, { "median_base", NULL },
	{ "median_new", NULL }, { "compared_as", NULL }, { "ratio", NULL },
	{ "ratio_lo", NULL }, { "ratio_hi", NULL }, { "difference", NULL },
	{ "difference_lo", NULL }, { "difference_hi", NULL },
	{ "interval_conf", NULL }, { "p", NULL }, { "p_unadjusted", NULL },
	{ "p_shift", NULL }, { "p_share", NULL }, { "p_within", NULL },
	{ "p_new_higher", NULL },
	{ "correction", NULL }, { "family", NULL }, { "level", NULL },
	{ "bimodal", NULL }, { "slow_base", NULL }, { "slow_new", NULL },
	{ "smallest_detectable", NULL },
	{ "spread_wider_than_threshold", NULL }, { "verdict", NULL },
	{ "why", NULL }, { "within_regimes", NULL },
	{ "slow_share_change_lo", NULL }, { "slow_share_change_hi", NULL },
	{ "slow_share_margin", NULL }, { "tail_change", NULL },
	{ "missing_in_new", NULL }, { "cell_shown", NULL },
	{ "cell_shared", NULL }, { "metric", NULL }, { "metric_words", NULL },
	{ "unit", NULL }, { "better", NULL }, { "base_side", NULL },
	{ "new_side", NULL }, { "plugins", NULL }, { "base_plugins", NULL },
	{ "new_plugins", NULL }, { "change_pct", NULL },
	{ "change_pct_lo", NULL }, { "change_pct_hi", NULL },
	{ "p_kind", NULL }, { "in_words", NULL }, { "exact", NULL },
	{ RF(instructions_by_function), NULL },
	{ "placed", NULL }, { "near_base", NULL }, { "near_new", NULL },
	{ "far_base", NULL }, { "far_new", NULL }, { "moved_base", NULL },
	{ "moved_new", NULL },
};

/*
 * One side: its file or build, and what its context says it was. A file
 * of `ab` is named by its binary's checksum: its git_rev is the running
 * build's, not the arm's.
 */
static void
outcome_side(FILE *out, const char *lead, const char *word, const char *side,
    const cJSON *ctx)
{
	static const char *const fields[][2] = { { "git_rev", "git " },
	    { "date", "" }, { "host", "host " } };
	const char *v;
	size_t i, k = 0;

	fprintf(out, "%s%s%s%s", lead, word, side != NULL ? " " : "",
	    side != NULL ? side : "");
	if (results_str(ctx, "arm", NULL) != NULL) {
		fprintf(out, " (binary sha256 %.12s)\n", results_str(ctx,
		    "binary_sha256", "unknown"));
		return;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if ((v = results_str(ctx, fields[i][0], NULL)) != NULL)
			fprintf(out, "%s%s%s", k++ ? ", " : " (", fields[i][1],
			    v);
	fprintf(out, "%s\n", k ? ")" : "");
	return;
}

/*
 * The lines above a table for people: the metric and its better side,
 * BASE and NEW, what every row's cell shares, and how the change and the
 * p were taken.
 */
static void
outcome_header(FILE *out, const struct compare_opts *o,
    const struct outcome_what *w, size_t n)
{
	bool md = o->format == TABLE_MARKDOWN;
	const char *lead = md ? "- " : "  ";
	struct metric m;
	char how[128];

	metric_of(o->metric, &m);
	if (o->levels != NULL)
		snprintf(how, sizeof(how), "unadjusted, each of %zu cell%s "
		    "held to its last look's level (sequential)", w->family,
		    w->family == 1 ? "" : "s");
	else
		snprintf(how, sizeof(how), "Holm-adjusted over the %zu cell%s "
		    "tested", w->family, w->family == 1 ? "" : "s");
	fprintf(out, "%scompare%s NEW against BASE: %s (%s%s%s), %s is "
	    "better\n%s", md ? "**dispatchbench " : "", md ? "**" : "",
	    m.quantity, md ? "`" : "", o->metric, md ? "`" : "",
	    m.higher_is_better ? "higher" : "lower", md ? "\n" : "");
	outcome_side(out, lead, "BASE:", o->sides[0], results_obj(w->docs[0],
	    "context"));
	outcome_side(out, lead, "NEW: ", o->sides[1], results_obj(w->docs[1],
	    "context"));
	if (w->machines[0] != '\0')
		fprintf(out, "%s%s%s%s: %s\n", lead, md ? "**" : "",
		    w->machines, md ? "**" : "", o->one_machine ? "each change "
		    "below is the way of building as much as the code's" :
		    counted_metric(o->metric) ? "a count does "
		    "not move with a machine's speed, but a CPU's flags can "
		    "pick other code" : "each change below is the machines' as "
		    "much as the builds' (--allow-other-machine)");
	if (n > 1 && w->shared[0] != '\0')
		fprintf(out, "%sall rows: %s\n", lead, w->shared);
	fprintf(out, "%schange: NEW/BASE - 1 (NEW - BASE for a figure that can "
	    "be 0) [interval], threshold ±%g %%; p: exact rank sum, %s, alpha "
	    "%.3g\n", lead, o->threshold * 100, how, o->alpha);
	if (counted_metric(o->metric))
		fprintf(out, "%sexact: a side whose ok runs (two or more) all "
		    "count the same; two exact sides need no test, %s\n", lead,
		    o->threshold_given ? "and a change under the threshold is "
		    "equivalent" : "and any change counts (no --threshold)");
	fprintf(out, "%s", md ? "\n" : "");
	return;
}

/* Broken cells, named before anything else, with both sides' failures. */
static void
outcome_broken(FILE *out, const struct judge_row *rows, size_t n)
{
	const struct judge_arm *a, *b;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!judge_is_broken(&rows[i]))
			continue;
		a = &rows[i].a;
		b = &rows[i].b;
		fprintf(out, "BROKEN %s: NEW %u of %u runs not ok (%u failed, "
		    "%u hung, %u crashed, %u stalled; %s); BASE %u of %u%s%s%s\n",
		    rows[i].shown, judge_bad_runs(b) + b->stalled, b->runs,
		    b->failed, b->hung, b->crashed, b->stalled, b->errors,
		    judge_bad_runs(a) + a->stalled, a->runs, a->errors[0] ?
		    " (" : "", a->errors, a->errors[0] ? ")" : "");
	}
	return;
}

/*
 * Where the instructions went, for each counted row that changed: its
 * functions (outcome_functions), a line each.
 */
static void
outcome_where(FILE *out, const struct judge_row *rows, size_t n,
    const cJSON *json)
{
	const cJSON *fns;
	size_t i;

	for (i = 0; i < n; i++) {
		fns = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(json,
		    (int)i), RF(instructions_by_function));
		if (cJSON_GetArraySize(fns) == 0)
			continue;
		fprintf(out, "where the instructions went, %s (self "
		    "instructions a dispatch, BASE -> NEW; -: not among that "
		    "side's top functions):\n", rows[i].shown);
		counted_write_functions(out, fns);
	}
	return;
}

/* Undecided cells: no answer, each with its reason. */
static void
outcome_undecided(FILE *out, const struct judge_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].verdict, "undecided") == 0)
			fprintf(out, "UNDECIDED %s: %s\n", rows[i].shown,
			    rows[i].why);
	return;
}

/*
 * With few runs a side, an exact test cannot reach alpha / M: Holm over
 * M cells then flags nothing, and a silent "no regression" would lie.
 */
static void
outcome_reach(FILE *out, const struct judge_row *rows, size_t n,
    size_t family, double alpha)
{
	double best = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (judge_in_family(&rows[i]))
			best = fmin(best, rows[i].p_min);
	if (family > 0 && !(best < alpha / (double)family))
		fprintf(out, "no cell can pass Holm over %zu cells with these "
		    "runs (smallest attainable p %.2g, not below %.2g): %zu runs "
		    "a side can\n", family, best, alpha / (double)family,
		    compare_min_runs(alpha / (double)family));
	return;
}

/*
 * Runs the machine's other load shared (host_busy): each cell named, or
 * their count past a few; a verdict on them is not the builds' alone.
 */
static const char *
outcome_busy_side(const struct judge_arm *arm, char *buf, size_t len)
{

	if (arm->hosted == 0)
		snprintf(buf, len, "(a build that does not record it)");
	else
		snprintf(buf, len, "%u of %u runs", arm->busy, arm->hosted);
	return buf;
}

static void
outcome_busy(FILE *out, const struct judge_row *rows, size_t n)
{
	unsigned int cells = 0, runs = 0, busy = 0;
	char w[2][48];
	size_t i;

	for (i = 0; i < n; i++) {
		cells += rows[i].a.busy + rows[i].b.busy > 0;
		runs += rows[i].a.hosted + rows[i].b.hosted;
		busy += rows[i].a.busy + rows[i].b.busy;
	}
	if (cells > OUTCOME_BUSY_NAMED) {
		fprintf(out, "the machine was busy (host_busy) in %u of %u runs, "
		    "in %u cells: those verdicts rest on figures other "
		    "processes shared\n", busy, runs, cells);
		return;
	}
	for (i = 0; i < n; i++)
		if (rows[i].a.busy + rows[i].b.busy > 0)
			fprintf(out, "busy machine %s: BASE %s, NEW %s beside "
			    "other load (host_busy): the verdict rests on "
			    "figures other processes shared\n", rows[i].shown,
			    outcome_busy_side(&rows[i].a, w[0], sizeof(w[0])),
			    outcome_busy_side(&rows[i].b, w[1], sizeof(w[1])));
	return;
}

/*
 * The rows that saw a rise they could not place (judge_unplaced), each by
 * its cell and change, after the count of them.
 */
static void
outcome_unplaced(FILE *out, const struct judge_row *rows, size_t n,
    const struct compare_opts *o, unsigned int count)
{
	const char *unit = metric_unit(o->metric), *sep = " ";
	char buf[400];
	size_t i;

	fprintf(out, "; %u cell%s changed and could not be placed (not a "
	    "pass):", count, count == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		if (!judge_unplaced(&rows[i], o))
			continue;
		outcome_effect(&rows[i], unit, buf, sizeof(buf));
		fprintf(out, "%s%s %s", sep, rows[i].shown, buf);
		sep = "; ";
	}
	return;
}

/*
 * The inconclusive rows that saw nothing: "no regression" over them says
 * no change past what each could see was found, not that none smaller
 * happened. Two default sweeps of one build, 7 runs a cell on 2 vCPUs,
 * could see from 11 % to 1560 %: the line gives that range.
 */
static void
outcome_blind(FILE *out, const struct judge_row *rows, size_t n,
    const struct compare_opts *o)
{
	double lo = INFINITY, hi = -INFINITY;
	unsigned int count = 0;
	char w[2][32];
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(rows[i].verdict, "inconclusive") != 0 ||
		    judge_unplaced(&rows[i], o))
			continue;
		count++;
		if (!rows[i].difference && isfinite(rows[i].mde)) {
			lo = fmin(lo, rows[i].mde);
			hi = fmax(hi, rows[i].mde);
		}
	}
	if (count == 0)
		return;
	fprintf(out, "; %u inconclusive", count);
	if (hi >= lo)
		fprintf(out, ": a change below what each could see (%s %% to "
		    "%s %%) is not ruled out", table_sig3(100 * lo, w[0],
		    sizeof(w[0])), table_sig3(100 * hi, w[1], sizeof(w[1])));
	return;
}

/*
 * The counts of each verdict, as the summary line says them; a cell only
 * in NEW is not one compared. Never "no regression" over a row that saw a
 * rise it could not place (+4.8 % [+1.9, +7.6] at p 0.003, half of NEW's
 * runs 2x at p 0.074 both read so): what it saw instead.
 */
static void
outcome_summary(FILE *out, const struct judge_row *rows, size_t n,
    const struct compare_opts *o, bool incomplete)
{
	unsigned int c[6] = { 0 }, unplaced = 0;
	static const char *const words[6] = { "broken", "regressed",
	    "undecided", "improved", "equivalent", "new" };
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 6; k++)
			c[k] += strcmp(rows[i].verdict, words[k]) == 0;
		unplaced += judge_unplaced(&rows[i], o);
	}
	fprintf(out, "\n%zu cells compared, %s at alpha %.3g: %s", n - c[5],
	    o->levels != NULL ? "sequentially" : "Holm's correction", o->alpha,
	    c[0] || c[1] || c[2] || incomplete ? "" : unplaced ?
	    "no regression shown" : "no regression");
	if (c[0])
		fprintf(out, "BROKEN %u (NEW runs not ok)%s", c[0], c[1] || c[2] ||
		    incomplete ? ", " : "");
	if (c[1])
		fprintf(out, "REGRESSED %u%s", c[1], c[2] || incomplete ? ", " :
		    "");
	if (c[2] || incomplete)
		fprintf(out, "UNDECIDED %u%s (no answer: not a pass)", c[2],
		    incomplete ? " and a file not complete" : "");
	if (c[3])
		fprintf(out, ", improved %u", c[3]);
	if (unplaced)
		outcome_unplaced(out, rows, n, o, unplaced);
	outcome_blind(out, rows, n, o);
	fprintf(out, c[5] ? "; %u only in NEW, not judged\n" : "\n", c[5]);
	return;
}

void
outcome_write(FILE *out, const struct judge_row *rows, size_t n,
    const struct compare_opts *o, const struct outcome_what *w, cJSON *json,
    const char *incomplete)
{
	static const struct table program = { "compare", outcome_program,
	    sizeof(outcome_program) / sizeof(outcome_program[0]) };
	const char *unit = metric_unit(o->metric);
	char label[3][64];
	const struct table_col people_cols[] = {
		{ "cell_shown", "cell" }, { "ok_runs", "ok runs base new" },
		{ "median_base", label[0] }, { "median_new", label[1] },
		{ "change", "NEW vs BASE [interval]" }, { "p_shown", label[2] },
		{ "sees", "could see" }, { "verdict_text", "verdict" },
	};
	const struct table people = { "compare", people_cols,
	    sizeof(people_cols) / sizeof(people_cols[0]) };

	if (!table_for_people(o->format)) {
		table_write(out, o->format, &program, json);
		return;
	}
	snprintf(label[0], sizeof(label[0]), "BASE%s%s", unit[0] ? " " : "",
	    unit);
	snprintf(label[1], sizeof(label[1]), "NEW%s%s", unit[0] ? " " : "",
	    unit);
	snprintf(label[2], sizeof(label[2]), o->levels != NULL ? "p, its look" :
	    "p, Holm over %zu", w->family);
	outcome_header(out, o, w, n);
	/* The machine's move between the sittings, before the code's. */
	if (o->format == TABLE_TEXT)
		probes_side_by_side(results_obj(w->docs[0], "context"),
		    results_obj(w->docs[1], "context"), out);
	outcome_broken(out, rows, n);
	if (incomplete != NULL)
		fprintf(out, "UNDECIDED: %s is not complete (%s): a sweep that "
		    "did not finish\n", incomplete, incomplete[0] == 'N' ?
		    "interrupted" : "BASE's");
	outcome_undecided(out, rows, n);
	table_write(out, o->format, &people, json);
	if (o->format != TABLE_HTML)
		outcome_where(out, rows, n, json);
	outcome_summary(out, rows, n, o, incomplete != NULL);
	outcome_busy(out, rows, n);
	if (o->levels == NULL)
		outcome_reach(out, rows, n, w->family, o->alpha);
	return;
}
