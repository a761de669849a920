/*
 * params.h - every option of a sweep in one table: its flag, its key in a
 * results file, what it holds and may hold, its default, whether it is a
 * dimension of the sweep, which designs it applies to (by their flags),
 * whether it tells two cells apart and how it shows in a name. The parser,
 * the sweep's expansion into cells, a child run's argv, a cell's JSON, its
 * key, the names of designs and series, and the usage text are loops over
 * it (cli.c on the tool's side, params.c on the results' side).
 *
 * A new knob of a design is an entry here, a field of struct db_disp_config
 * and the design's use of it.
 */
#ifndef BENCH_PARAMS_H
#define BENCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

enum param_kind {
	PARAM_DESIGN,		/* a design of the registry, by name */
	PARAM_QUEUE,		/* a queue of the registry, by name */
	PARAM_WIDTH,		/* a count, or inf (0) for a design that grows */
	PARAM_COUNT,		/* an unsigned integer in [lo, hi] */
	PARAM_INT,		/* an integer in [lo, hi] */
	PARAM_SECONDS,		/* a number of seconds in [lo, hi] */
	PARAM_NUMBER,		/* a number in [lo, hi] (double) */
	PARAM_DURATION,		/* seconds, or a number with s, m or h */
	PARAM_CHOICE,		/* one of names[]: an int, its index */
	PARAM_TEXT,		/* a string */
	PARAM_PATH,		/* a file's name */
	PARAM_PROFILE,		/* a workload profile */
	PARAM_FORMAT,		/* an output format (table.h) */
	PARAM_SWITCH		/* no value: there or not */
};

#define P_LIST		(1u << 0)	/* a comma list: a dimension of the sweep */
#define P_KEY		(1u << 1)	/* tells two cells apart */
#define P_SHOWN		(1u << 2)	/* in a series' name even at its default */
#define P_SWEEP		(1u << 3)	/* the sweep's own (window, output) */
#define P_POW2		(1u << 4)	/* 0 or a power of two */
#define P_AUTO		(1u << 5)	/* "auto": the workload kind's own */
#define P_POSITIVE	(1u << 6)	/* above 0, then at most hi */
#define P_DENSE		(1u << 7)	/* in a key even at its default: the
					   parameters of the first files; any
					   other is in a key only off its
					   default, so older files' keys still
					   match */
#define P_MODELS	(1u << 8)	/* the models' own: a real runtime takes
					   it at its default alone */

struct param {
	const char *flag;		/* on the command line */
	const char *key;		/* of a cell in a results file; NULL: none */
	const char *label;		/* before its value in a cell's key */
	enum param_kind kind;
	unsigned int flags;
	/*
	 * The designs it applies to: those with every one of the DB_DISP_*
	 * flags designs, and of owners (a comma list of names: the suite's
	 * own designs that read the knob) when not NULL; 0 and NULL: every
	 * design. A cell of a design it does not apply to has no field of it.
	 */
	unsigned int designs;
	const char *owners;
	double lo, hi;			/* what a user may give */
	const char *const *names;	/* PARAM_CHOICE */
	const char *const *suffix;	/* PARAM_CHOICE: added to a design's name */
	const char *dflt;		/* the default, as on the command line */
	size_t off;			/* in the tool's struct cell; P_SWEEP:
					   its struct sweep (cli.h) */
	const char *metavar;
	const char *help;
};

extern const struct param params[];
extern const size_t nparams;
/* Entries the table may have: a sweep's lists, the bits of sweep.given. */
#define PARAMS_MAX	64

/*
 * The counters a run may record (the designs', perf's), each as the field
 * of a results cell that holds it per dispatch: NAME_per_dispatch.
 */
extern const char *const params_counters[];
extern const size_t nparams_counters;

/* Whether name is one of params_counters: a run's other fields. */
bool params_counter(const char *name);

/* The entry of flag, or NULL. */
const struct param *params_find(const char *flag);

/*
 * A cell's value of p as text (into buf when it is a number), or NULL when
 * p does not apply to it; a field a file predates reads as its default.
 */
const char *params_value(const struct param *p, const cJSON *cell, char *buf,
    size_t len);

/* Whether p applies to some designs only (a design's own knob). */
static inline bool
params_owned(const struct param *p)
{

	return p->designs != 0 || p->owners != NULL;
}

/*
 * A cell of a results file, as text, from its fields (a field a file
 * predates reads as its default):
 *  - params_key: every P_KEY parameter that applies, with its label; the
 *    key two files' cells are matched by. Without the width (workers
 *    false): the cells a worker sweep draws as one line;
 *  - params_design: the design's name and its own knobs' values, each a
 *    variant of it: a choice's suffix (stealing-fifo), another knob's
 *    label and value when not at its default;
 *  - params_series: the design, its queue, and the other key parameters
 *    that are not at their defaults; " unbounded" without a bound;
 *  - params_same_but: whether a and b are one cell but for the parameter
 *    of that key (a real runtime's cell and its model's); params_same_except
 *    but for every parameter of keys.
 */
void params_key(const cJSON *cell, bool workers, char *buf, size_t len);
bool params_same_but(const cJSON *a, const cJSON *b, const char *key);
bool params_same_except(const cJSON *a, const cJSON *b,
    const char *const *keys, size_t nkeys);
const char *params_design(const cJSON *cell, char *buf, size_t len);
void params_series(const cJSON *cell, char *buf, size_t len);

#endif /* BENCH_PARAMS_H */
