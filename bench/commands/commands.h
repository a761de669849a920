/*
 * commands.h - the sub-commands of dispatchbench. Each is a const struct
 * command (its usage, its own options as a table like params[], and its
 * handler) in the file of its kind; main.c lists them, parses a command
 * line for one and calls it. A handler returns the exit status: 0
 * success, 1 a run failed or a cell regressed, 2 bad input, 3 a verdict
 * with no answer (undecided), 130 and 143 interrupted (runner.h).
 */
#ifndef BENCH_COMMANDS_H
#define BENCH_COMMANDS_H

#include <stddef.h>

#include "cli.h"
#include "params.h"
#include "runfields.h"
#include "runner.h"

#define EXIT_USAGE	2
/*
 * compare, ab and pair: no cell regressed or broke, but some cell has no
 * answer (missing, too few runs, an incomplete file): never a pass unless
 * --accept-undecided says so.
 */
#define EXIT_UNDECIDED	3

/*
 * The most positional words a command takes (merge's files): a
 * call holds this many, and every command's maxwords is checked against
 * it before a line is parsed.
 */
#define CALL_MAX_WORDS	32

/* A command line as parsed for its command. */
struct call {
	int argc;			/* the whole line: the results' context */
	char **argv;
	char *words[CALL_MAX_WORDS];	/* the command's positional arguments */
	int nwords;
	char **rest;			/* the sweep's options given */
	int nrest;
	void *args;			/* the command's own options */
	struct sweep sweep;		/* a sweep's command: its options */
	struct cell *cells;
	size_t ncells;
};

struct command {
	const char *name, *args, *summary;
	const struct param *opts;
	size_t nopts;
	size_t args_size;		/* the struct opts fill */
	int minwords, maxwords;
	/* A sweep's command: its defaults over run's, as words; NULL: none. */
	const char *const *sweep;
	int (*run)(struct call *c);
};

/*
 * A command's options fill a struct of its own, which its file names
 * before its tables: #define COMMAND_ARGS struct NAME_args. An option is
 * an entry of params[] that fills one of its members:
 * { .flag = "--x", .kind = ..., ARG(x), .help = ... }; OPTS gives a struct
 * command its table and the struct's size, and its functions read the
 * struct through ARGS_OF(c).
 */
#define ARG(field)	.off = offsetof(COMMAND_ARGS, field)
#define ARGS_OF(c)	((COMMAND_ARGS *)(c)->args)

/* --metric: the run field a command follows, the headline by default. */
#define OPT_METRIC(field, what)						\
	{ .flag = "--metric", .kind = PARAM_TEXT,			\
	    .dflt = RF(cpu_us_per_dispatch), ARG(field), .metavar = "FIELD", \
	    .help = (what) }

/* A command's table of options, and the struct it fills. */
#define OPTS(t)		.opts = (t), .nopts = sizeof(t) / sizeof((t)[0]), \
	.args_size = sizeof(COMMAND_ARGS)

/* run's sweep: its defaults alone. */
extern const char *const command_run_sweep[];

/*
 * The advice of the advise file at path, as `advise --from path --format
 * html` alone prints it, into out (report's page opens with it); its exit
 * status, its errors on stderr.
 */
int advise_page(const char *path, FILE *out);

/* What main does: the command a command line names, run; its status. */
int commands_main(int argc, char **argv);

/*
 * The call a command line makes, and its command in *cmdp; or NULL when
 * there is none to run: *status is then the exit status, and the help,
 * the version or one line why has been printed. main runs the call; the
 * fuzzer only parses.
 */
struct call *command_line(int argc, char **argv, const struct command **cmdp,
    int *status);
void command_line_free(struct call *c);

/*
 * The call argv makes of cmd (argv[1] its name; call.c); NULL with one
 * line in err when it makes none.
 */
struct call *call_make(const struct command *cmd, int argc, char **argv,
    char *err, size_t errlen);

/* One line on stderr after "dispatchbench: "; returns EXIT_USAGE. */
int command_bad(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* The call's sweep, run by this binary as a plain sweep's one arm. */
int command_sweep_self(struct call *c, struct runner_arm *arm);

/*
 * The run field a --metric names: instructions (or its field) is the
 * counted one (count.h), and a call that runs cells then counts their
 * windows, COUNT_DEFAULT resumptions a coroutine unless --count says
 * otherwise. 0, or -1 with one line in err: a cell that cannot be
 * counted, or nothing here to count with.
 */
int command_metric(struct call *c, const char **metric, char *err,
    size_t len);

#endif /* BENCH_COMMANDS_H */
