/*
 * sittings.c - the probes and the runs' bare loop of each sitting of a
 * store (see sittings.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "runfields.h"
#include "sittings.h"
#include "stats.h"

struct sittings_probe {
	long long sitting;
	char name[32], unit[8];
	double median, min, max;
};

/* One run's bare loop (bare_loop_us_per_dispatch), as a log. */
struct sittings_run {
	long long sitting;
	double bare;
};

struct sittings {
	struct sittings_probe *p;
	size_t n, cap;
	struct sittings_run *r;
	size_t nr, rcap;
	double threshold, alpha;	/* a move of the runs' bare loop */
};

/* One side of a probe's move: its timings' range and each sitting's median. */
struct sittings_side {
	double min, max;
	double *med;
	size_t n;
};

static int
sittings_add(const struct store_probe *sp, void *arg)
{
	struct sittings *si = arg;
	struct sittings_probe *p;

	/* A probe that could not run (one PU) says nothing of the machine. */
	if (sp->n <= 0 || !isfinite(sp->min) || !isfinite(sp->max) ||
	    !isfinite(sp->median))
		return 0;
	if (si->n == si->cap) {
		si->cap = si->cap ? si->cap * 2 : 64;
		if ((si->p = realloc(si->p, si->cap * sizeof(*si->p))) == NULL)
			abort();
	}
	p = &si->p[si->n++];
	p->sitting = sp->sitting;
	snprintf(p->name, sizeof(p->name), "%s", sp->name);
	snprintf(p->unit, sizeof(p->unit), "%s", sp->unit ? sp->unit : "");
	p->median = sp->median;
	p->min = sp->min;
	p->max = sp->max;
	return 0;
}

static int
sittings_add_run(const struct store_value *v, void *arg)
{
	struct sittings *si = arg;

	if (!(v->value > 0))
		return 0;
	if (si->nr == si->rcap) {
		si->rcap = si->rcap ? si->rcap * 2 : 256;
		if ((si->r = realloc(si->r, si->rcap * sizeof(*si->r))) ==
		    NULL)
			abort();
	}
	si->r[si->nr].sitting = v->sitting;
	si->r[si->nr++].bare = log(v->value);
	return 0;
}

int
sittings_load(struct store *s, double threshold, double alpha,
    struct sittings **out, char *err, size_t errlen)
{
	struct sittings *si = calloc(1, sizeof(*si));

	if (si == NULL)
		abort();
	si->threshold = threshold;
	si->alpha = alpha;
	if (store_probes(s, sittings_add, si, err, errlen) < 0 ||
	    store_values(s, RF(bare_loop_us_per_dispatch), sittings_add_run,
	    si, err, errlen) < 0) {
		sittings_free(si);
		return -1;
	}
	*out = si;
	return 0;
}

void
sittings_free(struct sittings *si)
{

	if (si == NULL)
		return;
	free(si->p);
	free(si->r);
	free(si);
	return;
}

static bool
sittings_in(long long id, const long long *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Probe name's timings in the sittings ids[0..n) into side. */
static void
sittings_side(const struct sittings *si, const char *name,
    const long long *ids, size_t n, struct sittings_side *side)
{
	const struct sittings_probe *p;
	size_t i;

	side->min = INFINITY;
	side->max = -INFINITY;
	side->n = 0;
	for (i = 0; i < si->n; i++) {
		p = &si->p[i];
		if (strcmp(p->name, name) != 0 || !sittings_in(p->sitting, ids,
		    n))
			continue;
		side->min = fmin(side->min, p->min);
		side->max = fmax(side->max, p->max);
		side->med[side->n++] = p->median;
	}
	return;
}

/* Whether probe p's name moved; why says how, as sittings_moved's. */
static bool
sittings_probe_moved(const struct sittings *si,
    const struct sittings_probe *p, const long long *before, size_t nb,
    const long long *after, size_t na, bool slower, char *why, size_t len)
{
	struct sittings_side b, a;
	bool moved;

	b.med = malloc((si->n + 1) * sizeof(*b.med));
	a.med = malloc((si->n + 1) * sizeof(*a.med));
	if (b.med == NULL || a.med == NULL)
		abort();
	sittings_side(si, p->name, before, nb, &b);
	sittings_side(si, p->name, after, na, &a);
	moved = b.n > 0 && a.n > 0 && (slower ? a.min > b.max :
	    a.max < b.min);
	if (moved)
		snprintf(why, len, "%s %.3g -> %.3g %s", p->name,
		    stats_select_median(b.med, b.n),
		    stats_select_median(a.med, a.n), p->unit);
	free(b.med);
	free(a.med);
	return moved;
}

/* The runs' bare loop of the sittings ids[0..n) into v; how many. */
static size_t
sittings_runs(const struct sittings *si, const long long *ids, size_t n,
    double *v)
{
	size_t i, k = 0;

	for (i = 0; i < si->nr; i++)
		if (sittings_in(si->r[i].sitting, ids, n))
			v[k++] = si->r[i].bare;
	return k;
}

/*
 * Whether the runs' bare loop moved the way slower says, as compare
 * judges two files' (probes_core_moved), by half the step's log or more:
 * a host that gives a core another speed between runs, which the probes
 * taken once a sitting miss, and that explains a step of its own size,
 * not a code's step many times it.
 */
static bool
sittings_runs_moved(const struct sittings *si, const long long *before,
    size_t nb, const long long *after, size_t na, bool slower, double step,
    char *why, size_t len)
{
	double *b = malloc((si->nr + 1) * sizeof(*b));
	double *a = malloc((si->nr + 1) * sizeof(*a));
	size_t kb, ka;
	struct rank_test t;
	bool moved;

	if (b == NULL || a == NULL)
		abort();
	kb = sittings_runs(si, before, nb, b);
	ka = sittings_runs(si, after, na, a);
	moved = probes_core_shift(b, kb, a, ka, si->threshold, si->alpha, &t) &&
	    (t.shift > 0) == slower && fabs(t.shift) >= fabs(log(step)) / 2;
	if (moved)
		snprintf(why, len, "the runs' bare loop %.3g -> %.3g ns",
		    exp(stats_quantile(b, kb, 0.5)) * 1e3,
		    exp(stats_quantile(a, ka, 0.5)) * 1e3);
	free(b);
	free(a);
	return moved;
}

bool
sittings_moved(const struct sittings *si, const long long *before,
    size_t nb, const long long *after, size_t na, bool slower, double step,
    char *why, size_t len)
{
	size_t i;

	for (i = 0; i < si->n; i++)
		if (sittings_in(si->p[i].sitting, after, na) &&
		    sittings_probe_moved(si, &si->p[i], before, nb, after, na,
		    slower, why, len))
			return true;
	return sittings_runs_moved(si, before, nb, after, na, slower, step,
	    why, len);
}
