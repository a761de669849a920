/*
 * tally.c - what pair's processes gave, and the verdict told from it
 * (see tally.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counted.h"
#include "label.h"
#include "metric.h"
#include "paired.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"
#include "tally.h"

void
tally_init(struct tally *t, const char *metric, double threshold_pct,
    double alpha, size_t units, unsigned int pairs)
{
	int k;

	*t = (struct tally){ .metric = metric, .threshold_pct = threshold_pct,
	    .alpha = alpha, .pairs = pairs };
	t->delta = calloc(units, sizeof(*t->delta));
	for (k = 0; k < 2; k++)
		t->values[k] = calloc(units * pairs, sizeof(double));
	if (t->delta == NULL || t->values[0] == NULL || t->values[1] == NULL)
		abort();
	return;
}

void
tally_free(struct tally *t)
{

	free(t->delta);
	free(t->values[0]);
	free(t->values[1]);
	return;
}

cJSON *
tally_window(const cJSON *run, unsigned int pair, bool b,
    unsigned int position, const char *metric)
{
	const cJSON *fns = results_obj(run, RF(instructions_by_function));
	cJSON *line = cJSON_CreateObject();

	cJSON_AddNumberToObject(line, "pair", pair);
	cJSON_AddStringToObject(line, "arm", b ? "b" : "a");
	cJSON_AddNumberToObject(line, "position", position);
	cJSON_AddStringToObject(line, RF(status), results_str(run, RF(status),
	    "?"));
	if (results_str(run, RF(error), NULL) != NULL)
		cJSON_AddStringToObject(line, RF(error), results_str(run,
		    RF(error), ""));
	cJSON_AddNumberToObject(line, "value", results_num(run, metric));
	cJSON_AddBoolToObject(line, RF(host_busy), cJSON_IsTrue(
	    cJSON_GetObjectItem(run, RF(host_busy))));
	/* A counted window's functions: where its instructions went. */
	if (fns != NULL)
		cJSON_AddItemToObject(line, RF(instructions_by_function),
		    cJSON_Duplicate(fns, 1));
	return line;
}

enum tally_end
tally_window_ended(const cJSON *w)
{
	const char *st = results_str(w, RF(status), "?");

	if (strcmp(st, "ok") == 0 && results_num(w, "value") > 0)
		return TALLY_OK;
	return strcmp(st, "stalled") == 0 ? TALLY_STALLED : TALLY_FAILED;
}

/* Why window w did not end ok, as "status: error". */
static void
tally_window_why(const cJSON *w, char *buf, size_t len)
{
	const char *st = results_str(w, RF(status), "?");

	snprintf(buf, len, "%s: %s", st, results_str(w, RF(error), strcmp(st,
	    "ok") == 0 ? "its figure is not positive" : "no reason given"));
	return;
}

/*
 * How window w of an arm ended (tally_window_ended): the stalled ones
 * (no progress: the machine's) counted apart from the failed ones, the
 * first reason of either kept.
 */
static bool
tally_window_end(const cJSON *w, unsigned int arm, struct tally *t)
{
	enum tally_end end = tally_window_ended(w);

	t->busy[arm] += cJSON_IsTrue(cJSON_GetObjectItem(w, RF(host_busy)));
	if (end == TALLY_OK) {
		t->ends.ok[arm]++;
		t->values[arm][t->nvalues[arm]++] = results_num(w, "value");
		return true;
	}
	if (end == TALLY_STALLED)
		t->ends.stalled[arm]++;
	else
		t->ends.failed[arm]++;
	if (t->reason[arm][0] == '\0')
		tally_window_why(w, t->reason[arm], sizeof(t->reason[arm]));
	return false;
}

/* A process's windows into its crossover estimate; false if it has none. */
static bool
tally_process(struct tally *t, cJSON *windows)
{
	unsigned int pairs = t->pairs;
	double (*v)[2] = calloc(pairs, sizeof(*v));
	double *g_ab = calloc(pairs, sizeof(*g_ab));
	double *g_ba = calloc(pairs, sizeof(*g_ba));
	bool (*ok)[3] = calloc(pairs, sizeof(*ok));	/* a, b; a went first */
	bool (*seen)[2] = calloc(pairs, sizeof(*seen));
	size_t nab = 0, nba = 0;
	unsigned int i, arm;
	double pair;
	bool some;
	cJSON *w;

	if (v == NULL || g_ab == NULL || g_ba == NULL || ok == NULL ||
	    seen == NULL)
		abort();
	cJSON_ArrayForEach(w, windows) {
		pair = results_num(w, "pair");
		arm = strcmp(results_str(w, "arm", "a"), "b") == 0;
		/* A line not a window (a plugin's print), or a window twice. */
		if (!(pair >= 0 && pair < pairs) || seen[(size_t)pair][arm])
			continue;
		i = (unsigned int)pair;
		seen[i][arm] = true;
		if (results_num(w, "position") == 0)
			ok[i][2] = arm == 0;
		v[i][arm] = results_num(w, "value");
		ok[i][arm] = tally_window_end(w, arm, t);
	}
	for (i = 0; i < pairs; i++) {
		if (!ok[i][0] || !ok[i][1])
			continue;
		if (ok[i][2])
			g_ab[nab++] = log(v[i][1] / v[i][0]);
		else
			g_ba[nba++] = log(v[i][0] / v[i][1]);
	}
	if ((some = nab > 0 && nba > 0))
		t->delta[t->n++] = paired_crossover(g_ab, nab, g_ba, nba);
	free(v);
	free(g_ab);
	free(g_ba);
	free(ok);
	free(seen);
	return some;
}

static double
tally_median(double *v, size_t n)
{
	struct stats_summary s;

	if (n == 0)
		return NAN;
	stats_summarize(v, n, &s);
	return s.median;
}

/* The change the verdict catches 80 % of the time, as a ratio - 1. */
static double
tally_sees(const struct tally *t, const struct paired_test *r)
{
	double thr = t->threshold_pct / 100, t_log;

	if (r->n < paired_min_units(t->alpha))
		return INFINITY;
	t_log = metric_higher_is_better(t->metric) ? -log1p(-thr) : log1p(thr);
	return exp(paired_verdict_mde(r->n, t->alpha, paired_spread(t->delta,
	    t->n), t_log)) - 1;
}

/* Each arm's windows, on stderr; an arm's failures on stdout too. */
static void
tally_arms(const struct tally *t)
{
	const char *unit = metric_unit(t->metric);
	int k;

	for (k = 0; k < 2; k++) {
		fprintf(stderr, "%s: %u windows ok, %u failed, %u stalled%s%s; "
		    "median %.4g%s%s\n", k ? "B" : "A", t->ends.ok[k],
		    t->ends.failed[k], t->ends.stalled[k], t->reason[k][0] ?
		    ", the first " : "", t->reason[k],
		    tally_median(t->values[k], t->nvalues[k]), unit[0] ? " " :
		    "", unit);
		if (t->busy[k] > 0)
			printf("%s: %u of %u windows shared a busy machine "
			    "(host_busy): the verdict rests on figures other "
			    "processes shared\n", k ? "B" : "A", t->busy[k],
			    t->ends.ok[k] + t->ends.failed[k] +
			    t->ends.stalled[k]);
		if (t->reason[k][0] != '\0')
			printf("%s: %u of %u windows failed, %u stalled; the "
			    "first %s\n", k ? "B" : "A", t->ends.failed[k],
			    t->ends.ok[k] + t->ends.failed[k] + t->ends.stalled[k],
			    t->ends.stalled[k], t->reason[k]);
	}
	return;
}

/*
 * The lines above the verdict: the metric and its better side, the cell,
 * and each arm by its name and, a plugin, its file and checksum.
 */
static void
tally_header(const struct tally *t, const cJSON *doc)
{
	const char *metric = t->metric;
	struct metric m;
	const cJSON *side;
	int k;

	metric_of(metric, &m);
	printf("pair: B against A, %s (%s), %s is better\n  cell: %s\n",
	    m.quantity, metric, m.higher_is_better ? "higher" : "lower",
	    t->cell);
	for (k = 0; k < 2; k++) {
		side = results_obj(doc, k ? "b_side" : "a_side");
		printf("  %s: %s %s", k ? "B" : "A", results_str(side, "kind",
		    "?"), results_str(side, "name", "?"));
		if (results_str(side, "spec", NULL) != NULL)
			printf(", %s (sha256 %.12s)", results_str(side, "path",
			    "?"), results_str(side, "sha256", "unknown"));
		printf("\n");
	}
	return;
}

/*
 * The verdict line: B/A with its interval, then what it judged (the
 * metric, the cell, each arm), the change signed with its interval, both
 * medians with their unit, and what the p is.
 */
static void
tally_line(const struct tally *t, const struct paired_test *r, double sees)
{
	struct metric m;
	char change[96];
	double med[2];

	metric_of(t->metric, &m);
	med[0] = tally_median(t->values[0], t->nvalues[0]);
	med[1] = tally_median(t->values[1], t->nvalues[1]);
	metric_signed(exp(r->shift) - 1, exp(r->lo) - 1, exp(r->hi) - 1,
	    false, change, sizeof(change));
	printf("B/A %.4f [%.4f, %.4f] (%.1f %%), %s%s%s, B %s against A %s: "
	    "%s; medians A %.3g, B %.3g%s%s; p %.3g (exact signed rank over "
	    "%zu processes, one test: not adjusted); could see changes of "
	    "%.3g %%\n", exp(r->shift), exp(r->lo), exp(r->hi), 100 * r->conf,
	    m.quantity, t->brief[0] ? " in " : "", t->brief, t->side[1],
	    t->side[0], change, med[0], med[1], m.unit[0] ? " " : "", m.unit,
	    r->p, r->n, 100 * sees);
	return;
}

/* The result's labels for programs: what the text lines say. */
static void
tally_result_labels(const struct tally *t, const struct paired_test *r,
    cJSON *o)
{
	struct metric m;
	char buf[200];
	bool some = r->n > 0 || t->exact;

	metric_of(t->metric, &m);
	cJSON_AddStringToObject(o, "metric", t->metric);
	cJSON_AddStringToObject(o, "metric_words", m.quantity);
	cJSON_AddStringToObject(o, "unit", m.unit);
	cJSON_AddStringToObject(o, "better", m.higher_is_better ? "higher" :
	    "lower");
	cJSON_AddStringToObject(o, "cell_shown", t->cell);
	cJSON_AddStringToObject(o, "a_shown", t->side[0]);
	cJSON_AddStringToObject(o, "b_shown", t->side[1]);
	cJSON_AddNumberToObject(o, "median_a", tally_median(t->values[0],
	    t->nvalues[0]));
	cJSON_AddNumberToObject(o, "median_b", tally_median(t->values[1],
	    t->nvalues[1]));
	cJSON_AddNumberToObject(o, "change_pct", some ? 100 * (exp(r->shift) -
	    1) : NAN);
	cJSON_AddNumberToObject(o, "change_pct_lo", some ? 100 * (exp(r->lo) -
	    1) : NAN);
	cJSON_AddNumberToObject(o, "change_pct_hi", some ? 100 * (exp(r->hi) -
	    1) : NAN);
	cJSON_AddStringToObject(o, "p_kind", t->exact ? "none: exact counts, "
	    "no test" : "exact signed rank over the processes, one test: not "
	    "adjusted");
	cJSON_AddStringToObject(o, "in_words", some ? metric_in_words(
	    t->metric, "B", exp(r->shift) - 1, false, buf, sizeof(buf)) : "-");
	return;
}

/*
 * A counted metric, B not broken and the campaign not stopped: two arms
 * of exact counts are judged with no test (counted_verdict), their ratio
 * known, with no interval and no p; counts that vary are the test's,
 * which why then says.
 */
static void
tally_counted(struct tally *t, struct paired_test *r, bool interrupted,
    const char **verdict, char *why, size_t len)
{
	double a, b;

	if (!counted_metric(t->metric) || strcmp(*verdict, "broken") == 0 ||
	    interrupted)
		return;
	t->exact = counted_exact(t->values[0], t->nvalues[0]) &&
	    counted_exact(t->values[1], t->nvalues[1]);
	if (!t->exact) {
		if (t->nvalues[0] >= 2 && t->nvalues[1] >= 2)
			counted_as_timed(t->values[0], t->nvalues[0],
			    t->values[1], t->nvalues[1], why, len);
		return;
	}
	a = t->values[0][0];
	b = t->values[1][0];
	*verdict = counted_verdict(a, b, t->threshold_given ?
	    t->threshold_pct / 100 : 0, why, len);
	r->shift = r->lo = r->hi = log(b / a);
	r->conf = 1;
	r->p = NAN;
	return;
}

/* Two arms of exact counts: both counts and their windows, no test. */
static void
tally_exact_line(const struct tally *t)
{
	double a = t->values[0][0], b = t->values[1][0];
	struct metric m;

	metric_of(t->metric, &m);
	printf("B/A %.6g (exact), %s%s%s, B %s against A %s: every ok window "
	    "of an arm counts the same, A %.2f and B %.2f %s a dispatch (%zu "
	    "and %zu windows): no test\n", b / a, m.quantity, t->brief[0] ?
	    " in " : "", t->brief, t->side[1], t->side[0], a, b, m.unit,
	    t->nvalues[0], t->nvalues[1]);
	return;
}

/* Arm k's windows of doc's processes, into a new array of n. */
static const cJSON **
tally_arm_windows(const cJSON *doc, int k, size_t *n)
{
	const cJSON *u, *w, **all;
	size_t cap = 1;

	cJSON_ArrayForEach(u, results_arr(doc, "processes"))
		cap += (size_t)cJSON_GetArraySize(results_arr(u, "windows"));
	if ((all = malloc(cap * sizeof(*all))) == NULL)
		abort();
	*n = 0;
	cJSON_ArrayForEach(u, results_arr(doc, "processes"))
		cJSON_ArrayForEach(w, results_arr(u, "windows"))
			if (strcmp(results_str(w, "arm", ""), k ? "b" : "a") ==
			    0)
				all[(*n)++] = w;
	return all;
}

/*
 * A counted verdict that changed: the functions whose self instructions
 * a dispatch moved most between each arm's median window (any of an
 * exact arm's: they count alike); NULL otherwise.
 */
static cJSON *
tally_functions(const struct tally *t, const cJSON *doc, const char *verdict)
{
	const cJSON **all, *w[2];
	size_t n;
	int k;

	if (!counted_metric(t->metric) || (strcmp(verdict, "regressed") != 0 &&
	    strcmp(verdict, "improved") != 0))
		return NULL;
	for (k = 0; k < 2; k++) {
		all = tally_arm_windows(doc, k, &n);
		w[k] = counted_median_run(all, n, "value");
		free(all);
	}
	return w[0] != NULL && w[1] != NULL ? counted_functions(w[0], w[1]) :
	    NULL;
}

/* The verdict's terms: its threshold and alpha, or exact counts'. */
static const char *
tally_terms(const struct tally *t, char *buf, size_t len)
{

	if (!t->exact)
		snprintf(buf, len, "threshold %g %%, alpha %g",
		    t->threshold_pct, t->alpha);
	else if (t->threshold_given)
		snprintf(buf, len, "exact counts, threshold %g %%",
		    t->threshold_pct);
	else
		snprintf(buf, len, "exact counts, no --threshold: any change "
		    "is a verdict");
	return buf;
}

cJSON *
tally_report(struct tally *t, const cJSON *doc, bool interrupted,
    const char **verdict)
{
	struct paired_test r;
	cJSON *o = cJSON_CreateObject(), *fns;
	char why[320], words[160], terms[64];
	double sees;

	t->ends.crashed = t->crashed[0] != '\0';
	t->ends.interrupted = interrupted;
	*verdict = paired_verdict(t->delta, t->n, &t->ends, t->threshold_pct /
	    100, t->alpha, metric_higher_is_better(t->metric), &r, why,
	    sizeof(why));
	tally_counted(t, &r, interrupted, verdict, why, sizeof(why));
	sees = !t->exact ? tally_sees(t, &r) : t->threshold_given ?
	    t->threshold_pct / 100 : 0;
	tally_arms(t);
	tally_header(t, doc);
	if (t->exact)
		tally_exact_line(t);
	else if (r.n == 0)
		printf("B/A: no process gave an estimate (each pair needs both "
		    "windows ok)\n");
	else
		tally_line(t, &r, sees);
	if (t->crashed[0] != '\0')
		printf("%s\n", t->crashed);
	if (t->stopped[0] != '\0')
		printf("%s\n", t->stopped);
	/* An exact verdict's reason says it all, with the counts. */
	metric_verdict_words(t->metric, *verdict, "B", r.n > 0 && !t->exact ?
	    exp(r.shift) - 1 : NAN, false, words, sizeof(words));
	printf("verdict: %s%s%s%s%s (%s)\n", *verdict, words[0] || why[0] ?
	    ": " : "", words, words[0] && why[0] ? "; " : "", why,
	    tally_terms(t, terms, sizeof(terms)));
	if ((fns = tally_functions(t, doc, *verdict)) != NULL &&
	    cJSON_GetArraySize(fns) > 0) {
		printf("where the instructions went (self instructions a "
		    "dispatch, A -> B; -: not among that arm's top "
		    "functions):\n");
		counted_write_functions(stdout, fns);
	}
	cJSON_AddBoolToObject(o, "exact", t->exact);
	cJSON_AddItemToObject(o, RF(instructions_by_function), fns != NULL ?
	    fns : cJSON_CreateNull());
	cJSON_AddStringToObject(o, "verdict", *verdict);
	cJSON_AddStringToObject(o, "why", why);
	cJSON_AddNumberToObject(o, "ratio", exp(r.shift));
	cJSON_AddNumberToObject(o, "lo", exp(r.lo));
	cJSON_AddNumberToObject(o, "hi", exp(r.hi));
	cJSON_AddNumberToObject(o, "conf", r.conf);
	cJSON_AddNumberToObject(o, "p", r.p);
	cJSON_AddNumberToObject(o, "processes", (double)r.n);
	cJSON_AddItemToObject(o, "stopped", t->stopped[0] != '\0' ?
	    cJSON_CreateString(t->stopped) : cJSON_CreateNull());
	if (isfinite(sees))
		cJSON_AddNumberToObject(o, "could_see", sees);
	tally_result_labels(t, &r, o);
	return o;
}

void
tally_unit(struct tally *t, cJSON *u, cJSON *windows, const char *why)
{

	if (windows == NULL) {
		t->ends.crashed = true;
		if (t->crashed[0] == '\0')
			snprintf(t->crashed, sizeof(t->crashed), "%s", why);
		cJSON_AddStringToObject(u, "failed", why);
		return;
	}
	if (tally_process(t, windows))
		cJSON_AddNumberToObject(u, "ratio", exp(t->delta[t->n - 1]));
	cJSON_AddItemToObject(u, "windows", windows);
	return;
}

void
tally_unit_words(const cJSON *u, char *buf, size_t len)
{
	unsigned int ran[2] = { 0, 0 }, failed[2] = { 0, 0 };
	unsigned int stalled[2] = { 0, 0 }, arm;
	char why[2][256] = { "", "" };
	enum tally_end end;
	const cJSON *w;
	size_t used = 0;

	buf[0] = '\0';
	if (results_str(u, "failed", NULL) != NULL) {
		snprintf(buf, len, ": %s", results_str(u, "failed", ""));
		return;
	}
	cJSON_ArrayForEach(w, results_arr(u, "windows")) {
		/* A line not a window: a plugin's print. */
		if (!(results_num(w, "pair") >= 0))
			continue;
		arm = strcmp(results_str(w, "arm", "a"), "b") == 0;
		ran[arm]++;
		if ((end = tally_window_ended(w)) == TALLY_OK)
			continue;
		failed[arm] += end == TALLY_FAILED;
		stalled[arm] += end == TALLY_STALLED;
		if (why[arm][0] == '\0')
			tally_window_why(w, why[arm], sizeof(why[arm]));
	}
	for (arm = 0; arm < 2 && used < len; arm++)
		if (why[arm][0] != '\0')
			used += (size_t)snprintf(buf + used, len - used, "%s %s: "
			    "%u of %u windows failed, %u stalled, the first %s",
			    used ? ";" : ":", arm ? "B" : "A", failed[arm],
			    ran[arm], stalled[arm], why[arm]);
	return;
}

bool
tally_settled(const struct tally *t, char *why, size_t len)
{

	return paired_settled(&t->ends, why, len);
}

/*
 * Arm k as the files record it: its kind and name and, a plugin, the
 * spec it was loaded by, its file and checksum (the context's entry);
 * into shown, as the verdict line names it.
 */
static cJSON *
tally_side(const cJSON *doc, const struct tally_arm *arm, char *shown,
    size_t len)
{
	cJSON *o = cJSON_CreateObject();
	const cJSON *p;

	cJSON_AddStringToObject(o, "kind", arm->design ? "dispatcher" :
	    "queue");
	cJSON_AddStringToObject(o, "name", arm->name);
	snprintf(shown, len, "%s", arm->spec != NULL ? arm->spec : arm->name);
	if (arm->spec == NULL)
		return o;
	cJSON_AddStringToObject(o, "spec", arm->spec);
	cJSON_ArrayForEach(p, results_arr(results_obj(doc, "context"),
	    "plugins"))
		if (strcmp(results_str(p, "spec", ""), arm->spec) == 0) {
			cJSON_AddStringToObject(o, "path", results_str(p,
			    "path", "?"));
			cJSON_AddStringToObject(o, "sha256", results_str(p,
			    "sha256", "unknown"));
		}
	return o;
}

/*
 * The cell as the verdict line names it beside the arms: the design two
 * queues share and the width ("shared w=2"); the width of two designs.
 */
static void
tally_brief(const char *cell, int design, char *buf, size_t len)
{
	const char *w = strstr(cell, " w=");
	size_t used = 0;

	buf[0] = '\0';
	if (!design)
		used = (size_t)snprintf(buf, len, "%.*s", (int)strcspn(cell,
		    "/ "), cell);
	if (w != NULL && used < len)
		snprintf(buf + used, len - used, "%s%.*s", used ? " " : "",
		    (int)strcspn(w + 1, " "), w + 1);
	return;
}

/*
 * What each arm really was: its side (a plugin by its file and checksum)
 * and its cell, and the cell they share, without the fields in which
 * they differ (the queue or the design).
 */
void
tally_sides(struct tally *t, cJSON *doc, const struct tally_arm arms[2],
    cJSON *cells[2])
{
	cJSON *shared, *f, *next;
	int k;

	for (k = 0; k < 2; k++)
		cJSON_AddItemToObject(doc, k ? "b_side" : "a_side",
		    tally_side(doc, &arms[k], t->side[k], sizeof(t->side[k])));
	label_cells(cells[0], cells[1], t->cell, sizeof(t->cell));
	tally_brief(t->cell, arms[0].design, t->brief, sizeof(t->brief));
	shared = cJSON_Duplicate(cells[0], 1);
	for (f = shared->child; f != NULL; f = next) {
		next = f->next;
		if (!cJSON_Compare(f, cJSON_GetObjectItemCaseSensitive(cells[1],
		    f->string), true))
			cJSON_Delete(cJSON_DetachItemViaPointer(shared, f));
	}
	cJSON_AddItemToObject(doc, "cell", shared);
	cJSON_AddItemToObject(doc, "a_cell", cells[0]);
	cJSON_AddItemToObject(doc, "b_cell", cells[1]);
	return;
}

