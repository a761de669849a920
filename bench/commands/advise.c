/*
 * advise.c - the advise command: a pool size, from the dispatch cost of
 * each width against the capacity a blocking load needs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "export.h"
#include "measure.h"
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

/* Whether the user gave flag among the sweep's options. */
static bool
advise_given(const struct call *c, const char *flag)
{
	int i;

	for (i = 0; i < c->nrest; i++)
		if (strcmp(c->rest[i], flag) == 0)
			return true;
	return false;
}

/*
 * The narrow pool of a split: Dispatchers.Default's width, the CPUs and
 * at least 2 (kotlinx CORE_POOL_SIZE).
 */
static unsigned int
advise_narrow(void)
{
	unsigned int cpus = measure_cpus();

	return cpus > 2 ? cpus : 2;
}

/* The widths as a list, the narrow pool's among them: "8,16,2". */
static void
advise_widths(const struct sweep *s, unsigned int narrow, char *all,
    size_t alen, char *views, size_t vlen)
{
	const union param_value *w;
	size_t n, i, ka = 0, kv = 0;
	bool has = false;

	w = cli_list(s, "--workers", &n);
	all[0] = views[0] = '\0';
	for (i = 0; i < n; i++) {
		ka += (size_t)snprintf(all + ka, ka < alen ? alen - ka : 0,
		    w[i].u == CELL_UNBOUNDED ? "%sinf" : "%s%u", ka ? "," : "",
		    w[i].u);
		has |= w[i].u == narrow;
		if (w[i].u > narrow)
			kv += (size_t)snprintf(views + kv, kv < vlen ? vlen - kv :
			    0, "%s%u", kv ? "," : "", w[i].u);
	}
	if (!has)
		snprintf(all + ka, ka < alen ? alen - ka : 0, ",%u", narrow);
	return;
}

/* a's cells, then b's, into c's. */
static void
advise_cells(struct call *c, struct cell *a, size_t na, struct cell *b,
    size_t nb)
{

	free(c->cells);
	if ((c->cells = realloc(a, (na + nb) * sizeof(*a))) == NULL)
		abort();
	memcpy(c->cells + na, b, nb * sizeof(*b));
	free(b);
	c->ncells = na + nb;
	return;
}

/*
 * The sweep that measures a load: each width resume-only and under the
 * load, the narrow pool's among them; then the split, the narrow pool
 * with the blocking call on a view of each wider width.
 */
static int
advise_sweep_cells(struct call *c, const char *name, char *err,
    size_t errlen)
{
	unsigned int narrow = advise_narrow();
	char all[512], views[512], both[96], nw[16];
	char *one[] = { (char *)"--workload", both, (char *)"--workers", all };
	char *two[] = { (char *)"--workers", nw, (char *)"--workload",
	    (char *)name, (char *)"--split", views };
	struct sweep split;
	struct cell *a, *b = NULL;
	size_t na, nb = 0;

	advise_widths(&c->sweep, narrow, all, sizeof(all), views,
	    sizeof(views));
	snprintf(both, sizeof(both), "resume,%s", name);
	snprintf(nw, sizeof(nw), "%u", narrow);
	if (cli_parse(&c->sweep, 4, one, err, errlen) != 0 ||
	    (a = cli_cells(&c->sweep, &na, err, errlen)) == NULL)
		return -1;
	split = c->sweep;
	if (views[0] != '\0' && !(a[0].disp->flags & DB_DISP_NO_WIDTH) &&
	    (cli_parse(&split, 6, two, err, errlen) != 0 ||
	    (b = cli_cells(&split, &nb, err, errlen)) == NULL)) {
		free(a);
		return -1;
	}
	advise_cells(c, a, na, b, nb);
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

	if (advise_given(c, "--workload"))
		return snprintf(err, errlen, "advise: give the profile with "
		    "--blocking, not --workload"), -1;
	if (advise_given(c, "--split"))
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
	if (c->args.a.from == NULL && advise_sweep_cells(c, name, err,
	    errlen) != 0)
		return -1;
	return 1;
}

/*
 * What the advice is about: the design, queue and coroutines the user
 * named, the rest as the file holds them (a file read back names its own);
 * a live sweep measured just what it names.
 */
static void
advise_named(const struct call *c, struct advise_sel *s)
{
	const union param_value *d, *q, *co;
	bool from = c->args.a.from != NULL;

	d = cli_list(&c->sweep, "--dispatcher", &(size_t){ 0 });
	q = cli_list(&c->sweep, "--queue", &(size_t){ 0 });
	co = cli_list(&c->sweep, "--coroutines", &(size_t){ 0 });
	*s = (struct advise_sel){ .coroutines = co->u };
	if (!from || advise_given(c, "--dispatcher"))
		s->dispatcher = ((const struct db_disp_ops *)d->p)->name;
	if ((!from || advise_given(c, "--queue")) && s->dispatcher != NULL)
		s->queue = ((const struct db_disp_ops *)d->p)->flags &
		    DB_DISP_USES_QUEUE ? ((const struct db_queue_ops *)q->p)->name :
		    "-";
	else if (advise_given(c, "--queue"))
		s->queue = ((const struct db_queue_ops *)q->p)->name;
	if (from && !advise_given(c, "--coroutines"))
		s->coroutines = 0;
	return;
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
	advise_named(c, s);
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

/*
 * The target beside the results it was advised on, for plot and report
 * to draw; through a rename, as every results file is written.
 */
static void
advise_record(cJSON *doc, const char *out, const struct advise_target *t,
    const struct advise_load *load)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddStringToObject(a, "load", load != NULL ? load->name :
	    "resume");
	cJSON_AddNumberToObject(a, "rate_ops_per_s", t->rate);
	cJSON_AddNumberToObject(a, "p99_ms", t->p99_us * 1e-3);
	cJSON_DeleteItemFromObjectCaseSensitive(doc, "advise");
	cJSON_AddItemToObject(doc, "advise", a);
	if (results_write(doc, out) != 0)
		fprintf(stderr, "dispatchbench: advise: could not add the target "
		    "to %s\n", out);
	return;
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

	/* As run's: from the source tree, under build/. */
	if (!advise_given(c, "--out"))
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
	if (c->args.a.from == NULL)
		advise_record(doc, c->sweep.out, &target, loaded ? &load : NULL);
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
