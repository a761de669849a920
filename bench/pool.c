/*
 * pool.c - the sweep that sizes a pool (see pool.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dispatchbench/queue.h>

#include "measure.h"
#include "pool.h"

/*
 * The narrow pool of a split: Dispatchers.Default's width, the CPUs and
 * at least 2 (kotlinx CORE_POOL_SIZE).
 */
static unsigned int
pool_narrow(void)
{
	unsigned int cpus = measure_cpus();

	return cpus > 2 ? cpus : 2;
}

/*
 * The widths as a list, the narrow pool's among them ("8,16,2"), and the
 * split's views, those wider than it; of both only those of at least
 * least workers (the unbounded width is of any).
 */
static void
pool_widths(const struct sweep *s, unsigned int narrow, unsigned int least,
    char *all, size_t alen, char *views, size_t vlen)
{
	const union param_value *w;
	size_t n, i, ka = 0, kv = 0;
	bool has = false;

	w = cli_list(s, "--workers", &n);
	all[0] = views[0] = '\0';
	for (i = 0; i < n; i++) {
		if (w[i].u != CELL_UNBOUNDED && w[i].u < least)
			continue;
		ka += (size_t)snprintf(all + ka, ka < alen ? alen - ka : 0,
		    w[i].u == CELL_UNBOUNDED ? "%sinf" : "%s%u", ka ? "," : "",
		    w[i].u);
		has |= w[i].u == narrow;
		if (w[i].u > narrow)
			kv += (size_t)snprintf(views + kv, kv < vlen ? vlen - kv :
			    0, "%s%u", kv ? "," : "", w[i].u);
	}
	if (!has && narrow >= least)
		snprintf(all + ka, ka < alen ? alen - ka : 0, "%s%u", ka ? "," :
		    "", narrow);
	return;
}

/* more's cells after *cells (n of them), more freed. */
static void
pool_append(struct cell **cells, size_t *n, struct cell *more, size_t nmore)
{

	if ((*cells = realloc(*cells, (*n + nmore) * sizeof(*more))) == NULL)
		abort();
	memcpy(*cells + *n, more, nmore * sizeof(*more));
	*n += nmore;
	free(more);
	return;
}

/*
 * The cells of load at widths all (with coroutines co; NULL: s's) into
 * *cells, then the split's over views beside the narrow pool when the
 * design has a width to split. -1 and err if s cannot make them.
 */
static int
pool_load(const struct sweep *s, const char *load, const char *co,
    unsigned int narrow, const char *all, const char *views,
    struct cell **cells, size_t *n, char *err, size_t errlen)
{
	char nw[16];
	char *one[] = { (char *)"--workload", (char *)load, (char *)"--coroutines",
	    (char *)co };
	char *width[] = { (char *)"--workers", (char *)all };
	char *two[] = { (char *)"--workers", nw, (char *)"--split",
	    (char *)views };
	struct sweep at = *s;
	struct cell *c;
	size_t nc;

	snprintf(nw, sizeof(nw), "%u", narrow);
	if (cli_parse(&at, co != NULL ? 4 : 2, one, err, errlen) != 0)
		return -1;
	if (all[0] != '\0' && (cli_parse(&at, 2, width, err, errlen) != 0 ||
	    (c = cli_cells(&at, &nc, err, errlen)) == NULL))
		return -1;
	if (all[0] != '\0')
		pool_append(cells, n, c, nc);
	if (views[0] == '\0' || (*cells)[0].disp->flags & DB_DISP_NO_WIDTH)
		return 0;
	if (cli_parse(&at, 4, two, err, errlen) != 0 ||
	    (c = cli_cells(&at, &nc, err, errlen)) == NULL)
		return -1;
	pool_append(cells, n, c, nc);
	return 0;
}

int
pool_cells(struct sweep *s, const char *load, unsigned int at_target,
    struct cell **cells, size_t *n, char *err, size_t errlen)
{
	unsigned int narrow = pool_narrow();
	char all[512], views[512], both[96], co[16];
	char *one[] = { (char *)"--workload", both, (char *)"--workers", all };
	struct cell *a;
	size_t na;

	pool_widths(s, narrow, 0, all, sizeof(all), views, sizeof(views));
	snprintf(both, sizeof(both), "resume,%s", load);
	if (cli_parse(s, 4, one, err, errlen) != 0 ||
	    (a = cli_cells(s, &na, err, errlen)) == NULL)
		return -1;
	if (pool_load(s, load, NULL, narrow, "", views, &a, &na, err,
	    errlen) != 0)
		goto out_free;
	snprintf(co, sizeof(co), "%u", at_target);
	pool_widths(s, narrow, at_target, all, sizeof(all), views,
	    sizeof(views));
	if (at_target > 0 && pool_load(s, load, co, narrow, all, views, &a,
	    &na, err, errlen) != 0)
		goto out_free;
	free(*cells);
	*cells = a;
	*n = na;
	return 0;
out_free:
	free(a);
	return -1;
}

void
pool_sel(const struct sweep *s, char *const *given, int ngiven, bool from,
    struct advise_sel *sel)
{
	const union param_value *d, *q, *co;

	d = cli_list(s, "--dispatcher", &(size_t){ 0 });
	q = cli_list(s, "--queue", &(size_t){ 0 });
	co = cli_list(s, "--coroutines", &(size_t){ 0 });
	*sel = (struct advise_sel){ .coroutines = co->u };
	if (!from || cli_named(given, ngiven, "--dispatcher"))
		sel->dispatcher = ((const struct db_disp_ops *)d->p)->name;
	if ((!from || cli_named(given, ngiven, "--queue")) &&
	    sel->dispatcher != NULL)
		sel->queue = ((const struct db_disp_ops *)d->p)->flags &
		    DB_DISP_USES_QUEUE ? ((const struct db_queue_ops *)q->p)->name :
		    "-";
	else if (cli_named(given, ngiven, "--queue"))
		sel->queue = ((const struct db_queue_ops *)q->p)->name;
	if (from && !cli_named(given, ngiven, "--coroutines"))
		sel->coroutines = 0;
	return;
}
