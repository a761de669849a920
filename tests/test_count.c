/*
 * test_count.c - a counted window: every coroutine holds at each multiple
 * of its count, all of them at once, and goes on when released; a cell
 * counted twice gives the same instructions; one extra turn of a loop in
 * a plugin queue's push is seen exactly, once a dispatch; what cannot be
 * counted is refused in one line.
 */
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "binary.h"
#include "count.h"
#include "disp_list.h"
#include "measure.h"
#include "queue_list.h"
#include "results.h"
#include "workload.h"

/*
 * Valgrind cannot run a sanitizer's build (both own the address space):
 * the counted runs are the plain build's; the holds are tested in every
 * build.
 */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define COUNT_UNDER_VALGRIND	0
#else
#define COUNT_UNDER_VALGRIND	1
#endif

/* False, with a note, in a sanitizer's build. */
static bool
valgrind_runs(void)
{

	if (!COUNT_UNDER_VALGRIND)
		cr_log_info("a sanitizer's build: Valgrind cannot run it; not "
		    "run");
	return COUNT_UNDER_VALGRIND;
}

#define HOLD		64
#define ROUNDS		4
#define COROUTINES	16

/* What each hold saw: every coroutine's resumptions, at once. */
struct rounds {
	unsigned int round;
	uint64_t seen[ROUNDS][COROUTINES];
	sem_t done;
};

static void
on_held(struct workload *w, void *arg)
{
	struct rounds *r = arg;

	if (r->round < ROUNDS)
		workload_count(w, r->seen[r->round]);
	if (++r->round < ROUNDS)
		workload_release(w);
	else if (r->round == ROUNDS)
		sem_post(&r->done);
	return;
}

/*
 * On two workers and a queue many threads use, with more coroutines than
 * workers: the last to hold finds every coroutine at exactly k x HOLD
 * resumptions, none ahead, none behind; a release is taken once (a second
 * would dispatch every task again); a stop while they run on, some held,
 * lets every one retire, and the count check holds after.
 */
Test(count, every_coroutine_holds_at_each_multiple, .timeout = 60)
{
	struct db_disp_config cfg = { .workers = 2, .queue = &queue_lfseg,
	    .queue_capacity = 4096 };
	struct rounds r = { .round = 0 };
	struct workload_opts o = { .hold_every = HOLD, .held = on_held,
	    .held_arg = &r };
	const struct db_disp_ops *shared = disp_find("shared");
	struct db_disp_stats st;
	struct workload_check chk;
	struct db_dispatcher *d;
	struct workload w;
	unsigned int k, i;

	sem_init(&r.done, 0, 0);
	cr_assert_eq(shared->create(&d, &cfg), 0);
	cr_assert_eq(workload_start(&w, d, COROUTINES, &o, &cfg), 0);
	sem_wait(&r.done);
	for (k = 0; k < ROUNDS; k++)
		for (i = 0; i < COROUTINES; i++)
			cr_assert_eq(r.seen[k][i], (k + 1) * HOLD, "hold %u: "
			    "coroutine %u had run %lu times, not %u", k + 1, i,
			    (unsigned long)r.seen[k][i], (k + 1) * HOLD);
	cr_assert(workload_release(&w), "all held, and none sent on");
	cr_assert_not(workload_release(&w), "a second release sent them on "
	    "again");
	cr_assert(workload_stop(&w, 10), "held coroutines did not retire");
	db_shutdown(d, &st);
	workload_check(&w, st.ran, &chk);
	cr_assert(chk.ok, "lost %lu, doubled %lu", (unsigned long)chk.lost,
	    (unsigned long)chk.doubled);
	workload_fini(&w);
	sem_destroy(&r.done);
}

/* One counted cell's run, parsed; its instructions into *n. */
static cJSON *
counted(const char *env, const char *args, double *n)
{
	static char out[1 << 16];
	cJSON *run;

	cr_assert_eq(binary_run(env, args, out, sizeof(out)), 0, "%s: %s",
	    args, out);
	run = cJSON_Parse(out);
	cr_assert_not_null(run, "%s", out);
	cr_assert_str_eq(results_str(run, "status", "?"), "ok", "%s", out);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "count_ok")));
	*n = results_num(run, "instructions");
	cr_assert_eq(results_num(run, "dispatches"), 64.0 * 256);
	cr_assert_str_eq(results_str(run, "instructions_counter", "?"),
	    "callgrind");
	return run;
}

Test(count, a_cell_counted_twice_gives_the_same_instructions, .timeout = 120)
{
	double n[2];
	cJSON *run;
	int i;

	if (!valgrind_runs())
		return;
	for (i = 0; i < 2; i++) {
		run = counted("", "cell --dispatcher shared --workers 1 --count "
		    "256 --counter callgrind", &n[i]);
		cr_assert_gt(results_num(results_obj(run,
		    "instructions_by_function"), "lfseg_push"), 0,
		    "the queue's push is not among the costliest functions");
		cJSON_Delete(run);
	}
	cr_assert_eq(n[0], n[1], "%.0f then %.0f instructions", n[0], n[1]);
}

/*
 * The tampered mutex queue (tests/plugins) with 1, 2 and 3 turns of an
 * empty loop before every push: each turn adds the same whole number of
 * instructions to every dispatch, and the same again for the next (from
 * none to one adds the loop's entry too).
 */
Test(count, one_more_turn_in_a_push_is_seen_exactly, .timeout = 180)
{
	char env[64], args[512];
	double n[3], per[2];
	cJSON *run;
	int i;

	if (!valgrind_runs())
		return;
	for (i = 0; i < 3; i++) {
		snprintf(env, sizeof(env), "SLOW_A_SPINS=%d", i + 1);
		snprintf(args, sizeof(args), "cell --dispatcher shared --workers 1 "
		    "--queue %s:slow_a --count 256 --counter callgrind",
		    DB_PLUGIN_DROPPING);
		run = counted(env, args, &n[i]);
		cJSON_Delete(run);
	}
	for (i = 0; i < 2; i++)
		per[i] = (n[i + 1] - n[i]) / (64.0 * 256);
	cr_assert_gt(per[0], 0, "one more turn a push cost nothing");
	cr_assert_eq(per[0], (double)(long)per[0], "one turn cost %.4f "
	    "instructions a dispatch, not a whole number", per[0]);
	cr_assert_eq(per[0], per[1], "the first turn cost %.4f a dispatch, "
	    "the second %.4f", per[0], per[1]);
}

Test(count, what_cannot_be_counted_is_refused_in_one_line, .timeout = 60)
{
	static const char *const bad[] = {
		"cell --dispatcher shared --workers 1 --count 100",
		"cell --dispatcher shared --workers 1 --count 256 --workload "
		    "sleep:1:0.1",
		"cell --dispatcher shared --workers 1 --count 256 --payload-ns "
		    "100",
		"run --metric instructions --dispatcher shared --workers 1 "
		    "--workload request",
		"run --metric instructions --count 0 --dispatcher shared "
		    "--workers 1",
		"run --metric wall_s --dispatcher shared --workers 1",
		"cell --dispatcher shared --workers 1 --coroutines 8192 "
		    "--count 1024",
		"advise --count 256",
		"verify --queue mutex --count 256",
	};
	char out[4096];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(binary_run("", bad[i], out, sizeof(out)), 2,
		    "%s: %s", bad[i], out);
		cr_assert_eq(lines_of(out), 1, "%s: %s", bad[i], out);
	}
}

Test(count, without_valgrind_a_counted_run_says_so, .timeout = 60)
{
	char out[4096];

	cr_assert_eq(binary_run("PATH=/nonexistent", "cell --dispatcher shared "
	    "--workers 1 --count 256 --counter callgrind", out, sizeof(out)),
	    2, "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_not_null(strstr(out, "apt-get install valgrind"), "%s", out);
}
