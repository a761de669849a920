/*
 * history.c - store (results files into the history store, and what it
 * holds) and history (each series against commit order, with its steps).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "store.h"
#include "table.h"
#include "trend.h"

/* What the options of this file's commands fill (commands.h). */
struct history_args {			/* store, history and bisect */
	const char *db, *cell, *metric, *out, *pair;
	double threshold_pct, alpha, budget_s;
	int format;
	int fail_on_step;
};
#define COMMAND_ARGS	struct history_args

#define HISTORY_DB_HELP	"the history store (from the source tree, under " \
	"build/)"

static const struct param store_opts[] = {
	{ .flag = "--db", .kind = PARAM_PATH, .dflt = "results/history.db",
	    ARG(db), .metavar = "FILE", .help = HISTORY_DB_HELP },
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F", .help = "list's format" },
};

static const struct param history_opts[] = {
	{ .flag = "--db", .kind = PARAM_PATH, .dflt = "results/history.db",
	    ARG(db), .metavar = "FILE", .help = HISTORY_DB_HELP },
	{ .flag = "--cell", .kind = PARAM_TEXT, ARG(cell), .metavar = "WORDS",
	    .help = "the cells whose keys hold every word (shared w=8, "
	    "shared/lfseg w=8 c=64); default: those with a step" },
	OPT_METRIC(metric, "the run field followed"),
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 99, .dflt = "5", ARG(threshold_pct), .metavar = "PCT",
	    .help = "the smallest shift that is a step" },
	{ .flag = "--alpha", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 0.5, .dflt = "0.01", ARG(alpha), .metavar = "A",
	    .help = "false steps allowed in a series" },
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F",
	    .help = "the tables' format (markdown: a pull request's comment)" },
	{ .flag = "-o", .kind = PARAM_PATH, ARG(out), .metavar = "DIR",
	    .help = "draw the shown series there (trend.png, trend.svg)" },
	{ .flag = "--fail-on-step", .kind = PARAM_SWITCH, ARG(fail_on_step),
	    .help = "exit 1 when a series gets worse at one of its two newest "
	    "revisions (a merge's CI)" },
};

/* The store --db names; the default under build/ from the source tree. */
static int
history_open(struct call *c, bool create, struct store **s, char *err,
    size_t errlen)
{
	static char path[PATH_MAX];
	struct history_args *opt = ARGS_OF(c);

	if (strcmp(opt->db, "results/history.db") == 0)
		opt->db = cli_out_default(opt->db, path, sizeof(path));
	return store_open(opt->db, create, s, err, errlen);
}

static int
cmd_store(struct call *c)
{
	const char *verb = c->words[0];
	struct store *s;
	char err[1024], what[8192];
	int rc;

	if (strcmp(verb, "add") != 0 && strcmp(verb, "list") != 0)
		return command_bad("store: '%s' is not add or list", verb);
	if ((strcmp(verb, "add") == 0) != (c->nwords == 2))
		return command_bad("usage: dispatchbench store add RESULTS.json "
		    "| store list");
	if (history_open(c, strcmp(verb, "add") == 0, &s, err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	if (strcmp(verb, "list") == 0)
		rc = store_list(s, stdout, ARGS_OF(c)->format, err,
		    sizeof(err));
	else if ((rc = store_add(s, c->words[1], what, sizeof(what), err,
	    sizeof(err))) == 0)
		printf("added to %s: %s\n", ARGS_OF(c)->db, what);
	store_close(s);
	return rc == 0 ? 0 : command_bad("%s", err);
}

static int
cmd_history(struct call *c)
{
	struct history_args *opt = ARGS_OF(c);
	struct trend_opts o = { .metric = opt->metric,
	    .cell = opt->cell, .format = opt->format,
	    .dir = opt->out };
	struct trend_found found = { .fresh = 0 };
	struct store *s;
	char err[4096];
	int rc;

	if (command_metric(c, &o.metric, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	cp_opts_default(&o.cp);
	o.cp.threshold = opt->threshold_pct / 100;
	o.cp.threshold_given = cli_named(c->argv, c->argc, "--threshold");
	o.cp.alpha = opt->alpha;
	if (o.dir != NULL && mkdir(o.dir, 0777) != 0 && errno != EEXIST)
		return command_bad("-o %s: %s", o.dir, strerror(errno));
	if (history_open(c, false, &s, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	rc = trend_write(s, &o, stdout, &found, err, sizeof(err));
	store_close(s);
	if (rc != 0)
		return command_bad("%s", err);
	if (found.drawn)
		fprintf(stderr, "drew %s/trend.png and trend.svg\n", o.dir);
	if (found.machine > 0)
		fprintf(stderr, "dispatchbench: %d series moved with the "
		    "machine's probes at their newest revision: the machine "
		    "moved, not the code (see the steps' status)\n",
		    found.machine);
	if (found.fresh > 0 && opt->fail_on_step)
		fprintf(stderr, "dispatchbench: %d series got worse: a step no "
		    "earlier merge saw (the steps table says where)\n",
		    found.fresh);
	return found.fresh > 0 && opt->fail_on_step ? 1 : 0;
}

const struct command command_store = {
	.name = "store",
	.args = "add RESULTS.json | list [--db FILE]",
	.summary = "keep a results file in the history store (SQLite), or list "
	    "what it holds",
	OPTS(store_opts),
	.minwords = 1,
	.maxwords = 2,
	.run = cmd_store,
};
const struct command command_history = {
	.name = "history",
	.args = "[--db FILE] [options]",
	.summary = "each cell's metric against commit order, with its steps",
	OPTS(history_opts),
	.run = cmd_history,
};
