/*
 * pool.c - the sweep that sizes a pool (see pool.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The widths as a list, the narrow pool's among them: "8,16,2". */
static void
pool_widths(const struct sweep *s, unsigned int narrow, char *all,
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

/* a's cells, then b's, into *cells. */
static void
pool_join(struct cell **cells, size_t *n, struct cell *a, size_t na,
    struct cell *b, size_t nb)
{

	free(*cells);
	if ((*cells = realloc(a, (na + nb) * sizeof(*a))) == NULL)
		abort();
	memcpy(*cells + na, b, nb * sizeof(*b));
	free(b);
	*n = na + nb;
	return;
}

int
pool_cells(struct sweep *s, const char *load, struct cell **cells,
    size_t *n, char *err, size_t errlen)
{
	unsigned int narrow = pool_narrow();
	char all[512], views[512], both[96], nw[16];
	char *one[] = { (char *)"--workload", both, (char *)"--workers", all };
	char *two[] = { (char *)"--workers", nw, (char *)"--workload",
	    (char *)load, (char *)"--split", views };
	struct sweep split;
	struct cell *a, *b = NULL;
	size_t na, nb = 0;

	pool_widths(s, narrow, all, sizeof(all), views, sizeof(views));
	snprintf(both, sizeof(both), "resume,%s", load);
	snprintf(nw, sizeof(nw), "%u", narrow);
	if (cli_parse(s, 4, one, err, errlen) != 0 ||
	    (a = cli_cells(s, &na, err, errlen)) == NULL)
		return -1;
	split = *s;
	if (views[0] != '\0' && !(a[0].disp->flags & DB_DISP_NO_WIDTH) &&
	    (cli_parse(&split, 6, two, err, errlen) != 0 ||
	    (b = cli_cells(&split, &nb, err, errlen)) == NULL)) {
		free(a);
		return -1;
	}
	pool_join(cells, n, a, na, b, nb);
	return 0;
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
