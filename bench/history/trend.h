/*
 * trend.h - a store's history of one metric: per series (a cell on one
 * machine, from one build type) each revision's runs against commit
 * order, its steps found by changepoint.h, as tables (Markdown for a pull
 * request's comment) and a picture, trend.png.
 */
#ifndef BENCH_TREND_H
#define BENCH_TREND_H

#include <stdbool.h>
#include <stdio.h>

#include "changepoint.h"
#include "store.h"

/* The most series a table or the picture shows (--cell narrows). */
#define TREND_SHOWN	8

struct trend_opts {
	const char *metric;
	const char *cell;	/* words each cell's key must hold; NULL: any */
	struct cp_opts cp;
	int format;		/* enum table_format */
	const char *dir;	/* where trend.png goes; NULL: no picture */
};

/* What a history found beyond its tables. */
struct trend_found {
	/*
	 * Steps the wrong way (slower, or less throughput) that are news for
	 * the merge that measured a series' newest revision: a step that
	 * begins there, or one before it that the history without the
	 * newest did not call (the merge that made it did not see it); the
	 * machine's (a probe moved with it) are not counted here.
	 */
	int fresh;
	int machine;		/* such steps a probe's move explains */
	bool drawn;		/* trend.png written: some series was shown */
};

/*
 * Writes the history to out. 0, or -1 with err (nothing of the metric in
 * the store, or no cell matches).
 */
int trend_write(struct store *s, const struct trend_opts *o, FILE *out,
    struct trend_found *f, char *err, size_t errlen);

#endif /* BENCH_TREND_H */
