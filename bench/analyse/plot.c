/*
 * plot.c - a results file as figures: one line per design and queue
 * against the worker count, median with min-max bars. gnuplot draws; this
 * file writes its data and script.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advise.h"
#include "beside.h"
#include "plot.h"
#include "params.h"
#include "results.h"

struct plot_figure {
	const char *field;
	const char *file;
	const char *ylabel;
	/* The y axis: log; linear from 0 to 1 (a share); linear (a count
	 * that may be 0 in every run). */
	enum { PLOT_LOG, PLOT_SHARE, PLOT_LINEAR } axis;
};

static const struct plot_figure plot_figures[] = {
	{ "cpu_us_per_dispatch", "cpu_per_dispatch",
	    "CPU µs per dispatch (process utime+stime / dispatches)", PLOT_LOG },
	{ "ops_per_s", "ops_per_s", "ops/s (4 resumptions per op)", PLOT_LOG },
	{ "ctx_switches_per_dispatch", "ctx_switches_per_dispatch",
	    "context switches per dispatch", PLOT_LOG },
	{ "latency_p99_us", "latency_p99", "latency p99, µs (sampled; "
	    "resume: dispatch to start, request: the round trip)", PLOT_LOG },
	{ "cpu_us_per_round_trip", "cpu_per_round_trip",
	    "CPU µs per request round trip (I/O loop to handler and back)",
	    PLOT_LOG },
	{ "min_share", "fairness",
	    "progress of the slowest coroutine / mean (1: even, 0: starved)",
	    PLOT_SHARE },
	{ "threads_peak", "threads", "threads alive (most seen in the window)",
	    PLOT_LOG },
	{ "rss_anon_peak_kb", "rss_anon",
	    "anonymous RSS, kB (most seen in the window)", PLOT_LOG },
	{ "perf_context_switches_per_dispatch", "perf_context_switches",
	    "context switches per dispatch (perf_event_open, every thread)",
	    PLOT_LINEAR },
	{ "perf_cpu_migrations_per_dispatch", "perf_cpu_migrations",
	    "CPU migrations per dispatch (perf_event_open)", PLOT_LINEAR },
	{ "perf_cycles_per_dispatch", "perf_cycles",
	    "cycles per dispatch (perf_event_open)", PLOT_LOG },
	{ "perf_instructions_per_dispatch", "perf_instructions",
	    "instructions per dispatch (perf_event_open)", PLOT_LOG },
	{ "perf_cache_misses_per_dispatch", "perf_cache_misses",
	    "cache misses per dispatch (perf_event_open)", PLOT_LOG },
};

struct plot_series {
	char name[160];
	int points;
	double first;		/* the median of its first point */
	bool starves;		/* a coroutine made no progress in some run */
	bool real;		/* a real runtime's: drawn with points */
};

/*
 * One data block per series (cells in sweep order share a name); the
 * x range and the tics from the widths seen. Returns the number of series.
 */
static int
plot_data(const cJSON *doc, const struct plot_figure *fig, FILE *data,
    struct plot_series *series, int max, char *tics, size_t ticlen,
    double *xmax, double *ymax)
{
	const cJSON *cells = results_arr(doc, "cells"), *cell, *s;
	char name[160], num[32];
	const char *real;
	double w, seen[64];
	int n = 0, nseen = 0, k;
	size_t used = 0;

	*xmax = 1;
	*ymax = 0;
	cJSON_ArrayForEach(cell, cells) {
		s = results_obj(results_obj(cell, "summary"), fig->field);
		if (s == NULL)
			continue;
		params_series(cell, name, sizeof(name));
		if ((real = beside_real(doc, cell)) != NULL)
			snprintf(name + strlen(name), sizeof(name) - strlen(name),
			    " (real: %s)", real);
		if (n == 0 || strcmp(name, series[n - 1].name) != 0) {
			if (n == max)
				break;
			if (n > 0)
				fprintf(data, "\n\n");
			snprintf(series[n].name, sizeof(series[n].name), "%s", name);
			series[n].points = 0;
			series[n].first = results_num(s, "median");
			series[n].starves = false;
			series[n].real = real != NULL;
			n++;
		}
		series[n - 1].points++;
		series[n - 1].starves |= results_stat(cell, "starved", "max") > 0;
		w = results_num(cell, "workers");
		*xmax = w > *xmax ? w : *xmax;
		for (k = 0; k < nseen && seen[k] != w; k++)
			;
		if (k == nseen && nseen < 64 && w > 0) {
			seen[nseen++] = w;
			snprintf(num, sizeof(num), "%s%g", used ? "," : "", w);
			used += (size_t)snprintf(tics + used, ticlen - used, "%s",
			    num);
			used = used < ticlen ? used : ticlen - 1;
		}
		*ymax = fmax(*ymax, results_num(s, "max"));
		fprintf(data, "%g %g %g %g\n", w, results_num(s, "median"),
		    results_num(s, "min"), results_num(s, "max"));
	}
	return n;
}

static FILE *
plot_gnuplot(char *err, size_t errlen)
{
	FILE *gp = popen("gnuplot", "w");

	if (gp == NULL)
		snprintf(err, errlen, "cannot run gnuplot (apt-get install "
		    "gnuplot-nox)");
	return gp;
}

/*
 * Draws dir/name.png and dir/name.svg, size "W,H": the terminal and the
 * output set, then the script (a printf format and its arguments).
 */
static int
plot_draw(const char *dir, const char *name, const char *size, char *err,
    size_t errlen, const char *script, ...)
{
	const char *term[] = { "pngcairo font ',10' size", "svg size" };
	const char *ext[] = { "png", "svg" };
	va_list ap;
	FILE *gp;
	int i;

	for (i = 0; i < 2; i++) {
		if ((gp = plot_gnuplot(err, errlen)) == NULL)
			return -1;
		fprintf(gp, "set terminal %s %s\nset output '%s/%s.%s'\n",
		    term[i], size, dir, name, ext[i]);
		va_start(ap, script);
		vfprintf(gp, script, ap);
		va_end(ap);
		if (pclose(gp) != 0) {
			snprintf(err, errlen, "gnuplot failed drawing %s.%s "
			    "(is gnuplot-nox installed?)", name, ext[i]);
			return -1;
		}
	}
	return 0;
}

/* A series of one point (inline: no width) is a horizontal reference. */
static void
plot_clauses(const struct plot_series *series, int n, const char *datpath,
    char *out, size_t len)
{
	size_t used = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (series[i].points == 1)
			used += (size_t)snprintf(out + used, len - used,
			    "%s%g with lines dt 2 lw 2 title '%s (one value)%s'",
			    i ? ", " : "", series[i].first, series[i].name,
			    series[i].starves ? " STARVES" : "");
		else
			used += (size_t)snprintf(out + used, len - used,
			    "%s'%s' index %d using 1:2:3:4 with yerrorlines "
			    "lw 2%s title '%s%s'", i ? ", " : "", datpath, i,
			    series[i].real ? " pt 7 ps 1.3" : "",
			    series[i].name, series[i].starves ? " STARVES" : "");
		/* Past the end (a long -o DIR) the rest is cut, not written. */
		used = used < len ? used : len - 1;
	}
	return;
}

static int
plot_figure(const cJSON *doc, const struct plot_figure *fig, const char *dir,
    char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	char datpath[4096], clauses[20480], tics[512] = "";
	struct plot_series series[64];
	double xmax, ymax;
	FILE *data;
	int n;

	snprintf(datpath, sizeof(datpath), "%s/%s.dat", dir, fig->file);
	if ((data = fopen(datpath, "w")) == NULL) {
		snprintf(err, errlen, "cannot write %s: %s", datpath,
		    strerror(errno));
		return -1;
	}
	n = plot_data(doc, fig, data, series, 64, tics, sizeof(tics), &xmax,
	    &ymax);
	fclose(data);
	if (n == 0) {		/* a file from before the field existed */
		unlink(datpath);
		return 0;
	}
	plot_clauses(series, n, datpath, clauses, sizeof(clauses));
	return plot_draw(dir, fig->file, "1100,700", err, errlen,
	    "set title \"%s against workers, median and min-max of "
	    "each cell\\n%s, %s\" noenhanced\n"
	    "set logscale x%s\nset xrange [0.8:%g]\nset xtics (%s)\n"
	    "set xlabel 'workers (shared, stealing: workers; limited: k; "
	    "eventloop: loops; rendezvous: max threads)'\n"
	    "set ylabel '%s' noenhanced\nset grid\n"
	    "set key outside right noenhanced\n"
	    /* Past 8 series gnuplot's colours repeat: dash those. */
	    "set for [k=9:16] linetype k lc k-8 dt 2 lw 2\n"
	    "set for [k=17:24] linetype k lc k-16 dt 3 lw 2\n"
	    "set linetype cycle 24\n"
	    "plot %s\n", fig->ylabel,
	    results_str(ctx, "cpu_model", "?"), results_str(ctx, "date", "?"),
	    fig->axis == PLOT_SHARE ? "\nset yrange [0:1.1]" :
	    fig->axis == PLOT_LINEAR && ymax > 0 ? "\nset yrange [0:*]" :
	    fig->axis == PLOT_LINEAR ? "\nset yrange [0:1]" : "y",
	    xmax * 1.25, tics, fig->ylabel, clauses);
}

/* A real runtime's cell over its model's, one point of a line each. */
struct plot_pair {
	char series[200];
	double workers, ratio, lo, hi;
};

struct plot_pairs {
	const cJSON *doc;
	struct plot_pair *p;
	int n, max;
};

static void
plot_pair_add(const cJSON *real, const cJSON *model, const char *name,
    void *arg)
{
	struct plot_pairs *pp = arg;
	const char *metric = "cpu_us_per_dispatch";
	struct plot_pair *p;
	char series[160];

	static const char *const stats[] = { "median", "min", "max" };
	size_t i;

	/* All six positive: not NaN (a cell without the figure), not 0. */
	for (i = 0; i < 3; i++)
		if (!(results_stat(real, metric, stats[i]) > 0) ||
		    !(results_stat(model, metric, stats[i]) > 0))
			return;
	if (pp->n == pp->max)
		return;
	p = &pp->p[pp->n++];
	params_series(real, series, sizeof(series));
	snprintf(p->series, sizeof(p->series), "%s / %s", series, name);
	p->workers = results_num(real, "workers");
	p->ratio = results_stat(real, metric, "median") /
	    results_stat(model, metric, "median");
	p->lo = results_stat(real, metric, "min") /
	    results_stat(model, metric, "max");
	p->hi = results_stat(real, metric, "max") /
	    results_stat(model, metric, "min");
	return;
}

/*
 * beside.png: each real runtime's CPU per dispatch over the model's of its
 * design, cell by cell against workers; nothing when the file has none.
 */
static int
plot_beside(const cJSON *doc, const char *dir, char *err, size_t errlen)
{
	struct plot_pair pairs[512];
	struct plot_pairs pp = { doc, pairs, 0, 512 };
	char datpath[4096], clauses[16384];
	size_t used = 0;
	int i, j, blocks = 0;
	bool *done;
	FILE *data;

	snprintf(datpath, sizeof(datpath), "%s/beside.dat", dir);
	beside_each(doc, doc, plot_pair_add, &pp);
	if (pp.n == 0)
		return 0;
	if ((data = fopen(datpath, "w")) == NULL || (done = calloc((size_t)pp.n,
	    sizeof(*done))) == NULL) {
		snprintf(err, errlen, "cannot write %s: %s", datpath,
		    strerror(errno));
		if (data != NULL)
			fclose(data);
		return -1;
	}
	for (i = 0; i < pp.n; i++) {
		if (done[i])
			continue;
		fprintf(data, "%s", blocks ? "\n\n" : "");
		for (j = i; j < pp.n; j++) {
			if (done[j] || strcmp(pairs[j].series, pairs[i].series))
				continue;
			done[j] = true;
			fprintf(data, "%g %g %g %g\n", pairs[j].workers,
			    pairs[j].ratio, pairs[j].lo, pairs[j].hi);
		}
		used += (size_t)snprintf(clauses + used, sizeof(clauses) - used,
		    "%s'%s' index %d using 1:2:3:4 with yerrorlines lw 2 pt 7 "
		    "title '%s'", blocks ? ", " : "", datpath, blocks,
		    pairs[i].series);
		used = used < sizeof(clauses) ? used : sizeof(clauses) - 1;
		blocks++;
	}
	fclose(data);
	free(done);
	return plot_draw(dir, "beside", "1100,700", err, errlen,
	    "set title \"each real runtime's CPU µs per dispatch over the "
	    "model's of its design, cell by cell: median over median, bars "
	    "min/max over max/min\\n%s, %s\" noenhanced\n"
	    "set logscale xy\nset xlabel 'workers'\n"
	    "set ylabel 'real / model (above 1: the real one costs more)'\n"
	    "set grid\nset key outside right noenhanced\n"
	    "plot 1 with lines dt 2 lc 'black' notitle, %s\n",
	    results_str(results_obj(doc, "context"), "cpu_model", "?"),
	    results_str(results_obj(doc, "context"), "date", "?"),
	    clauses);
}

/*
 * The load an advise file was measured under: its record of the advice,
 * else the one blocking profile its cells hold; NULL if neither.
 */
static const char *
plot_advise_load(const cJSON *doc)
{
	const cJSON *cell;
	const char *w, *load = NULL;

	if ((w = results_str(results_obj(doc, "advise"), "load", NULL)) != NULL)
		return strcmp(w, "resume") == 0 ? NULL : w;
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		w = results_str(cell, "workload", "resume");
		if (strcmp(w, "resume") == 0 || strcmp(w, "request") == 0)
			continue;
		if (load != NULL && strcmp(load, w) != 0)
			return NULL;
		load = w;
	}
	return load;
}

/* Rows as data blocks: width, capacity, p99 ms, CPU us per dispatch. */
static void
plot_advise_rows(FILE *data, const struct advise_row *rows, size_t n,
    bool split)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(data, "%u %g %g %g\n", split ? rows[i].view :
		    rows[i].workers, rows[i].capacity, rows[i].p99_us * 1e-3,
		    rows[i].cpu_us);
	fprintf(data, "\n\n");
	return;
}

/*
 * advise.png: of a file that holds one design under a blocking load
 * beside resume-only, capacity against width with the target rate, the
 * cost of a dispatch on the second axis; below, the p99 with its bound.
 * A split is drawn against its view's width. Nothing for other files.
 */
static int
plot_advise(const cJSON *doc, const char *dir, char *err, size_t errlen)
{
	const cJSON *a = results_obj(doc, "advise");
	struct advise_load load = { .name = plot_advise_load(doc) };
	struct advise_sel sel = { 0 };
	static struct advise_rows r;
	char datpath[4096], why[256], rate[96] = "", p99[96] = "";
	char cap_split[4200] = "", p99_split[4200] = "", tics[512] = "";
	double xmax = 1;
	size_t i, k = 0;
	FILE *data;

	if (load.name == NULL || advise_select(doc, "", &sel, why,
	    sizeof(why)) != 0 || advise_rows(doc, &sel, &load, &r, why,
	    sizeof(why)) != 0 || r.n < 2)
		return 0;
	snprintf(datpath, sizeof(datpath), "%s/advise.dat", dir);
	if ((data = fopen(datpath, "w")) == NULL) {
		snprintf(err, errlen, "cannot write %s: %s", datpath,
		    strerror(errno));
		return -1;
	}
	/* An unbounded width (0) has no place on a log axis. */
	for (i = 0; i < r.n && k < sizeof(tics); i++) {
		if (r.single[i].workers == 0)
			continue;
		k += (size_t)snprintf(tics + k, sizeof(tics) - k, "%s%u",
		    k ? "," : "", r.single[i].workers);
		xmax = fmax(xmax, r.single[i].workers);
	}
	plot_advise_rows(data, r.single, r.n, false);
	plot_advise_rows(data, r.split, r.nsplit, true);
	fclose(data);
	if (r.nsplit > 0) {
		snprintf(cap_split, sizeof(cap_split), ", '%s' index 1 using 1:2 "
		    "with linespoints lw 2 pt 6 dt 3 title 'capacity, split: N=%u "
		    "and a view of N'", datpath, r.split[0].workers);
		snprintf(p99_split, sizeof(p99_split), ", '%s' index 1 using 1:3 "
		    "with linespoints lw 2 pt 6 dt 3 title 'p99, split: N=%u and "
		    "a view of N'", datpath, r.split[0].workers);
	}
	if (results_num(a, "rate_ops_per_s") > 0)
		snprintf(rate, sizeof(rate), ", %g with lines dt 2 lw 2 lc 'red' "
		    "title 'target %g ops/s'", results_num(a, "rate_ops_per_s"),
		    results_num(a, "rate_ops_per_s"));
	if (results_num(a, "p99_ms") > 0)
		snprintf(p99, sizeof(p99), ", %g with lines dt 2 lw 2 lc 'red' "
		    "title 'bound %g ms'", results_num(a, "p99_ms"),
		    results_num(a, "p99_ms"));
	return plot_draw(dir, "advise", "1100,900", err, errlen,
	    "set multiplot layout 2,1 title \"a pool size: %s over %s, %u "
	    "coroutines, under %s (an op is 4 resumptions)\\n%s, %s\" "
	    "noenhanced\n"
	    "set logscale xy\nset grid\nset key top left noenhanced\n"
	    "set lmargin 12\nset rmargin 12\nset xtics (%s)\n"
	    "set xrange [0.8:%g]\n"
	    "set xlabel 'pool width N (a split: its blocking view)'\n"
	    "set ylabel 'capacity under the load, ops/s'\n"
	    "set y2label 'CPU µs per dispatch, resume-only'\n"
	    "set logscale y2\nset y2tics\nset ytics nomirror\n"
	    "plot '%s' index 0 using 1:2 with linespoints lw 2 pt 7 "
	    "title 'capacity, single pool'%s%s, "
	    "'%s' index 0 using 1:4 axes x1y2 with linespoints lw 2 pt 5 "
	    "title 'CPU µs per dispatch (right axis)'\n"
	    "unset y2label\nunset y2tics\nset ytics mirror\n"
	    "set ylabel 'dispatch latency p99 under the load, ms'\n"
	    "plot '%s' index 0 using 1:3 with linespoints lw 2 pt 7 "
	    "title 'p99, single pool'%s%s\n"
	    "unset multiplot\n", sel.dispatcher, sel.queue, sel.coroutines,
	    load.name, results_str(results_obj(doc, "context"), "cpu_model",
	    "?"), results_str(results_obj(doc, "context"), "date", "?"), tics,
	    xmax * 1.25, datpath, cap_split, rate, datpath, datpath, p99_split, p99);
}

int
plot_results(const cJSON *doc, const char *dir, char *err, size_t errlen)
{
	size_t i;

	if (results_validate(doc, err, errlen) != 0)
		return -1;
	for (i = 0; i < sizeof(plot_figures) / sizeof(plot_figures[0]); i++) {
		if (plot_figure(doc, &plot_figures[i], dir, err, errlen) != 0)
			return -1;
	}
	if (plot_advise(doc, dir, err, errlen) != 0)
		return -1;
	return plot_beside(doc, dir, err, errlen);
}

/* "shared/lfseg w=8 c=64", and the workload when it blocks, of a key. */
static void
plot_short_cell(const char *key, char *buf, size_t len)
{
	const char *pin = strstr(key, " pin="), *last = strrchr(key, ' ');
	int head = pin != NULL ? (int)(pin - key) : (int)strlen(key);

	if (pin != NULL && strcmp(last, " resume") != 0)
		snprintf(buf, len, "%.*s%s", head, key, last);
	else
		snprintf(buf, len, "%.*s", head, key);
	return;
}

int
plot_compare(const cJSON *rows, const cJSON *ctx, const char *metric,
    double threshold, const char *dir, char *err, size_t errlen)
{
	char datpath[4096], label[160], tics[8192];
	const cJSON *row;
	const char *why;
	size_t used = 0;
	FILE *data;
	int n = 0;

	snprintf(datpath, sizeof(datpath), "%s/ratio.dat", dir);
	if ((data = fopen(datpath, "w")) == NULL) {
		snprintf(err, errlen, "cannot write %s: %s", datpath,
		    strerror(errno));
		return -1;
	}
	/* A cell without one ratio to draw says why under its tic. */
	cJSON_ArrayForEach(row, rows) {
		plot_short_cell(results_str(row, "cell", "?"), label,
		    sizeof(label));
		why = strcmp(results_str(row, "verdict", ""), "broken") == 0 ?
		    " (broken)" : results_true(row, "bimodal") ?
		    " (two regimes)" : strcmp(results_str(row,
		    "compared_as", ""), "difference") == 0 ?
		    " (a difference)" : !isfinite(results_num(row, "ratio")) ?
		    " (too few runs)" : "";
		if (why[0] == '\0')
			fprintf(data, "%d %g %g %g\n", n, results_num(row,
			    "ratio"), results_num(row, "ratio_lo"),
			    results_num(row, "ratio_hi"));
		used += (size_t)snprintf(tics + used, sizeof(tics) - used,
		    "%s\"%s%s\" %d", n ? ", " : "", label, why, n);
		used = used < sizeof(tics) ? used : sizeof(tics) - 1;
		n++;
	}
	fclose(data);
	return plot_draw(dir, "ratio", "1100,700", err, errlen,
	    "set title \"NEW / BASE of %s per cell: Hodges-Lehmann "
	    "ratio and its interval\\ninside the band (±%.0f %%) a "
	    "difference is too small to matter; %s, %s\" noenhanced\n"
	    "set xrange [-0.5:%g]\nset xtics (%s) rotate by -30 "
	    "font ',8' noenhanced\nset ylabel 'NEW / BASE (below 1: NEW is "
	    "lower)'\nset grid ytics\nset key top left noenhanced\n"
	    "set style fill transparent solid 0.2 noborder\n"
	    "set logscale y\nset bmargin 10\nset rmargin 12\n"
	    "plot %g with filledcurves y1=%g title '±%.0f %% band', "
	    "1 with lines dt 2 lc 'black' notitle, '%s' using 1:2:3:4 "
	    "with yerrorbars pt 7 ps 1.2 lw 2 title 'ratio "
	    "[interval]'\n", metric, threshold * 100,
	    results_str(ctx, "cpu_model", "?"), results_str(ctx, "date", "?"),
	    n - 0.5, tics, 1 + threshold, 1 - threshold, threshold * 100,
	    datpath);
}

/* One heatmap of field over the rows (from, to), its values written in. */
static int
plot_heatmap(const cJSON *rows, const char *field, const char *title,
    const char *dir, char *err, size_t errlen)
{
	char datpath[4096], name[64];
	const cJSON *row;
	FILE *data;
	double from, last = -1, most = 0;

	snprintf(datpath, sizeof(datpath), "%s/matrix_%s.dat", dir, field);
	if ((data = fopen(datpath, "w")) == NULL) {
		snprintf(err, errlen, "cannot write %s: %s", datpath,
		    strerror(errno));
		return -1;
	}
	cJSON_ArrayForEach(row, rows) {
		from = results_num(row, "from");
		if (last >= 0 && from != last)
			fprintf(data, "\n");
		last = from;
		most = from > most ? from : most;
		fprintf(data, "%g %g %g \"%s\"\n", results_num(row, "to"), from,
		    results_num(row, field), results_str(row, "shares", "?"));
	}
	fclose(data);
	snprintf(name, sizeof(name), "matrix_%s", field);
	return plot_draw(dir, name, "900,800", err, errlen,
	    "set title \"%s\" noenhanced\nset xlabel 'to PU'\n"
	    "set ylabel 'from PU'\nset cblabel 'ns, one way'\n"
	    "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\n"
	    "set palette defined (0 'white', 1 'orange', 2 'red')\n"
	    "set xtics 1\nset ytics 1\n"
	    "plot '%s' using 1:2:3 with image notitle, '' using 1:2:"
	    "(sprintf('%%.0f\\n%%s', $3, strcol(4))) with labels "
	    "font ',9' notitle\n", title, most + 0.5, most + 0.5, datpath);
}

int
plot_matrix(const cJSON *rows, const char *queue, const char *dir,
    char *err, size_t errlen)
{
	char title[256];

	if (plot_heatmap(rows, "line_ns", "a cache line's handoff between two "
	    "PUs, one way (half a round trip); each cell: ns and what the "
	    "two share", dir, err, errlen) != 0)
		return -1;
	if (isnan(results_num(cJSON_GetArrayItem(rows, 0), "queue_ns")))
		return 0;
	snprintf(title, sizeof(title), "an item's handoff through %s between "
	    "two PUs, one way (half a round trip); each cell: ns and what "
	    "the two share", queue);
	return plot_heatmap(rows, "queue_ns", title, dir, err, errlen);
}
