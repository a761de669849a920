/*
 * advise.c - the advise command: a pool size, from the dispatch cost of
 * each width against the capacity a blocking load needs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "export.h"
#include "pool.h"
#include "results.h"
#include "table.h"
#include "workload.h"

static const struct param advise_opts[] = {
	{ .flag = "--blocking", .kind = PARAM_TEXT, ARG(a.blocking),
	    .metavar = "[sleep:|spin:]MS:SHARE", .help = "the load the pool "
	    "must carry: SHARE of resumptions hold a thread MS ms (an op is 4 "
	    "resumptions: 5:1.0 holds one 20 ms an op)" },
	{ .flag = "--rate", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 1e12, ARG(a.rate), .metavar = "OPS",
	    .help = "ops/s the pool must carry (an op: 4 resumptions)" },
	{ .flag = "--p99", .kind = PARAM_NUMBER, .flags = P_POSITIVE, .hi = 1e6,
	    ARG(a.p99_ms), .metavar = "MS",
	    .help = "the dispatch latency's p99 it must keep" },
	{ .flag = "--from", .kind = PARAM_PATH, ARG(a.from),
	    .metavar = "RESULTS.json",
	    .help = "advise from these results instead of measuring" },
};

static const char *const advise_sweep[] = { "--dispatcher", "shared",
    "--out", "results/advise.json", NULL };

/* --blocking's profile; MS:SHARE is sleep:MS:SHARE. */
static int
advise_profile(const char *text, struct workload_profile *p, char *err,
    size_t errlen)
{
	char spec[64], kinds[128];

	snprintf(spec, sizeof(spec), "%s%s", strchr(text, ':') ==
	    strrchr(text, ':') ? "sleep:" : "", text);
	if (workload_profile_parse(p, spec, err, errlen) != 0 ||
	    !workload_blocks_some(p)) {
		workload_kinds_text(kinds, sizeof(kinds), true);
		return snprintf(err, errlen, "--blocking: '%s' is not MS:SHARE, "
		    "%s", text, kinds), -1;
	}
	return 0;
}

/*
 * The load advise weighs, and the sweep that measures it beside
 * resume-only. load is NULL without one.
 */
static int
advise_load(struct call *c, struct advise_load *load, char *name,
    size_t len, char *err, size_t errlen)
{
	struct workload_profile p;

	if (cli_named(c->rest, c->nrest, "--workload"))
		return snprintf(err, errlen, "advise: give the profile with "
		    "--blocking, not --workload"), -1;
	if (cli_named(c->rest, c->nrest, "--split"))
		return snprintf(err, errlen, "advise: it measures the split "
		    "itself, at every width above the CPUs; leave out --split"),
		    -1;
	if (c->args.a.blocking == NULL)
		return 0;
	if (advise_profile(c->args.a.blocking, &p, err, errlen) != 0)
		return -1;
	workload_profile_format(&p, name, len);
	load->name = name;
	load->hold_s = workload_hold_s(&p);
	load->cpu_bound = p.kind->cpu_bound;
	if (c->args.a.from == NULL && pool_cells(&c->sweep, name, &c->cells,
	    &c->ncells, err, errlen) != 0)
		return -1;
	return 1;
}

/* Measures (or reads) the rows of one dispatcher, queue and count. */
static int
advise_measure(struct call *c, const struct advise_load *load,
    struct advise_rows *rows, struct advise_sel *s, cJSON **doc, char *err,
    size_t errlen)
{
	const char *path = c->args.a.from != NULL ? c->args.a.from :
	    c->sweep.out;
	struct runner_arm arm = { .doc = NULL };
	size_t nd, nq, nc;
	int rc = 0;

	cli_list(&c->sweep, "--dispatcher", &nd);
	cli_list(&c->sweep, "--queue", &nq);
	cli_list(&c->sweep, "--coroutines", &nc);
	if (nd != 1 || nq != 1 || nc != 1)
		return snprintf(err, errlen, "advise: give one dispatcher, one "
		    "queue and one coroutine count"), EXIT_USAGE;
	pool_sel(&c->sweep, c->rest, c->nrest, c->args.a.from != NULL, s);
	if (c->args.a.from != NULL && results_read(c->args.a.from, &arm.doc,
	    err, errlen) != 0)
		return EXIT_USAGE;
	if (results_machines(arm.doc) > 0)	/* a pool is one machine's */
		return *doc = arm.doc, snprintf(err, errlen, "%s holds %d "
		    "machines' results: advise sizes a pool on one machine; "
		    "give it one machine's file", c->args.a.from,
		    results_machines(arm.doc)), EXIT_USAGE;
	if (c->args.a.from == NULL)
		rc = command_sweep_self(c, &arm);
	*doc = arm.doc;
	if (rc >= RUNNER_INTERRUPTED)
		return rc;
	if (advise_select(arm.doc, path, s, err, errlen) != 0 ||
	    (c->args.a.from != NULL && advise_from_check(arm.doc, path, s,
	    load != NULL ? load->name : NULL, err, errlen) != 0) ||
	    advise_rows(arm.doc, s, load, rows, err, errlen) != 0)
		return EXIT_USAGE;
	return rc;
}

static int
cmd_advise(struct call *c)
{
	struct advise_target target = { c->args.a.rate, c->args.a.p99_ms * 1e3 };
	struct advise_rows rows;
	struct advise_load load;
	struct advise_pick pick;
	struct advise_sel sel;
	static char out[4096];
	char err[512], name[64];
	cJSON *doc = NULL;
	int rc, loaded;

	if (c->sweep.cell.count > 0)
		return command_bad("advise: --count: the advice weighs CPU time "
		    "and capacity, which a counted window does not measure");
	/* As run's: from the source tree, under build/. */
	if (!cli_named(c->rest, c->nrest, "--out"))
		c->sweep.out = cli_out_default(c->sweep.out, out, sizeof(out));
	if (c->sweep.format == TABLE_GBENCH)
		return command_bad("advise: --format gbench is for a sweep's "
		    "runs; give table, csv, markdown, json or html");
	if ((loaded = advise_load(c, &load, name, sizeof(name), err,
	    sizeof(err))) < 0)
		return command_bad("%s", err);
	rc = advise_measure(c, loaded ? &load : NULL, &rows, &sel, &doc, err,
	    sizeof(err));
	if (rc == EXIT_USAGE || rc >= RUNNER_INTERRUPTED) {
		cJSON_Delete(doc);
		return rc == EXIT_USAGE ? command_bad("%s", err) : rc;
	}
	if (c->args.a.from == NULL && advise_record(doc, c->sweep.out, &target,
	    loaded ? &load : NULL) != 0)
		fprintf(stderr, "dispatchbench: advise: could not add the "
		    "target to %s\n", c->sweep.out);
	advise_choose_all(&rows, &target, &pick);
	advise_write(stdout, c->sweep.format, &rows, &target, &pick,
	    loaded ? &load : NULL, &sel);
	if (table_for_people(c->sweep.format)) {
		results_memory_fits(doc);
		export_memory_fits(stdout, doc);
	}
	cJSON_Delete(doc);
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
