/*
 * figure.c - a results file as figures: one line per design and queue
 * against the worker count, median with min-max bars, and beside.png of
 * its real runtimes. gnuplot draws (plot.c); this file writes its data
 * and script.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "beside.h"
#include "figure.h"
#include "params.h"
#include "plot.h"
#include "results.h"
#include "runfields.h"
#include "series.h"
#include "sizing.h"
#include "stats.h"

/* One figure: a summary field of every cell against workers. */
struct figure {
	const char *field;
	const char *file;
	const char *ylabel;	/* the metric and its unit */
	const char *note;	/* how it is measured; NULL: nothing to add */
	/* The y axis: log; linear from 0 to 1 (a share); linear (a count
	 * that may be 0 in every run). */
	enum { FIGURE_LOG, FIGURE_SHARE, FIGURE_LINEAR } axis;
};

static const struct figure figure_table[] = {
	{ RF(cpu_us_per_dispatch), "cpu_per_dispatch", "CPU µs per dispatch",
	    "process utime+stime over dispatches", FIGURE_LOG },
	{ RF(instructions_per_dispatch), RF(instructions_per_dispatch),
	    "instructions per dispatch", "counted: every thread, coroutines x "
	    "N dispatches", FIGURE_LOG },
	{ RF(ops_per_s), RF(ops_per_s), "ops/s", "an op is 4 resumptions",
	    FIGURE_LOG },
	{ RF(ctx_switches_per_dispatch), RF(ctx_switches_per_dispatch),
	    "context switches per dispatch", NULL, FIGURE_LOG },
	{ RF(latency_p99_us), "latency_p99", "latency p99, µs", "sampled; "
	    "resume: dispatch to start, request: the round trip", FIGURE_LOG },
	{ RF(cpu_us_per_round_trip), "cpu_per_round_trip",
	    "CPU µs per request round trip", "I/O loop to handler and back",
	    FIGURE_LOG },
	{ RF(min_share), "fairness", "progress of the slowest coroutine / mean",
	    "1: even, 0: starved", FIGURE_SHARE },
	{ RF(threads_peak), "threads", "threads alive",
	    "most seen in the window", FIGURE_LOG },
	{ RF(rss_anon_peak_kb), "rss_anon", "anonymous RSS, kB",
	    "most seen in the window", FIGURE_LOG },
	{ "perf_context_switches_per_dispatch", "perf_context_switches",
	    "context switches per dispatch", "perf_event_open, every thread",
	    FIGURE_LINEAR },
	{ "perf_cpu_migrations_per_dispatch", "perf_cpu_migrations",
	    "CPU migrations per dispatch", "perf_event_open", FIGURE_LINEAR },
	{ "perf_cycles_per_dispatch", "perf_cycles", "cycles per dispatch",
	    "perf_event_open", FIGURE_LOG },
	{ "perf_instructions_per_dispatch", "perf_instructions",
	    "instructions per dispatch", "perf_event_open", FIGURE_LOG },
	{ "perf_cache_misses_per_dispatch", "perf_cache_misses",
	    "cache misses per dispatch", "perf_event_open", FIGURE_LOG },
};

struct figure_series {
	char name[SERIES_NAME];
	int points;
	double first;		/* the median of its first point */
	bool starves;		/* a coroutine made no progress in some run */
};

/*
 * One data block per series (cells in sweep order share a name), and
 * what the data spans. Returns the number of series; *dropped counts the
 * cells of series past max, never drawn.
 */
static int
figure_data(const cJSON *doc, const struct figure *fig, FILE *data,
    struct figure_series *series, int max, struct plot_span *sp,
    int *dropped)
{
	const cJSON *cells = results_arr(doc, "cells"), *cell, *s;
	char name[SERIES_NAME];
	int n = 0;
	double w;

	*sp = (struct plot_span){ 1, INFINITY, 0 };
	*dropped = 0;
	cJSON_ArrayForEach(cell, cells) {
		s = results_obj(results_obj(cell, "summary"), fig->field);
		if (s == NULL)
			continue;
		plot_name(doc, cell, name, sizeof(name));
		if (n == 0 || strcmp(name, series[n - 1].name) != 0) {
			if (n == max) {
				(*dropped)++;
				continue;
			}
			if (n > 0)
				fprintf(data, "\n\n");
			snprintf(series[n].name, sizeof(series[n].name), "%s",
			    name);
			series[n].points = 0;
			series[n].first = results_num(s, "median");
			series[n].starves = false;
			n++;
		}
		series[n - 1].points++;
		series[n - 1].starves |= results_stat(cell, RF(starved),
		    "max") > 0;
		w = results_num(cell, "workers");
		sp->xmax = w > sp->xmax ? w : sp->xmax;
		plot_span_add(sp, results_num(s, "min"));
		plot_span_add(sp, results_num(s, "median"));
		plot_span_add(sp, results_num(s, "max"));
		fprintf(data, "%g %g %g %g\n", w, results_num(s, "median"),
		    results_num(s, "min"), results_num(s, "max"));
	}
	return n;
}

/* A series' title in the key: what it is when it is not a design. */
static void
figure_title(const struct plot_style *s, const struct figure_series *series,
    char *buf, size_t len)
{
	const char *what = series->points == 1 ? " (one value)" : "";

	if (s->floor)
		what = series->points == 1 ? " (harness floor, one value)" :
		    " (harness floor)";
	snprintf(buf, len, "%.320s%s%s", series->name, what,
	    series->starves ? " STARVES" : "");
	return;
}

/*
 * Each series in its style from the data file dat; a series of one point
 * (inline: no width) is a horizontal line. Returns the longest title.
 */
static size_t
figure_clauses(const struct plot_styles *st,
    const struct figure_series *series, int n, char *out, size_t len)
{
	const struct plot_style *s;
	char title[400];
	size_t used = 0, longest = 0;
	int i;

	for (i = 0; i < n; i++) {
		s = plot_style_of(st, series[i].name);
		figure_title(s, &series[i], title, sizeof(title));
		longest = strlen(title) > longest ? strlen(title) : longest;
		if (series[i].points == 1)
			plot_cat(out, len, &used, "%s%g with lines lw 2 lc rgb "
			    "'%s' dt %d title '%s'", i ? ", " : "",
			    series[i].first, s->colour, s->dash, title);
		else
			plot_cat(out, len, &used, "%sdat index %d using "
			    "1:2:3:4 with yerrorlines lw 2 lc rgb '%s' pt %d "
			    "ps 1.2 dt %d title '%s'", i ? ", " : "", i,
			    s->colour, s->floor ? 0 : s->point, s->dash, title);
	}
	return longest;
}

static int
figure_draw(const cJSON *doc, const struct plot_styles *st,
    const struct figure *fig, const char *dir, char *err, size_t errlen)
{
	char datpath[4096], clauses[65536], xaxis[512], yaxis[8192];
	char size[32], key[160], where[400], cut[96] = "";
	struct figure_series series[PLOT_SERIES];
	struct plot_span sp;
	FILE *data;
	int n, dropped;

	if ((data = plot_data_open(dir, fig->file, datpath, sizeof(datpath),
	    err, errlen)) == NULL)
		return -1;
	n = figure_data(doc, fig, data, series, PLOT_SERIES, &sp, &dropped);
	fclose(data);
	if (n == 0) {		/* a file from before the field existed */
		unlink(datpath);
		return 0;
	}
	if (dropped > 0)	/* said where it is missed: in the picture */
		snprintf(cut, sizeof(cut), "\\n%d cells not drawn: more than %d "
		    "series", dropped, PLOT_SERIES);
	plot_key(n, figure_clauses(st, series, n, clauses, sizeof(clauses)),
	    640, size, sizeof(size), key, sizeof(key));
	plot_workers(sp.xmax, xaxis, sizeof(xaxis));
	if (fig->axis == FIGURE_LOG)
		plot_log_axis("y", sp.ymin, sp.ymax, yaxis, sizeof(yaxis));
	else
		snprintf(yaxis, sizeof(yaxis), "set yrange [0:%s]\n",
		    fig->axis == FIGURE_SHARE ? "1.1" : sp.ymax > 0 ? "*" :
		    "1");
	return plot_draw(dir, fig->file, size, err, errlen,
	    "set title \"%s against workers: median, bars min to max\\n"
	    "%s%s%s%s\"\ndat = '%s'\n%s%s"
	    "set xlabel 'workers (shared, stealing: workers; limited: k; "
	    "eventloop: loops; rendezvous: max threads)'\n"
	    "set ylabel '%s'\nset grid\n%splot %s\n", fig->ylabel,
	    fig->note != NULL ? fig->note : "", fig->note != NULL ? "; " : "",
	    results_where(doc, where, sizeof(where)), cut, datpath, xaxis,
	    yaxis, fig->ylabel, key, clauses);
}

/* A real runtime's cell over its model's, one point of a line each. */
struct figure_pair {
	char series[SERIES_NAME + 80];
	double workers, ratio, lo, hi;
	const char *colour;	/* the model's */
	int point, dash;	/* the runtime's */
};

struct figure_pairs {
	const cJSON *doc;
	const struct plot_styles *st;
	struct figure_pair *p;
	int n, max;
};

/* The pair's look: the model's colour, the runtime's points and dashes. */
static void
figure_pair_style(struct figure_pairs *pp, const cJSON *real,
    const cJSON *model, struct figure_pair *p)
{
	const struct plot_style *r, *m;
	char name[SERIES_NAME];

	plot_name(pp->doc, real, name, sizeof(name));
	r = plot_style_of(pp->st, name);
	plot_name(pp->doc, model, name, sizeof(name));
	m = plot_style_of(pp->st, name);
	p->colour = m->colour;
	p->point = r->point;
	p->dash = r->dash;
	return;
}

/*
 * Of cell's ok runs, or of those on one placement of the CPUs (side of
 * boundary; side -1: all): CPU per dispatch's median, min and max. False
 * with fewer than two, or one at 0 or without it.
 */
static bool
figure_figures(const cJSON *cell, double boundary, int side, double st[3])
{
	const char *metric = RF(cpu_us_per_dispatch);
	struct stats_summary s;
	size_t n, i;
	double *v;

	if (side < 0) {
		st[0] = results_stat(cell, metric, "median");
		st[1] = results_stat(cell, metric, "min");
		st[2] = results_stat(cell, metric, "max");
		return st[0] > 0 && st[1] > 0 && st[2] > 0;
	}
	n = results_on(cell, boundary, side, NULL, NULL);
	if ((v = malloc((n + 1) * sizeof(*v))) == NULL)
		abort();
	results_on(cell, boundary, side, metric, v);
	for (i = 0; i < n && v[i] > 0; i++)
		continue;
	if (i == n && n >= 2) {
		stats_summarize(v, n, &s);
		st[0] = s.median;
		st[1] = s.min;
		st[2] = s.max;
	}
	free(v);
	return i == n && n >= 2;
}

/* One point: real's figures over model's, on side (-1: all runs). */
static void
figure_pair_put(struct figure_pairs *pp, const cJSON *real,
    const cJSON *model, const char *name, int side, const double r[3],
    const double m[3])
{
	static const char *const where[] = { ", CPUs near", ", CPUs far" };
	struct figure_pair *p;
	char series[SERIES_NAME];

	if (pp->n == pp->max)
		return;
	p = &pp->p[pp->n++];
	params_series(real, series, sizeof(series));
	snprintf(p->series, sizeof(p->series), "%s / %s%s", series, name,
	    side < 0 ? "" : where[side]);
	p->workers = results_num(real, "workers");
	p->ratio = r[0] / m[0];
	p->lo = r[1] / m[2];
	p->hi = r[2] / m[1];
	figure_pair_style(pp, real, model, p);
	/* The far placement's line another dash than the near one's. */
	if (side == RESULTS_FAR)
		p->dash = p->dash % 5 + 1;
	return;
}

/*
 * A real runtime's cell over its model's: where their runs were probed on
 * two placements of the CPUs, a point on each placement both ran on twice
 * or more (a ratio across placements would be the host's, not theirs);
 * else one of all runs.
 */
static void
figure_pair_add(const cJSON *real, const cJSON *model, const char *name,
    void *arg)
{
	struct figure_pairs *pp = arg;
	double r[3], m[3], boundary = 0;
	unsigned int both = results_shared_placements(real, model, &boundary);
	int side, put = 0;

	for (side = RESULTS_NEAR; side <= RESULTS_FAR; side++)
		if ((both & (1u << side)) && figure_figures(real, boundary,
		    side, r) && figure_figures(model, boundary, side, m)) {
			figure_pair_put(pp, real, model, name, side, r, m);
			put++;
		}
	if (put == 0 && figure_figures(real, boundary, -1, r) &&
	    figure_figures(model, boundary, -1, m))
		figure_pair_put(pp, real, model, name, -1, r, m);
	return;
}

/*
 * The pairs as data blocks, one per series, and their clauses; the span
 * of their widths and ratios. Returns the number of blocks.
 */
static int
figure_pair_blocks(const struct figure_pairs *pp, FILE *data, char *clauses,
    size_t len, struct plot_span *sp)
{
	const struct figure_pair *p = pp->p;
	size_t used = 0;
	int i, j, blocks = 0;
	bool done[512] = { false };

	*sp = (struct plot_span){ 1, INFINITY, 0 };
	for (i = 0; i < pp->n; i++) {
		if (done[i])
			continue;
		fprintf(data, "%s", blocks ? "\n\n" : "");
		for (j = i; j < pp->n; j++) {
			if (done[j] || strcmp(p[j].series, p[i].series))
				continue;
			done[j] = true;
			fprintf(data, "%g %g %g %g\n", p[j].workers, p[j].ratio,
			    p[j].lo, p[j].hi);
			sp->xmax = fmax(sp->xmax, p[j].workers);
			plot_span_add(sp, p[j].lo);
			plot_span_add(sp, p[j].hi);
		}
		plot_cat(clauses, len, &used, ", dat index %d using 1:2:3:4 "
		    "with yerrorlines lw 2 lc rgb '%s' pt %d ps 1.2 dt %d "
		    "title '%s'", blocks, p[i].colour, p[i].point, p[i].dash,
		    p[i].series);
		blocks++;
	}
	return blocks;
}

/*
 * beside.png: each real runtime's CPU per dispatch over the model's of its
 * design, cell by cell against workers; nothing when the file has none.
 */
static int
figure_beside(const cJSON *doc, const struct plot_styles *st,
    const char *dir, char *err, size_t errlen)
{
	static struct figure_pair pairs[512];
	struct figure_pairs pp = { doc, st, pairs, 0, 512 };
	char datpath[4096], clauses[65536], xaxis[512], yaxis[8192];
	char size[32], key[160], where[400];
	struct plot_span sp;
	FILE *data;
	int blocks;

	beside_each(doc, doc, figure_pair_add, &pp);
	if (pp.n == 0)
		return 0;
	if ((data = plot_data_open(dir, "beside", datpath, sizeof(datpath),
	    err, errlen)) == NULL)
		return -1;
	blocks = figure_pair_blocks(&pp, data, clauses, sizeof(clauses), &sp);
	fclose(data);
	plot_key(blocks, 40, 640, size, sizeof(size), key, sizeof(key));
	plot_workers(sp.xmax, xaxis, sizeof(xaxis));
	plot_ratio_axis(sp.ymin, sp.ymax, yaxis, sizeof(yaxis));
	return plot_draw(dir, "beside", size, err, errlen,
	    "set title \"each real runtime over its model: CPU µs per dispatch"
	    "\\nmedian over median on each placement of the CPUs, bars "
	    "min/max over max/min; %s\"\n"
	    "dat = '%s'\n%s%sset xlabel 'workers'\n"
	    "set ylabel 'real / model (above 1: the real one costs more)'\n"
	    "set grid\n%splot 1 with lines dt 2 lc 'black' notitle%s\n",
	    results_where(doc, where, sizeof(where)), datpath,
	    xaxis, yaxis, key, clauses);
}

int
figure_results(const cJSON *doc, const char *dir, char *err, size_t errlen)
{
	static struct plot_styles st;
	size_t i;

	if (results_validate(doc, err, errlen) != 0)
		return -1;
	plot_styles(doc, &st);
	for (i = 0; i < sizeof(figure_table) / sizeof(figure_table[0]); i++) {
		if (figure_draw(doc, &st, &figure_table[i], dir, err,
		    errlen) != 0)
			return -1;
	}
	if (sizing_draw(doc, dir, err, errlen) != 0)
		return -1;
	return figure_beside(doc, &st, dir, err, errlen);
}
