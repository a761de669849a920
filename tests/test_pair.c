/*
 * test_pair.c - pair's verdict points where the change is. Koch's
 * crossover recovers a known change from synthetic windows whatever going
 * second costs; end to end, a window that is dearer only for going second
 * is no change, and a queue made slower is called slower (the tampered
 * plugins' controls).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "paired.h"
#include "results.h"
#include "tmpdir.h"

#define PROCESSES	10
#define NOISE		0.01	/* a window's log off its mean, at most */

/* A known change and a known penalty of going second, as ratios. */
struct period_case {
	double change;		/* B/A */
	double second;		/* a second window / a first, either arm */
	unsigned int pairs;	/* a process's, alternately AB and BA */
};

static struct period_case period_cases[] = {
	{ 1.05, 1.25, 2 },
	{ 1.00, 1.25, 4 },	/* an A/A: the penalty is all there is */
	{ 0.95, 0.80, 3 },	/* the first window dearer (cold caches) */
	{ 1.10, 2.00, 5 },
};

ParameterizedTestParameters(pair, crossover)
{

	return cr_make_param_array(struct period_case, period_cases,
	    sizeof(period_cases) / sizeof(period_cases[0]));
}

/* Uniform in [-NOISE, NOISE), the same every run. */
static double
noise(unsigned int *seed)
{

	*seed = *seed * 1103515245u + 12345u;
	return NOISE * ((double)(*seed >> 8 & 0xffff) / 0x8000 - 1);
}

/*
 * Process k's estimate from its windows, made up as pair's: pair i goes
 * A first when i + k is even; a window's log is the process's own level,
 * the change if it is B's, the penalty if it went second, and noise. g
 * is ln(second) - ln(first), per pair.c.
 */
static double
crossover_of(const struct period_case *c, unsigned int k, unsigned int *seed)
{
	double g_ab[8], g_ba[8], level = 0.3 * k, a, b;
	double tau = log(c->change), pi = log(c->second);
	size_t nab = 0, nba = 0;
	unsigned int i;
	int a_first;

	for (i = 0; i < c->pairs; i++) {
		a_first = (i + k) % 2 == 0;
		a = level + (a_first ? 0 : pi) + noise(seed);
		b = level + tau + (a_first ? pi : 0) + noise(seed);
		if (a_first)
			g_ab[nab++] = b - a;
		else
			g_ba[nba++] = a - b;
	}
	return paired_crossover(g_ab, nab, g_ba, nba);
}

/*
 * The tolerance is a bound, not a guess: each window is within NOISE of
 * its mean, so each g within 2 NOISE, each AB g minus a BA g within 4
 * NOISE of 2 ln(B/A); the crossover halves the median of those, so each
 * process's estimate is within 2 NOISE of the change, and so is the
 * median of their Walsh averages. The penalty (0.22 to 0.69 in logs) is
 * 11 to 35 times that: an estimate that keeps it, or half of it, fails.
 */
ParameterizedTest(struct period_case *c, pair, crossover)
{
	double est[PROCESSES], tau = log(c->change);
	unsigned int k, seed = 26;
	struct paired_test r;

	for (k = 0; k < PROCESSES; k++) {
		est[k] = crossover_of(c, k, &seed);
		cr_assert(fabs(est[k] - tau) <= 2 * NOISE, "process %u: %.4f, "
		    "not %.4f", k, est[k], tau);
	}
	paired_signed_rank(est, PROCESSES, 0.05, &r);
	cr_assert(fabs(r.shift - tau) <= 2 * NOISE, "%.4f, not %.4f", r.shift,
	    tau);
	/* Ten processes of one sign: the smallest p of ten, 2 / 1024. */
	if (fabs(tau) > 2 * NOISE)
		cr_assert(fabs(r.p - 2.0 / 1024) < 1e-12, "p %g", r.p);
}

/*
 * `dispatchbench pair ARGS` in a shared cell of one worker, its file in
 * this test process's own folder: the exit status, *doc what it saved.
 */
static int
pair_run(const char *args, cJSON **doc)
{
	static char text[1 << 20];
	const char *path = tmp("pair.json");
	char cmd[1024];
	size_t n;
	FILE *f;
	int status;

	snprintf(cmd, sizeof(cmd), "%s pair --dispatcher shared --workers 1 "
	    "%s --out %s >/dev/null 2>&1", DB_BINARY, args, path);
	status = system(cmd);
	cr_assert_not_null(f = fopen(path, "r"));
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_assert_not_null(*doc = cJSON_Parse(text));
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(*doc, "complete")));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *
pair_verdict(const cJSON *doc)
{

	return results_str(cJSON_GetObjectItem(doc, "result"), "verdict", "?");
}

static double
pair_ratio(const cJSON *doc)
{

	return results_num(cJSON_GetObjectItem(doc, "result"), "ratio");
}

static int
dbl_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The median of the values of the windows that went at position pos. */
static double
median_at(const cJSON *doc, int pos)
{
	static double v[4096];
	const cJSON *p, *w;
	size_t n = 0;

	cJSON_ArrayForEach(p, cJSON_GetObjectItem(doc, "processes"))
		cJSON_ArrayForEach(w, cJSON_GetObjectItem(p, "windows"))
			if (results_num(w, "position") == pos && n < 4096)
				v[n++] = results_num(w, "value");
	cr_assert(n > 0);
	qsort(v, n, sizeof(*v), dbl_cmp);
	return v[n / 2];
}

/*
 * The smallest pair that held, 10 runs of 10 beside a CPU hog: 6
 * processes (the fewest whose p can pass 0.05) of 6 pairs. Under load a
 * window now and then measures next to nothing (0 dispatches, a figure
 * 10^4 times the others); 3 AB and 3 BA pairs keep such a window to 3 of
 * the 9 differences whose median is the process's estimate, where 2 pairs
 * let it turn the process round (8 of 10 verdicts right), and 4 pairs
 * (2 and 2: 6 of 10) too.
 */
#define PAIR_SIZE	"--processes 6 --pairs 6 --warmup 0.01 --time 0.02"

/*
 * The end-to-end controls plant a cost of about 100 ns a push. Under a
 * sanitizer the instrumented queue costs several microseconds a push and
 * the planted cost is lost beside it (B/A 0.97 for a B slower by it, seen
 * under ThreadSanitizer): they run in the plain build only. The estimator
 * above runs in every build, and so does the pair command's code, in
 * test_cli.
 */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define PAIR_CONTROLS_SEEN	0
#else
#define PAIR_CONTROLS_SEEN	1
#endif

/* False, with a warning, where the planted costs cannot be seen. */
static bool
pair_controls_seen(void)
{

	if (!PAIR_CONTROLS_SEEN)
		cr_log_info("a sanitizer's build: the planted costs are lost "
		    "beside the instrumented queue; not run");
	return PAIR_CONTROLS_SEEN;
}

/*
 * One queue against itself, its second window of each pair dearer by
 * PERIOD_SPINS a push: no change, whatever the penalty. The penalty is
 * checked to be 2 times or more; an estimator that left it in would call
 * it a regression of its size. The bound, sqrt(2), lies halfway between
 * no change and the penalty in logs: one that kept half of it fails.
 */
Test(pair, a_penalty_for_going_second_is_no_change, .timeout = 300)
{
	char args[512];
	cJSON *doc;
	int rc;

	if (!pair_controls_seen())
		return;
	setenv("PERIOD_SPINS", "100", 1);
	snprintf(args, sizeof(args), "--a %s:periodic --b %s:periodic "
	    PAIR_SIZE, DB_PLUGIN_DROPPING, DB_PLUGIN_DROPPING);
	rc = pair_run(args, &doc);
	cr_log_info("B/A %g, %s", pair_ratio(doc), pair_verdict(doc));
	/* The control works: going second costs at least twice as much. */
	cr_assert(median_at(doc, 1) > 2 * median_at(doc, 0), "%g against %g",
	    median_at(doc, 1), median_at(doc, 0));
	cr_assert(strcmp(pair_verdict(doc), "equivalent") == 0 ||
	    strcmp(pair_verdict(doc), "inconclusive") == 0, "%s",
	    pair_verdict(doc));
	cr_assert_eq(rc, 0);
	cr_assert(fabs(log(pair_ratio(doc))) < log(2) / 2, "B/A %g",
	    pair_ratio(doc));
	cJSON_Delete(doc);
}

/* A slower by SPINS a push, or B: which one is called slower, and the exit. */
struct slow_case {
	char slower[16];	/* the environment variable set */
	char verdict[16];
	int rc;
};

static struct slow_case slow_cases[] = {
	{ "SLOW_B_SPINS", "regressed", 1 },
	{ "SLOW_A_SPINS", "improved", 0 },
};

ParameterizedTestParameters(pair, slower_queue)
{

	return cr_make_param_array(struct slow_case, slow_cases,
	    sizeof(slow_cases) / sizeof(slow_cases[0]));
}

ParameterizedTest(struct slow_case *c, pair, slower_queue, .timeout = 300)
{
	char args[512];
	cJSON *doc;
	double ratio;
	int rc;

	if (!pair_controls_seen())
		return;
	unsetenv("SLOW_A_SPINS");
	unsetenv("SLOW_B_SPINS");
	setenv(c->slower, "100", 1);
	snprintf(args, sizeof(args), "--a %s:slow_a --b %s:slow_b " PAIR_SIZE,
	    DB_PLUGIN_DROPPING, DB_PLUGIN_DROPPING);
	rc = pair_run(args, &doc);
	cr_log_info("B/A %g, %s", pair_ratio(doc), pair_verdict(doc));
	cr_assert_eq(rc, c->rc, "%s", pair_verdict(doc));
	cr_assert_str_eq(pair_verdict(doc), c->verdict);
	/*
	 * 100 turns a push make a 1-worker dispatch 3 to 6 times dearer on a
	 * 2-CPU EPYC guest, a CPU hog beside it or not: the size, not only
	 * the sign, is the control's.
	 */
	ratio = c->rc ? pair_ratio(doc) : 1 / pair_ratio(doc);
	cr_assert(ratio > 1.5, "the slower arm only %g times dearer", ratio);
	cJSON_Delete(doc);
}
