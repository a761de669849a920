/*
 * ab.c - two builds as a sweep's two arms (see ab.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab.h"
#include "measure.h"
#include "seq.h"

/*
 * The cells an arm runs: the sweep's, with the arm's own options on top.
 * They may set a cell's parameters (--queue, --payload-ns, ...), which
 * its cells then record; never the sweep's window or output, and never so
 * that the arm's cells stop matching the sweep's one for one.
 */
static struct cell *
ab_arm_cells(const struct sweep *sweep, const struct runner_arm *arm,
    const char *flag, size_t n, char *err, size_t errlen)
{
	struct sweep *s = malloc(sizeof(*s));
	struct cell *cells = NULL;
	const char *own;
	char why[400];
	size_t m;

	if (s == NULL)
		abort();
	*s = *sweep;
	if (cli_parse(s, arm->nwords - 1, (char **)arm->words + 1, why,
	    sizeof(why)) != 0)
		snprintf(err, errlen, "%s: %s", flag, why);
	else if ((own = cli_sweep_differs(s, sweep)) != NULL)
		snprintf(err, errlen, "%s: %s: the window, the repetitions and "
		    "the output are the whole sweep's, not one arm's", flag,
		    own);
	else if ((cells = cli_cells(s, &m, why, sizeof(why))) == NULL)
		snprintf(err, errlen, "%s: %s", flag, why);
	else if (m != n) {
		snprintf(err, errlen, "%s: its options make %zu cells where the "
		    "sweep has %zu: they conflict with the sweep's own lists",
		    flag, m, n);
		free(cells);
		cells = NULL;
	}
	free(s);
	return cells;
}

int
ab_arms(const struct sweep *s, size_t n, const char *const given[2],
    struct runner_arm arms[2], char outs[2][4096], char *err,
    size_t errlen)
{
	size_t len = strlen(s->out);
	const char *flag;
	int k;

	if (given[0] == NULL || given[1] == NULL)
		return snprintf(err, errlen, "ab needs --a BINARY and --b BINARY"),
		    -1;
	if (len > 5 && strcmp(s->out + len - 5, ".json") == 0)
		len -= 5;
	for (k = 0; k < 2; k++) {
		flag = k ? "--b" : "--a";
		arms[k].label = k ? "b" : "a";
		if (runner_arm_parse(&arms[k], (char *)given[k]) != 0)
			return snprintf(err, errlen, "%s: give a binary and at most "
			    "%d options", flag, RUNNER_ARM_WORDS - 1), -1;
		if (access(arms[k].words[0], X_OK) != 0)
			return snprintf(err, errlen, "%s: '%s' is not an "
			    "executable", flag, arms[k].words[0]), -1;
		if ((arms[k].cells = ab_arm_cells(s, &arms[k], flag, n, err,
		    errlen)) == NULL)
			return -1;
		snprintf(outs[k], sizeof(outs[k]), "%.*s-%c.json", (int)len,
		    s->out, 'a' + k);
		arms[k].out = outs[k];
	}
	return 0;
}

int
ab_sequential(const struct sweep *s, size_t n, struct runner_arm arms[2],
    const struct compare_opts *co, double budget_s, double *levels, int argc,
    char **argv)
{
	double started = measure_now(), round_s, level[SEQ_MAX_LOOKS];
	double alpha = co->alpha / (double)n;
	size_t looks, k, ci, open = n, reps = s->reps;
	bool *done = calloc(n, sizeof(*done)), last;
	int failed;

	if (done == NULL)
		abort();
	runner_start(s, n, arms, 2, argc, argv);
	failed = runner_reps(s, n, arms, 2);
	/* One round of one cell: 4 runs, at the pace of the first sweep. */
	round_s = (measure_now() - started) * 2 / (double)(n * reps);
	looks = 1 + (size_t)fmax(0, (budget_s - (measure_now() - started)) /
	    (round_s * (double)n));
	looks = looks > SEQ_MAX_LOOKS ? SEQ_MAX_LOOKS : looks;
	seq_round_levels(reps, looks, alpha, false, level);
	for (k = 0;; k++) {
		last = k + 1 == looks || budget_s - (measure_now() - started) <
		    round_s * (double)open;
		if (last && k + 1 < looks)
			seq_round_levels(reps, k + 1, alpha, true, level);
		open = compare_look_open(arms[0].doc, arms[1].doc, co, level[k],
		    done, levels);
		if (open == 0 || last || runner_stopped())
			break;
		for (ci = 0; ci < n && !runner_stopped(); ci++)
			if (!done[ci])
				failed |= runner_round(s, ci, reps + 2 * k,
				    arms);
	}
	fprintf(runner_talk(s), "\nsequential: %zu of %zu cells decided after "
	    "%zu look%s in %.0f s of a %.0f s budget\n", n - open, n, k + 1,
	    k ? "s" : "", measure_now() - started, budget_s);
	free(done);
	return runner_finish(s, arms, 2, failed);
}

const char *
ab_side(const struct runner_arm *arm, char *buf, size_t len)
{
	size_t used;
	int w;

	used = (size_t)snprintf(buf, len, "%c:", arm->label[0] - 'a' + 'A');
	for (w = 0; w < arm->nwords && used < len; w++)
		used += (size_t)snprintf(buf + used, len - used, " %s",
		    arm->words[w]);
	if (used < len)
		snprintf(buf + used, len - used, ", results %s", arm->out);
	return buf;
}
