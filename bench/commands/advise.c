/*
 * advise.c - the advise command: a pool size, from the dispatch cost of
 * each width against the capacity a blocking load needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "export.h"
#include "measure.h"
#include "results.h"
#include "workload.h"

static const struct param advise_opts[] = {
	OPT("--blocking", PARAM_TEXT, 0, 0, 0, NULL, a.blocking,
	    "[sleep:|spin:]MS:SHARE", "the load the pool must carry: SHARE of "
	    "resumptions hold a thread MS ms"),
	OPT("--rate", PARAM_NUMBER, P_POSITIVE, 0, 1e12, NULL, a.rate, "OPS",
	    "ops/s the pool must carry"),
	OPT("--p99", PARAM_NUMBER, P_POSITIVE, 0, 1e6, NULL, a.p99_ms, "MS",
	    "the dispatch latency's p99 it must keep"),
	OPT("--from", PARAM_PATH, 0, 0, 0, NULL, a.from, "RESULTS.json",
	    "advise from these results instead of measuring"),
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
 * resume-only: --workload resume,PROFILE. load is NULL without one.
 */
static int
advise_load(struct call *c, struct advise_load *load, char *name,
    size_t len, char *err, size_t errlen)
{
	struct workload_profile p;
	char list[96], *words[2] = { (char *)"--workload", list };
	int i;

	for (i = 0; i < c->nrest; i++)
		if (strcmp(c->rest[i], "--workload") == 0)
			return snprintf(err, errlen, "advise: give the profile with "
			    "--blocking, not --workload"), -1;
	if (c->args.a.blocking == NULL)
		return 0;
	if (advise_profile(c->args.a.blocking, &p, err, errlen) != 0)
		return -1;
	workload_profile_format(&p, name, len);
	load->name = name;
	load->hold_s = workload_hold_s(&p);
	load->cpu_bound = p.kind->cpu_bound;
	snprintf(list, sizeof(list), "resume,%s", name);
	free(c->cells);
	if (cli_parse(&c->sweep, 2, words, err, errlen) != 0 ||
	    (c->cells = cli_cells(&c->sweep, &c->ncells, err, errlen)) == NULL)
		return -1;
	return 1;
}

/* Measures (or reads) the rows of one dispatcher, queue and count. */
static int
advise_measure(struct call *c, const struct advise_load *load,
    struct advise_row *rows, size_t *n, cJSON **doc, char *err,
    size_t errlen)
{
	const union param_value *d, *q, *co;
	struct runner_arm arm = { .doc = NULL };
	const char *dname, *qname;
	size_t nd, nq, nc;
	int rc = 0;

	d = cli_list(&c->sweep, "--dispatcher", &nd);
	q = cli_list(&c->sweep, "--queue", &nq);
	co = cli_list(&c->sweep, "--coroutines", &nc);
	if (nd != 1 || nq != 1 || nc != 1)
		return snprintf(err, errlen, "advise: give one dispatcher, one "
		    "queue and one coroutine count"), EXIT_USAGE;
	if (c->args.a.from != NULL && results_read(c->args.a.from, &arm.doc,
	    err, errlen) != 0)
		return EXIT_USAGE;
	dname = ((const struct disp_ops *)d->p)->name;
	qname = ((const struct disp_ops *)d->p)->flags & DISP_USES_QUEUE ?
	    ((const struct queue_ops *)q->p)->name : "-";
	if (c->args.a.from == NULL)
		rc = command_sweep_self(c, &arm);
	else if (advise_from_check(arm.doc, c->args.a.from, dname, qname,
	    co->u, load != NULL ? load->name : NULL, err, errlen) != 0)
		rc = EXIT_USAGE;
	if (rc != EXIT_USAGE && rc < RUNNER_INTERRUPTED && advise_rows(arm.doc,
	    dname, qname, co->u, load, rows, n, err, errlen) != 0)
		rc = EXIT_USAGE;
	*doc = arm.doc;
	return rc;
}

static int
cmd_advise(struct call *c)
{
	struct advise_row rows[ADVISE_MAX_ROWS];
	struct advise_target target = { c->args.a.rate, c->args.a.p99_ms * 1e3 };
	struct advise_load load;
	struct advise_pick pick;
	const struct cell *cell;
	char err[512], name[64];
	cJSON *doc = NULL;
	size_t n;
	int rc, loaded;

	/* A load makes the cells anew: the first is read after it. */
	if ((loaded = advise_load(c, &load, name, sizeof(name), err,
	    sizeof(err))) < 0)
		return command_bad("%s", err);
	cell = &c->cells[0];
	rc = advise_measure(c, loaded ? &load : NULL, rows, &n, &doc, err,
	    sizeof(err));
	if (rc == EXIT_USAGE || rc >= RUNNER_INTERRUPTED) {
		cJSON_Delete(doc);
		return rc == EXIT_USAGE ? command_bad("%s", err) : rc;
	}
	advise_choose(rows, n, &target, &pick);
	printf("\nadvise: %s over %s, %u coroutines; cost from resume-only, "
	    "capacity and p99 under %s\n", cell->disp->name,
	    cell->cfg.queue != NULL ? cell->cfg.queue->name : "no queue",
	    cell->coroutines, loaded ? name : "resume-only");
	advise_print(stdout, rows, n, &target, &pick, loaded ? &load : NULL,
	    cell->coroutines, measure_cpus());
	results_memory_fits(doc);
	export_memory_fits(stdout, doc);
	cJSON_Delete(doc);
	return rc;
}

const struct command command_advise = { "advise", "[options]", "a pool size: "
    "the dispatch cost against the capacity a load needs", OPTS(advise_opts),
    0, 0, advise_sweep, cmd_advise };
