/*
 * plot.h - what every picture shares, drawn by gnuplot: each series'
 * look, the axes, the key, and the drawing of a picture's script.
 */
#ifndef BENCH_PLOT_H
#define BENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#define PLOT_SERIES	128

/* The palette, a series' colour in turn (plot.c says why these). */
extern const char *const plot_colours[];

/*
 * A series' look, the same in every picture of a file: a model its own
 * colour, solid; a real runtime its model's colour (the first of its
 * models the file holds), dashed.
 */
struct plot_style {
	char name[320];
	char model[320];	/* a real runtime's model's series; "": none */
	char design[320];	/* name without its machine: one colour each */
	int machine;		/* a merged file's machine: its dash; else 0 */
	const char *colour;
	int point, dash;
	bool real, floor;
};

struct plot_styles {
	struct plot_style s[PLOT_SERIES];
	int n;
};

/* A cell's series as pictures name it: a real runtime says so. */
void plot_name(const cJSON *doc, const cJSON *cell, char *buf, size_t len);

/*
 * The colours: the models' first, in the file's order, and each real
 * runtime whose model the file lacks; then each other real runtime its
 * model's (a real one too: urcu-lfq's is ckfifo). Past the table's end a
 * colour comes round again, dotted.
 */
void plot_styles(const cJSON *doc, struct plot_styles *st);

/* The style of that series; past the table's PLOT_SERIES, black dots. */
const struct plot_style *plot_style_of(const struct plot_styles *st,
    const char *name);

/*
 * Appends to buf at *used; text past its end (a long -o DIR) is cut, and
 * *used stays inside it.
 */
void plot_cat(char *buf, size_t len, size_t *used, const char *fmt, ...);

/* What the data of a figure spans: widths, and the y values above 0. */
struct plot_span {
	double xmax, ymin, ymax;
};

/* Widens sp to v: ymin to a value above 0, ymax to a finite one. */
void plot_span_add(struct plot_span *sp, double v);

/*
 * A log axis over [lo, hi] (axis "y" or "y2"): 1-2-5 tics over three
 * decades or so, powers of ten past that (at most ten labelled), finer
 * steps for a narrow range. Linear from 0 without a positive value.
 */
void plot_log_axis(const char *axis, double lo, double hi, char *buf,
    size_t len);

/* A ratio's log axis: as far below 1 as above, so 2× and ½× sit alike. */
void plot_ratio_axis(double lo, double hi, char *buf, size_t len);

/*
 * The worker axis of every picture: log 2, tics at 1, 2, 4 ... up to the
 * widest width, and nothing between.
 */
void plot_workers(double xmax, char *buf, size_t len);

/*
 * The key below the plot in as many columns as its longest title allows,
 * and the canvas tall enough for its rows: the plot keeps its height.
 */
void plot_key(int n, size_t longest, int height, char *size, size_t sizelen,
    char *key, size_t keylen);

/*
 * Opens dir/name.dat, a picture's data for gnuplot, and writes its path
 * to path; NULL with err when it cannot.
 */
FILE *plot_data_open(const char *dir, const char *name, char *path,
    size_t len, char *err, size_t errlen);

/*
 * Draws dir/name.png and dir/name.svg, size "W,H": the terminal and the
 * output set, then the script (a printf format and its arguments). Text
 * is plain (no enhanced markup: shared_mpmc is not a subscript).
 * 0, or -1 with err.
 */
int plot_draw(const char *dir, const char *name, const char *size, char *err,
    size_t errlen, const char *script, ...);

#endif /* BENCH_PLOT_H */
