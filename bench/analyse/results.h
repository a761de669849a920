/*
 * results.h - the results file: a context, and per cell its runs and a
 * summary. The schema is in results/README.md; the names are stable.
 */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#define RESULTS_SCHEMA	1		/* a run's file: one machine */
#define RESULTS_SCHEMA_MERGED	2	/* merge's: machines[], each cell's
					   "machine" names its own */
#define RESULTS_MAX_COUNT	1000000	/* workers, coroutines */

/*
 * The accessors every reader goes through: a field of o by its exact name
 * and of its type, or what stands for none (o may be NULL or of any
 * type). A number, NAN if absent; a whole number, missing if absent or
 * outside int; a string, missing if absent; an object or an array, NULL if
 * absent; true, false if absent.
 */
/* Whether run ended ok: its figures count. */
bool results_ok(const cJSON *run);

double results_num(const cJSON *o, const char *name);
int results_int(const cJSON *o, const char *name, int missing);
const char *results_str(const cJSON *o, const char *name, const char *missing);
const cJSON *results_obj(const cJSON *o, const char *name);
const cJSON *results_arr(const cJSON *o, const char *name);
bool results_true(const cJSON *o, const char *name);

/*
 * The context of the machine that measured cell: its entry of machines[]
 * in a merged file, the file's context in a run's.
 */
const cJSON *results_context(const cJSON *doc, const cJSON *cell);

/* The machines a merged file holds; 0 for a run's file (one machine). */
int results_machines(const cJSON *doc);

/*
 * What a title says of where and when doc was measured: "CPU model, date";
 * for a merged file "N machines, a series each, merged DATE".
 */
const char *results_where(const cJSON *doc, char *buf, size_t len);

/*
 * A merged file's machine i as a run's file of its own (its context, its
 * memory fits, its cells without their "machine"), or NULL; the caller
 * deletes it.
 */
cJSON *results_machine_doc(const cJSON *doc, int i);

/* A cell's summary statistic (median, min, ...) of a field, NAN if none. */
double results_stat(const cJSON *cell, const char *field, const char *stat);

/* A cell's ok runs in which field is above 0 (e.g. a coroutine starved). */
unsigned int results_runs_above_zero(const cJSON *cell, const char *field);

/*
 * A run's placement of the CPUs by its two line probes (cell_run): both
 * under boundary, both over it, or one each, moved in between; -1 for a
 * run without them.
 */
enum { RESULTS_NEAR, RESULTS_FAR, RESULTS_MOVED, RESULTS_SIDES };
int results_side(const cJSON *run, double boundary);

/* The same of a run's two probes, before and after it. */
int results_side_of(double before, double after, double boundary);

/*
 * Whether the ok runs of runs[0..n - 1] (arrays of runs) were probed on
 * two placements of the CPUs, pooled, and the boundary between them.
 */
bool results_placements(const cJSON *const *runs, size_t n,
    double *boundary);

/* The same of m line probes: two placements, and the boundary. */
bool results_probes_split(const double *line, size_t m, double *boundary);

/*
 * The ok runs of cell on one placement (their side of boundary): their
 * number, and with v, each one's metric into v (NaN where it has none).
 */
size_t results_on(const cJSON *cell, double boundary, int side,
    const char *metric, double *v);

/*
 * The placements both cells a and b ran on twice or more, as bits 1 <<
 * RESULTS_NEAR and 1 << RESULTS_FAR, where their runs were probed on two
 * (*boundary between them); 0 otherwise. A real runtime against its model
 * is read on each of these apart: across them it is the host's, not theirs.
 */
unsigned int results_shared_placements(const cJSON *a, const cJSON *b,
    double *boundary);

/*
 * A figure's placement object (results_placement) when its two groups
 * are both there and their medians RESULTS_PLACED_APART or more apart:
 * the placement moved the figure. NULL otherwise, where a median of all
 * runs says what each group says.
 */
#define RESULTS_PLACED_APART	1.25
const cJSON *results_placed(const cJSON *figure);

/*
 * A figure's runs in two groups, where its summary says "bimodal": those
 * at or below the boundary and those above it, each group's runs and
 * median a figure of its own. Read from the summary's "below" and
 * "above", or from the runs in a file written before it kept them.
 */
struct results_groups {
	double boundary;
	unsigned int runs[2];		/* below, above */
	double median[2];		/* NAN for a group of no run */
};

/* False when the cell's field is not in two groups. */
bool results_groups(const cJSON *cell, const char *field,
    struct results_groups *g);

/*
 * Of every numeric field of the ok runs: {"median", "min", "max", "q1",
 * "q3", "cv"}, and "bimodal" {"boundary", "runs_above", "share_above",
 * "below" and "above": {"runs", "median"}} when the runs fall into two
 * separated groups.
 */
cJSON *results_summary(const cJSON *runs);

/*
 * Writes doc to path through a temporary file and a rename, so a reader
 * sees the old file or the new one, never half of one. 0 or -errno.
 */
int results_write(const cJSON *doc, const char *path);

/* The same for any text (a report), with a final newline. */
int results_write_text(const char *text, const char *path);

/*
 * Memory against threads across each worker sweep (cells alike but for
 * their width, three or more): the anonymous RSS each added thread costs,
 * as seed 002 fits it. Replaces doc's "memory_fits".
 */
void results_memory_fits(cJSON *doc);

/*
 * Checks that doc is a results file this build reads, each field a reader
 * takes there and of its type; -1 and err, naming the first that is not
 * by its path ("cells[0].summary.ops_per_s.median is missing (a number)").
 */
int results_validate(const cJSON *doc, char *err, size_t errlen);

/* Reads and validates a results file; -1 with a one-line reason if bad,
 * after the file's name. */
int results_read(const char *path, cJSON **docp, char *err, size_t errlen);

/* Any JSON file (pair's results), read and parsed, not validated. */
int results_read_json(const char *path, cJSON **docp, char *err,
    size_t errlen);

/* The same from len bytes of text; name is what err calls it. */
int results_parse(const char *text, size_t len, cJSON **docp,
    const char *name, char *err, size_t errlen);

#endif /* BENCH_RESULTS_H */
