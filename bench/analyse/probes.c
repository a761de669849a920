/*
 * probes.c - two sittings' calibration probes side by side (see probes.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"

/* A probe's figure at a precision its size wants: 0.34, 5.9, 143. */
static const char *
probes_num(double v, char *buf, size_t len)
{

	snprintf(buf, len, fabs(v) < 10 ? "%.2f" : fabs(v) < 100 ? "%.1f" :
	    "%.0f", v);
	return buf;
}

/* Whether probe p has timings: n above 0 and its three figures. */
static bool
probes_timed(const cJSON *p)
{

	return results_num(p, "n") > 0 && isfinite(results_num(p, "median")) &&
	    isfinite(results_num(p, "min")) && isfinite(results_num(p, "max"));
}

/* Past its own spread: both timed, and their ranges apart. */
static bool
probes_apart(const cJSON *a, const cJSON *b)
{

	return probes_timed(a) && probes_timed(b) &&
	    (results_num(a, "max") < results_num(b, "min") ||
	    results_num(b, "max") < results_num(a, "min"));
}

/* "median [min-max] unit", or why there is none. */
static const char *
probes_side(const cJSON *p, char *buf, size_t len)
{
	char m[32], lo[32], hi[32];

	if (p == NULL)
		snprintf(buf, len, "none");
	else if (!probes_timed(p))
		snprintf(buf, len, "none: %s", results_str(p, "why", "n 0"));
	else
		snprintf(buf, len, "%s [%s-%s] %s", probes_num(results_num(p,
		    "median"), m, sizeof(m)), probes_num(results_num(p, "min"),
		    lo, sizeof(lo)), probes_num(results_num(p, "max"), hi,
		    sizeof(hi)), results_str(p, "unit", ""));
	return buf;
}

int
probes_side_by_side(const cJSON *ctx_a, const cJSON *ctx_b, FILE *out)
{
	const cJSON *pa = results_obj(ctx_a, "probes");
	const cJSON *pb = results_obj(ctx_b, "probes"), *a, *b;
	char sa[256], sb[256], ratio[32] = "";
	int rows = 0;

	/* The same figures are one sitting's (ab's two arms): nothing to tell. */
	if (pa == NULL || pb == NULL || cJSON_Compare(pa, pb, true))
		return 0;
	fprintf(out, "  the machine's probes, median [min-max] of each "
	    "sitting's timings; moved: the ranges do not overlap\n");
	fprintf(out, "    %-16s %-28s %-28s %s\n", "probe", "BASE", "NEW",
	    "NEW/BASE");
	cJSON_ArrayForEach(a, pa) {
		b = cJSON_GetObjectItemCaseSensitive(pb, a->string);
		ratio[0] = '\0';
		if (probes_timed(a) && b != NULL && probes_timed(b))
			snprintf(ratio, sizeof(ratio), "%.2f", results_num(b,
			    "median") / results_num(a, "median"));
		fprintf(out, "    %-16s %-28s %-28s %s%s\n", a->string,
		    probes_side(a, sa, sizeof(sa)), probes_side(b, sb,
		    sizeof(sb)), ratio, probes_apart(a, b) ? " moved" : "");
		rows++;
	}
	return rows;
}

int
probes_moved(const cJSON *ctx_a, const cJSON *ctx_b, char *buf, size_t len)
{
	const cJSON *pa = results_obj(ctx_a, "probes");
	const cJSON *pb = results_obj(ctx_b, "probes"), *a, *b;
	char ma[32], mb[32];
	size_t used = 0;
	int moved = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(a, pa) {
		b = cJSON_GetObjectItemCaseSensitive(pb, a->string);
		if (!probes_apart(a, b))
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
			    "%s%s %s -> %s %s", moved ? ", " : "", a->string,
			    probes_num(results_num(a, "median"), ma,
			    sizeof(ma)), probes_num(results_num(b, "median"),
			    mb, sizeof(mb)), results_str(a, "unit", ""));
		moved++;
	}
	return moved;
}

/*
 * The logs of every ok run's bare loop in doc, in one array (freed by the
 * caller, never NULL): the scale a ratio is judged on; the runs history
 * reads from a store too.
 */
static size_t
probes_bare_logs(const cJSON *doc, double **vp)
{
	const cJSON *cell, *run, *f;
	size_t n = 0;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		n += (size_t)cJSON_GetArraySize(results_arr(cell, "runs"));
	*vp = rank_alloc(n, sizeof(**vp));
	n = 0;
	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
			f = cJSON_GetObjectItemCaseSensitive(run,
			    RF(bare_loop_us_per_dispatch));
			if (results_ok(run) && cJSON_IsNumber(f) &&
			    f->valuedouble > 0)
				(*vp)[n++] = log(f->valuedouble);
		}
	return n;
}

bool
probes_core_shift(double *a, size_t na, double *b, size_t nb,
    double threshold, double alpha, struct rank_test *t)
{

	if (na == 0 || nb == 0)
		return false;
	stats_sort(a, na);
	stats_sort(b, nb);
	rank_compare(a, na, b, nb, NAN, alpha, t);
	return t->p < alpha && fabs(expm1(t->shift)) > threshold;
}

int
probes_core_moved(const cJSON *a, const cJSON *b, double threshold,
    double alpha, char *why, size_t len)
{
	double *va, *vb, ma, mb;
	size_t na, nb;
	struct rank_test t;
	bool moved = false;

	/* A fleet's runs are its machines' own: pooled, they mix speeds. */
	if (results_machines(a) > 0 || results_machines(b) > 0)
		return 0;
	na = probes_bare_logs(a, &va);
	nb = probes_bare_logs(b, &vb);
	if ((moved = probes_core_shift(va, na, vb, nb, threshold, alpha,
	    &t))) {
		ma = exp(stats_quantile(va, na, 0.5)) * 1e3;
		mb = exp(stats_quantile(vb, nb, 0.5)) * 1e3;
		snprintf(why, len, "the files' cores ran at different speeds "
		    "(the bare loop each run measures before its window took "
		    "%.2f ns a dispatch in BASE and %.2f in NEW, medians of %zu "
		    "and %zu runs: %+.0f %% [%+.0f, %+.0f] at p %.2g, past "
		    "±%g %%)", ma, mb, na, nb, expm1(t.shift) * 100,
		    expm1(t.lo) * 100, expm1(t.hi) * 100, t.p, threshold * 100);
	}
	free(va);
	free(vb);
	return moved ? -1 : 0;
}

void
probes_line(const cJSON *probes, char *buf, size_t len)
{
	const cJSON *p;
	char m[32];
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(p, probes) {
		if (used >= len)
			break;
		if (probes_timed(p))
			used += (size_t)snprintf(buf + used, len - used,
			    "%s%s %s %s", used ? ", " : "", p->string,
			    probes_num(results_num(p, "median"), m, sizeof(m)),
			    results_str(p, "unit", ""));
		else
			used += (size_t)snprintf(buf + used, len - used,
			    "%s%s none (%s)", used ? ", " : "", p->string,
			    results_str(p, "why", "n 0"));
	}
	return;
}
