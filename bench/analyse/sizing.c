/*
 * sizing.c - advise.png, the picture of an advise file: a pool's capacity
 * under its load and the cost of a dispatch against the pool's width,
 * and the p99 below (see sizing.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "plot.h"
#include "results.h"
#include "sizing.h"

/*
 * The load an advise file was measured under: its record of the advice,
 * else the one blocking profile its cells hold; NULL if neither.
 */
static const char *
sizing_load(const cJSON *doc)
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

/* What advise.png's three axes span: capacity, p99 (ms) and CPU. */
struct sizing_span {
	struct plot_span cap, p99, cpu;
};

/*
 * Rows as data blocks: width, capacity, p99 ms, CPU us per dispatch; what
 * they span.
 */
static void
sizing_rows(FILE *data, const struct advise_row *rows, size_t n,
    bool split, struct sizing_span *sp)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fprintf(data, "%u %g %g %g\n", split ? rows[i].view :
		    rows[i].workers, rows[i].capacity, rows[i].p99_us * 1e-3,
		    rows[i].cpu_us);
		sp->cap.xmax = fmax(sp->cap.xmax, split ? rows[i].view :
		    rows[i].workers);
		plot_span_add(&sp->cap, rows[i].capacity);
		plot_span_add(&sp->p99, rows[i].p99_us * 1e-3);
		plot_span_add(&sp->cpu, rows[i].cpu_us);
	}
	fprintf(data, "\n\n");
	return;
}

/* advise.png's axes: workers; capacity and CPU above, p99 below. */
struct sizing_axes {
	char x[512], cap[8192], cpu[8192], p99[8192];
};

static void
sizing_axes(struct sizing_span *sp, const cJSON *a, struct sizing_axes *ax)
{

	plot_span_add(&sp->cap, results_num(a, "rate_ops_per_s"));
	plot_span_add(&sp->p99, results_num(a, "p99_ms"));
	plot_workers(sp->cap.xmax, ax->x, sizeof(ax->x));
	plot_log_axis("y", sp->cap.ymin, sp->cap.ymax, ax->cap,
	    sizeof(ax->cap));
	plot_log_axis("y2", sp->cpu.ymin, sp->cpu.ymax, ax->cpu,
	    sizeof(ax->cpu));
	plot_log_axis("y", sp->p99.ymin, sp->p99.ymax, ax->p99,
	    sizeof(ax->p99));
	return;
}

/* The i-th width of the table: the single pool's, then the splits' views. */
static unsigned int
sizing_width(const struct advise_rows *r, size_t i)
{

	return i < r->n ? r->single[i].workers : r->split[i - r->n].view;
}

/*
 * Each width of the table that the worker axis (powers of two) does not
 * label, once, as tics added to it: 3 and 6 of 1, 2, 3, 4, 6, 8.
 */
static void
sizing_widths(const struct advise_rows *r, char *buf, size_t len)
{
	unsigned int w;
	size_t i, j, used = 0;

	buf[0] = '\0';
	for (i = 0; i < r->n + r->nsplit && len - used > 32; i++) {
		w = sizing_width(r, i);
		for (j = 0; j < i && sizing_width(r, j) != w; j++)
			;
		if (w == 0 || (w & (w - 1)) == 0 || j < i)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s\"%u\" %u",
		    used == 0 ? "set xtics add (" : ", ", w, w);
	}
	if (used > 0)
		snprintf(buf + used, len - used, ")\n");
	return;
}

/*
 * The width advise recommends, from the file's rows and the target it
 * records, as advise picks it (advise_choose_all): a line across both
 * plots at it, and its words in the upper one, on the side of the line
 * with more room on an axis to xmax (plot_workers). Nothing when advise
 * recommends none.
 */
static void
sizing_pick(const cJSON *a, const struct advise_rows *r, double xmax,
    char *buf, size_t len)
{
	double top = exp2(ceil(log2(fmax(xmax, 1))));
	struct advise_target t = { .rate = results_num(a, "rate_ops_per_s"),
	    .p99_us = results_num(a, "p99_ms") * 1e3 };
	struct advise_pick p;
	unsigned int at = 0;
	char words[96];

	t.rate = t.rate > 0 ? t.rate : 0;
	t.p99_us = t.p99_us > 0 ? t.p99_us : 0;
	advise_choose_all(r, &t, &p);
	if (p.split_better) {
		at = r->split[p.split].view;
		snprintf(words, sizeof(words), "recommended: split N=%u, "
		    "view %u", r->split[p.split].workers, at);
	} else if (p.row >= 0) {
		at = r->single[p.row].workers;
		snprintf(words, sizeof(words), "recommended N=%u%s", at,
		    p.kind == ADVISE_NO_KNEE ? " or wider" : "");
	}
	buf[0] = '\0';
	if (at > 0)
		snprintf(buf, len, "set arrow 1 from %u, graph 0 to %u, "
		    "graph 1 nohead front lw 2 dt 4 lc rgb '%s'\n"
		    "set label 1 \"%s\" at %u, graph 0.94 %s front tc rgb "
		    "'%s'\n", at, at, plot_colours[3], words, at,
		    at * at > 0.8 * top * 1.2 ? "right offset -0.6, 0" :
		    "left offset 0.6, 0", plot_colours[3]);
	return;
}

/*
 * The clauses of advise.png that a file may or may not call for: the
 * target's, the split's, the widths off the powers of two, the pick.
 */
struct sizing_extra {
	char cap_split[200], p99_split[200], rate[160], p99[160];
	char widths[2048], pick[512];
};

static void
sizing_extra(const cJSON *a, const struct advise_rows *r, double xmax,
    struct sizing_extra *x)
{

	memset(x, 0, sizeof(*x));
	if (r->nsplit > 0) {
		snprintf(x->cap_split, sizeof(x->cap_split), ", dat index 1 "
		    "using 1:2 with linespoints lw 2 lc rgb '%s' pt 6 dt 3 "
		    "title 'capacity, split N=%u'", plot_colours[1],
		    r->split[0].workers);
		snprintf(x->p99_split, sizeof(x->p99_split), ", dat index 1 "
		    "using 1:3 with linespoints lw 2 lc rgb '%s' pt 6 dt 3 "
		    "title 'p99, split N=%u'", plot_colours[1],
		    r->split[0].workers);
	}
	if (results_num(a, "rate_ops_per_s") > 0)
		snprintf(x->rate, sizeof(x->rate), ", %g with lines dt 2 lw 2 "
		    "lc rgb '%s' title 'target %g ops/s'", results_num(a,
		    "rate_ops_per_s"), plot_colours[5], results_num(a,
		    "rate_ops_per_s"));
	if (results_num(a, "p99_ms") > 0)
		snprintf(x->p99, sizeof(x->p99), ", %g with lines dt 2 lw 2 "
		    "lc rgb '%s' title 'bound %g ms'", results_num(a, "p99_ms"),
		    plot_colours[5], results_num(a, "p99_ms"));
	sizing_widths(r, x->widths, sizeof(x->widths));
	sizing_pick(a, r, xmax, x->pick, sizeof(x->pick));
	return;
}

int
sizing_draw(const cJSON *doc, const char *dir, char *err, size_t errlen)
{
	const cJSON *a = results_obj(doc, "advise");
	struct advise_load load = { .name = sizing_load(doc) };
	struct sizing_span sp = { { 1, INFINITY, 0 }, { 1, INFINITY, 0 },
	    { 1, INFINITY, 0 } };
	struct advise_sel sel = { 0 };
	static struct advise_rows r;
	static struct sizing_axes ax;
	struct sizing_extra x;
	char datpath[4096], why[256];
	FILE *data;

	if (load.name == NULL || advise_select(doc, "", &sel, why,
	    sizeof(why)) != 0 || advise_rows(doc, &sel, &load, &r, why,
	    sizeof(why)) != 0 || r.n < 2)
		return 0;
	if ((data = plot_data_open(dir, "advise", datpath, sizeof(datpath),
	    err, errlen)) == NULL)
		return -1;
	sizing_rows(data, r.single, r.n, false, &sp);
	sizing_rows(data, r.split, r.nsplit, true, &sp);
	fclose(data);
	sizing_axes(&sp, a, &ax);
	sizing_extra(a, &r, sp.cap.xmax, &x);
	return plot_draw(dir, "advise", "1100,960", err, errlen,
	    "set multiplot layout 2,1 title \"a pool size: %s over %s, %u "
	    "coroutines, under %s\\nan op is 4 resumptions; %s, %s\"\n"
	    "dat = '%s'\nset grid\nset lmargin 12\nset rmargin 12\n"
	    "set key bmargin center horizontal Left reverse maxcols 3 "
	    "height 1 samplen 3\n%s%s%s%s%s"
	    "set xlabel 'pool width N (a split: its blocking view)'\n"
	    "set ylabel 'capacity under the load, ops/s'\n"
	    "set y2label 'CPU µs per dispatch, resume-only'\n"
	    "set ytics nomirror\n"
	    "plot dat index 0 using 1:2 with linespoints lw 2 lc rgb '%s' "
	    "pt 7 title 'capacity, single pool'%s%s, "
	    "dat index 0 using 1:4 axes x1y2 with linespoints lw 2 lc rgb '%s' "
	    "pt 5 title 'CPU µs per dispatch (right)'\n"
	    "unset label 1\nunset y2label\nunset y2tics\n"
	    "unset logscale y2\n%s"
	    "set ytics mirror\n"
	    "set ylabel 'dispatch latency p99 under the load, ms'\n"
	    "plot dat index 0 using 1:3 with linespoints lw 2 lc rgb '%s' "
	    "pt 7 title 'p99, single pool'%s%s\n"
	    "unset multiplot\n", sel.dispatcher, sel.queue, sel.coroutines,
	    load.name, results_str(results_obj(doc, "context"), "cpu_model",
	    "?"), results_str(results_obj(doc, "context"), "date", "?"),
	    datpath, ax.x, x.widths, x.pick, ax.cap, ax.cpu, plot_colours[0],
	    x.cap_split, x.rate,
	    plot_colours[2], ax.p99, plot_colours[0], x.p99_split, x.p99);
}
