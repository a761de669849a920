/*
 * advise.c - a pool size from measured rows (see advise.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "results.h"

/* No run of it failed, and no run of the load's starved a coroutine. */
static bool
advise_clean(const struct advise_row *r)
{

	return r->starving == 0 && r->failed == 0;
}

static bool
advise_meets(const struct advise_row *r, const struct advise_target *t)
{

	if (t->rate > 0 && !(r->capacity >= t->rate))
		return false;
	if (t->p99_us > 0 && !(r->p99_us <= t->p99_us))
		return false;
	return true;
}

/* The widest eligible row before i, or -1. */
static int
advise_before(const struct advise_row *rows, int i)
{

	while (--i >= 0)
		if (advise_clean(&rows[i]))
			return i;
	return -1;
}

static void
advise_targets(const struct advise_row *rows, size_t n,
    const struct advise_target *t, struct advise_pick *p)
{
	double best = -1;
	size_t i;

	for (i = 0; i < n && p->row < 0; i++)
		if (advise_clean(&rows[i]) && advise_meets(&rows[i], t))
			p->row = (int)i;
	if (p->row >= 0) {
		p->kind = ADVISE_TARGET;
		p->support = advise_before(rows, p->row);
		return;
	}
	/* Unmet: the row that came closest on capacity. */
	p->kind = ADVISE_UNMET;
	for (i = 0; i < n; i++)
		if (advise_clean(&rows[i]) && rows[i].capacity > best) {
			best = rows[i].capacity;
			p->support = (int)i;
		}
	return;
}

static void
advise_knee(const struct advise_row *rows, size_t n, struct advise_pick *p)
{
	double best = -1;
	int b = -1, last = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!advise_clean(&rows[i]))
			continue;
		last = (int)i;
		if (rows[i].capacity > best) {
			best = rows[i].capacity;
			b = (int)i;
		}
	}
	if (b < 0) {
		p->kind = ADVISE_UNMET;
		return;
	}
	for (i = 0; i < n && p->row < 0; i++)
		if (advise_clean(&rows[i]) &&
		    rows[i].capacity >= ADVISE_KNEE_SHARE * best)
			p->row = (int)i;
	p->kind = ADVISE_KNEE;
	p->support = b;
	/* Every narrower width is short of the best: still growing. */
	if (p->row == last && advise_before(rows, last) >= 0) {
		p->kind = ADVISE_NO_KNEE;
		p->support = advise_before(rows, last);
	}
	return;
}

void
advise_choose(const struct advise_row *rows, size_t n,
    const struct advise_target *t, struct advise_pick *p)
{
	size_t i;

	p->row = p->support = -1;
	p->set_aside = 0;
	for (i = 0; i < n; i++)
		p->set_aside += !advise_clean(&rows[i]);
	if (t->rate > 0 || t->p99_us > 0)
		advise_targets(rows, n, t, p);
	else
		advise_knee(rows, n, p);
	return;
}

static const char *
advise_width(const struct advise_row *r, char *buf, size_t len)
{

	snprintf(buf, len, r->workers == 0 ? "inf" : "%u", r->workers);
	return buf;
}

/* "capacity 1234 ops/s" and "p99 5.2 ms", as far as the targets ask. */
static void
advise_figures(const struct advise_row *r, const struct advise_target *t,
    char *buf, size_t len)
{
	int k = 0;

	if (t->rate > 0 || t->p99_us <= 0)
		k = snprintf(buf, len, "capacity %.0f ops/s", r->capacity);
	if (t->p99_us > 0)
		snprintf(buf + k, len - (size_t)k, "%sp99 %.3g ms",
		    k ? ", " : "", r->p99_us * 1e-3);
	return;
}

/* " Set aside: N=16 (a coroutine starved in 2 of 6 runs), ...". */
static void
advise_aside(const struct advise_row *rows, size_t n, char *buf, size_t len)
{
	size_t i, k = 0;
	char w[16];

	k += (size_t)snprintf(buf, len, " Set aside, never recommended:");
	for (i = 0; i < n && k < len; i++) {
		if (advise_clean(&rows[i]))
			continue;
		k += (size_t)snprintf(buf + k, len - k, " N=%s (",
		    advise_width(&rows[i], w, sizeof(w)));
		if (rows[i].starving > 0 && k < len)
			k += (size_t)snprintf(buf + k, len - k, "a coroutine made "
			    "no progress in %u of %u runs%s", rows[i].starving,
			    rows[i].runs, rows[i].failed ? ", " : "");
		if (rows[i].failed > 0 && k < len)
			k += (size_t)snprintf(buf + k, len - k, "%u of %u runs "
			    "failed", rows[i].failed, rows[i].runs);
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, ")");
	}
	if (k < len)
		snprintf(buf + k, len - k, ".");
	return;
}

void
advise_reason(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p, char *buf,
    size_t len)
{
	const struct advise_row *widest = &rows[n - 1];
	const struct advise_row *r = p->row >= 0 ? &rows[p->row] : NULL;
	const struct advise_row *s = p->support >= 0 ? &rows[p->support] :
	    NULL;
	char wr[16], ws[16], ww[16], fr[96], fs[96];
	int k = 0;

	if (r != NULL) {
		advise_width(r, wr, sizeof(wr));
		advise_figures(r, t, fr, sizeof(fr));
	}
	if (s != NULL) {
		advise_width(s, ws, sizeof(ws));
		advise_figures(s, t, fs, sizeof(fs));
	}
	if (p->kind == ADVISE_TARGET && s != NULL)
		k = snprintf(buf, len, "N=%s is the smallest width that meets "
		    "the target (%s); N=%s falls short (%s).", wr, fr, ws, fs);
	else if (p->kind == ADVISE_TARGET)
		k = snprintf(buf, len, "N=%s, the narrowest width measured, "
		    "meets the target (%s).", wr, fr);
	else if (p->kind == ADVISE_UNMET && s != NULL)
		k = snprintf(buf, len, "no width meets the target: the closest "
		    "is N=%s (%s); widen the sweep or lower the target.", ws, fs);
	else if (p->kind == ADVISE_UNMET)
		k = snprintf(buf, len, "no width can be recommended: every one "
		    "failed a run or starved a coroutine.");
	else if (p->kind == ADVISE_KNEE)
		k = snprintf(buf, len, "N=%s is the smallest width within "
		    "%.0f %% of the best capacity (%.0f of %.0f ops/s at N=%s); "
		    "a dispatch costs %.3g us of CPU there, %.3g at N=%s.", wr,
		    (1 - ADVISE_KNEE_SHARE) * 100, r->capacity, s->capacity, ws,
		    r->cpu_us, widest->cpu_us, advise_width(widest, ww,
		    sizeof(ww)));
	else
		k = snprintf(buf, len, "no knee: capacity still grows at the "
		    "widest width (%.0f ops/s at N=%s against %.0f at N=%s); "
		    "widen the sweep.", r->capacity, wr, s->capacity, ws);
	if (r != NULL && r->cost_starving > 0 && k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " Caution: at N=%s a "
		    "coroutine made no progress in %u of %u resume-only runs, "
		    "so its cost may hide a stalled worker.", wr,
		    r->cost_starving, r->cost_runs);
	if (p->set_aside > 0 && k > 0 && (size_t)k < len)
		advise_aside(rows, n, buf + k, len - (size_t)k);
	return;
}

static bool
advise_is(const cJSON *cell, const char *field, const char *want)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(cell, field);

	return cJSON_IsString(f) && strcmp(f->valuestring, want) == 0;
}

/* Whether name is one of the comma list's. */
static bool
advise_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)) != NULL; p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ',' ||
		    p[len] == '\0'))
			return true;
	return false;
}

/* The row of width w, made if new (n grows). */
static struct advise_row *
advise_row_of(struct advise_row *rows, size_t *n, unsigned int w)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (rows[i].workers == w)
			return &rows[i];
	if (*n == ADVISE_MAX_ROWS)
		return NULL;
	rows[*n] = (struct advise_row){ .workers = w, .cpu_us = NAN,
	    .cpu_us_min = NAN, .cpu_us_max = NAN, .ops_per_s = NAN,
	    .capacity = NAN, .p99_us = NAN };
	return &rows[(*n)++];
}

static double
advise_max(double a, double b)
{

	return isnan(a) || b > a ? b : a;
}

/*
 * Every run counts, in the sweep it belongs to: the load's (load true),
 * whose starved runs set the width aside, or the cost's apart from it.
 */
static void
advise_runs(struct advise_row *r, const cJSON *cell, bool load)
{
	const cJSON *run;
	bool starved;

	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		*(load ? &r->runs : &r->cost_runs) += 1;
		if (strcmp(results_str(run, "status", "?"), "ok") != 0) {
			r->failed++;
			continue;
		}
		starved = results_num(run, "starved") > 0;
		*(load ? &r->starving : &r->cost_starving) += starved;
	}
	return;
}

/* The cell's figures into its row: cost from resume-only, load from p. */
static void
advise_fill(struct advise_row *r, const cJSON *cell, bool resume, bool load)
{

	if (resume) {
		r->cpu_us = results_stat(cell, "cpu_us_per_dispatch", "median");
		r->cpu_us_min = results_stat(cell, "cpu_us_per_dispatch",
		    "min");
		r->cpu_us_max = results_stat(cell, "cpu_us_per_dispatch",
		    "max");
		r->ops_per_s = results_stat(cell, "ops_per_s", "median");
	}
	if (load) {
		r->capacity = results_stat(cell, "ops_per_s", "median");
		r->ceiling = results_stat(cell, "ceiling_ops_per_s", "median");
		r->ceiling = isnan(r->ceiling) ? 0 : r->ceiling;
		r->p99_us = results_stat(cell, "latency_p99_us", "median");
	}
	r->threads = advise_max(r->threads, results_stat(cell, "threads_peak",
	    "median"));
	r->rss_anon_kb = advise_max(r->rss_anon_kb, results_stat(cell,
	    "rss_anon_peak_kb", "median"));
	advise_runs(r, cell, load);
	return;
}

static int
advise_cmp(const void *a, const void *b)
{
	unsigned int x = ((const struct advise_row *)a)->workers - 1;
	unsigned int y = ((const struct advise_row *)b)->workers - 1;

	/* Unbounded (0) wraps to the largest: it sorts last. */
	return x < y ? -1 : x > y;
}

/* The loads doc holds beside resume-only for these cells, a comma list. */
static const char *
advise_held(const cJSON *doc, const char *dispatcher, const char *queue,
    unsigned int coroutines, char *buf, size_t len)
{
	const cJSON *cell;
	const char *w;
	size_t k = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		w = results_str(cell, "workload", "resume");
		if (!advise_is(cell, "dispatcher", dispatcher) ||
		    !advise_is(cell, "queue", queue) ||
		    results_num(cell, "coroutines") != coroutines ||
		    strcmp(w, "resume") == 0 || advise_listed(buf, w))
			continue;
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " :
			    "", w);
	}
	return buf;
}

int
advise_from_check(const cJSON *doc, const char *path, const char *dispatcher,
    const char *queue, unsigned int coroutines, const char *load, char *err,
    size_t errlen)
{
	char held[256];

	advise_held(doc, dispatcher, queue, coroutines, held, sizeof(held));
	if (load == NULL && held[0] != '\0')
		return snprintf(err, errlen, "advise: %s holds %s beside "
		    "resume-only: give the one to advise on as --blocking", path,
		    held), -1;
	if (load != NULL && !advise_listed(held, load))
		return snprintf(err, errlen, "advise: %s holds %s, not --blocking "
		    "%s", path, held[0] != '\0' ? held : "resume-only alone",
		    load), -1;
	return 0;
}

int
advise_rows(const cJSON *doc, const char *dispatcher, const char *queue,
    unsigned int coroutines, const struct advise_load *load,
    struct advise_row *rows, size_t *n, char *err, size_t errlen)
{
	const cJSON *cell;
	struct advise_row *r;
	bool resume, loaded;
	size_t i;

	*n = 0;
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		resume = advise_is(cell, "workload", "resume") ||
		    results_str(cell, "workload", NULL) == NULL;
		loaded = load == NULL ? resume : advise_is(cell, "workload",
		    load->name);
		if (!advise_is(cell, "dispatcher", dispatcher) ||
		    !advise_is(cell, "queue", queue) || !(resume || loaded) ||
		    results_num(cell, "coroutines") != coroutines ||
		    !(results_num(cell, "workers") >= 0))
			continue;
		r = advise_row_of(rows, n, (unsigned int)results_num(cell,
		    "workers"));
		if (r != NULL)
			advise_fill(r, cell, resume, loaded);
	}
	for (i = 0; i < *n; i++)
		if (isfinite(rows[i].capacity) && isfinite(rows[i].cpu_us))
			break;
	if (i == *n) {
		snprintf(err, errlen, "the results hold no %s over %s with %u "
		    "coroutines%s%s measured in both profiles", dispatcher,
		    queue, coroutines, load ? " and " : "",
		    load ? load->name : "");
		return -1;
	}
	qsort(rows, *n, sizeof(*rows), advise_cmp);
	return 0;
}

/*
 * Little's law beside the measured pick: the threads a rate keeps busy on
 * average, or without a rate where the ceiling stops growing.
 */
static void
advise_little(FILE *out, const struct advise_target *t,
    const struct advise_load *load, unsigned int coroutines,
    unsigned int cpus)
{
	unsigned int bound;
	double hold;

	if (load == NULL || !(load->hold_s > 0)) {
		fprintf(out, "check (Little's law): nothing blocks, so at most "
		    "%u threads (the CPUs) are ever busy; wider pools only add "
		    "idle workers to wake.\n", cpus);
		return;
	}
	hold = load->hold_s;
	bound = load->cpu_bound && cpus < coroutines ? cpus : coroutines;
	if (t->rate > 0)
		fprintf(out, "check (Little's law): %.0f ops/s x %.3g ms held "
		    "per op = %.1f threads busy on average%s.\n", t->rate,
		    hold * 1e3, t->rate * hold, load->cpu_bound ?
		    ", each on a CPU of its own" : "");
	fprintf(out, "check (Little's law): the ceiling grows by %.0f ops/s "
	    "per worker up to N=%u (the %s), %.0f ops/s.\n", 1 / hold, bound,
	    bound == coroutines ? "coroutines" : "CPUs", bound / hold);
	return;
}

void
advise_print(FILE *out, const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, unsigned int coroutines,
    unsigned int cpus)
{
	char w[16], ceiling[32], starved[24], cost_starved[24], failed[24];
	char reason[1024];
	size_t i;

	/* starved: in the load's runs; cost starved: in the cost's apart. */
	fprintf(out, "%5s  %-27s %11s %11s %11s %9s %7s %7s %8s %12s %7s\n",
	    "N", "CPU us/dispatch [min-max]", "ops/s", "capacity", "ceiling",
	    "p99 ms", "threads", "anon MB", "starved", "cost starved",
	    "failed");
	for (i = 0; i < n; i++) {
		snprintf(ceiling, sizeof(ceiling), rows[i].ceiling > 0 ?
		    "%.0f" : "-", rows[i].ceiling);
		snprintf(starved, sizeof(starved), "%u/%u", rows[i].starving,
		    rows[i].runs);
		if (rows[i].cost_runs > 0)
			snprintf(cost_starved, sizeof(cost_starved), "%u/%u",
			    rows[i].cost_starving, rows[i].cost_runs);
		else
			snprintf(cost_starved, sizeof(cost_starved), "-");
		snprintf(failed, sizeof(failed), "%u/%u", rows[i].failed,
		    rows[i].runs + rows[i].cost_runs);
		fprintf(out, "%5s  %8.3f [%7.3f-%8.3f] %11.0f %11.0f %11s "
		    "%9.3g %7.0f %7.1f %8s %12s %7s%s\n", advise_width(&rows[i],
		    w, sizeof(w)), rows[i].cpu_us, rows[i].cpu_us_min,
		    rows[i].cpu_us_max, rows[i].ops_per_s, rows[i].capacity,
		    ceiling, rows[i].p99_us * 1e-3, rows[i].threads,
		    rows[i].rss_anon_kb / 1024, starved, cost_starved, failed,
		    (int)i == p->row ? "  <- recommended" :
		    (int)i == p->support ? "  <- compared" : "");
	}
	advise_reason(rows, n, t, p, reason, sizeof(reason));
	if (p->row >= 0)
		fprintf(out, "\nrecommendation: N=%s%s. %s\n", advise_width(
		    &rows[p->row], w, sizeof(w)), p->kind == ADVISE_NO_KNEE ?
		    " or wider" : "", reason);
	else
		fprintf(out, "\nrecommendation: none. %s\n", reason);
	advise_little(out, t, load, coroutines, cpus);
	return;
}
