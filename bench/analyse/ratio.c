/*
 * ratio.c - compare's picture, ratio.png: each cell's NEW / BASE and its
 * interval beside the band too small to matter (see ratio.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "label.h"
#include "plot.h"
#include "ratio.h"
#include "results.h"

/* Why a row has no ratio to draw, said under its tic; "" when it has. */
static const char *
ratio_why(const cJSON *row)
{

	return strcmp(results_str(row, "verdict", ""), "broken") == 0 ?
	    " (broken)" : results_true(row, "bimodal") ? " (two regimes)" :
	    strcmp(results_str(row, "compared_as", ""), "difference") == 0 ?
	    " (a difference)" : !isfinite(results_num(row, "ratio")) ?
	    " (too few runs)" : "";
}

/*
 * The rows' ratios as data, their labels as x tics (upright, one under
 * each cell); the longest label and the span of the ratios. Returns the
 * number of rows.
 */
static int
ratio_data(const cJSON *rows, FILE *data, char *tics, size_t len,
    size_t *longest, struct plot_span *sp)
{
	char label[160];
	const cJSON *row;
	const char *why;
	size_t used = 0;
	int n = 0;

	*longest = 0;
	cJSON_ArrayForEach(row, rows) {
		label_short_cell(results_str(row, "cell", "?"), label,
		    sizeof(label));
		why = ratio_why(row);
		if (why[0] == '\0') {
			fprintf(data, "%d %g %g %g\n", n, results_num(row,
			    "ratio"), results_num(row, "ratio_lo"),
			    results_num(row, "ratio_hi"));
			plot_span_add(sp, results_num(row, "ratio_lo"));
			plot_span_add(sp, results_num(row, "ratio_hi"));
		}
		plot_cat(tics, len, &used, "%s\"%s%s\" %d", n ? ", " : "",
		    label, why, n);
		*longest = strlen(label) + strlen(why) > *longest ?
		    strlen(label) + strlen(why) : *longest;
		n++;
	}
	return n;
}

int
ratio_draw(const cJSON *rows, const cJSON *ctx, const char *metric,
    double threshold, const char *dir, char *err, size_t errlen)
{
	static char tics[65536], yaxis[8192];
	struct plot_span sp = { 1, INFINITY, 0 };
	char datpath[4096], size[32];
	size_t longest;
	FILE *data;
	int n, bmargin;

	if ((data = plot_data_open(dir, "ratio", datpath, sizeof(datpath), err,
	    errlen)) == NULL)
		return -1;
	n = ratio_data(rows, data, tics, sizeof(tics), &longest, &sp);
	fclose(data);
	plot_span_add(&sp, 1 + threshold);
	plot_span_add(&sp, 1 - threshold);
	plot_ratio_axis(sp.ymin, sp.ymax, yaxis, sizeof(yaxis));
	/* Upright labels need their length below the plot, half a line a
	 * character; the canvas widens past 50 cells, 18 px each. */
	bmargin = 2 + (int)(0.5 * (double)longest);
	snprintf(size, sizeof(size), "%d,%d", n > 50 ? 200 + 18 * n : 1100,
	    560 + 12 * bmargin);
	return plot_draw(dir, "ratio", size, err, errlen,
	    "set title \"NEW / BASE of %s, each cell: ratio and its interval"
	    "\\ninside the ±%.0f %% band a difference is too small to "
	    "matter; %s, %s\"\n"
	    "set xrange [-0.5:%g]\nset xtics (%s) rotate by 90 right\n"
	    "set ylabel 'NEW / BASE (below 1: NEW is lower)'\n%s"
	    "set grid ytics\nset key top left Left reverse samplen 3\n"
	    "set style fill transparent solid 0.2 noborder\n"
	    "set bmargin %d\nset rmargin 4\n"
	    "plot %g with filledcurves y1=%g lc rgb '%s' "
	    "title '±%.0f %% band', "
	    "1 with lines dt 2 lc 'black' notitle, '%s' using 1:2:3:4 "
	    "with yerrorbars lc rgb '%s' pt 7 ps 1.2 lw 2 title "
	    "'ratio [interval]'\n", metric, threshold * 100,
	    results_str(ctx, "cpu_model", "?"), results_str(ctx, "date", "?"),
	    n - 0.5, tics, yaxis, bmargin, 1 + threshold, 1 - threshold,
	    plot_colours[6], threshold * 100, datpath, plot_colours[4]);
}
