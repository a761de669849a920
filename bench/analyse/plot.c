/*
 * plot.c - what every picture shares: each series' colour, point type and
 * dashes, the axes, the key, and gnuplot to draw. The pictures are in
 * figure.c (a results file's), sizing.c (advise.png), ratio.c (compare's)
 * and heatmap.c (matrix's).
 *
 * Every picture is laid out for a reader: the key below the plot, which
 * keeps the full width; one worker axis (1, 2, 4 ... ) on every picture
 * that has one; log axes labelled 1-2-5 or in powers of ten, never
 * gnuplot's fixed decimals; one colour and point type per series, a real
 * runtime dashed in its model's colour.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "beside.h"
#include "params.h"
#include "plot.h"
#include "results.h"

/*
 * One colour per series that is not a real runtime: Okabe and Ito's eight
 * without their yellow (too faint as a line on white), then darker ones
 * apart from those. A sweep of every design and queue draws 17 lines, and
 * gnuplot's own eight, recycled, made four pairs of them alike.
 */
const char *const plot_colours[] = {
	"#000000", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00",
	"#CC79A7", "#882255", "#117733", "#332288", "#999933", "#8C510A",
	"#AA4499", "#44AA99", "#E7298A", "#66A61E", "#B2182B", "#6A3D9A",
};

#define PLOT_NCOLOURS	(sizeof(plot_colours) / sizeof(plot_colours[0]))
#define PLOT_FLOOR	"#888888"	/* the harness floor: grey, dotted */

/* gnuplot's point types, the filled ones first: each series its own. */
static const int plot_points[] = {
	7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14, 1, 2, 3,
};

/* A real runtime's dashes, by how many share its model's colour. */
static const int plot_dashes[] = { 2, 4, 5 };

void
plot_name(const cJSON *doc, const cJSON *cell, char *buf, size_t len)
{
	const char *real;

	params_series(cell, buf, len);
	if ((real = beside_real(doc, cell)) != NULL)
		snprintf(buf + strlen(buf), len - strlen(buf), " (real: %s)",
		    real);
	return;
}

void
plot_cat(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
	return;
}

/* The index of the series of that name, or -1. */
static int
plot_style_find(const struct plot_styles *st, const char *name)
{
	int i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->s[i].name, name) == 0)
			return i;
	return -1;
}

const struct plot_style *
plot_style_of(const struct plot_styles *st, const char *name)
{
	static const struct plot_style past = { .colour = "#000000",
	    .point = 0, .dash = 3 };
	int i = plot_style_find(st, name);

	return i >= 0 ? &st->s[i] : &past;
}

/*
 * A merged file's series: its design apart from its machine (the same
 * design keeps one colour on every machine) and the machine's place.
 */
static void
plot_machine(const cJSON *doc, const cJSON *cell, struct plot_style *s)
{
	const char *m = results_str(cell, "machine", NULL);
	const cJSON *e;
	size_t n = strlen(s->name);

	memcpy(s->design, s->name, sizeof(s->design));
	s->machine = 0;
	if (m == NULL)
		return;
	if (n > strlen(m) + 4 && strcmp(s->name + n - strlen(m), m) == 0)
		s->design[n - strlen(m) - 4] = '\0';	/* " on " */
	cJSON_ArrayForEach(e, results_arr(doc, "machines")) {
		if (strcmp(results_str(e, "name", ""), m) == 0)
			break;
		s->machine++;
	}
	return;
}

/* The colour an earlier series of the same design took, or NULL. */
static const char *
plot_design_colour(const struct plot_styles *st, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (st->s[j].colour != NULL && !st->s[j].floor &&
		    strcmp(st->s[j].design, st->s[i].design) == 0)
			return st->s[j].colour;
	return NULL;
}

/* Every series of doc in its order, with its model when it is real. */
static void
plot_styles_collect(const cJSON *doc, struct plot_styles *st)
{
	const cJSON *cell, *model;
	struct plot_style *s;
	char name[320];
	int i;

	st->n = 0;
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		plot_name(doc, cell, name, sizeof(name));
		if ((i = plot_style_find(st, name)) >= 0)
			s = &st->s[i];
		else {
			if (st->n == PLOT_SERIES)
				continue;
			s = &st->s[st->n];
			memset(s, 0, sizeof(*s));
			snprintf(s->name, sizeof(s->name), "%s", name);
			s->real = beside_real(doc, cell) != NULL;
			s->floor = strcmp(results_str(cell, "dispatcher", ""),
			    "inline") == 0;
			s->point = plot_points[(st->n) % (sizeof(plot_points) /
			    sizeof(plot_points[0]))];
			s->dash = s->real ? plot_dashes[0] : 1;
			plot_machine(doc, cell, s);
			st->n++;
		}
		if (s->real && s->model[0] == '\0' &&
		    (model = beside_first(doc, cell)) != NULL)
			plot_name(doc, model, s->model, sizeof(s->model));
	}
	return;
}

void
plot_styles(const cJSON *doc, struct plot_styles *st)
{
	struct plot_style *s;
	size_t next = 0;
	int i, j, m, shared;

	plot_styles_collect(doc, st);
	for (i = 0; i < st->n; i++) {
		s = &st->s[i];
		if (s->floor) {
			s->colour = PLOT_FLOOR;
			s->dash = 3;
		} else if (s->machine > 0 && plot_design_colour(st, i)) {
			s->colour = plot_design_colour(st, i);
			s->dash = plot_dashes[(s->machine - 1) % (int)(sizeof(
			    plot_dashes) / sizeof(plot_dashes[0]))];
		} else if (!s->real || plot_style_find(st, s->model) < 0) {
			s->colour = plot_colours[next % PLOT_NCOLOURS];
			s->dash = next >= PLOT_NCOLOURS ? 3 : s->dash;
			next++;
		}
	}
	for (i = 0; i < st->n; i++) {
		s = &st->s[i];
		if (s->colour != NULL)
			continue;
		m = plot_style_find(st, s->model);
		s->colour = st->s[m].colour != NULL ? st->s[m].colour :
		    plot_colours[next++ % PLOT_NCOLOURS];
		for (j = 0, shared = 0; j < st->n; j++)
			shared += j != i && st->s[j].real &&
			    st->s[j].colour == s->colour;
		s->dash = plot_dashes[shared % (int)(sizeof(plot_dashes) /
		    sizeof(plot_dashes[0]))];
	}
	return;
}

/* 10 to the power e as a reader writes it: 10⁻⁷. */
static void
plot_power(int e, char *buf, size_t len)
{
	static const char *const sup[] = { "⁰", "¹", "²", "³", "⁴", "⁵",
	    "⁶", "⁷", "⁸", "⁹" };
	char digits[16];
	size_t used = 0, i;

	plot_cat(buf, len, &used, "10%s", e < 0 ? "⁻" : "");
	snprintf(digits, sizeof(digits), "%d", abs(e));
	for (i = 0; digits[i] != '\0'; i++)
		plot_cat(buf, len, &used, "%s", sup[digits[i] - '0']);
	return;
}

/* A tic's label: 0.002 or 5000, or 10⁻⁷ and 2×10⁶ where digits run long. */
static void
plot_tic_label(double v, bool power, char *buf, size_t len)
{
	int e = (int)floor(log10(v) + 1e-9);
	double m = v / pow(10, e);
	char p[48];

	if (!power) {
		snprintf(buf, len, "%.6g", v);
		return;
	}
	plot_power(e, p, sizeof(p));
	if (fabs(m - 1) < 1e-6)
		snprintf(buf, len, "%s", p);
	else
		snprintf(buf, len, "%.2g×%s", m, p);
	return;
}

/* The mantissas of a log axis's tics, coarse to fine. */
static const double plot_mantissas[][10] = {
	{ 1 }, { 1, 2, 5 }, { 1, 1.5, 2, 3, 5, 7 },
	{ 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 },
};
static const int plot_nmantissas[] = { 1, 3, 6, 10 };

#define PLOT_TICS	400

/*
 * Set k's tics from the last at or below lo to the first at or above hi,
 * into t; their number.
 */
static int
plot_log_tics(int k, double lo, double hi, double *t)
{
	int e, i, n = -1;
	double v;

	for (e = (int)floor(log10(lo)) - 1; e <= (int)ceil(log10(hi)) &&
	    n < PLOT_TICS; e++)
		for (i = 0; i < plot_nmantissas[k] && n < PLOT_TICS; i++) {
			v = plot_mantissas[k][i] * pow(10, e);
			if (v <= lo * (1 + 1e-9))
				n = 0;		/* the last at or below lo */
			if (n < 0)
				continue;
			t[n++] = v;
			if (v >= hi * (1 - 1e-9))
				return n;
		}
	return n;
}

/*
 * The tics as gnuplot's list: every `every`-th labelled (in powers of ten
 * if one of those would run long), the others minor; between two whole
 * decades, their 2 to 9 minor too.
 */
static void
plot_log_list(const double *t, int n, int every, bool decades, char *buf,
    size_t len, size_t *used)
{
	char label[64];
	bool power = false;
	int i, m;

	for (i = 0; i < n; i += every)
		power |= t[i] < 1e-4 * (1 - 1e-9) || t[i] >= 1e6 * (1 - 1e-9);
	for (i = 0; i < n; i++) {
		if (i % every == 0)
			plot_tic_label(t[i], power, label, sizeof(label));
		plot_cat(buf, len, used, "%s\"%s\" %.6g%s", i ? ", " : "",
		    i % every == 0 ? label : "", t[i], i % every == 0 ? "" :
		    " 1");
		for (m = 2; decades && i + 1 < n && m < 10; m++)
			plot_cat(buf, len, used, ", \"\" %.6g 1", m * t[i]);
	}
	return;
}

void
plot_log_axis(const char *axis, double lo, double hi, char *buf, size_t len)
{
	static double t[PLOT_TICS];
	size_t used = 0;
	double f;
	int k, n;

	if (!(lo > 0) || !(hi >= lo) || !isfinite(hi)) {
		snprintf(buf, len, "unset logscale %s\nset %srange [0:*]\n",
		    axis, axis);
		return;
	}
	lo = fmax(lo, hi * 1e-30);
	/* Under a factor of 2 (one cell, or a flat series), widened to it:
	 * the axis needs three labels to be read. */
	if (hi < 2 * lo) {
		f = sqrt(2 * lo / hi);
		lo /= f;
		hi *= f;
	}
	n = plot_log_tics(1, lo, hi, t);
	k = n > 10 ? 0 : n >= 4 ? 1 : plot_log_tics(2, lo, hi, t) >= 4 ? 2 : 3;
	n = plot_log_tics(k, lo, hi, t);
	/* A hair past the end tics: gnuplot drops one that rounds outside. */
	plot_cat(buf, len, &used, "set logscale %s\nset %srange [%.9g:%.9g]\n"
	    "set %stics (", axis, axis, t[0] * (1 - 1e-6), t[n - 1] *
	    (1 + 1e-6), axis);
	plot_log_list(t, n, k == 0 ? (n + 9) / 10 : 1, k == 0 && n <= 7, buf,
	    len, &used);
	plot_cat(buf, len, &used, ")\n");
	return;
}

void
plot_ratio_axis(double lo, double hi, char *buf, size_t len)
{
	double top = fmax(fmax(hi, 1 / lo), 1.02);

	if (!(lo > 0) || !isfinite(hi))
		top = 2;
	plot_log_axis("y", 1 / top, top, buf, len);
	return;
}

void
plot_workers(double xmax, char *buf, size_t len)
{
	double top = 1;
	size_t used = 0;

	plot_cat(buf, len, &used, "set logscale x 2\nset xtics (\"1\" 1");
	while (top < xmax) {
		top *= 2;
		plot_cat(buf, len, &used, ", \"%g\" %g", top, top);
	}
	plot_cat(buf, len, &used, ")\nset xrange [0.8:%g]\n", top * 1.2);
	return;
}

void
plot_key(int n, size_t longest, int height, char *size, size_t sizelen,
    char *key, size_t keylen)
{
	int cols = longest <= 34 ? 3 : longest <= 56 ? 2 : 1;

	snprintf(size, sizelen, "1100,%d", height + 20 * ((n + cols - 1) /
	    cols));
	snprintf(key, keylen, "set key bmargin center horizontal Left reverse "
	    "maxcols %d height 1 samplen 3\n", cols);
	return;
}

void
plot_span_add(struct plot_span *sp, double v)
{

	if (v > 0 && isfinite(v))
		sp->ymin = fmin(sp->ymin, v);
	if (isfinite(v))
		sp->ymax = fmax(sp->ymax, v);
	return;
}

FILE *
plot_data_open(const char *dir, const char *name, char *path, size_t len,
    char *err, size_t errlen)
{
	FILE *data;

	snprintf(path, len, "%s/%s.dat", dir, name);
	if ((data = fopen(path, "w")) == NULL)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(errno));
	return data;
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

int
plot_draw(const char *dir, const char *name, const char *size, char *err,
    size_t errlen, const char *script, ...)
{
	const char *term[] = { "pngcairo noenhanced font ',10' size",
	    "svg noenhanced size" };
	const char *ext[] = { "png", "svg" };
	va_list ap;
	FILE *gp;
	int i;

	for (i = 0; i < 2; i++) {
		if ((gp = plot_gnuplot(err, errlen)) == NULL)
			return -1;
		fprintf(gp, "set encoding utf8\nset terminal %s %s\n"
		    "set output '%s/%s.%s'\n", term[i], size, dir, name,
		    ext[i]);
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
