/*
 * advise.c - the advise command: a pool size, from the dispatch cost of
 * each width against the capacity a blocking load needs.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "pool.h"
#include "results.h"
#include "table.h"
#include "workload.h"

/* What the options of this file's commands fill (commands.h). */
struct advise_args {
	const char *blocking, *from;
	double rate, p99_ms;
};
#define COMMAND_ARGS	struct advise_args

extern const struct command command_advise;	/* defined below */

static const struct param advise_opts[] = {
	{ .flag = "--blocking", .kind = PARAM_TEXT, ARG(blocking),
	    .metavar = "[sleep:|spin:]MS:SHARE", .help = "the load the pool "
	    "must carry: SHARE of resumptions hold a thread MS ms (an op is 4 "
	    "resumptions: 5:1.0 holds one 20 ms an op)" },
	{ .flag = "--rate", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 1e12, ARG(rate), .metavar = "OPS",
	    .help = "ops/s the pool must carry (an op: 4 resumptions)" },
	{ .flag = "--p99", .kind = PARAM_NUMBER, .flags = P_POSITIVE, .hi = 1e6,
	    ARG(p99_ms), .metavar = "MS",
	    .help = "the dispatch latency's p99 it must keep" },
	{ .flag = "--from", .kind = PARAM_PATH, ARG(from),
	    .metavar = "RESULTS.json",
	    .help = "advise from these results instead of measuring, on the "
	    "load and target they recorded unless given" },
};

static const char *const advise_sweep[] = { "--dispatcher", "shared",
    "--out", "results/advise.json", NULL };

/* --blocking's profile; MS:SHARE is sleep:MS:SHARE. */
static int
advise_profile(const char *text, struct workload_profile *p, char *err,
    size_t errlen)
{
	char spec[64], kinds[128], why[96], tail;
	double ms, share;

	snprintf(spec, sizeof(spec), "%s%s", strchr(text, ':') ==
	    strrchr(text, ':') ? "sleep:" : "", text);
	if (workload_profile_parse(p, spec, err, errlen) == 0 &&
	    workload_blocks_some(p))
		return 0;
	if (sscanf(spec, "%*[a-z]:%lf:%lf%c", &ms, &share, &tail) == 2 &&
	    workload_block_range(ms, share, why, sizeof(why)) != 0)
		return snprintf(err, errlen, "--blocking: '%s': %s", text, why),
		    -1;
	workload_kinds_text(kinds, sizeof(kinds), true);
	return snprintf(err, errlen, "--blocking: '%s' is not MS:SHARE, %s",
	    text, kinds), -1;
}

/*
 * The coroutines in flight at the target (Little's law: the rate times
 * the time an op holds a thread, rounded up), at most the sweep's own:
 * then its cells are at the target already. 0 without a rate.
 */
static unsigned int
advise_in_flight(double rate, double hold_s, unsigned int coroutines)
{
	double need = ceil(rate * hold_s);

	return need < 1 ? 0 : need < coroutines ? (unsigned int)need :
	    coroutines;
}

/* What the advice is on: as the line gives it, or --from's file recorded. */
struct advise_given {
	struct advise_target target;
	const char *blocking;		/* the profile's text; NULL: none */
	const char *recorded;		/* the file's load; NULL: none */
	unsigned int at_target;		/* the load's coroutines at the target */
	char name[64];			/* the load's profile, as files name it */
	char notes[512];		/* an override of the file's a line */
};

/*
 * The load advise weighs (none without a profile), and the sweep that
 * measures it beside resume-only and at the target's coroutines in
 * flight. A line in g's notes when it overrides the file's. Returns 1, 0
 * without a load, -1 and err if bad.
 */
static int
advise_load(struct call *c, struct advise_given *g, struct advise_load *load,
    char *err, size_t errlen)
{
	unsigned int co = cli_list(&c->sweep, "--coroutines", &(size_t){ 0 })->u;
	struct workload_profile p;
	size_t k = strlen(g->notes);

	if (cli_named(c->rest, c->nrest, "--workload"))
		return snprintf(err, errlen, "advise: give the profile with "
		    "--blocking, not --workload"), -1;
	if (cli_named(c->rest, c->nrest, "--split"))
		return snprintf(err, errlen, "advise: it measures the split "
		    "itself, at every width above the CPUs; leave out --split"),
		    -1;
	if (g->blocking == NULL)
		return 0;
	if (advise_profile(g->blocking, &p, err, errlen) != 0)
		return -1;
	workload_profile_format(&p, g->name, sizeof(g->name));
	if (g->recorded != NULL && strcmp(g->name, g->recorded) != 0)
		snprintf(g->notes + k, sizeof(g->notes) - k, "dispatchbench: "
		    "advise: --blocking %s overrides the file's %s\n", g->name,
		    g->recorded);
	*load = (struct advise_load){ g->name, workload_hold_s(&p),
	    p.kind->cpu_bound };
	if (ARGS_OF(c)->from != NULL)
		return 1;
	g->at_target = advise_in_flight(g->target.rate, load->hold_s, co);
	if (pool_cells(&c->sweep, g->name, g->at_target < co ? g->at_target :
	    0, &c->cells, &c->ncells, err, errlen) != 0)
		return -1;
	return 1;
}

/* " --rate 5000 overrides the file's 3000": a given value against it. */
static void
advise_override(char *notes, size_t len, const char *flag, double given,
    double recorded)
{
	size_t k = strlen(notes);

	if (given > 0 && given != recorded)
		snprintf(notes + k, len - k, recorded > 0 ? "dispatchbench: "
		    "advise: %s %.15g overrides the file's %.15g\n" :
		    "dispatchbench: advise: %s %.15g: the file's target had "
		    "none\n", flag, given, recorded);
	return;
}

/*
 * The target and the load --from's file (doc) recorded its advice with,
 * where the command line gives none; each given that differs, a line in
 * g's notes.
 */
static void
advise_recalled(struct call *c, const cJSON *doc, struct advise_given *g)
{
	struct advise_target rec;

	g->blocking = ARGS_OF(c)->blocking;
	if (doc == NULL || !advise_recorded(doc, &rec, &g->recorded,
	    &g->at_target))
		return;
	if (g->blocking == NULL)
		g->blocking = g->recorded;
	advise_override(g->notes, sizeof(g->notes), "--rate", g->target.rate,
	    rec.rate);
	advise_override(g->notes, sizeof(g->notes), "--p99",
	    g->target.p99_us * 1e-3, rec.p99_us * 1e-3);
	g->target.rate = g->target.rate > 0 ? g->target.rate : rec.rate;
	g->target.p99_us = g->target.p99_us > 0 ? g->target.p99_us :
	    rec.p99_us;
	return;
}

/* --from's file, of one machine: what a pool is sized on. */
static int
advise_read(const char *path, cJSON **doc, char *err, size_t errlen)
{

	if (results_read(path, doc, err, errlen) != 0)
		return -1;
	if (results_machines(*doc) > 0)
		return snprintf(err, errlen, "%s holds %d machines' results: "
		    "advise sizes a pool on one machine; give it one machine's "
		    "file", path, results_machines(*doc)), -1;
	return 0;
}

/*
 * Measures (or reads) the rows of one dispatcher, queue and count, and
 * of the load at g's target: --from's file's, unless g's rate keeps
 * another count of its coroutines busy than the file's target did.
 */
static int
advise_measure(struct call *c, const struct advise_load *load,
    const struct advise_given *g, struct advise_rows *rows,
    struct advise_sel *s, cJSON **doc, char *err, size_t errlen)
{
	struct advise_args *opt = ARGS_OF(c);
	const char *path = opt->from != NULL ? opt->from :
	    c->sweep.out;
	struct runner_arm arm = { .doc = *doc };
	size_t nd, nq, nc;
	int rc = 0;

	cli_list(&c->sweep, "--dispatcher", &nd);
	cli_list(&c->sweep, "--queue", &nq);
	cli_list(&c->sweep, "--coroutines", &nc);
	if (nd != 1 || nq != 1 || nc != 1)
		return snprintf(err, errlen, "advise: give one dispatcher, one "
		    "queue and one coroutine count"), EXIT_USAGE;
	pool_sel(&c->sweep, c->rest, c->nrest, opt->from != NULL, s);
	if (opt->from == NULL)
		rc = command_sweep_self(c, &arm);
	*doc = arm.doc;
	if (rc >= RUNNER_INTERRUPTED)
		return rc;
	if (advise_select(arm.doc, path, s, err, errlen) != 0 ||
	    (opt->from != NULL && advise_from_check(arm.doc, path, s,
	    load != NULL ? load->name : NULL, err, errlen) != 0))
		return EXIT_USAGE;
	s->at_target = load == NULL || g->at_target != advise_in_flight(
	    g->target.rate, load->hold_s, s->coroutines) ? 0 : g->at_target;
	if (advise_rows(arm.doc, s, load, rows, err, errlen) != 0)
		return EXIT_USAGE;
	return rc;
}

/* Checks the call can advise at all, before a file is read or a run. */
static int
advise_usable(struct call *c)
{
	static char out[4096];

	if (c->sweep.cell.count > 0)
		return command_bad("advise: --count: the advice weighs CPU time "
		    "and capacity, which a counted window does not measure");
	/* As run's: from the source tree, under build/. */
	if (!cli_named(c->rest, c->nrest, "--out"))
		c->sweep.out = cli_out_default(c->sweep.out, out, sizeof(out));
	if (c->sweep.format == TABLE_GBENCH)
		return command_bad("advise: --format gbench is for a sweep's "
		    "runs; give table, csv, markdown, json or html");
	return 0;
}

/* The advice the call asks for, measured or read, into out; its status. */
static int
advise_print(struct call *c, FILE *out)
{
	struct advise_args *opt = ARGS_OF(c);
	static struct advise_given g;
	struct advise_rows rows;
	struct advise_load load;
	struct advise_pick pick;
	struct advise_sel sel;
	char err[512];
	cJSON *doc = NULL;
	int rc, loaded;

	g = (struct advise_given){ .target = { opt->rate,
	    opt->p99_ms * 1e3 } };
	if ((rc = advise_usable(c)) != 0)
		return rc;
	if (opt->from != NULL && advise_read(opt->from, &doc, err,
	    sizeof(err)) != 0) {
		cJSON_Delete(doc);
		return command_bad("%s", err);
	}
	advise_recalled(c, doc, &g);
	if ((loaded = advise_load(c, &g, &load, err, sizeof(err))) < 0) {
		cJSON_Delete(doc);
		return command_bad("%s", err);
	}
	rc = advise_measure(c, loaded ? &load : NULL, &g, &rows, &sel, &doc,
	    err, sizeof(err));
	if (rc == EXIT_USAGE || rc >= RUNNER_INTERRUPTED) {
		cJSON_Delete(doc);
		return rc == EXIT_USAGE ? command_bad("%s", err) : rc;
	}
	if (opt->from == NULL && advise_record(doc, c->sweep.out,
	    &g.target, loaded ? &load : NULL, g.at_target) != 0)
		fprintf(stderr, "dispatchbench: advise: could not add the "
		    "target to %s\n", c->sweep.out);
	fputs(g.notes, stderr);
	advise_choose_all(&rows, &g.target, &pick);
	advise_write(out, c->sweep.format, &rows, &g.target, &pick,
	    loaded ? &load : NULL, &sel);
	if (table_for_people(c->sweep.format))
		advise_memory(out, doc, &sel);
	cJSON_Delete(doc);
	return rc;
}

static int
cmd_advise(struct call *c)
{

	return advise_print(c, stdout);
}

int
advise_page(const char *path, FILE *out)
{
	char *argv[] = { "dispatchbench", "advise", "--from", (char *)path,
	    "--format", "html", NULL };
	char err[512];
	struct call *c;
	int rc;

	if ((c = call_make(&command_advise, 6, argv, err, sizeof(err))) ==
	    NULL)
		return command_bad("%s", err);
	rc = advise_print(c, out);
	command_line_free(c);
	return rc;
}

const struct command command_advise = {
	.name = "advise",
	.args = "[options]",
	.summary = "a pool size: dispatch cost against a load's capacity (op = "
	    "4 resumptions)",
	OPTS(advise_opts),
	.sweep = advise_sweep,
	.run = cmd_advise,
};
