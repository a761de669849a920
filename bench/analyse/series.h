/*
 * series.h - a results file's measured cells as the lines a worker sweep
 * draws: one series per design (params_series), its cells narrowest
 * width first, each marked when it is the harness's floor, never hands
 * a resumption to another thread, or keeps it on its worker's own
 * queue. The report's findings and its design by width grid read them.
 */
#ifndef BENCH_SERIES_H
#define BENCH_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#define SERIES_WIDTHS	32		/* widths a series keeps */
#define SERIES_NAME	320		/* a name, its machine's included */
#define SERIES_KEPT	1e-3		/* series_moved, at most, to keep */

/* The cells a worker sweep draws as one line, narrowest first. */
struct series {
	char name[SERIES_NAME];		/* params_series */
	const cJSON *cell[SERIES_WIDTHS];
	size_t n;
	bool floor;			/* inline: a control, no design */
	bool local;			/* never hands a resumption over */
	bool kept;			/* keeps it on the worker's own queue */
	double cpus;			/* its machine's online CPUs */
};

/* A results file's series. */
struct series_set {
	const cJSON *doc;
	struct series *s;		/* the caller frees it */
	size_t ns;
};

/*
 * Each measured cell of doc into its series, in the order of their
 * widths; 0, or -1 out of memory.
 */
int series_collect(struct series_set *d, const cJSON *doc);

/* A cell's headline: the median CPU µs per dispatch of its ok runs. */
double series_cost(const cJSON *cell);

/*
 * A cell's counted crossings between threads, a dispatch: its steals,
 * injections and unparks, those it counts (0 when it counts none).
 */
double series_moved(const cJSON *cell);

/* inline on the resume-only workload: the harness's own floor. */
bool series_is_floor(const cJSON *cell);

/* The series' cell at this width, or NULL. */
const cJSON *series_cell_at(const struct series *s, double workers);

/* Every width any series has, narrowest first (no bound last); how many. */
size_t series_widths(const struct series_set *d, double *w, size_t max);

/* "1 worker", "8 workers", "no bound" (at most 23 characters). */
const char *series_width(double workers, char *buf, size_t len);

/* "at 1 worker", "at 8 workers", "with no bound". */
const char *series_at(double workers, char *buf, size_t len);

#endif /* BENCH_SERIES_H */
