/*
 * seq.c - see seq.h.
 *
 * Under no change, the standardized rank sum Z_k at look k behaves as
 * B(t_k) / sqrt(t_k) for a Brownian motion B, t_k the information
 * fraction. Look 1 rejects when |Z| >= c_1; each later c_k is the one at
 * which a path still inside every earlier boundary leaves at look k with
 * the probability the spending function allots it. The density of the
 * paths still inside is carried from look to look on a Simpson grid.
 */
#include <math.h>

#include "seq.h"
#include "stats.h"

#define SEQ_GRID	801	/* odd: Simpson */
#define SEQ_C_MAX	8.0	/* a look that spends nothing: |Z| never gets there */

static double
seq_pdf(double x)
{

	return exp(-x * x / 2) / sqrt(2 * M_PI);
}

static double
seq_cdf(double x)
{

	return 1 - stats_norm_upper(x);
}

double
seq_information(size_t n, size_t m)
{

	return (double)n * (double)m / (double)(n + m + 1);
}

double
seq_spent(double t, double alpha)
{

	return 2 * (2 - 2 * seq_cdf(stats_norm_quantile(1 - alpha / 4) /
	    sqrt(t)));
}

struct seq_grid {
	double x[SEQ_GRID], w[SEQ_GRID], f[SEQ_GRID];
};

/* Simpson's nodes and weights on [-h, h]. */
static void
seq_nodes(struct seq_grid *g, double h)
{
	double step = 2 * h / (SEQ_GRID - 1);
	int i;

	for (i = 0; i < SEQ_GRID; i++) {
		g->x[i] = -h + step * i;
		g->w[i] = step / 3 * (i == 0 || i == SEQ_GRID - 1 ? 1 :
		    i % 2 ? 4 : 2);
	}
	return;
}

/* The chance that a path inside g leaves |B| < c sqrt(t) over time d. */
static double
seq_exit(const struct seq_grid *g, double c, double t, double d)
{
	double b = c * sqrt(t), sd = sqrt(d), sum = 0;
	int i;

	for (i = 0; i < SEQ_GRID; i++)
		sum += g->w[i] * g->f[i] * (seq_cdf((g->x[i] - b) / sd) +
		    seq_cdf((-b - g->x[i]) / sd));
	return sum;
}

/* The boundary that spends inc at this look: exit(c) falls as c grows. */
static double
seq_boundary(const struct seq_grid *g, double inc, double t, double d)
{
	double lo = 0, hi = SEQ_C_MAX, mid;
	int i;

	if (inc <= 0)
		return SEQ_C_MAX;
	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2;
		if (seq_exit(g, mid, t, d) > inc)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The density of the paths inside |B| < c sqrt(t) at time t, from g. */
static void
seq_advance(struct seq_grid *g, double c, double t, double d)
{
	struct seq_grid next;
	double sd = sqrt(d), sum;
	int i, j;

	seq_nodes(&next, c * sqrt(t));
	for (j = 0; j < SEQ_GRID; j++) {
		for (sum = 0, i = 0; i < SEQ_GRID; i++)
			sum += g->w[i] * g->f[i] * seq_pdf((next.x[j] -
			    g->x[i]) / sd) / sd;
		next.f[j] = sum;
	}
	*g = next;
	return;
}

void
seq_levels(const double *t, size_t k, double alpha, bool final,
    double *level)
{
	struct seq_grid g;
	double spent = 0, a, c;
	size_t i;
	int j;

	for (i = 0; i < k; i++) {
		a = final && i + 1 == k ? alpha : fmin(alpha, seq_spent(t[i],
		    alpha));
		if (i == 0) {
			c = a > 0 ? fmin(SEQ_C_MAX, stats_norm_quantile(1 -
			    a / 2)) : SEQ_C_MAX;
			seq_nodes(&g, c * sqrt(t[0]));
			for (j = 0; j < SEQ_GRID; j++)
				g.f[j] = seq_pdf(g.x[j] / sqrt(t[0])) /
				    sqrt(t[0]);
		} else {
			c = seq_boundary(&g, a - spent, t[i], t[i] - t[i - 1]);
			if (i + 1 < k)
				seq_advance(&g, c, t[i], t[i] - t[i - 1]);
		}
		level[i] = 2 * stats_norm_upper(c);
		spent = a;
	}
	return;
}

void
seq_round_levels(size_t reps, size_t looks, double alpha, bool last,
    double *level)
{
	double t[SEQ_MAX_LOOKS];
	size_t k;

	for (k = 0; k < looks; k++)
		t[k] = seq_information(reps + 2 * k, reps + 2 * k) /
		    seq_information(reps + 2 * (looks - 1), reps + 2 *
		    (looks - 1));
	seq_levels(t, looks, alpha, last, level);
	return;
}
