/*
 * fleet.c - the commands of many machines: merge (several machines'
 * results as one document) and fleet (the sweep as a Slurm job array:
 * its script, its submission, its tasks' states, their merge).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "child.h"
#include "commands.h"
#include "fleet.h"
#include "results.h"

/* What the options of this file's commands fill (commands.h). */
struct fleet_args {			/* merge and fleet */
	const char *dir, *partition, *constraint, *job, *out;
	unsigned int nodes, minutes;
	double timeout_s;
	int format;
};
#define COMMAND_ARGS	struct fleet_args

static const struct param merge_opts[] = {
	{ .flag = "-o", .kind = PARAM_PATH, ARG(out),
	    .metavar = "MERGED.json", .help = "the merged results" },
};

/* --out and --time are run's: a fleet's own are other words. */
static const struct param fleet_opts[] = {
	{ .flag = "--dir", .kind = PARAM_PATH, .dflt = "fleet", ARG(dir),
	    .metavar = "SHARED", .help = "a folder every node reaches: the "
	    "script, each task's results and log" },
	{ .flag = "--nodes", .kind = PARAM_COUNT, .lo = 1,
	    .hi = FLEET_MAX_TASKS, .dflt = "1", ARG(nodes), .metavar = "N",
	    .help = "script, submit: array tasks, each on a node of its own" },
	{ .flag = "--partition", .kind = PARAM_TEXT, ARG(partition),
	    .metavar = "P",
	    .help = "script, submit: the partition (default: the cluster's)" },
	{ .flag = "--constraint", .kind = PARAM_TEXT, ARG(constraint),
	    .metavar = "C",
	    .help = "script, submit: the nodes' feature (a class of node)" },
	{ .flag = "--limit", .kind = PARAM_COUNT, .lo = 1, .hi = 525600,
	    .dflt = "60", ARG(minutes), .metavar = "MIN",
	    .help = "script, submit: each task's time limit in minutes" },
	{ .flag = "--job", .kind = PARAM_TEXT, ARG(job), .metavar = "ID",
	    .help = "status, collect: the array (default: the newest in "
	    "SHARED)" },
	{ .flag = "--timeout", .kind = PARAM_SECONDS, .hi = 31536000,
	    .dflt = "0", ARG(timeout_s), .metavar = "S",
	    .help = "collect: stop waiting after S seconds (0: until the array "
	    "ends)" },
	{ .flag = "-o", .kind = PARAM_PATH, ARG(out),
	    .metavar = "MERGED.json", .help = "collect: the merged results "
	    "(default: SHARED/merged-JOB.json)" },
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F",
	    .help = "status, collect: the tasks' rows" },
};

/* Writes doc to path and says what it holds. */
static int
fleet_write(const cJSON *doc, const char *path)
{
	int rc;

	if ((rc = results_write(doc, path)) != 0)
		return command_bad("cannot write %s: %s", path, strerror(-rc));
	printf("%d machine%s, %d cells, in %s\n", results_machines(doc),
	    results_machines(doc) == 1 ? "" : "s", cJSON_GetArraySize(
	    results_arr(doc, "cells")), path);
	return 0;
}

static int
cmd_merge(struct call *c)
{
	char err[512];
	cJSON *out;
	int rc;

	if (ARGS_OF(c)->out == NULL)
		return command_bad("merge: give -o MERGED.json");
	if ((out = fleet_merge_files(c->words, c->nwords, err,
	    sizeof(err))) == NULL)
		return command_bad("%s", err);
	rc = fleet_write(out, ARGS_OF(c)->out);
	cJSON_Delete(out);
	return rc;
}

/* The array of script and submit: this binary, run's options as given. */
static int
fleet_array(struct call *c, struct slurm_array *a, char *dir, size_t dirlen,
    char *bin, size_t binlen)
{
	struct fleet_args *opt = ARGS_OF(c);
	char err[PATH_MAX + 128];

	if (cli_named(c->rest, c->nrest, "--out"))
		return command_bad("fleet: each task names its results "
		    "(SHARED/HOST-JOB-TASK.json): drop --out");
	if (fleet_dir(opt->dir, dir, dirlen, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	if (child_self(bin, binlen) != 0)
		return command_bad("cannot read /proc/self/exe: %s",
		    strerror(errno));
	*a = (struct slurm_array){ dir, bin, opt->partition,
	    opt->constraint, opt->nodes, opt->minutes,
	    c->rest, c->nrest };
	return 0;
}

static int
fleet_cmd_script(struct call *c)
{
	char dir[PATH_MAX], bin[PATH_MAX];
	struct slurm_array a;

	if (fleet_array(c, &a, dir, sizeof(dir), bin, sizeof(bin)) != 0)
		return EXIT_USAGE;
	slurm_script(stdout, &a);
	return 0;
}

static int
fleet_cmd_submit(struct call *c)
{
	char dir[PATH_MAX], bin[PATH_MAX], job[SLURM_JOB];
	char err[PATH_MAX + 128];
	struct slurm_array a;

	if (fleet_array(c, &a, dir, sizeof(dir), bin, sizeof(bin)) != 0)
		return EXIT_USAGE;
	if (fleet_submit(&a, c->argc, c->argv, job, sizeof(job), err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	printf("%s\nsubmitted job %s: %u task%s, each on a node of its own, "
	    "into %s\nfollow it:  dispatchbench fleet status --dir %s --job %s\n"
	    "collect it: dispatchbench fleet collect --dir %s --job %s -o "
	    "fleet.json\n", job, job, a.tasks, a.tasks == 1 ? "" : "s", dir,
	    dir, job, dir, job);
	return 0;
}

static int
fleet_cmd_status(struct call *c)
{
	struct fleet_args *opt = ARGS_OF(c);
	struct fleet f;
	char err[1024];
	int live;

	if (fleet_open(&f, opt->dir, opt->job, err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	if ((live = fleet_poll(&f, err, sizeof(err))) < 0) {
		fleet_close(&f);
		return command_bad("%s", err);
	}
	printf("job %s: %u task%s, %d still to end\n", f.job, f.n,
	    f.n == 1 ? "" : "s", live);
	fleet_table(&f, stdout, opt->format);
	fleet_close(&f);
	return 0;
}

/*
 * Waits for the array, then merges what its tasks wrote; a failed task
 * never costs another's results. 0: every task completed whole; 1: some
 * did not (named, with Slurm's state); 3: the timeout came first.
 */
static int
fleet_cmd_collect(struct call *c)
{
	struct fleet_args *opt = ARGS_OF(c);
	char err[1024], out[PATH_MAX + 64];
	unsigned int failed;
	cJSON *doc = NULL;
	struct fleet f;
	int live, rc;

	if (fleet_open(&f, opt->dir, opt->job, err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	if ((live = fleet_wait(&f, opt->timeout_s, err, sizeof(err))) <
	    0) {
		fleet_close(&f);
		return command_bad("%s", err);
	}
	doc = fleet_merge(&f, err, sizeof(err));
	failed = fleet_failed(&f);
	printf("job %s: %u task%s, %u completed whole, %u not%s\n", f.job, f.n,
	    f.n == 1 ? "" : "s", f.n - failed, failed, live > 0 ?
	    ", some still running (--timeout)" : "");
	fleet_table(&f, stdout, opt->format);
	if (opt->out != NULL)
		snprintf(out, sizeof(out), "%s", opt->out);
	else
		snprintf(out, sizeof(out), "%s/merged-%s.json", f.dir, f.job);
	rc = doc != NULL ? fleet_write(doc, out) : (fprintf(stderr,
	    "dispatchbench: %s\n", err), 1);
	cJSON_Delete(doc);
	fleet_close(&f);
	if (live > 0)
		return EXIT_UNDECIDED;
	return rc != 0 ? rc : failed > 0 ? 1 : 0;
}

static int
cmd_fleet(struct call *c)
{
	static const struct {
		const char *verb;
		int (*fn)(struct call *);
		int sweep;		/* takes run's options */
	} verbs[] = {
		{ "script", fleet_cmd_script, 1 },
		{ "submit", fleet_cmd_submit, 1 },
		{ "status", fleet_cmd_status, 0 },
		{ "collect", fleet_cmd_collect, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (strcmp(c->words[0], verbs[i].verb) != 0)
			continue;
		if (!verbs[i].sweep && c->nrest > 0)
			return command_bad("fleet %s takes no run options (%s)",
			    verbs[i].verb, c->rest[0]);
		return verbs[i].fn(c);
	}
	return command_bad("fleet %s: not script, submit, status or collect",
	    c->words[0]);
}

const struct command command_merge = {
	.name = "merge",
	.args = "A.json B.json ... -o MERGED.json",
	.summary = "several machines' results as one file: a series per machine",
	OPTS(merge_opts),
	.minwords = 2,
	.maxwords = CALL_MAX_WORDS,
	.run = cmd_merge,
};
const struct command command_fleet = {
	.name = "fleet",
	.args = "script|submit|status|collect [options] [run options]",
	.summary = "the sweep on many machines through Slurm: a job array, its "
	    "tasks' states, their merge",
	OPTS(fleet_opts),
	.minwords = 1,
	.maxwords = 1,
	.sweep = command_run_sweep,
	.run = cmd_fleet,
};
