#!/bin/sh
# The verdicts' error rates, simulated through their own code (issue 28):
# compare's (compare_docs on made-up results files, one cell, so Holm's M
# is 1) and pair's (paired_verdict on made-up units, one a process). For
# each size: A/A campaigns, what share of them any verdict says, and the
# median "could see" they printed; then campaigns whose true change is that
# median, and how many are called `regressed` (the figure promises 80 %).
# Runs are lognormal (a log's spread SIGMA), units normal in logs; a fixed
# seed, so a run gives the same table. Also: two regimes A/A (half the
# runs twice as slow: the min-p test of three), a true change below the
# threshold (how often a verdict calls it past), and a slow minority.
# Issue 44: two regimes moving apart (the fast one 10 % faster while the
# slow share, 2x, goes 20 % -> 50 %, the mean up; and its mirror, the mean
# down) at 10, 20 and 30 runs a side, and both regimes 10 % slower with
# half the runs slow on each side; the last column is how often the
# comparison exits 3 (not a pass).
#
# Usage: sh scripts/verdict-sim.sh [BUILD [CAMPAIGNS [SIGMA]]]
#   sh scripts/verdict-sim.sh build 4000 0.03 > results/verdict-sim.txt
# BUILD holds bench/libanalyse.a and the libschema.a it needs (cmake's);
# it takes a few minutes.
set -eu

build=${1:-build} campaigns=${2:-4000} sigma=${3:-0.03}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/sim.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "paired.h"
#include "stats.h"

#define THRESHOLD	0.05
#define ALPHA		0.05
#define MAX_RUNS	64

static uint64_t seed = 0x9e3779b97f4a7c15u;
static int campaigns;
static double sigma;

/* One cell's results file of n ok runs. */
static cJSON *
doc_of(const double *v, size_t n)
{
	cJSON *d = cJSON_CreateObject(), *ctx, *cell, *runs, *run;
	size_t i;

	ctx = cJSON_AddObjectToObject(d, "context");
	cJSON_AddNumberToObject(ctx, "schema", 1);
	cell = cJSON_CreateObject();
	cJSON_AddStringToObject(cell, "dispatcher", "shared");
	cJSON_AddStringToObject(cell, "queue", "lfseg");
	cJSON_AddNumberToObject(cell, "workers", 8);
	cJSON_AddNumberToObject(cell, "coroutines", 64);
	runs = cJSON_AddArrayToObject(cell, "runs");
	for (i = 0; i < n; i++) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", "ok");
		cJSON_AddNumberToObject(run, "cpu_us_per_dispatch", v[i]);
		cJSON_AddItemToArray(runs, run);
	}
	cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "cells"), cell);
	return d;
}

/* compare's verdict on a and b, and the "could see" it printed. */
static const char *
compare_once(const double *a, const double *b, size_t n, double *sees,
    double *p, int *rc)
{
	static char buf[1 << 16], verdict[32];
	struct compare_opts o;
	cJSON *da = doc_of(a, n), *db = doc_of(b, n), *rows, *row;
	char err[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	compare_defaults(&o);
	o.format = TABLE_JSON;
	o.allow_other_machine = true;
	if ((*rc = compare_docs(da, db, &o, f, err, sizeof(err))) ==
	    COMPARE_BAD_INPUT)
		abort();
	fclose(f);
	rows = cJSON_Parse(buf);
	row = cJSON_GetArrayItem(rows, 0);
	snprintf(verdict, sizeof(verdict), "%s", cJSON_GetObjectItem(row,
	    "verdict")->valuestring);
	*sees = cJSON_GetObjectItem(row, "smallest_detectable")->valuedouble;
	*p = cJSON_GetObjectItem(row, "p")->valuedouble;
	cJSON_Delete(rows);
	cJSON_Delete(da);
	cJSON_Delete(db);
	return verdict;
}

/*
 * n runs of a lognormal around 1: a share `slow` of them (every
 * 1/slow-th, so the share is exact) times `factor`, all times `change`.
 */
static void
runs(double *v, size_t n, double change, double slow, double factor)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = change * exp(sigma * stats_gauss(&seed)) *
		    (slow > 0 && fmod((double)i * slow, 1) + slow >= 1 ? factor :
		    1);
	return;
}

static const char *const words[] = { "regressed", "improved", "equivalent",
    "inconclusive", "undecided", "broken" };
#define NWORDS	(sizeof(words) / sizeof(words[0]))

struct tally {
	unsigned int count[NWORDS];
	unsigned int rejected;		/* p below alpha: the test alone */
	unsigned int open;		/* exit 3: not a pass */
	double *sees;
	size_t nsees;
};

static void
tally_add(struct tally *t, const char *v, double sees, double p, int rc)
{
	size_t k;

	t->rejected += p < ALPHA;
	t->open += rc == COMPARE_UNDECIDED;
	for (k = 0; k < NWORDS; k++)
		t->count[k] += strcmp(v, words[k]) == 0;
	if (isfinite(sees))
		t->sees[t->nsees++] = sees;
	return;
}

static double
tally_median(struct tally *t)
{
	double *s = t->sees;
	size_t n = t->nsees;

	return n == 0 ? NAN : stats_select_median(s, n);
}

static void
tally_print(const char *what, size_t n, const struct tally *t)
{
	size_t k;

	printf("%-44s %3zu", what, n);
	for (k = 0; k < NWORDS - 1; k++)
		printf(" %7.4f", (double)t->count[k] / campaigns);
	printf(" %7.4f %7.4f\n", (double)t->rejected / campaigns,
	    (double)t->open / campaigns);
	return;
}

/*
 * compare over `campaigns` campaigns: BASE's runs a share `slow` of them
 * times `factor`, NEW's all times `change` and `slow_new` of them times
 * `factor_new`, as runs() draws them.
 */
static struct tally
campaigns_of(size_t n, double change, double slow, double factor,
    double slow_new, double factor_new)
{
	struct tally t = { .sees = calloc((size_t)campaigns, sizeof(double)),
	    .nsees = 0 };
	double a[MAX_RUNS], b[MAX_RUNS], sees, p;
	const char *v;
	int c, rc;

	for (c = 0; c < campaigns; c++) {
		runs(a, n, 1, slow, factor);
		runs(b, n, change, slow_new, factor_new);
		v = compare_once(a, b, n, &sees, &p, &rc);
		tally_add(&t, v, sees, p, rc);
	}
	return t;
}

/* NEW's runs changed, slow as runs(), both sides' slow ones alike. */
static struct tally
compare_campaigns(size_t n, double change, double slow, double factor,
    double slow_new)
{

	return campaigns_of(n, change, slow, factor, slow_new, factor);
}

/*
 * Two regimes 2x apart, the slow one where it was and the fast one times
 * `fast` in NEW, the slow share from share_a to share_b.
 */
static struct tally
regime_campaigns(size_t n, double fast, double share_a, double share_b)
{

	return campaigns_of(n, fast, share_a, 2, share_b, 2 / fast);
}

/* pair: n processes' units, each ln(B/A) ~ N(ln change, sigma). */
static struct tally
pair_campaigns(size_t n, double change)
{
	struct tally t = { .sees = calloc((size_t)campaigns, sizeof(double)),
	    .nsees = 0 };
	struct paired_ends e = { .ok = { 100, 100 } };
	struct paired_test r;
	double d[MAX_RUNS], sees;
	char why[256];
	const char *v;
	size_t i;
	int c;

	for (c = 0; c < campaigns; c++) {
		for (i = 0; i < n; i++)
			d[i] = log(change) + sigma * stats_gauss(&seed);
		v = paired_verdict(d, n, &e, THRESHOLD, ALPHA, false, &r, why,
		    sizeof(why));
		sees = exp(paired_verdict_mde(r.n, ALPHA, paired_spread(d, n),
		    log1p(THRESHOLD))) - 1;
		tally_add(&t, v, sees, r.p, strcmp(v, "undecided") == 0 ?
		    COMPARE_UNDECIDED : 0);
	}
	return t;
}

static void
header(const char *what)
{

	printf("\n%s\n%-44s %3s %7s %7s %7s %7s %7s %7s %7s\n", what,
	    "campaign", "n", "regr", "impr", "equiv", "inconc", "undec",
	    "p<alpha", "exit 3");
	return;
}

int
main(int argc, char **argv)
{
	static const size_t cn[] = { 6, 10, 20 }, pn[] = { 6, 10 },
	    rn[] = { 10, 20, 30 };
	struct tally t;
	double x;
	char what[64];
	size_t i;

	campaigns = argc > 1 ? atoi(argv[1]) : 4000;
	sigma = argc > 2 ? atof(argv[2]) : 0.03;
	printf("verdicts simulated through their code: threshold %g %%, alpha "
	    "%g, one cell, %d campaigns a line, a log's spread %g\n"
	    "(shares of the campaigns by verdict, and by the test alone at "
	    "alpha; the MC error of a share p is sqrt(p (1 - p) / %d))\n",
	    100 * THRESHOLD, ALPHA, campaigns, sigma, campaigns);
	header("compare, lognormal runs, n a side");
	for (i = 0; i < 3; i++) {
		t = compare_campaigns(cn[i], 1, 0, 1, 0);
		x = tally_median(&t);
		tally_print("A/A", cn[i], &t);
		snprintf(what, sizeof(what), "true change +%.2f %% (A/A's could "
		    "see, median)", 100 * x);
		free(t.sees);
		t = compare_campaigns(cn[i], 1 + x, 0, 1, 0);
		tally_print(what, cn[i], &t);
		free(t.sees);
		t = compare_campaigns(cn[i], 1.03, 0, 1, 0);
		tally_print("true change +3 % (below the threshold)", cn[i], &t);
		free(t.sees);
		t = compare_campaigns(cn[i], 1, 0.5, 2, 0.5);
		tally_print("A/A, half the runs 2x slow (two regimes)", cn[i], &t);
		free(t.sees);
		t = compare_campaigns(cn[i], 1, 0, 2, 0.3);
		tally_print("NEW: 30 % of runs 2x slow (share 0 -> 30 %)", cn[i],
		    &t);
		free(t.sees);
		t = compare_campaigns(cn[i], 1, 0, 1.4, 0.3);
		tally_print("NEW: 30 % of runs 1.4x slow (one regime)", cn[i], &t);
		free(t.sees);
	}
	header("compare, two regimes moving apart (slow 2x), n a side");
	for (i = 0; i < 3; i++) {
		t = regime_campaigns(rn[i], 0.9, 0.2, 0.5);
		tally_print("fast -10 %, slow 20 -> 50 % (mean +21 %)", rn[i],
		    &t);
		free(t.sees);
		t = regime_campaigns(rn[i], 1.1, 0.5, 0.2);
		tally_print("fast +10 %, slow 50 -> 20 % (mean -15 %)", rn[i],
		    &t);
		free(t.sees);
		t = compare_campaigns(rn[i], 1.1, 0.5, 2, 0.5);
		tally_print("both +10 %, slow 50 % a side", rn[i], &t);
		free(t.sees);
	}
	header("pair, units ln(B/A) normal, n processes");
	for (i = 0; i < 2; i++) {
		t = pair_campaigns(pn[i], 1);
		x = tally_median(&t);
		tally_print("A/A", pn[i], &t);
		snprintf(what, sizeof(what), "true change +%.2f %% (A/A's could "
		    "see, median)", 100 * x);
		free(t.sees);
		t = pair_campaigns(pn[i], 1 + x);
		tally_print(what, pn[i], &t);
		free(t.sees);
		t = pair_campaigns(pn[i], 1.03);
		tally_print("true change +3 % (below the threshold)", pn[i], &t);
		free(t.sees);
	}
	return 0;
}
EOF

cc -O2 -I"$src/bench/analyse" -o "$tmp/sim" "$tmp/sim.c" \
    "$build/bench/libanalyse.a" "$build/bench/libschema.a" \
    $(pkg-config --libs libcjson 2>/dev/null || echo -lcjson) -lm
"$tmp/sim" "$campaigns" "$sigma"
