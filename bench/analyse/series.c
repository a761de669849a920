/*
 * series.c - a results file's cells as the lines of a worker sweep (see
 * series.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "results.h"
#include "runfields.h"
#include "series.h"

double
series_cost(const cJSON *cell)
{

	return results_stat(cell, RF(cpu_us_per_dispatch), "median");
}

/* A width's place in a row: no bound (0) after every count. */
static double
series_rank(double workers)
{

	return workers == 0 ? INFINITY : workers;
}

const char *
series_width(double workers, char *buf, size_t len)
{

	if (workers == 0)
		snprintf(buf, len, "no bound");
	else
		snprintf(buf, len, "%.0f worker%s", workers, workers == 1 ?
		    "" : "s");
	return buf;
}

const char *
series_at(double workers, char *buf, size_t len)
{
	char w[24];

	snprintf(buf, len, "%s %s", workers == 0 ? "with" : "at",
	    series_width(workers, w, sizeof(w)));
	return buf;
}

/*
 * Whether a cell's resumptions stay on the thread that made them: a
 * design of event loops (only its cells carry `from`) resuming each
 * coroutine from the coroutine's own loop, on the resume-only workload,
 * where every resumption after the first is made on that loop and runs
 * there in place.
 */
static bool
series_stays_home(const cJSON *cell)
{

	return strcmp(results_str(cell, "from", ""), "home") == 0 &&
	    strcmp(results_str(cell, "workload", "resume"), "resume") == 0;
}

double
series_moved(const cJSON *cell)
{
	static const char *const moves[] = { "steals_per_dispatch",
	    "injected_per_dispatch", "unparks_per_dispatch" };
	double m, sum = 0;
	size_t i;

	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++)
		if (isfinite(m = results_stat(cell, moves[i], "median")))
			sum += m;
	return sum;
}

/*
 * Whether a cell's resumptions stay on the worker that made them: a
 * design of a queue per worker that counts what other threads took from
 * it (steals), what came from outside (injected) and the parked threads
 * it woke for work (unparks), together, measured, under SERIES_KEPT a
 * dispatch on the resume-only workload: a coroutine that dispatches
 * itself again lands on its own worker's queue and runs there. A design
 * that counts steals of its own tasks but passes each resumption through
 * a queue its threads share (limited: the view's queue, whose Workers
 * the scheduler moves and wakes) shows it in its unparks.
 */
static bool
series_keeps_local(const cJSON *cell)
{

	return isfinite(results_stat(cell, "steals_per_dispatch", "median")) &&
	    series_moved(cell) < SERIES_KEPT && strcmp(results_str(cell,
	    "workload", "resume"), "resume") == 0;
}

bool
series_is_floor(const cJSON *cell)
{

	return strcmp(results_str(cell, "dispatcher", ""), "inline") == 0 &&
	    strcmp(results_str(cell, "workload", "resume"), "resume") == 0;
}

/* The series a cell belongs to, made when it is the first. */
static struct series *
series_of(struct series_set *d, const cJSON *cell)
{
	struct series *s;
	char name[SERIES_NAME];
	size_t i;

	params_series(cell, name, sizeof(name));
	for (i = 0; i < d->ns; i++)
		if (strcmp(d->s[i].name, name) == 0)
			return &d->s[i];
	s = &d->s[d->ns++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->cpus = results_num(results_context(d->doc, cell), "online_cpus");
	s->floor = series_is_floor(cell);
	s->local = true;
	s->kept = true;
	return s;
}

int
series_collect(struct series_set *d, const cJSON *doc)
{
	const cJSON *cells = results_arr(doc, "cells"), *cell;
	struct series *s;
	double w;
	size_t i;

	d->doc = doc;
	d->ns = 0;
	d->s = calloc((size_t)cJSON_GetArraySize(cells) + 1, sizeof(*d->s));
	if (d->s == NULL)
		return -1;
	cJSON_ArrayForEach(cell, cells) {
		if (!isfinite(series_cost(cell)))
			continue;
		s = series_of(d, cell);
		if (s->n == SERIES_WIDTHS)
			continue;
		s->local &= series_stays_home(cell);
		s->kept &= series_keeps_local(cell);
		w = series_rank(results_num(cell, "workers"));
		for (i = s->n++; i > 0 && series_rank(results_num(
		    s->cell[i - 1], "workers")) > w; i--)
			s->cell[i] = s->cell[i - 1];
		s->cell[i] = cell;
	}
	return 0;
}

const cJSON *
series_cell_at(const struct series *s, double workers)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (results_num(s->cell[i], "workers") == workers)
			return s->cell[i];
	return NULL;
}

size_t
series_widths(const struct series_set *d, double *w, size_t max)
{
	size_t i, j, k, n = 0;
	double x;

	for (i = 0; i < d->ns; i++)
		for (j = 0; j < d->s[i].n; j++) {
			x = results_num(d->s[i].cell[j], "workers");
			for (k = 0; k < n && w[k] != x; k++)
				;
			if (k < n || n == max)
				continue;
			for (k = n++; k > 0 && series_rank(w[k - 1]) >
			    series_rank(x); k--)
				w[k] = w[k - 1];
			w[k] = x;
		}
	return n;
}
