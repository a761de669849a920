/*
 * cli.c - option parsing and range checks for `run` and `cell`.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CLI_MAX_WORKERS		4096
#define CLI_MAX_COROUTINES	1000000
/*
 * Latency sampling by default: one dispatch in 256 when resumptions are
 * cheap (README: what it costs); every dispatch when a profile blocks, as
 * a clock read is then nothing beside the block, and one in 256 would
 * leave a window of slow resumptions with few samples or none.
 */
#define CLI_LATENCY_EVERY	256
#define CLI_LATENCY_AUTO	(~0u)

static int
cli_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void
cli_defaults(struct cli_opts *o)
{
	static const unsigned int sweep[] = { 1, 2, 4, 8, 16, 32, 64 };
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < disp_count(); i++)
		o->disps[o->ndisps++] = disp_at(i);
	o->queues[o->nqueues++] = &queue_lfseg;
	for (i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++)
		o->workers[o->nworkers++] = sweep[i];
	o->workers[o->nworkers++] = CELL_UNBOUNDED;	/* rendezvous only */
	o->coroutines[o->ncoroutines++] = 64;
	o->nprofiles = 1;			/* zeroed: resume-only */
	o->nlifos = 1;				/* zeroed: on */
	o->nsearchers = 1;			/* zeroed: half */
	o->latency_every = CLI_LATENCY_AUTO;
	o->pin = "compact";
	o->win.warmup_s = 0.3;
	o->win.time_s = 0.8;
	o->reps = 6;
	o->out = "results/sweep.json";
	o->spins = DISP_SPINS_DEFAULT;
	o->wake = DISP_WAKE_EVERY;
	o->keepalive_s = 60;
	o->capacity = 4096;
	return;
}

static int
cli_uint(const char *opt, const char *s, unsigned long lo, unsigned long hi,
    unsigned long *v, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || *s == '-')
		return cli_error(err, errlen, "%s: '%s' is not a number", opt, s);
	if (*v < lo || *v > hi)
		return cli_error(err, errlen, "%s: %s is out of range %lu..%lu",
		    opt, s, lo, hi);
	return 0;
}

static int
cli_seconds(const char *opt, const char *s, double lo, double hi, double *v,
    char *err, size_t errlen)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(*v))
		return cli_error(err, errlen, "%s: '%s' is not a number of "
		    "seconds", opt, s);
	if (*v < lo || *v > hi)
		return cli_error(err, errlen, "%s: %s is out of range %g..%g",
		    opt, s, lo, hi);
	return 0;
}

/* One element of a number list: N, or A..B for the powers of two between. */
static int
cli_range(const char *opt, char *item, unsigned long hi, unsigned int *out,
    size_t *n, char *err, size_t errlen)
{
	char *dots = strstr(item, "..");
	unsigned long a, b, v;

	if (dots == NULL) {
		if (cli_uint(opt, item, 1, hi, &a, err, errlen) != 0)
			return -1;
		b = a;
	} else {
		*dots = '\0';
		if (cli_uint(opt, item, 1, hi, &a, err, errlen) != 0 ||
		    cli_uint(opt, dots + 2, 1, hi, &b, err, errlen) != 0)
			return -1;
		if (b < a)
			return cli_error(err, errlen, "%s: %lu..%lu is empty",
			    opt, a, b);
	}
	for (v = a; v <= b; v *= 2) {
		if (*n == CLI_MAX_LIST)
			return cli_error(err, errlen, "%s: more than %d values",
			    opt, CLI_MAX_LIST);
		out[(*n)++] = (unsigned int)v;
	}
	return 0;
}

/* Splits a comma list; empty items are malformed. Calls fn on each. */
static int
cli_list(const char *opt, const char *s, char *err, size_t errlen,
    int (*fn)(struct cli_opts *, const char *, char *, char *, size_t),
    struct cli_opts *o)
{
	char buf[512], *item, *save = NULL;
	size_t len = strlen(s);

	if (len == 0 || len >= sizeof(buf) || s[0] == ',' || s[len - 1] == ',' ||
	    strstr(s, ",,") != NULL)
		return cli_error(err, errlen, "%s: '%s' is not a comma-separated "
		    "list", opt, s);
	memcpy(buf, s, len + 1);
	for (item = strtok_r(buf, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		if (fn(o, opt, item, err, errlen) != 0)
			return -1;
	}
	return 0;
}

static int
cli_disp_item(struct cli_opts *o, const char *opt, char *item, char *err,
    size_t errlen)
{
	const struct disp_ops *d = disp_find(item);

	if (d == NULL)
		return cli_error(err, errlen, "%s: unknown dispatcher '%s' "
		    "(see `dispatchbench list`)", opt, item);
	if (o->ndisps == CLI_MAX_LIST)
		return cli_error(err, errlen, "%s: too many values", opt);
	o->disps[o->ndisps++] = d;
	return 0;
}

static int
cli_queue_item(struct cli_opts *o, const char *opt, char *item, char *err,
    size_t errlen)
{
	const struct queue_ops *q = queue_find(item);

	if (q == NULL)
		return cli_error(err, errlen, "%s: unknown queue '%s' "
		    "(see `dispatchbench list`)", opt, item);
	if (q->flags & Q_ONE_CONSUMER)
		return cli_error(err, errlen, "%s: queue '%s' has one consumer; "
		    "shared and limited poll theirs from every worker", opt,
		    item);
	if (o->nqueues == CLI_MAX_LIST)
		return cli_error(err, errlen, "%s: too many values", opt);
	o->queues[o->nqueues++] = q;
	return 0;
}

static int
cli_workers_item(struct cli_opts *o, const char *opt, char *item, char *err,
    size_t errlen)
{

	if (strcmp(item, "inf") == 0) {
		if (o->nworkers == CLI_MAX_LIST)
			return cli_error(err, errlen, "%s: too many values", opt);
		o->workers[o->nworkers++] = CELL_UNBOUNDED;
		return 0;
	}
	return cli_range(opt, item, CLI_MAX_WORKERS, o->workers, &o->nworkers,
	    err, errlen);
}

static int
cli_coroutines_item(struct cli_opts *o, const char *opt, char *item,
    char *err, size_t errlen)
{

	return cli_range(opt, item, CLI_MAX_COROUTINES, o->coroutines,
	    &o->ncoroutines, err, errlen);
}

unsigned int
cli_latency_default(const struct workload_profile *p)
{

	if (p->kind == WORKLOAD_RESUME)
		return CLI_LATENCY_EVERY;
	/* A round trip costs hundreds of ns on most designs: enough samples. */
	return p->kind == WORKLOAD_REQUEST ? CLI_LATENCY_EVERY / 16 : 1;
}

static int
cli_workload_item(struct cli_opts *o, const char *opt, char *item,
    char *err, size_t errlen)
{

	if (o->nprofiles == CLI_MAX_LIST)
		return cli_error(err, errlen, "%s: too many values", opt);
	return workload_profile_parse(&o->profiles[o->nprofiles++], item, err,
	    errlen);
}

/* A list of one or both of two names, each once. */
static int
cli_pair_item(const char *opt, const char *item, const char *const names[2],
    int *vals, size_t *n, char *err, size_t errlen)
{
	int v;
	size_t i;

	if (strcmp(item, names[0]) == 0)
		v = 0;
	else if (strcmp(item, names[1]) == 0)
		v = 1;
	else
		return cli_error(err, errlen, "%s: '%s' is not %s or %s", opt,
		    item, names[0], names[1]);
	for (i = 0; i < *n; i++) {
		if (vals[i] == v)
			return cli_error(err, errlen, "%s: '%s' twice", opt,
			    item);
	}
	vals[(*n)++] = v;
	return 0;
}

static int
cli_lifo_item(struct cli_opts *o, const char *opt, char *item, char *err,
    size_t errlen)
{

	return cli_pair_item(opt, item, disp_lifo_names, o->lifos, &o->nlifos,
	    err, errlen);
}

static int
cli_search_item(struct cli_opts *o, const char *opt, char *item, char *err,
    size_t errlen)
{

	return cli_pair_item(opt, item, disp_search_names, o->searchers,
	    &o->nsearchers, err, errlen);
}

/* Options that take a list replace the default list. */
static int
cli_option(struct cli_opts *o, const char *opt, const char *v, char *err,
    size_t errlen)
{
	unsigned long u;

	if (strcmp(opt, "--dispatcher") == 0) {
		o->ndisps = 0;
		return cli_list(opt, v, err, errlen, cli_disp_item, o);
	}
	if (strcmp(opt, "--queue") == 0) {
		o->nqueues = 0;
		return cli_list(opt, v, err, errlen, cli_queue_item, o);
	}
	if (strcmp(opt, "--workers") == 0) {
		o->nworkers = 0;
		return cli_list(opt, v, err, errlen, cli_workers_item, o);
	}
	if (strcmp(opt, "--coroutines") == 0) {
		o->ncoroutines = 0;
		return cli_list(opt, v, err, errlen, cli_coroutines_item, o);
	}
	if (strcmp(opt, "--lifo") == 0) {
		o->nlifos = 0;
		return cli_list(opt, v, err, errlen, cli_lifo_item, o);
	}
	if (strcmp(opt, "--searchers") == 0) {
		o->nsearchers = 0;
		return cli_list(opt, v, err, errlen, cli_search_item, o);
	}
	if (strcmp(opt, "--workload") == 0) {
		o->nprofiles = 0;
		return cli_list(opt, v, err, errlen, cli_workload_item, o);
	}
	if (strcmp(opt, "--latency-every") == 0) {
		if (cli_uint(opt, v, 0, 1u << 20, &u, err, errlen) != 0)
			return -1;
		if ((u & (u - 1)) != 0)
			return cli_error(err, errlen, "%s: %s is not 0 or a power "
			    "of two", opt, v);
		o->latency_every = (unsigned int)u;
		return 0;
	}
	if (strcmp(opt, "--pin") == 0) {
		if (*v == '\0')
			return cli_error(err, errlen, "--pin: empty");
		o->pin = v;
		return 0;
	}
	if (strcmp(opt, "--warmup") == 0)
		return cli_seconds(opt, v, 0, 3600, &o->win.warmup_s, err, errlen);
	if (strcmp(opt, "--time") == 0)
		return cli_seconds(opt, v, 0.01, 3600, &o->win.time_s, err, errlen);
	if (strcmp(opt, "--keepalive") == 0)
		return cli_seconds(opt, v, 0.001, 3600, &o->keepalive_s, err,
		    errlen);
	if (strcmp(opt, "--deadline") == 0)
		return cli_seconds(opt, v, 1, 86400, &o->deadline_s, err, errlen);
	if (strcmp(opt, "--stall") == 0)
		return cli_seconds(opt, v, 0.2, 86400, &o->stall_s, err, errlen);
	if (strcmp(opt, "--out") == 0) {
		if (*v == '\0')
			return cli_error(err, errlen, "--out: empty file name");
		o->out = v;
		return 0;
	}
	if (strcmp(opt, "--format") == 0) {
		if (export_format_parse(v, &o->format) != 0)
			return cli_error(err, errlen, "--format: '%s' is not "
			    "table, csv, markdown, json or gbench", v);
		return 0;
	}
	if (strcmp(opt, "--wake") == 0) {
		if (strcmp(v, "every") == 0)
			o->wake = DISP_WAKE_EVERY;
		else if (strcmp(v, "lazy") == 0)
			o->wake = DISP_WAKE_LAZY;
		else
			return cli_error(err, errlen, "--wake: '%s' is not "
			    "every or lazy", v);
		return 0;
	}
	if (strcmp(opt, "--reps") == 0) {
		if (cli_uint(opt, v, 1, 1000, &u, err, errlen) != 0)
			return -1;
		o->reps = (unsigned int)u;
		return 0;
	}
	if (strcmp(opt, "--spins") == 0) {
		if (cli_uint(opt, v, 0, 10000000, &u, err, errlen) != 0)
			return -1;
		o->spins = (int)u;
		return 0;
	}
	if (strcmp(opt, "--pool") == 0) {
		if (cli_uint(opt, v, 1, CLI_MAX_WORKERS, &u, err, errlen) != 0)
			return -1;
		o->pool = (unsigned int)u;
		return 0;
	}
	if (strcmp(opt, "--payload-ns") == 0) {
		if (cli_uint(opt, v, 0, 10000000, &u, err, errlen) != 0)
			return -1;
		o->payload_ns = (unsigned int)u;
		return 0;
	}
	if (strcmp(opt, "--capacity") == 0) {
		if (cli_uint(opt, v, 1, 1u << 24, &u, err, errlen) != 0)
			return -1;
		o->capacity = (unsigned int)u;
		return 0;
	}
	return cli_error(err, errlen, "unknown option '%s'", opt);
}

int
cli_parse(struct cli_opts *o, int argc, char **argv, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--quiet") == 0) {
			o->quiet = 1;
			continue;
		}
		if (strncmp(argv[i], "--", 2) != 0)
			return cli_error(err, errlen, "unexpected argument '%s'",
			    argv[i]);
		if (i + 1 == argc)
			return cli_error(err, errlen, "%s needs a value",
			    argv[i]);
		if (cli_option(o, argv[i], argv[i + 1], err, errlen) != 0)
			return -1;
		i++;
	}
	return 0;
}

/* `inline` has no width: one cell, recorded with 1 worker. */
static size_t
cli_widths(const struct cli_opts *o, const struct disp_ops *d,
    unsigned int *w)
{
	size_t i, n = 0;

	if (d == &disp_inline) {
		w[0] = 1;
		return 1;
	}
	for (i = 0; i < o->nworkers; i++) {
		if (o->workers[i] == CELL_UNBOUNDED && !(d->flags & DISP_GROWS))
			continue;
		w[n++] = o->workers[i];
	}
	return n;
}

struct cell *
cli_cells(const struct cli_opts *o, size_t *ncells, char *err, size_t errlen)
{
	size_t max = o->ndisps * o->nqueues * o->nworkers * o->ncoroutines *
	    o->nprofiles * o->nlifos * o->nsearchers;
	size_t di, qi, li, si, wi, ci, pi, n = 0, nq, nl, ns, nw;
	unsigned int widths[CLI_MAX_LIST];
	struct cell *cells = calloc(max ? max : 1, sizeof(*cells)), *c;

	for (di = 0; di < o->ndisps; di++) {
		nq = (o->disps[di]->flags & DISP_USES_QUEUE) ? o->nqueues : 1;
		nl = (o->disps[di]->flags & DISP_STEALS) ? o->nlifos : 1;
		ns = (o->disps[di]->flags & DISP_STEALS) ? o->nsearchers : 1;
		nw = cli_widths(o, o->disps[di], widths);
		/* Widths innermost: a worker sweep is one line of a plot. */
		for (qi = 0; qi < nq; qi++)
		for (li = 0; li < nl; li++)
		for (si = 0; si < ns; si++)
		for (ci = 0; ci < o->ncoroutines; ci++)
		for (pi = 0; pi < o->nprofiles; pi++)
		for (wi = 0; wi < nw; wi++) {
			c = &cells[n++];
			c->disp = o->disps[di];
			c->queue = (c->disp->flags & DISP_USES_QUEUE) ?
			    o->queues[qi] : NULL;
			c->workers = widths[wi];
			c->coroutines = o->coroutines[ci];
			c->pin = o->pin;
			c->pool = o->pool;
			c->spins = o->spins;
			c->wake = o->wake;
			c->keepalive_s = o->keepalive_s;
			c->lifo = (enum disp_lifo)o->lifos[li];
			c->searchers = (enum disp_search)o->searchers[si];
			c->capacity = o->capacity;
			c->payload_ns = o->payload_ns;
			c->profile = o->profiles[pi];
			c->stall_s = o->stall_s;
			c->latency_every = o->latency_every;
			if (c->latency_every == CLI_LATENCY_AUTO)
				c->latency_every = cli_latency_default(
				    &c->profile);
		}
	}
	if (n == 0) {
		free(cells);
		cli_error(err, errlen, "no cell to run: 'inf' workers is only "
		    "for a design that grows (rendezvous)");
		return NULL;
	}
	*ncells = n;
	return cells;
}
