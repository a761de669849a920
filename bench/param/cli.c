/*
 * cli.c - a sweep's command line through the parameter table (see cli.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "designs.h"
#include "plugin.h"
#include "table.h"
#include "value.h"

/* Runs every cell gets before it may stop early (--precision). */
#define CLI_REPS_MIN	3

static size_t
cli_index(const struct param *p)
{

	return (size_t)(p - params);
}

/* Where p's value lives in s: its cell, or the sweep itself. */
static void *
cli_where(const struct param *p, struct sweep *s)
{

	return (char *)(p->flags & P_SWEEP ? (void *)s : (void *)&s->cell) +
	    p->off;
}

/*
 * Appends v to p's list, refused if it holds v already: each value is a
 * cell (or a line of cells), and one made twice is two cells of one key,
 * which compare refuses.
 */
static int
cli_add(struct sweep *s, const struct param *p, const union param_value *v,
    char *err, size_t errlen)
{
	size_t k = cli_index(p), i, *n = &s->lists[k].n;
	char buf[128];

	for (i = 0; i < *n; i++)
		if (value_same(p, &s->lists[k].v[i], v))
			return param_error(err, errlen, "%s: '%s' twice: its "
			    "cells would be made twice", p->flag,
			    value_format(p, v, buf, sizeof(buf)));
	if (*n == SWEEP_MAX_LIST)
		return param_error(err, errlen, "%s: more than %d values", p->flag,
		    SWEEP_MAX_LIST);
	s->lists[k].v[(*n)++] = *v;
	return 0;
}

/* One item of a list: a value, a range A..B of powers of two, or all. */
static int
cli_item(struct sweep *s, const struct param *p, char *item, bool check,
    char *err, size_t errlen)
{
	union param_value a, b;
	char *dots = strstr(item, "..");
	size_t i;

	/* Every design of this process: a program runs by its name. */
	if (p->kind == PARAM_DESIGN && strcmp(item, "all") == 0) {
		for (i = 0; i < disp_local_count(); i++) {
			memset(&a, 0, sizeof(a));
			a.p = disp_at(i);
			if (cli_add(s, p, &a, err, errlen) != 0)
				return -1;
		}
		return 0;
	}
	if (dots != NULL && (p->kind == PARAM_COUNT || p->kind == PARAM_WIDTH)) {
		*dots = '\0';
		if (value_parse(p, item, &a, check, err, errlen) != 0 ||
		    value_parse(p, dots + 2, &b, check, err, errlen) != 0)
			return -1;
		if (b.u < a.u || a.u == 0)
			return param_error(err, errlen, "%s: %s..%s is empty",
			    p->flag, item, dots + 2);
		for (; a.u <= b.u; a.u *= 2)
			if (cli_add(s, p, &a, err, errlen) != 0)
				return -1;
		return 0;
	}
	if (value_parse(p, item, &a, check, err, errlen) != 0)
		return -1;
	return cli_add(s, p, &a, err, errlen);
}

/* A list replaces the one before it; empty items are malformed. */
static int
cli_set(struct sweep *s, const struct param *p, const char *text, bool check,
    char *err, size_t errlen)
{
	union param_value v;
	char buf[512], *item, *save = NULL;
	size_t len = strlen(text);

	if (!(p->flags & P_LIST)) {
		if (value_parse(p, text, &v, check, err, errlen) != 0)
			return -1;
		value_store(p, cli_where(p, s), &v);
		return 0;
	}
	if (len == 0 || len >= sizeof(buf) || text[0] == ',' ||
	    text[len - 1] == ',' || strstr(text, ",,") != NULL)
		return param_error(err, errlen, "%s: '%s' is not a comma-separated "
		    "list", p->flag, text);
	memcpy(buf, text, len + 1);
	s->lists[cli_index(p)].n = 0;
	for (item = strtok_r(buf, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save))
		if (cli_item(s, p, item, check, err, errlen) != 0)
			return -1;
	return 0;
}

/*
 * Whether the current folder is the source tree this binary was built
 * from: its results/ holds the reference files git tracks.
 */
static bool
cli_in_source(void)
{
#ifdef DB_SOURCE_DIR
	struct stat here, src;

	return stat(".", &here) == 0 && stat(DB_SOURCE_DIR, &src) == 0 &&
	    here.st_dev == src.st_dev && here.st_ino == src.st_ino;
#else
	return false;
#endif
}

const char *
cli_out_default(const char *rel, char *buf, size_t len)
{

	if (!cli_in_source())
		return rel;
	snprintf(buf, len, "build/%s", rel);
	return buf;
}

void
cli_defaults(struct sweep *s)
{
	/* Always the same text: a later call leaves an earlier sweep's. */
	static char out[PATH_MAX];
	char err[256];
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < nparams; i++)
		if (params[i].dflt != NULL)
			(void)cli_set(s, &params[i], params[i].dflt, false, err,
			    sizeof(err));
	s->out = cli_out_default(s->out, out, sizeof(out));
	return;
}

const char *
cli_sweep_differs(const struct sweep *a, const struct sweep *b)
{
	union param_value va, vb;
	size_t i;

	for (i = 0; i < nparams; i++) {
		if (!(params[i].flags & P_SWEEP))
			continue;
		value_load(&params[i], (const char *)a + params[i].off, &va);
		value_load(&params[i], (const char *)b + params[i].off, &vb);
		if (memcmp(&va, &vb, sizeof(va)) != 0)
			return params[i].flag;
	}
	return NULL;
}

bool
cli_given(const struct sweep *s, const char *flag)
{
	const struct param *p = params_find(flag);

	return p != NULL && (s->given & (uint64_t)1 << (p - params)) != 0;
}

bool
cli_named(char *const *opts, int n, const char *flag)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(opts[i], flag) == 0)
			return true;
	return false;
}

unsigned int
cli_reps_min(const struct sweep *s)
{

	unsigned int least = s->reps_judged > CLI_REPS_MIN ? s->reps_judged :
	    CLI_REPS_MIN;

	if (s->precision_pct <= 0 || (cli_given(s, "--reps") &&
	    !cli_given(s, "--precision")))
		return s->reps;
	return s->reps < least ? s->reps : least;
}

int
cli_parse(struct sweep *s, int argc, char **argv, char *err, size_t errlen)
{
	const struct param *p;
	int i;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) != 0)
			return param_error(err, errlen, "unexpected argument '%s'",
			    argv[i]);
		if ((p = params_find(argv[i])) == NULL)
			return param_error(err, errlen, "unknown option '%s'",
			    argv[i]);
		if (p->kind == PARAM_SWITCH) {
			cli_set(s, p, "", true, err, errlen);
			continue;
		}
		if (i + 1 == argc)
			return param_error(err, errlen, "%s needs a value", argv[i]);
		if (cli_set(s, p, argv[++i], true, err, errlen) != 0)
			return -1;
		s->given |= (uint64_t)1 << (p - params);
	}
	return 0;
}

void
cli_option_defaults(const struct param *opts, size_t nopts, void *base)
{
	union param_value v;
	char err[256];
	size_t i;

	for (i = 0; i < nopts; i++)
		if (opts[i].dflt != NULL && value_parse(&opts[i], opts[i].dflt, &v,
		    false, err, sizeof(err)) == 0)
			value_store(&opts[i], (char *)base + opts[i].off, &v);
	return;
}

int
cli_options(const struct param *opts, size_t nopts, void *base, int argc,
    char **argv, struct cli_words *out, char *err, size_t errlen)
{
	union param_value v;
	const struct param *p;
	size_t k;
	int i;

	for (i = 0; i < argc; i++) {
		for (p = NULL, k = 0; k < nopts && p == NULL; k++)
			p = strcmp(opts[k].flag, argv[i]) == 0 ? &opts[k] : NULL;
		if (p == NULL && argv[i][0] == '-' && out->rest != NULL) {
			/* A sweep's option goes with its value. */
			if ((p = params_find(argv[i])) == NULL)
				return param_error(err, errlen,
				    "unknown option '%s'", argv[i]);
			out->rest[out->nrest++] = argv[i];
			if (p->kind != PARAM_SWITCH && i + 1 < argc)
				out->rest[out->nrest++] = argv[++i];
			continue;
		}
		if (p == NULL && argv[i][0] != '-' && out->nwords < out->maxwords) {
			out->words[out->nwords++] = argv[i];
			continue;
		}
		if (p == NULL)
			return param_error(err, errlen, "unexpected argument '%s'",
			    argv[i]);
		if (p->kind != PARAM_SWITCH && i + 1 == argc)
			return param_error(err, errlen, "%s needs a value", argv[i]);
		if (value_parse(p, p->kind == PARAM_SWITCH ? "" : argv[++i], &v, true,
		    err, errlen) != 0)
			return -1;
		value_store(p, (char *)base + p->off, &v);
	}
	return 0;
}

const union param_value *
cli_list(const struct sweep *s, const char *flag, size_t *n)
{
	const struct param *p = params_find(flag);

	if (p == NULL || !(p->flags & P_LIST))
		return NULL;
	*n = s->lists[cli_index(p)].n;
	return s->lists[cli_index(p)].v;
}

/*
 * Whether p applies to design d: d has every one of its DB_DISP_* flags,
 * and is one of its owners when it names them.
 */
static bool
cli_applies(const struct param *p, const struct db_disp_ops *d)
{
	size_t n = strlen(d->name);
	const char *o;

	if ((d->flags & p->designs) != p->designs)
		return false;
	if (p->owners == NULL)
		return true;
	for (o = p->owners; (o = strstr(o, d->name)) != NULL; o += n)
		if ((o == p->owners || o[-1] == ',') && (o[n] == ',' ||
		    o[n] == '\0'))
			return true;
	return false;
}

/*
 * The values list parameter p takes for design d: its list, the first of
 * it alone where p does not apply to d (its value is then never read), and
 * for the width: inf only for a design that grows, 1 for one that has none.
 */
static size_t
cli_values_for(const struct sweep *s, const struct param *p,
    const struct db_disp_ops *d, union param_value *out)
{
	size_t i, n = 0, k = cli_index(p);

	if (p->kind == PARAM_DESIGN) {
		out[0].p = d;
		return 1;
	}
	/* A program starts its coroutines its own way (docs/external.md). */
	if (!cli_applies(p, d) || ((d->flags & DB_DISP_PROGRAM) &&
	    strcmp(p->flag, "--spawn") == 0)) {
		memset(&out[0], 0, sizeof(out[0]));
		return 1;
	}
	if (p->kind == PARAM_WIDTH && (d->flags & DB_DISP_NO_WIDTH)) {
		out[0].u = 1;
		return 1;
	}
	for (i = 0; i < s->lists[k].n; i++) {
		if (p->kind == PARAM_WIDTH && s->lists[k].v[i].u == CELL_UNBOUNDED &&
		    !(d->flags & DB_DISP_GROWS))
			continue;
		out[n++] = s->lists[k].v[i];
	}
	return n;
}

/* A cell's values that depend on others: the sampling its kind wants. */
static void
cli_settle(struct cell *c)
{

	if (c->latency_every == VALUE_AUTO)
		c->latency_every = c->profile.kind->sample_every;
	return;
}

struct cli_odometer {
	const struct param *p[32];	/* the lists, outermost first */
	union param_value v[32][SWEEP_MAX_LIST];
	size_t n[32], at[32], nlists;
};

/* The next combination, innermost first; false past the last. */
static bool
cli_turn(struct cli_odometer *o)
{
	size_t k;

	for (k = o->nlists; k-- > 1;) {
		if (++o->at[k] < o->n[k])
			return true;
		o->at[k] = 0;
	}
	return false;
}

/* The first of the models' own knobs (P_MODELS) s sets off its default. */
static const char *
cli_models_knob(const struct sweep *s)
{
	union param_value now, dflt;
	char err[256];
	size_t i;

	for (i = 0; i < nparams; i++) {
		if (!(params[i].flags & P_MODELS))
			continue;
		value_load(&params[i], (const char *)&s->cell + params[i].off,
		    &now);
		memset(&dflt, 0, sizeof(dflt));
		if (value_parse(&params[i], params[i].dflt, &dflt, false, err,
		    sizeof(err)) != 0)
			abort();	/* the table's own default */
		if (memcmp(&now, &dflt, sizeof(now)) != 0)
			return params[i].flag;
	}
	return NULL;
}

/* A real runtime waits and wakes as its library does. */
static bool
cli_design_skipped(const struct sweep *s, const struct db_disp_ops *d)
{

	return d->real != NULL && cli_models_knob(s) != NULL;
}

/*
 * Whether cell c of design d is left out, with why: a program of its own
 * runs the resume-only workload alone, as its coroutines start; Netty's
 * in-loop execute() is eventloop's alone; only a
 * blocking step hops to a view, and `inline` has no pool of its own to
 * split: its coroutines would come back to run on the view's thread, the
 * view the whole pool.
 */
static bool
cli_cell_skipped(const struct cell *c, const struct db_disp_ops *d, char *why,
    size_t len)
{
	char kinds[128];

	if ((d->flags & DB_DISP_PROGRAM) && (strcmp(c->profile.kind->name,
	    "resume") != 0 || c->payload_ns > 0 || c->split > 0))
		snprintf(why, len, "%s is a program of its own: it runs the "
		    "resume-only workload alone (no --workload but resume, "
		    "--payload-ns or --split)", d->name);
	else if (c->knobs.from == DISP_FROM_EXECUTE &&
	    strcmp(d->name, "eventloop") != 0)
		snprintf(why, len, "--from execute is Netty's own path, which "
		    "eventloop alone models; %s takes home or outside", d->name);
	else if (c->split == 0)
		return false;
	else if (!workload_blocks_some(&c->profile)) {
		workload_kinds_text(kinds, sizeof(kinds), true);
		snprintf(why, len, "--split: only a blocking --workload (%s) "
		    "hops to a view", kinds);
	} else if (d->flags & DB_DISP_NO_WIDTH)
		snprintf(why, len, "--split: %s has no pool of its own to hop "
		    "from: the hop back would run the coroutine on the view",
		    d->name);
	else
		return false;
	return true;
}

/*
 * How many cells design d makes. The product stops once past
 * CLI_MAX_CELLS, so that 64 values in each of a dozen lists cannot wrap.
 */
static size_t
cli_design_count(const struct sweep *s, const struct db_disp_ops *d)
{
	union param_value v[SWEEP_MAX_LIST];
	size_t i, n = 1;

	if (cli_design_skipped(s, d))
		return 0;
	for (i = 0; i < nparams && n <= CLI_MAX_CELLS; i++)
		if (params[i].flags & P_LIST)
			n *= cli_values_for(s, &params[i], d, v);
	return n;
}

/* d's cells into out; a cell left out says why (cli_cell_skipped). */
static size_t
cli_design_cells(const struct sweep *s, const struct db_disp_ops *d,
    struct cell *out, char *why, size_t whylen)
{
	struct cli_odometer o = { .nlists = 0 };
	const struct param *p;
	size_t i, k, n = 0;
	struct cell c;

	if (cli_design_skipped(s, d)) {
		fprintf(stderr, "dispatchbench: %s skipped: %s is the models' "
		    "knob, and %s waits and wakes its own way\n", d->name,
		    cli_models_knob(s), d->real);
		return 0;
	}

	/* Widths innermost: a worker sweep is one line of a plot. */
	for (i = 0; i < 2 * nparams; i++) {
		p = &params[i % nparams];
		if (!(p->flags & P_LIST) ||
		    (p->kind == PARAM_WIDTH) != (i >= nparams))
			continue;
		k = o.nlists++;
		o.p[k] = p;
		o.n[k] = cli_values_for(s, p, d, o.v[k]);
		o.at[k] = 0;
		if (o.n[k] == 0)
			return 0;
	}
	do {
		c = s->cell;
		for (k = 0; k < o.nlists; k++)
			value_store(o.p[k], (char *)&c + o.p[k]->off,
			    &o.v[k][o.at[k]]);
		if (!(d->flags & DB_DISP_USES_QUEUE))
			c.cfg.queue = NULL;
		cli_settle(&c);
		if (!cli_cell_skipped(&c, d, why, whylen))
			out[n++] = c;
	} while (cli_turn(&o));
	return n;
}

struct cell *
cli_cells(const struct sweep *s, size_t *ncells, char *err, size_t errlen)
{
	size_t n = 0, i, k = 0, max = 0;
	const union param_value *d;
	struct cell *cells;
	char why[256] = "";

	d = cli_list(s, "--dispatcher", &k);
	for (i = 0; i < k; i++)
		max += cli_design_count(s, d[i].p);
	if (max > CLI_MAX_CELLS) {
		param_error(err, errlen, "the sweep makes more than %d cells: "
		    "shorten its lists", CLI_MAX_CELLS);
		return NULL;
	}
	if ((cells = calloc(max ? max : 1, sizeof(*cells))) == NULL)
		abort();
	for (i = 0; i < k; i++)
		n += cli_design_cells(s, d[i].p, cells + n, why, sizeof(why));
	if (n == 0 && why[0] != '\0') {
		free(cells);
		param_error(err, errlen, "%s", why);
		return NULL;
	}
	if (n == 0) {
		free(cells);
		param_error(err, errlen, "no cell to run: 'inf' workers is only "
		    "for a design that grows (rendezvous), and a real runtime "
		    "takes no --spins or --wake");
		return NULL;
	}
	*ncells = n;
	return cells;
}

/* A cell's value of p as text: what its command line and key say. */
static const char *
cli_format(const struct param *p, const struct cell *c, char *buf, size_t len)
{
	union param_value v;

	value_load(p, (const char *)c + p->off, &v);
	return value_format(p, &v, buf, len);
}

/* Whether c holds p's default: for an "auto" value, its kind's own. */
static bool
cli_is_default(const struct param *p, const struct cell *c, const char *v)
{
	char buf[CLI_WORD];

	if ((p->flags & P_AUTO) && p->kind == PARAM_COUNT) {
		snprintf(buf, sizeof(buf), "%u", c->profile.kind->sample_every);
		return strcmp(v, buf) == 0;
	}
	return p->dflt != NULL && strcmp(v, p->dflt) == 0;
}

/* As cli_format, but a plugin is named by the spec it was loaded by. */
static const char *
cli_arg(const struct param *p, const struct cell *c, char *buf, size_t len)
{
	union param_value v;
	const char *spec;

	if (p->kind == PARAM_DESIGN || p->kind == PARAM_QUEUE) {
		value_load(p, (const char *)c + p->off, &v);
		if (v.p != NULL && (spec = plugin_spec(v.p)) != NULL)
			return spec;
	}
	return cli_format(p, c, buf, len);
}

int
cli_argv(const struct sweep *s, const struct cell *c, char buf[][CLI_WORD],
    char **argv)
{
	const struct param *p;
	const char *v;
	int n = 0, b = 0;
	size_t i;

	argv[n++] = (char *)"dispatchbench";
	argv[n++] = (char *)"cell";
	for (i = 0; i < nparams; i++) {
		p = &params[i];
		if ((p->flags & P_SWEEP) || !cli_applies(p, c->disp))
			continue;
		v = cli_arg(p, c, buf[b], CLI_WORD);
		if (cli_is_default(p, c, v))
			continue;
		argv[n++] = (char *)p->flag;
		argv[n++] = v == buf[b] ? buf[b++] : (char *)v;
	}
	snprintf(buf[b], CLI_WORD, "%.17g", s->win.warmup_s);
	argv[n++] = (char *)"--warmup";
	argv[n++] = buf[b++];
	snprintf(buf[b], CLI_WORD, "%.17g", s->win.time_s);
	argv[n++] = (char *)"--time";
	argv[n++] = buf[b++];
	argv[n] = NULL;
	return n;
}

/* A plugin's cell says which file it ran: "queue_plugin": its spec. */
static void
cli_plugin_json(cJSON *o, const struct param *p, const union param_value *v)
{
	char key[64];
	const char *spec;

	if ((p->kind != PARAM_DESIGN && p->kind != PARAM_QUEUE) || v->p == NULL ||
	    (spec = plugin_spec(v->p)) == NULL)
		return;
	snprintf(key, sizeof(key), "%s_plugin", p->key);
	cJSON_AddStringToObject(o, key, spec);
	return;
}

cJSON *
cli_cell_json(const struct cell *c)
{
	cJSON *o = cJSON_CreateObject();
	const struct param *p;
	union param_value v;
	size_t i;

	for (i = 0; i < nparams; i++) {
		p = &params[i];
		/* A design without a queue records "-" for --queue. */
		if (p->key == NULL || (!cli_applies(p, c->disp) &&
		    !(p->kind == PARAM_QUEUE && (p->flags & P_SHOWN))))
			continue;
		value_load(p, (const char *)c + p->off, &v);
		value_json(o, p, &v);
		cli_plugin_json(o, p, &v);
	}
	return o;
}

/* Writes text from column `at`, wrapped before column 80. */
static void
cli_wrap(FILE *out, const char *text, int at)
{
	const char *word = text, *end;
	int col = at;

	while (*word != '\0') {
		end = strchr(word, ' ');
		end = end != NULL ? end : word + strlen(word);
		if (col > at && col + 1 + (end - word) > 79) {
			fprintf(out, "\n%*s", at, "");
			col = at;
		}
		col += fprintf(out, "%s%.*s", col > at ? " " : "",
		    (int)(end - word), word);
		word = *end != '\0' ? end + 1 : end;
	}
	fputc('\n', out);
	return;
}

void
cli_usage(FILE *out, const struct param *table, size_t n)
{
	const struct param *p;
	char flag[64], help[512];
	size_t i;

	for (i = 0; i < n; i++) {
		p = &table[i];
		snprintf(flag, sizeof(flag), "%s%s%s", p->flag,
		    p->metavar ? " " : "", p->metavar ? p->metavar : "");
		snprintf(help, sizeof(help), "%s%s%s%s%s%s", p->help,
		    p->kind == PARAM_FORMAT ? ": " : "", p->kind ==
		    PARAM_FORMAT ? table_format_list() : "", p->dflt ? " [" : "",
		    p->dflt ? p->dflt : "", p->dflt ? "]" : "");
		if (strlen(flag) > 26)
			fprintf(out, "  %s\n%29s", flag, "");
		else
			fprintf(out, "  %-26s ", flag);
		cli_wrap(out, help, 29);
	}
	return;
}
