/*
 * bisect.c - the first commit between GOOD and BAD whose verdict against
 * GOOD is `regressed` (history/bisection.h): each step an `ab` of GOOD's
 * build against the step's, interleaved, with a budget of A B B A rounds
 * for a cell still undecided; or, with --pair, a pair of a plugin's two
 * builds.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisection.h"
#include "child.h"
#include "commands.h"
#include "counted.h"
#include "measure.h"
#include "results.h"
#include "step.h"

/* What the options of this file's commands fill (commands.h). */
struct bisect_args {
	const char *db, *cell, *metric, *out, *pair;
	double threshold_pct, budget_s;
};
#define COMMAND_ARGS	struct bisect_args

extern const struct command command_bisect;	/* defined below */

static const struct param bisect_opts[] = {
	{ .flag = "--db", .kind = PARAM_PATH, .dflt = "results/history.db",
	    ARG(db), .metavar = "FILE", .help = "the store that keeps every "
	    "step and its runs (from the source tree, under build/)" },
	{ .flag = "--cell", .kind = PARAM_TEXT, ARG(cell), .metavar = "WORDS",
	    .help = "the cells whose verdicts decide (their keys hold every "
	    "word); default: all the run options make" },
	OPT_METRIC(metric, "the run field each step compares"),
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 99, .dflt = "5", ARG(threshold_pct), .metavar = "PCT",
	    .help = "the smallest change worth a verdict (exact counts: any, "
	    "unless given)" },
	{ .flag = "--budget", .kind = PARAM_DURATION, .lo = 1, .hi = 7 * 86400,
	    .dflt = "60", ARG(budget_s), .metavar = "DURATION",
	    .help = "each step's A B B A rounds for an undecided cell" },
	{ .flag = "-o", .kind = PARAM_PATH, .dflt = "build-rev", ARG(out),
	    .metavar = "DIR",
	    .help = "where revisions are built and the steps' results go" },
	{ .flag = "--pair", .kind = PARAM_PATH, ARG(pair), .metavar = "FILE",
	    .help = "a plugin queue or design, by its path in a build "
	    "(examples/libtwolock.so): each step a pair of GOOD's against the "
	    "step's, in one process, instead of an ab of the two builds" },
};

/* A bisection, and what each of its steps passes on. */
struct bisect {
	struct bisection b;
	struct call *c;
	char self[4096];
	char threshold[32], budget[32];
	/*
	 * --threshold on bisect's line, passed on only then: a step's exact
	 * counts (counted.h) take any change as a verdict without one.
	 */
	bool threshold_given;
};

/* A step's n words, less the last two (--threshold) when not given. */
static size_t
bisect_words(const struct bisect *b, size_t n)
{

	return b->threshold_given ? n : n - 2;
}

/*
 * This binary's command: the words fixed, then bisect's default run
 * options (when the command takes them: ab) and the run options given;
 * its stdout into out, its time and status into st.
 */
static void
bisect_run(struct bisect *b, const char *const *fixed, size_t nfixed,
    bool defaults, char *out, size_t len, struct step *st)
{
	double started = measure_now();
	char **argv;
	size_t n = 0;
	int i;

	if ((argv = calloc(nfixed + 16 + (size_t)b->c->nrest,
	    sizeof(*argv))) == NULL)
		abort();
	while (n < nfixed) {
		argv[n] = (char *)fixed[n];
		n++;
	}
	for (i = 0; defaults && command_bisect.sweep[i] != NULL; i++)
		argv[n++] = (char *)command_bisect.sweep[i];
	for (i = 0; i < b->c->nrest; i++)
		argv[n++] = b->c->rest[i];
	st->rc = child_output(argv, out, len);
	st->seconds = measure_now() - started;
	free(argv);
	return;
}

/* ab of GOOD's build against bin, its rows judged into st. */
static int
bisect_ab(struct bisect *b, const char *bin, const char *path,
    struct step *st)
{
	static char out[1 << 22];
	const struct bisect_args *h = ARGS_OF(b->c);
	const char *fixed[] = { b->self, "ab", "--a", b->b.goodbin, "--b", bin,
	    "--format", "json", "--quiet", "--metric", h->metric, "--budget",
	    b->budget, "--out", path, "--threshold", b->threshold };
	cJSON *rows;

	bisect_run(b, fixed, bisect_words(b, sizeof(fixed) / sizeof(fixed[0])),
	    true, out, sizeof(out), st);
	rows = cJSON_Parse(out);
	step_judge(rows, h->cell, h->threshold_pct / 100, st);
	cJSON_Delete(rows);
	bisection_keep(&b->b, path);
	return st->rc;
}

/*
 * pair of GOOD's build of the plugin against bin's: its verdict as the
 * one row of an ab, judged into st. A pair's results are not a sweep's:
 * the store keeps its step, not its windows.
 */
static int
bisect_pair(struct bisect *b, const char *bin, const char *path,
    struct step *st)
{
	const struct bisect_args *h = ARGS_OF(b->c);
	char pa[4400], pb[4400], out[4096], err[512];
	const char *fixed[] = { b->self, "pair", "--a", pa, "--b", pb,
	    "--metric", h->metric, "--budget", b->budget, "--out", path,
	    "--threshold", b->threshold };
	cJSON *doc = NULL, *rows;

	snprintf(pa, sizeof(pa), "%.*s%s", (int)(strlen(b->b.goodbin) -
	    strlen(BISECTION_BIN)), b->b.goodbin, h->pair);
	snprintf(pb, sizeof(pb), "%.*s%s", (int)(strlen(bin) -
	    strlen(BISECTION_BIN)), bin, h->pair);
	if (access(pa, R_OK) != 0 || access(pb, R_OK) != 0) {
		snprintf(st->verdict, sizeof(st->verdict), "no plugin");
		snprintf(st->why, sizeof(st->why), "%s is not in %s build",
		    h->pair, access(pa, R_OK) != 0 ? "GOOD's" : "its");
		return 0;
	}
	bisect_run(b, fixed, bisect_words(b, sizeof(fixed) / sizeof(fixed[0])),
	    false, out, sizeof(out), st);
	results_read_json(path, &doc, err, sizeof(err));
	rows = step_pair_rows(doc);
	step_judge(rows, NULL, h->threshold_pct / 100, st);
	cJSON_Delete(rows);
	cJSON_Delete(doc);
	return st->rc;
}

/*
 * A step, by ab or by pair; an ab that was interrupted or refused its
 * input ends the bisection (its status).
 */
static int
bisect_measure(void *arg, const char *sha, const char *bin, const char *path,
    struct step *st)
{
	struct bisect *b = arg;
	bool pair = ARGS_OF(b->c)->pair != NULL;

	(pair ? bisect_pair : bisect_ab)(b, bin, path, st);
	if (st->rc < EXIT_USAGE || st->rc == EXIT_UNDECIDED)
		return 0;
	fprintf(stderr, "dispatchbench: bisect: ab of %.7s ended with status "
	    "%d\n", sha, st->rc);
	return st->rc;
}

/* The options the steps share, as a line for the store's record. */
static void
bisect_options(const struct call *c, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	for (i = 2; i < c->argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    i > 2 ? " " : "", c->argv[i]);
	return;
}

static int
cmd_bisect(struct call *c)
{
	struct bisect_args *opt = ARGS_OF(c);
	struct bisect *s = calloc(1, sizeof(*s));
	struct bisection *b = &s->b;
	char err[1024], options[4096], dbpath[4096], terms[64];
	int good, bad, rc = 0;
	const char *why;

	if (s == NULL)
		abort();
	if (command_metric(c, &opt->metric, err, sizeof(err)) != 0) {
		free(s);
		return command_bad("%s", err);
	}
	*s = (struct bisect){ .c = c, .b = { .started = measure_now(),
	    .pair = opt->pair != NULL, .measure = bisect_measure,
	    .arg = s } };
	if (bisection_range(b, c->words[0], c->words[1], err,
	    sizeof(err)) != 0) {
		free(s);
		return command_bad("%s", err);
	}
	snprintf(b->dir, sizeof(b->dir), "%s", opt->out);
	snprintf(s->threshold, sizeof(s->threshold), "%g",
	    opt->threshold_pct);
	s->threshold_given = cli_named(c->argv, c->argc, "--threshold");
	snprintf(s->budget, sizeof(s->budget), "%g", opt->budget_s);
	(void)child_self(s->self, sizeof(s->self));
	if (strcmp(opt->db, "results/history.db") == 0)
		opt->db = cli_out_default(opt->db, dbpath,
		    sizeof(dbpath));
	bisect_options(c, options, sizeof(options));
	if (store_open(opt->db, true, &b->store, err, sizeof(err)) != 0 ||
	    (b->id = store_bisect_begin(b->store, b->good, b->sha[b->n - 1],
	    options, err, sizeof(err))) < 0) {
		store_close(b->store);
		free(s);
		return command_bad("%s", err);
	}
	if (s->threshold_given || !counted_metric(opt->metric))
		snprintf(terms, sizeof(terms), "--threshold %s %%",
		    s->threshold);
	else
		snprintf(terms, sizeof(terms), "no --threshold: any change of "
		    "an exact count");
	printf("bisect: %d commits from GOOD %.7s to BAD %.7s; each step %s "
	    "against GOOD's (--metric %s, --budget %g s, %s), the steps kept "
	    "in %s\n\n", b->n, b->good, b->sha[b->n - 1], opt->pair ?
	    "a pair of its plugin" : "an ab of its build", opt->metric,
	    opt->budget_s, terms, opt->db);
	snprintf(b->out, sizeof(b->out), "%s/bisect-%.7s", b->dir, b->good);
	mkdir(b->dir, 0777);
	mkdir(b->out, 0777);
	good = -1;
	bad = b->n - 1;
	why = bisection_build(b, b->good, b->goodbin, sizeof(b->goodbin)) != 0 ?
	    "GOOD could not be built" : bisection_search(b, &good, &bad, &rc);
	if (rc == 0)
		bisection_summary(b, good, bad, why);
	store_close(b->store);
	free(s);
	return rc != 0 ? rc : why == NULL ? 0 : EXIT_UNDECIDED;
}

/* The steps' cell by default: seed 003's, the shared queue at 8 workers. */
static const char *const bisect_sweep[] = { "--dispatcher", "shared",
    "--workers", "8", "--time", "0.3", "--warmup", "0.2", NULL };

const struct command command_bisect = {
	.name = "bisect",
	.args = "GOOD BAD [run options] [options]",
	.summary = "the first commit from GOOD to BAD that made a cell slower, "
	    "by ab at each step",
	OPTS(bisect_opts),
	.minwords = 2,
	.maxwords = 2,
	.sweep = bisect_sweep,
	.run = cmd_bisect,
};
