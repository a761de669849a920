/*
 * store.h - the history store: results files of many revisions and
 * machines in one SQLite database a user can query with sqlite3(1)
 * (docs/history.md gives its schema, versioned by PRAGMA user_version).
 * Every run of every cell is kept with each of its numeric fields, beside
 * the whole file it came from; an import is one transaction, so a crash
 * or Ctrl-C during one leaves the store as it was.
 *
 * The store_* namespace: each call returns 0 or -1 with one line in err.
 */
#ifndef BENCH_STORE_H
#define BENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define STORE_SCHEMA	2	/* PRAGMA user_version this build writes */

struct store;

/*
 * Opens the store at path; where no file is and create says so, makes
 * one, which two processes may do at once (one store is made, both use
 * it). An empty file, a file that is not a store and a damaged one are
 * refused, the damage in SQLite's words; a store of version 1 is migrated
 * to this one, in one transaction.
 */
int store_open(const char *path, bool create, struct store **sp, char *err,
    size_t errlen);
void store_close(struct store *s);

/*
 * Imports the results file at path: its machine, revision (the commit's
 * order and date as git knows them here, when it does), options, and
 * every run, and its calibration probes. A file already imported (the
 * same bytes, or the same runs in other bytes) is refused, as is one of a
 * newer results schema, and a store SQLite finds damaged is written
 * nothing. A merged file goes in as each machine's file, by that file's
 * bytes, all or none. what gets a line for people per import.
 */
int store_add(struct store *s, const char *path, char *what, size_t whatlen,
    char *err, size_t errlen);

/* What the store holds, an import a row, in a table format (table.h). */
int store_list(struct store *s, FILE *out, int format, char *err,
    size_t errlen);

/* One run's value of the metric, as history reads them, in series order. */
struct store_value {
	long long machine;		/* the machine's row */
	const char *machine_name;	/* "vm (AMD EPYC, 2 CPUs)", "... #2" */
	const char *cell;		/* the cell's key */
	const char *build;		/* the build type */
	const char *revision;		/* as the build named it ("80f8a6b") */
	const char *date;		/* the commit's UTC time, else its
					   first import's date */
	long long ord;			/* its first-parent depth; -1: unknown */
	long long sitting;		/* the import the run came in: a sitting */
	double value;
};

/*
 * Calls fn for every ok run's value of metric, ordered by machine, cell,
 * build and then the revisions' commit order (first-parent depth, then
 * commit time in UTC, then the import; the runs of a revision are
 * together whatever imported them): each series' points in order. A
 * revision git here does not know is ordered by the depth and time its
 * build recorded (git_depth, git_time). A copy of nothing outlives the
 * call. Returns the values seen, or -1 with SQLite's words.
 */
long store_values(struct store *s, const char *metric,
    int (*fn)(const struct store_value *, void *), void *arg, char *err,
    size_t errlen);

/* One calibration probe of one import (a sitting), as its context had it. */
struct store_probe {
	long long sitting;		/* the import */
	long long machine;		/* the machine's row */
	const char *machine_name;
	const char *build;		/* the build type */
	const char *revision;		/* as the build named it */
	long long ord;			/* first-parent depth; -1: unknown */
	const char *name;		/* "bare_loop", "atomic", ... */
	const char *unit;		/* "ns"; NULL if not recorded */
	double median, min, max;	/* NAN where not recorded */
	long long n;			/* the probe's samples; 0: none */
};

/*
 * Calls fn for every probe of every import, ordered by machine, build,
 * the revisions' commit order (as store_values), import and probe name:
 * what the machine read at each sitting, beside what the code measured.
 * Returns the probes seen, or -1 with SQLite's words.
 */
long store_probes(struct store *s, int (*fn)(const struct store_probe *,
    void *), void *arg, char *err, size_t errlen);

/* Every metric the store holds, comma-separated, for an error's line. */
void store_metrics(struct store *s, char *buf, size_t len);

/* A bisection's record and each of its steps (the route, replayable). */
struct store_step {
	const char *revision, *mark, *verdict, *why;
	double ratio, lo, hi, p, seconds;
	int runs;
};

long long store_bisect_begin(struct store *s, const char *good,
    const char *bad, const char *options, char *err, size_t errlen);
int store_bisect_step(struct store *s, long long bisect, int n,
    const struct store_step *st, char *err, size_t errlen);
int store_bisect_end(struct store *s, long long bisect, const char *outcome,
    const char *first_bad, double seconds, char *err, size_t errlen);

#endif /* BENCH_STORE_H */
