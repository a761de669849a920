/*
 * param.h - every option of a sweep in one table: its flag, its key in a
 * results file, what it holds and may hold, its default, whether it is a
 * dimension of the sweep, which designs it applies to (by their flags),
 * whether it tells two cells apart and how it shows in a name. The parser,
 * the sweep's expansion into cells, a child run's argv, a cell's JSON, its
 * key, the names of designs and series, and the usage text are loops over
 * it (value.c and cli.c beside it, analyse/params.c on the results' side).
 * The table and the counters' names are data: param.c, below the layers
 * that read them, includes nothing of theirs.
 *
 * A new knob of a design is an entry of the table (param.c), a field of
 * struct disp_knobs, the design's use of it and its row in
 * docs/options.md.
 */
#ifndef BENCH_PARAM_H
#define BENCH_PARAM_H

#include <stdbool.h>
#include <stddef.h>

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
					   its struct sweep (sweep.h) */
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

/* Whether p applies to some designs only (a design's own knob). */
static inline bool
params_owned(const struct param *p)
{

	return p->designs != 0 || p->owners != NULL;
}

/* Writes one line into err; returns -1, a bad value's status. */
int param_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* BENCH_PARAM_H */
