/*
 * cli.h - the command line of a sweep, through the parameter table
 * (param.h): options parsed and range-checked into a struct sweep, the
 * sweep expanded into cells, a cell as a child's command line and as the
 * JSON of a results file, and the options' usage. A bad option is one
 * line in err and -1. Nothing here exits; it prints only the usage it is
 * asked for and a note on stderr for a design a sweep leaves out (a real
 * runtime given the models' --spins or --wake), and aborts when memory
 * runs out.
 */
#ifndef BENCH_CLI_H
#define BENCH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "cell.h"
#include "param.h"
#include "sweep.h"
#include "value.h"

/*
 * Words of a child's command line, at most: its two, two for each option
 * of a cell (23, for a design that takes every one) and the window's 4.
 */
#define CLI_ARGS	64
#define CLI_WORD	64	/* bytes of a formatted value */
/* Cells of one sweep, at most: each run of each is a process of its own. */
#define CLI_MAX_CELLS	100000

/*
 * Every option at its default: the default sweep. Its results file is
 * where cli_out_default puts results/sweep.json.
 */
void cli_defaults(struct sweep *s);

/*
 * Where a default output rel ("results/sweep.json") goes: under build/
 * when the current folder is the source tree, so that no default lands
 * on a file git tracks; else rel, in the current folder. Returns rel, or
 * buf holding the other.
 */
const char *cli_out_default(const char *rel, char *buf, size_t len);

/*
 * The first of the sweep's own options (P_SWEEP: the window, the runs,
 * the output) whose value differs between a and b; NULL if none does.
 */
const char *cli_sweep_differs(const struct sweep *a, const struct sweep *b);

/* Whether flag was on the command line that made s. */
bool cli_given(const struct sweep *s, const char *flag);

/*
 * Whether flag is among opts[0..n), options as the user wrote them:
 * cli_given counts too those a command gives its own sweep.
 */
bool cli_named(char *const *opts, int n, const char *flag);

/*
 * The runs every cell of s gets before it may stop early: 3, or
 * reps_judged when more, (or --reps if fewer) while --precision is on;
 * all --reps when it is 0, or when --reps was given without it.
 */
unsigned int cli_reps_min(const struct sweep *s);

/*
 * Parses argv[0..argc) (after the command's name) over s. A list replaces
 * the default's; a flag not of a sweep is an unknown option.
 */
int cli_parse(struct sweep *s, int argc, char **argv, char *err,
    size_t errlen);

/* A list option's values, or NULL for an option that is not a list. */
const union param_value *cli_list(const struct sweep *s, const char *flag,
    size_t *n);

/* The cells of s, in sweep order; NULL and err if none. */
struct cell *cli_cells(const struct sweep *s, size_t *ncells, char *err,
    size_t errlen);

/*
 * The command line of a child that runs c with s's window: `dispatchbench
 * cell` and every option not at its default (so that an older build, which
 * lacks a newer option, runs it). Returns the words, NULL-terminated.
 */
int cli_argv(const struct sweep *s, const struct cell *c,
    char buf[][CLI_WORD], char **argv);

/* c's parameters as a cell of a results file. */
cJSON *cli_cell_json(const struct cell *c);

/* Sets each option of opts (a table like params[]) to its default. */
void cli_option_defaults(const struct param *opts, size_t nopts, void *base);

/*
 * A command's own options (a table like params[], offsets into base) and
 * what else it takes: words (its positional arguments, up to maxwords), and
 * with rest, every other option, for the sweep's parser.
 */
struct cli_words {
	char **words;
	int nwords, maxwords;
	char **rest;			/* NULL: another option is an error */
	int nrest;
};

int cli_options(const struct param *opts, size_t nopts, void *base, int argc,
    char **argv, struct cli_words *out, char *err, size_t errlen);

/* Options of a table: one usage line each, with its default. */
void cli_usage(FILE *out, const struct param *table, size_t n);

#endif /* BENCH_CLI_H */
