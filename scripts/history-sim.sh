#!/bin/sh
# How often history's change-point search calls a step in a flat series,
# simulated through its own code at any revision: changepoint.c, rank.c
# and stats.c of REV (the working tree by default) compiled with a driver.
# Each series: REVS revisions, one sitting each, RUNS runs a sitting with
# a lognormal run-to-run spread, and every sitting moved by its own
# offset (lognormal, OFFSET): the machine between two sweeps. A fixed
# seed, so a run gives the same table. The lines: the share of flat
# series with a step at all, and with a step the wrong way at the newest
# revision (what fails a merge's CI); then a true +10 % step at the
# middle and +31 % at the newest, found how often.
#
# Usage: sh scripts/history-sim.sh [REV [SERIES [OFFSET]]]
#   sh scripts/history-sim.sh 785ea6d 400 0.03   (before sittings)
#   sh scripts/history-sim.sh "" 400 0.03        (the working tree)
set -eu

rev=${1:-} series=${2:-400} offset=${3:-0.03}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in changepoint.c changepoint.h rank.c rank.h stats.c stats.h; do
	if [ -n "$rev" ]; then
		git -C "$top" show "$rev:bench/analyse/$f" >"$tmp/$f"
	else
		cp "$top/bench/analyse/$f" "$tmp/$f"
	fi
done

cat >"$tmp/sim.c" <<'EOF'
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "stats.h"

#define REVS	20
#define RUNS	6
#define SPREAD	0.02

static double v[REVS][RUNS];
static struct cp_point pts[REVS];

/* level[i] for revision i, each sitting moved by exp(offset sd noise). */
static void
make(const double *level, double offset, uint64_t *x)
{
	double o;
	size_t i, j;

	memset(pts, 0, sizeof(pts));
	for (i = 0; i < REVS; i++) {
		o = offset * stats_gauss(x);
		for (j = 0; j < RUNS; j++)
			v[i][j] = level[i] * exp(o + SPREAD * stats_gauss(x));
		pts[i].v = v[i];
		pts[i].n = RUNS;
	}
	return;
}

/* The series' steps: any, any at or after from, the newest's (up). */
static void
count(const double *level, double offset, int series, uint64_t *x,
    int *any, int *found, int *newest)
{
	struct cp_opts o;
	struct cp_step st[REVS];
	size_t n, k, at = 0;
	int s;

	for (k = 1; k < REVS; k++)
		if (level[k] != level[k - 1])
			at = k;
	cp_opts_default(&o);
	*any = *found = *newest = 0;
	for (s = 0; s < series; s++) {
		make(level, offset, x);
		n = cp_find(pts, REVS, &o, st, REVS);
		*any += n > 0;
		for (k = 0; k < n; k++)
			if (at > 0 && st[k].at == at)
				break;
		*found += at > 0 && k < n;
		for (k = 0; k < n; k++)
			if (st[k].at == REVS - 1 && st[k].ratio > 1)
				break;
		*newest += k < n;
	}
	return;
}

int
main(int argc, char **argv)
{
	int series = atoi(argv[1]), any, found, newest;
	double offset = atof(argv[2]), level[REVS];
	uint64_t x = 42;
	size_t i;

	for (i = 0; i < REVS; i++)
		level[i] = 1;
	count(level, offset, series, &x, &any, &found, &newest);
	printf("flat, %d revisions x %d runs, %.0f %% runs, %.0f %% sittings:"
	    " %5.1f %% of series with a step, %5.1f %% a rise at the newest\n",
	    REVS, RUNS, SPREAD * 100, offset * 100, 100.0 * any / series,
	    100.0 * newest / series);
	for (i = REVS / 2; i < REVS; i++)
		level[i] = 1.10;
	count(level, offset, series, &x, &any, &found, &newest);
	printf("+10 %% from revision %d: found at it in %5.1f %%\n", REVS / 2,
	    100.0 * found / series);
	for (i = 0; i < REVS; i++)
		level[i] = i == REVS - 1 ? 1.31 : 1;
	count(level, offset, series, &x, &any, &found, &newest);
	printf("+31 %% at the newest: found at it in %5.1f %%\n",
	    100.0 * newest / series);
	return 0;
}
EOF

cc -O2 -I"$tmp" -o "$tmp/sim" "$tmp/sim.c" "$tmp/changepoint.c" \
    "$tmp/rank.c" "$tmp/stats.c" -lm
echo "revision: ${rev:-working tree}"
"$tmp/sim" "$series" "$offset"
