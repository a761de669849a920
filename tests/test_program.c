/*
 * test_program.c - a program of its own, run through the external-program
 * protocol (docs/external.md) as a user runs one: its figures measured from
 * outside, its count checked, a hang ended by the watchdog, a malformed
 * answer and a widened binding refused, bad specs refused in one line.
 * The program is tinyprog (plugins/tinyprog.c), told how to misbehave by
 * the environment; then every program this build made (Go, Tokio, the
 * JVM's) answers the protocol and passes its count check.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cjson/cJSON.h>

#include "binary.h"
#include "designs.h"
#include "fields.h"
#include "measure.h"

#define TINY_CELL	"cell --dispatcher exec:" DB_TINYPROG " --time 0.2 " \
	"--warmup 0.05 --stall 1"

/* One cell of tinyprog misbehaving as mode says: its run, and its status. */
#ifdef __SANITIZE_THREAD__
#define TSAN_THREADS	1
#else
#define TSAN_THREADS	0
#endif

static cJSON *
tiny_run(const char *mode, const char *more, int *status)
{
	char env[64], args[1024];
	static char out[1 << 16];
	cJSON *run;

	snprintf(env, sizeof(env), "TINYPROG=%s", mode);
	snprintf(args, sizeof(args), "%s %s%s", TINY_CELL, more,
	    strstr(more, "--coroutines") != NULL ? "" : " --coroutines 8");
	*status = binary_run(env, args, out, sizeof(out));
	run = cJSON_Parse(strchr(out, '{') != NULL ? strchr(out, '{') : out);
	cr_assert_not_null(run, "not a run: %s", out);
	return run;
}

/*
 * A run of the tiny program in MODE that must fail: a non-zero exit, the
 * run's status STATE (when given) and an error that says SAYS.
 */
static cJSON *
tiny_fails(const char *mode, const char *more, const char *state,
    const char *says)
{
	int status;
	cJSON *run = tiny_run(mode, more, &status);

	cr_assert_neq(status, 0);
	if (state != NULL)
		cr_assert_str_eq(field_text(run, "status"), state);
	cr_assert(strstr(field_text(run, "error"), says) != NULL, "%s",
	    field_text(run, "error"));
	return run;
}

/*
 * A good program's window: what it ran, counted exactly, its threads seen
 * from outside, every one where it was put, and its own counter per
 * resumption (one push a handoff).
 */
Test(program, a_good_program_is_measured_from_outside, .timeout = 60)
{
	int status;
	cJSON *run = tiny_run("good", "--workers 2", &status);

	cr_assert_eq(status, 0, "%s", field_text(run, "error"));
	cr_assert_str_eq(field_text(run, "status"), "ok");
	cr_assert_str_eq(field_text(run, "program_says"), "tinyprog 1 good");
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "count_ok")));
	cr_assert_gt(field_number(run, "dispatches"), 0);
	cr_assert_eq(field_number(run, "lost"), 0);
	cr_assert_eq(field_number(run, "doubled"), 0);
	cr_assert_eq(field_number(run, "resumptions_total"),
	    field_number(run, "dispatcher_ran"));
	/*
	 * Its main thread and two workers: its threads, not ours (and, built
	 * under ThreadSanitizer, that runtime's background thread).
	 */
	cr_assert_eq(field_number(run, "threads"), 3 + TSAN_THREADS);
	cr_assert_gt(field_number(run, "cpu_us_per_dispatch"), 0);
	/*
	 * Two workers that never wait: its CPU, not ours (we wait, near 0),
	 * even when other load leaves it a fraction of the two CPUs.
	 */
	cr_assert_gt(field_number(run, "cpus_busy"), 0.2);
	cr_assert_gt(field_number(run, "ctx_switches_per_dispatch"), 0);
	cr_assert_gt(field_number(run, "min_share"), 0);
	cr_assert_float_eq(field_number(run, "pushes_per_dispatch"), 1.0, 0.01);
	cr_assert_not_null(cJSON_GetObjectItem(run, "bindings"));
	cJSON_Delete(run);
}

/* One handoff too many in its last answer: the count check fails it. */
Test(program, a_program_that_miscounts_fails_the_count_check, .timeout = 60)
{
	cJSON *run = tiny_fails("miscount", "--workers 2", "failed",
	    "count check");

	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(run, "count_ok")));
	cr_assert_eq(field_number(run, "lost"), 1);
	cJSON_Delete(run);
}

/*
 * A resumption with no handoff (a handoff run twice): the count check
 * fails it, the one resumption counted as doubled and none as lost.
 */
Test(program, a_program_that_double_counts_fails_the_count_check,
    .timeout = 60)
{
	cJSON *run = tiny_fails("double", "--workers 2", "failed",
	    "count check");

	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(run, "count_ok")));
	cr_assert_eq(field_number(run, "doubled"), 1);
	cr_assert_eq(field_number(run, "lost"), 0);
	cr_assert_eq(field_number(run, "resumptions_total"),
	    field_number(run, "dispatcher_ran") + 1);
	cJSON_Delete(run);
}

/* One counter said twice: which value is its own? Neither: refused. */
Test(program, a_program_that_says_a_counter_twice_fails, .timeout = 60)
{

	cJSON_Delete(tiny_fails("twice", "--workers 1", "failed",
	    "the program said `counter pushes` twice"));
}

/* Counts that do not move over the window: stalled, never ok. */
Test(program, a_program_that_stalls_is_stalled, .timeout = 60)
{
	cJSON *run = tiny_fails("stall", "--workers 2", "stalled",
	    "no dispatch in the 0.2 s window");

	cr_assert_eq(field_number(run, "dispatches"), 0);
	cJSON_Delete(run);
}

/* Whether a process whose command line is argv[0] argv[1] still runs. */
static bool
running(const char *arg0, const char *arg1)
{
	char path[64], cmd[256];
	struct dirent *de;
	bool found = false;
	size_t n;
	DIR *dir = opendir("/proc");
	FILE *f;

	cr_assert_not_null(dir);
	while (!found && (de = readdir(dir)) != NULL) {
		snprintf(path, sizeof(path), "/proc/%.20s/cmdline", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		n = fread(cmd, 1, sizeof(cmd) - 1, f);
		cmd[n] = '\0';
		fclose(f);
		found = strcmp(cmd, arg0) == 0 && strlen(cmd) + 1 < n &&
		    strcmp(cmd + strlen(cmd) + 1, arg1) == 0;
	}
	closedir(dir);
	return found;
}

/*
 * It never answers `stop`: killed after the stall time, the run hung, and
 * nothing of it left running, the child it started included.
 */
Test(program, a_program_that_hangs_is_ended_by_the_watchdog, .timeout = 60)
{
	double t0 = measure_now();
	cJSON *run = tiny_fails("hang", "--workers 2", "hung",
	    "did not answer `stop` within 1.0 s");

	cr_assert_lt(measure_now() - t0, 20);
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(run, "count_ok")));
	cr_assert_not(running("sleep", "6061"), "its child left running");
	cJSON_Delete(run);
}

Test(program, a_malformed_answer_fails_the_run, .timeout = 60)
{
	cJSON_Delete(tiny_fails("garbage", "--workers 1", "failed",
	    "is not `count D R_0 .. R_7`: \"count some\""));
}

/* One worker is given one PU; a program that leaves it is caught. */
Test(program, a_program_that_widens_its_binding_fails, .timeout = 60)
{

	if (measure_cpus() < 2)
		cr_skip_test("needs two CPUs to widen to");
	cJSON_Delete(tiny_fails("widen", "--workers 1 --pin compact", NULL,
	    "thread(s) of the program run on PUs"));
}

/* One that narrows its threads inside what it was given is fine. */
Test(program, a_program_may_narrow_its_binding, .timeout = 60)
{
	int status;
	cJSON *run = tiny_run("narrow", "--workers 2 --pin compact", &status);

	cr_assert_eq(status, 0, "%s", field_text(run, "error"));
	cJSON_Delete(run);
}

/* A line more than it was asked is refused, not read as the next answer. */
Test(program, a_program_that_says_too_much_fails, .timeout = 60)
{
	cJSON_Delete(tiny_fails("chatty", "--workers 1", NULL,
	    "said more than it was asked, before `count`: \"by the way\""));
}

/* It ends before `ready`: the run says so, and how it ended. */
Test(program, a_program_that_dies_says_how, .timeout = 60)
{
	cJSON_Delete(tiny_fails("die", "--workers 1", NULL,
	    "ended before it answered `start` (it exited with status 3)"));
}

/* 3000 coroutines: each answer a line of kilobytes, read in pieces. */
Test(program, long_answers_are_read_whole, .timeout = 60)
{
	int status;
	cJSON *run = tiny_run("good", "--workers 2 --coroutines 3000", &status);

	cr_assert_eq(status, 0, "%s", field_text(run, "error"));
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "count_ok")));
	cJSON_Delete(run);
}

Test(program, a_missing_program_is_refused_in_one_line, .timeout = 30)
{
	char out[1024];

	cr_assert_eq(binary_run("", "run --dispatcher exec:/nonexistent/prog",
	    out, sizeof(out)), 2);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert(strstr(out, "not a program this user can run") != NULL,
	    "%s", out);
}

/* The resume-only workload alone: a blocking one is said, not run. */
Test(program, a_program_runs_the_resume_only_workload_alone, .timeout = 30)
{
	char out[1024];

	cr_assert_eq(binary_run("", "run --dispatcher exec:" DB_TINYPROG
	    " --workload sleep:1:0.5", out, sizeof(out)), 2);
	cr_assert(strstr(out, "runs the resume-only workload alone") != NULL,
	    "%s", out);
}

/* Every real runtime this build made as a program, through one short run. */
Test(program, every_built_program_answers_the_protocol, .timeout = 300)
{
	const struct db_disp_ops *d;
	char args[256];
	static char out[1 << 16];
	size_t i, n = 0;
	cJSON *run;

	for (i = 0; (d = disp_at(i)) != NULL; i++) {
		if (!(d->flags & DB_DISP_PROGRAM))
			continue;
		snprintf(args, sizeof(args), "cell --dispatcher %s --workers "
		    "%d --coroutines 16 --time 0.2 --warmup 0.3", d->name,
		    d->flags & DB_DISP_NO_WIDTH ? 1 : 2);
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0,
		    "%s: %s", d->name, out);
		run = cJSON_Parse(strchr(out, '{'));
		cr_assert_not_null(run, "%s: %s", d->name, out);
		cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "count_ok")));
		cr_assert_gt(field_number(run, "dispatches"), 0, "%s", d->name);
		/* It runs the version its build found. */
		cr_assert(strchr(d->real, ' ') != NULL);
		cr_assert(strstr(field_text(run, "program_says"), strchr(d->real,
		    ' ') + 1) != NULL, "%s says %s, built as %s", d->name,
		    field_text(run, "program_says"), d->real);
		cJSON_Delete(run);
		n++;
	}
	if (n == 0)
		cr_skip_test("this build made no program (DB_WITH_PROGRAMS, or "
		    "no toolchain)");
}
