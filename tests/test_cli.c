/*
 * test_cli.c - bad input gets one clear line on stderr and exit status 2,
 * and a tiny real sweep writes a results file `plot` can read.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "designs.h"
#include "fields.h"
#include "measure.h"
#include "results.h"
#include "runfields.h"
/* CALL_MAX_WORDS: the words a call holds. */
#include "commands.h"
#include "binary.h"
#include "tmpdir.h"

/* Plain arrays: parameters are copied into each test's own process. */
struct bad_case {
	char args[320];
	char says[128];		/* words the one line must contain */
};

static struct bad_case bad_cases[] = {
	{ "run --dispatcher nosuch", "unknown dispatcher" },
	{ "run --queue nosuch", "unknown queue" },
	{ "run --queue mpsc", "has one consumer" },
	{ "run --workers 0", "out of range" },
	{ "run --workers 100000", "out of range" },
	{ "run --workers 1,,2", "comma-separated" },
	{ "run --workers 8..2", "empty" },
	{ "run --workers two", "not a number" },
	{ "run --coroutines -3", "not a number" },
	{ "run --pin 7", "PU 7" },
	{ "run --pin 0,x", "list of PU" },
	{ "run --time 0", "out of range" },
	{ "run --time abc", "not a number" },
	{ "run --reps 0", "out of range" },
	{ "run --host busy", "any or quiet" },
	{ "run --wake sometimes", "every or lazy" },
	{ "run --spins -1", "not a number" },
	{ "run --bogus 1", "unknown option" },
	{ "run --reps", "needs a value" },
	{ "run --dispatcher shared --workers inf", "no cell" },
	{ "plot /nonexistent.json", "cannot read" },
	{ "plot @TRUNCATED", "not valid JSON" },
	{ "plot @NOTRESULTS", "not a results file" },
	{ "plot @NEWER", "newer" },
	/*
	 * Issue 44: pair --out's file was "not a results file", which reads
	 * like damage: said what it is, and where its verdict is.
	 */
	{ "plot @PAIR", "PAIR.json: a pair's file (two arms in one process), "
	    "not a sweep's results: its verdict is in it already (\"result\": "
	    "broken)" },
	{ "report @PAIR", "PAIR.json: a pair's file (two arms in one process)" },
	{ "compare @PAIR @CELLA", "PAIR.json: a pair's file (two arms in one "
	    "process)" },
	{ "compare @CELLA @PAIR", "PAIR.json: a pair's file (two arms in one "
	    "process)" },
	{ "frobnicate", "unknown command" },
	{ "compare @TRUNCATED @NOTRESULTS", "not valid JSON" },
	{ "compare /nonexistent.json @CELLA", "cannot read" },
	{ "compare @NEWER @NEWER", "newer" },
	{ "compare @CELLA @CELLB", "no cell" },
	{ "compare @CELLA @MACHINEB", "different machines" },
	{ "compare @CELLA", "usage" },
	{ "compare @CELLA @CELLA --threshold 0", "positive" },
	{ "compare @CELLA @CELLA --format yaml", "is not table, csv, markdown" },
	{ "ab --a /nonexistent --b /nonexistent", "not an executable" },
	{ "ab --dispatcher shared", "needs --a" },
	/* No verdict is reachable: refused before the first run. */
	{ "ab --a " DB_BINARY " --b " DB_BINARY " --dispatcher shared "
	    "--workers 1..32 --reps 3", "give --reps 5 or more" },
	{ "pair --a lfseg --b lfseg --alpha 0.01 --processes 6",
	    "give --processes 8 or more" },
	{ "run --workload nap:5:0.1", "not resume" },
	{ "run --workload sleep:5", "not resume" },
	{ "run --workload sleep:0:0.1", "--workload: 'sleep:0:0.1': MS 0 is "
	    "out of range: it must be in (0, 10000]" },
	{ "run --workload spin:5:1.5", "--workload: 'spin:5:1.5': SHARE 1.5 is "
	    "out of range: it must be in (0, 1]" },
	/* Issue 46: a share out of range was "not MS:SHARE". */
	{ "advise --blocking 2:1.5", "--blocking: '2:1.5': SHARE 1.5 is out of "
	    "range: it must be in (0, 1]" },
	/* Issue 46: an integer's range was "1..1.07374e+09". */
	{ "verify --queue lfseg --items 0", "--items: 0 is out of range "
	    "1..1073741824" },
	{ "run --workload resume,", "comma-separated" },
	{ "run --workload request:5", "not resume, request" },
	{ "advise --blocking request", "MS:SHARE" },
	{ "run --split 4", "--split: only a blocking --workload (sleep:MS:SHARE "
	    "or spin:MS:SHARE) hops to a view" },
	{ "run --dispatcher inline --workload sleep:1:0.5 --split 4",
	    "--split: inline has no pool of its own" },
	{ "run --split 4097", "out of range" },
	{ "run --lifo maybe", "not on or off" },
	{ "run --lifo on,on", "'on' twice" },
	{ "run --lifo on,", "comma-separated" },
	{ "run --searchers most", "not half or all" },
	{ "run --searchers all,half,all", "'all' twice" },
	/*
	 * Issue 44: a value twice in any list made its cells twice, exit 0,
	 * a file compare then refused: one line naming the option and it.
	 */
	{ "run --workers 2,2", "--workers: '2' twice" },
	{ "run --workers 1..4,2", "--workers: '2' twice" },
	{ "run --workers 2,1..4", "--workers: '2' twice" },
	{ "run --workers inf,8,inf", "--workers: 'inf' twice" },
	{ "run --dispatcher shared,shared", "--dispatcher: 'shared' twice" },
	{ "run --dispatcher all,shared", "--dispatcher: 'shared' twice" },
	{ "run --queue lfseg,vyukov,lfseg", "--queue: 'lfseg' twice" },
	{ "run --workload resume,resume", "--workload: 'resume' twice" },
	{ "run --coroutines 64,64", "--coroutines: '64' twice" },
	{ "run --latency-every 3", "power of two" },
	{ "run --latency-every -1", "not a number" },
	{ "advise --blocking 5", "MS:SHARE" },
	{ "advise --blocking nap:5:0.1", "MS:SHARE" },
	{ "advise --rate -1", "positive" },
	{ "advise --p99 fast", "positive" },
	{ "advise --workload resume", "--blocking" },
	{ "advise --dispatcher shared,limited", "one dispatcher" },
	{ "advise --coroutines 1,8", "one dispatcher" },
	{ "advise --from /nonexistent.json", "cannot read" },
	{ "advise --from @TRUNCATED", "not valid JSON" },
	{ "advise --from @CELLA --blocking 5:0.1", "CELLA.json holds resume-only "
	    "alone, not --blocking sleep:5:0.1" },
	{ "advise --from", "needs a value" },
	{ "run --warmup -1", "out of range" },
	{ "run --out ''", "empty file name" },
	{ "run --pool 0", "out of range" },
	{ "run --keepalive 0", "out of range" },
	{ "run --capacity 0", "out of range" },
	{ "run --payload-ns x", "not a number" },
	{ "run --deadline 0.5", "out of range" },
	{ "run --stall 0", "out of range" },
	{ "run --coroutines 0", "out of range" },
	{ "run extra", "unexpected argument" },
	{ "taskset -c 0 run --pin 1", "outside the CPUs" },
	{ "cell --workers 1,2", "exactly one cell" },
	{ "compare @CELLA @CELLA --alpha 2", "out of range" },
	{ "compare @RUNA @RUNA --metric nosuch", "no matched cell" },
	{ "ab --a " DB_BINARY, "needs --a" },
	/* Every one of the sweep's own options, not six named by hand. */
	{ "ab --a '" DB_BINARY " --host quiet' --b " DB_BINARY " --reps 6",
	    "--a: --host: the window, the repetitions and the output are the "
	    "whole sweep's, not one arm's" },
	{ "ab --a " DB_BINARY " --b '" DB_BINARY " --precision 5' --reps 6",
	    "--b: --precision: the window" },
	{ "plot @CELLA -o", "usage" },
	{ "plot", "usage" },
	{ "list extra", "unexpected argument 'extra' (usage: dispatchbench "
	    "list)" },
	{ "advise --from @HUGE", "HUGE.json: cells[0].workers is not a whole "
	    "number from 0 to 1000000" },
	{ "compare @HUGE @CELLA", "HUGE.json: cells[0].workers is not a whole "
	    "number from 0 to 1000000" },
	{ "topo extra", "unexpected argument 'extra' (usage: dispatchbench "
	    "topo)" },
	{ "plot @WRONGTYPE", "WRONGTYPE.json: cells[0].summary.ops_per_s.median "
	    "is a string, not a number" },
	{ "report @PLACED", "PLACED.json: cells[0].summary.cpu_us_per_dispatch."
	    "placement.far.median is missing (a number)" },
	{ "advise --from @GROUPED", "GROUPED.json: cells[0].summary."
	    "cpu_us_per_dispatch.bimodal.above is a number, not an object" },
	{ "export @GROUPRUNS", "GROUPRUNS.json: cells[0].summary."
	    "cpu_us_per_dispatch.bimodal.below.runs is not a whole number" },
	{ "export @RUNTYPE", "RUNTYPE.json: cells[0].runs[1].status is "
	    "missing (a string)" },
	{ "export @RUNFIELD", "RUNFIELD.json: cells[0].runs[0].host_busy is "
	    "a string, not a boolean" },
	{ "compare @CELLA @CONTEXTTYPE", "CONTEXTTYPE.json: context.cpu_model "
	    "is a number, not a string" },
	{ "compare @CELLA @CPUTYPE", "CPUTYPE.json: context.cpu is a string, "
	    "not an object" },
	{ "cell --coroutines "
	    "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
	    "22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,"
	    "40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,"
	    "58,59,60,61,62,63,64,65",
	    "--coroutines: more than 64 values" },
	/* 13 widths, 20 counts, 64 variants of stealing, 7 workloads. */
	{ "cell --dispatcher stealing --workers 1..4096 --coroutines "
	    "1..1000000 --lifo on,off --searchers half,all --yield "
	    "wake-other,self-wake,tokio,go --floor on,off --spawn inside,outside "
	    "--workload resume,sleep:1:0.5,sleep:2:0.5,sleep:3:0.5,spin:1:0.5,"
	    "spin:2:0.5,spin:3:0.5",
	    "the sweep makes more than 100000 cells: shorten its lists" },
	{ "run --format yaml", "is not table, csv, markdown" },
	{ "export", "usage" },
	{ "export @CELLA --format yaml", "not table, csv" },
	{ "export @TRUNCATED", "not valid JSON" },
	{ "report", "usage" },
	{ "report @NEWER", "newer" },
	{ "run --queue ./nosuch.so", "cannot load ./nosuch.so" },
	{ "run --queue " DB_PLUGIN_CONDPOOL, "no symbol dispatchbench_queue" },
	{ "run --queue " DB_PLUGIN_REFUSING, "ABI version 6, this build reads 5" },
	{ "run --dispatcher " DB_PLUGIN_TWOLOCK ":nosym", "no symbol nosym" },
	{ "verify --workers 2", "name a --queue" },
	{ "verify --queue " DB_PLUGIN_REFUSING ":refusing", "refused to be" },
	{ "pair --a lfseg", "give --a and --b" },
	{ "pair --a lfseg --b shared", "both be queues or both" },
	{ "pair --a nosuch --b lfseg", "neither a queue nor" },
	{ "pair --a lfseg --b vyukov --dispatcher eventloop", "polls none" },
	{ "pair --a lfseg --b vyukov --processes 5", "out of range" },
	{ "pair --a lfseg --b vyukov --workers 2,8", "exactly one cell" },
	{ "plan --pin smt --topology 'pack:1 core:4 pu:1'", "no SMT" },
	{ "plan --pin spread-numa --topology 'pack:2 numa:2 core:16 pu:2' "
	    "--cpuset 0-31", "all in one NUMA node" },
	{ "plan --pin 40 --topology 'pack:2 numa:2 core:16 pu:2' "
	    "--cpuset 0-31", "PU 40 is outside the CPUs" },
	{ "plan --pin compact --cpuset 0-99999", "is not one of this" },
	{ "plan --pin compact --cpuset two", "not a list of CPU" },
	{ "plan --pin sideways", "is not none, compact, smt" },
	{ "taskset -c 0 plan --pin numa", "all in one NUMA node" },
	{ "run --counters cycles,nosuch-event", "no event 'nosuch-event'" },
	{ "run --counters ,", "not a comma list" },
	{ "matrix --queue nosuch", "unknown queue 'nosuch'" },
	{ "matrix --rounds 5", "out of range" },
	{ "matrix --cpuset 0-99999", "is not one of this" },
};

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

/* A results file of one cell, on a machine named cpu. */
static void
write_cell(const char *path, const char *cpu, int workers)
{
	char text[512];

	snprintf(text, sizeof(text), "{\"context\": {\"schema\": 1, "
	    "\"cpu_model\": \"%s\"}, \"cells\": [{\"dispatcher\": \"shared\", "
	    "\"queue\": \"lfseg\", \"workers\": %d, \"coroutines\": 64, "
	    "\"summary\": {}, \"runs\": []}]}", cpu, workers);
	write_file(path, text);
}

/* Runs the binary; its stderr into err; returns the exit status. */
static int
run(const char *args, char *err, size_t len)
{
	const char *path = tmp("stderr.txt");
	char cmd[1024];
	int status;
	FILE *f;
	size_t n;

	/* "taskset -c 0 ARGS": the binary run on CPU 0 only. */
	if (strncmp(args, "taskset -c 0 ", 13) == 0)
		snprintf(cmd, sizeof(cmd), "taskset -c 0 %s %s >/dev/null 2>%s",
		    DB_BINARY, args + 13, path);
	else
		snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>%s", DB_BINARY,
		    args, path);
	status = system(cmd);
	f = fopen(path, "r");
	n = fread(err, 1, len - 1, f);
	err[n] = '\0';
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The made-up results files of the bad-input cases, in a folder of this
 * process's own: Criterion may run the cases in parallel, and one case
 * must not read a file another is writing.
 */
static const char *
fixture(const char *name, int len, char *buf, size_t buflen)
{
	char file[64];

	snprintf(file, sizeof(file), "%.*s.json", len, name);
	snprintf(buf, buflen, "%s", tmp(file));
	return buf;
}

/* Every @NAME becomes the made-up results file NAME of fixture(). */
static void
expand(const char *args, char *out, size_t len)
{
	size_t used = 0, k;
	char path[128];

	while (*args != '\0' && used + 1 < len) {
		if (*args != '@') {
			out[used++] = *args++;
			continue;
		}
		k = strcspn(++args, " ");
		used += (size_t)snprintf(out + used, len - used, "%s",
		    fixture(args, (int)k, path, sizeof(path)));
		args += k;
	}
	out[used < len ? used : len - 1] = '\0';
}

static const struct {
	const char *name;
	const char *text;		/* NULL: a cell of machine `machine` */
	const char *machine;
	int workers;
} fixtures[] = {
	{ "TRUNCATED", "{\"context\": {\"schema\": 1", NULL, 0 },
	{ "NOTRESULTS", "[1, 2, 3]", NULL, 0 },
	/* pair --out's, cut down: its arms, its processes, its verdict. */
	{ "PAIR", "{\"context\": {\"cpu_model\": \"X\"}, \"a\": \"mutex\", "
	    "\"b\": \"./libq.so\", \"a_side\": {\"kind\": \"queue\", "
	    "\"name\": \"mutex\"}, \"complete\": true, \"processes\": "
	    "[{\"process\": 0, \"windows\": []}], \"result\": {\"verdict\": "
	    "\"broken\"}}", NULL, 0 },
	{ "NEWER", "{\"context\": {\"schema\": 999}, \"cells\": []}", NULL, 0 },
	{ "CELLA", NULL, "X", 2 },
	{ "CELLB", NULL, "X", 4 },
	{ "MACHINEB", NULL, "Y", 2 },
	/* Found by the fuzzer: a width no reader can hold. */
	{ "HUGE", "{\"context\": {\"schema\": 1}, \"cells\": [{\"dispatcher\": "
	    "\"shared\", \"queue\": \"lfseg\", \"workers\": 1e30, "
	    "\"coroutines\": 64, \"summary\": {}}]}", NULL, 0 },
	{ "RUNA", "{\"context\": {\"schema\": 1}, \"cells\": [{\"dispatcher\": "
	    "\"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {}, \"runs\": "
	    "[{\"status\": \"ok\", \"cpu_us_per_dispatch\": 0.5}]}]}", NULL, 0 },
	/* A field of the wrong type: read as absent before, now refused. */
	{ "WRONGTYPE", "{\"context\": {\"schema\": 1}, \"cells\": [{"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {\"ops_per_s\": {\"median\": "
	    "\"fast\", \"min\": 1, \"max\": 2}}}]}", NULL, 0 },
	/* Two placements, one of them without the median of its runs. */
	{ "PLACED", "{\"context\": {\"schema\": 1}, \"cells\": [{"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {\"cpu_us_per_dispatch\": "
	    "{\"median\": 1, \"min\": 1, \"max\": 2, \"placement\": "
	    "{\"boundary_ns\": 150, \"moved\": 0, \"near\": {\"runs\": 3, "
	    "\"median\": 1, \"line_round_trip_ns\": 60}, \"far\": {\"runs\": "
	    "2, \"line_round_trip_ns\": 370}}}}}]}", NULL, 0 },
	/* Two groups of runs, the slower one's figure not an object. */
	{ "GROUPED", "{\"context\": {\"schema\": 1}, \"cells\": [{"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {\"cpu_us_per_dispatch\": "
	    "{\"median\": 1, \"min\": 1, \"max\": 9, \"bimodal\": "
	    "{\"boundary\": 3, \"runs_above\": 2, \"share_above\": 0.4, "
	    "\"below\": {\"runs\": 3, \"median\": 1}, \"above\": 9}}}}]}",
	    NULL, 0 },
	/* ... and one group's runs not a count. */
	{ "GROUPRUNS", "{\"context\": {\"schema\": 1}, \"cells\": [{"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {\"cpu_us_per_dispatch\": "
	    "{\"median\": 1, \"min\": 1, \"max\": 9, \"bimodal\": "
	    "{\"boundary\": 3, \"runs_above\": 2, \"share_above\": 0.4, "
	    "\"below\": {\"runs\": 1e300, \"median\": 1}, \"above\": {"
	    "\"runs\": 2, \"median\": 9}}}}}]}", NULL, 0 },
	{ "RUNTYPE", "{\"context\": {\"schema\": 1}, \"cells\": [{"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {}, \"runs\": [{\"status\": "
	    "\"ok\"}, {\"state\": \"ok\"}]}]}", NULL, 0 },
	{ "RUNFIELD", "{\"context\": {\"schema\": 1}, \"cells\": [{"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2, "
	    "\"coroutines\": 64, \"summary\": {}, \"runs\": [{\"status\": "
	    "\"ok\", \"host_busy\": \"yes\"}]}]}", NULL, 0 },
	{ "CONTEXTTYPE", "{\"context\": {\"schema\": 1, \"cpu_model\": 7}, "
	    "\"cells\": []}", NULL, 0 },
	{ "CPUTYPE", "{\"context\": {\"schema\": 1, \"cpu\": \"AMD EPYC\"}, "
	    "\"cells\": []}", NULL, 0 },
};
#define NFIXTURES	(sizeof(fixtures) / sizeof(fixtures[0]))

static void
fixtures_write(void)
{
	char path[160];
	size_t i;

	for (i = 0; i < NFIXTURES; i++) {
		fixture(fixtures[i].name, (int)strlen(fixtures[i].name), path,
		    sizeof(path));
		if (fixtures[i].text != NULL)
			write_file(path, fixtures[i].text);
		else
			write_cell(path, fixtures[i].machine, fixtures[i].workers);
	}
}

ParameterizedTestParameters(cli, bad_input)
{

	return cr_make_param_array(struct bad_case, bad_cases,
	    sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, cli, bad_input, .timeout = 30)
{
	char args[512], err[4096];
	int status, lines = 0;
	char *p;

	fixtures_write();
	expand(c->args, args, sizeof(args));
	status = run(args, err, sizeof(err));
	cr_assert_eq(status, 2, "`%s` exited %d", args, status);
	for (p = err; *p != '\0'; p++)
		lines += *p == '\n';
	/* An unknown command also prints the usage; everything else one line. */
	if (strcmp(c->args, "frobnicate") != 0)
		cr_assert_eq(lines, 1, "`%s` printed %d lines:\n%s", args, lines,
		    err);
	cr_assert_not_null(strstr(err, c->says), "`%s` said: %s", args, err);
}

/* The context's four probes, the first timed of them with n 7. */
static void
probes_kept(const cJSON *ctx, int timed)
{
	static const char *const names[] = { "bare_loop", "atomic",
	    "line_round_trip", "futex_wake" };
	const cJSON *p;
	int i;

	for (i = 0; i < 4; i++) {
		p = cJSON_GetObjectItem(cJSON_GetObjectItem(ctx, "probes"),
		    names[i]);
		cr_assert_not_null(p, "no probe %s", names[i]);
		cr_assert_eq(results_num(p, "n"), i < timed ? 7 : 0, "%s: n %g",
		    names[i], results_num(p, "n"));
		cr_assert(i < timed ? results_num(p, "median") > 0 :
		    strstr(results_str(p, "why", ""), "one PU") != NULL,
		    "%s", names[i]);
	}
}

/*
 * On one CPU (taskset) a sweep still runs: the probes that need a second
 * PU say why they have no timings, in the file and on stderr.
 */
Test(cli, one_cpu_keeps_the_probes_it_can, .timeout = 60)
{
	char err[4096], msg[512], args[512];
	cJSON *doc;
	int status;

	snprintf(args, sizeof(args), "taskset -c 0 run --dispatcher inline "
	    "--reps 1 --warmup 0.01 --time 0.02 --out %s", tmp("one.json"));
	status = run(args, err, sizeof(err));
	cr_assert_eq(status, 0, "exited %d: %s", status, err);
	cr_assert_not_null(strstr(err, "line_round_trip none (one PU "), "%s",
	    err);
	cr_assert_eq(results_read(tmp("one.json"), &doc, msg, sizeof(msg)), 0,
	    "%s", msg);
	probes_kept(cJSON_GetObjectItem(doc, "context"), 2);
	cJSON_Delete(doc);
}

Test(cli, tiny_sweep_writes_results_and_plots, .timeout = 300)
{
	char err[4096], msg[512];
	cJSON *doc, *cells, *cell, *runs;
	size_t i, reals;
	int status;

	char args[512];

	snprintf(args, sizeof(args), "run --workers 1,2 --warmup 0.02 --time "
	    "0.05 --reps 2 --out %s", tmp("sweep.json"));
	status = run(args, err, sizeof(err));
	cr_assert_eq(status, 0, "tiny sweep exited %d: %s", status, err);
	cr_assert_eq(results_read(tmp("sweep.json"), &doc, msg, sizeof(msg)), 0,
	    "%s", msg);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
	/* The machine's probes, once, before the first cell: said and kept. */
	cr_assert(strstr(err, "probes (median of 7): bare_loop ") != NULL,
	    "%s", err);
	probes_kept(cJSON_GetObjectItem(doc, "context"), 4);
	cells = cJSON_GetObjectItem(doc, "cells");
	/* inline once, every other design at two widths. */
	cr_assert_eq(cJSON_GetArraySize(cells), 1 + 2 * ((int)disp_local_count() - 1));
	cJSON_ArrayForEach(cell, cells) {
		runs = cJSON_GetObjectItem(cell, "runs");
		cr_assert_eq(cJSON_GetArraySize(runs), 2);
		cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(cell,
		    "summary"), "cpu_us_per_dispatch"));
	}
	/* Each real runtime is named, with its library, in the context. */
	for (i = 0, reals = 0; i < disp_local_count(); i++) {
		if (disp_at(i)->real == NULL)
			continue;
		reals++;
		cr_assert_str_eq(results_str(cJSON_GetObjectItem(cJSON_GetObjectItem(
		    cJSON_GetObjectItem(doc, "context"), "runtimes"),
		    disp_at(i)->name), "real", ""), disp_at(i)->real);
	}
	cJSON_Delete(doc);
	snprintf(args, sizeof(args), "plot %s -o %s", tmp("sweep.json"),
	    tmp_dir);
	status = run(args, err, sizeof(err));
	cr_assert_eq(status, 0, "plot exited %d: %s", status, err);
	cr_assert_eq(access(tmp("cpu_per_dispatch.png"), R_OK), 0);
	cr_assert_eq(access(tmp("cpu_per_dispatch.svg"), R_OK), 0);
	cr_assert_eq(access(tmp("fairness.png"), R_OK), 0);
	/* ... and drawn over the model of its design. */
	if (reals > 0)
		cr_assert_eq(access(tmp("beside.png"), R_OK), 0);
}

/* The number of runs the results file holds now; -1 if unreadable. */
static int
runs_in(const char *path)
{
	const cJSON *cell;
	char msg[512];
	cJSON *doc;
	int n = 0;

	if (results_read(path, &doc, msg, sizeof(msg)) != 0)
		return -1;
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		n += cJSON_GetArraySize(cJSON_GetObjectItem(cell, "runs"));
	cJSON_Delete(doc);
	return n;
}

static int signals[] = { SIGINT, SIGTERM };

ParameterizedTestParameters(cli, a_signal_keeps_every_measured_run)
{

	return cr_make_param_array(int, signals, 2);
}

/*
 * A real sweep, interrupted once it has measured a few runs: the file is
 * valid, says it is partial and why, keeps those runs, and the exit status
 * is 128 + the signal.
 */
ParameterizedTest(int *sig, cli, a_signal_keeps_every_measured_run,
    .timeout = 120)
{
	char path[160], msg[512];
	double deadline = measure_now() + 60;
	const cJSON *cell, *run;
	int status, kept;
	cJSON *doc;
	pid_t pid;

	snprintf(path, sizeof(path), "%s", tmp("signal.json"));
	if ((pid = fork()) == 0) {
		freopen("/dev/null", "w", stdout);
		execl(DB_BINARY, DB_BINARY, "run", "--dispatcher", "inline,shared",
		    "--workers", "2", "--warmup", "0", "--time", "0.05", "--reps",
		    "100", "--out", path, (char *)NULL);
		_exit(127);
	}
	while (runs_in(path) < 3) {
		cr_assert(measure_now() < deadline, "no 3 runs in 60 s");
		usleep(20000);
	}
	kill(pid, *sig);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 128 + *sig,
	    "exit status %d", WEXITSTATUS(status));
	cr_assert_eq(results_read(path, &doc, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(doc, "complete")));
	cr_assert_str_eq(cJSON_GetObjectItem(doc, "interrupted_by")->valuestring,
	    *sig == SIGINT ? "SIGINT" : "SIGTERM");
	kept = 0;
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs")) {
			cr_assert_str_eq(cJSON_GetObjectItem(run,
			    "status")->valuestring, "ok");
			kept++;
		}
	cr_assert(kept >= 3 && kept < 200, "%d runs kept", kept);
	cJSON_Delete(doc);
}

/* A run past its deadline is killed and recorded hung, and the sweep goes on. */
Test(cli, a_run_past_its_deadline_is_killed_and_the_sweep_goes_on,
    .timeout = 120)
{
	char err[4096], msg[512];
	const cJSON *cell, *r;
	int status, hung = 0;
	cJSON *doc;

	char args[512];

	cr_assert_eq(access("/usr/bin/gdb", X_OK), 0, "gdb takes a hung run's "
	    "stacks: sh scripts/install-deps.sh tests");
	snprintf(args, sizeof(args), "run --dispatcher inline,shared --workers "
	    "2 --reps 1 --warmup 0 --time 5 --deadline 1 --out %s",
	    tmp("deadline.json"));
	status = run(args, err, sizeof(err));
	cr_assert_eq(status, 1, "exit %d: %s", status, err);
	cr_assert_eq(results_read(tmp("deadline.json"), &doc, msg, sizeof(msg)),
	    0, "%s", msg);
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(cell, "runs")) {
			hung += strcmp(cJSON_GetObjectItem(r,
			    "status")->valuestring, "hung") == 0;
			cr_assert_str_eq(results_str(r, "error", ""), "the run "
			    "passed its deadline and was killed");
			cr_assert(strstr(cJSON_GetObjectItem(r,
			    "stacks")->valuestring, "Thread") != NULL);
		}
	cr_assert_eq(hung, 2, "both cells ran and were killed");
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
	cJSON_Delete(doc);
}

/* Progress goes to a terminal (script(1) gives one), never to a file. */
Test(cli, progress_only_on_a_terminal, .timeout = 120)
{
	char sweep[512], cmd[1024], err[4096], text[8192];
	size_t n;
	FILE *f;

	snprintf(sweep, sizeof(sweep), "run --dispatcher inline,shared "
	    "--workers 2 --reps 2 --warmup 0 --time 0.05 --out %s",
	    tmp("progress.json"));
	cr_assert_eq(run(sweep, err, sizeof(err)), 0, "%s", err);
	cr_assert_null(strstr(err, "left"), "progress in a file: %s", err);
	snprintf(cmd, sizeof(cmd), "script -qfec '%s %s' /dev/null >%s 2>&1",
	    DB_BINARY, sweep, tmp("tty.txt"));
	cr_assert_eq(system(cmd), 0);
	f = fopen(tmp("tty.txt"), "r");
	cr_assert_not_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_assert_not_null(strstr(text, "[3/4] "), "%s", text);
	cr_assert_not_null(strstr(text, "left"), "%s", text);
}

/*
 * A results file of two cells, three ok runs each and, with failed, one
 * failed run; the first starved a coroutine in one run. Its context is a
 * VM's: a build type and a clock, no frequency governor.
 */
static const char *
write_runs(const char *name, bool failed)
{
	const char *path = tmp(name);
	char text[4096];
	size_t used;
	int c, r;

	used = (size_t)snprintf(text, sizeof(text), "{\"context\": {\"schema\": "
	    "1, \"date\": \"2026-11-30T00:00:00Z\", \"online_cpus\": 2, "
	    "\"cpu_mhz\": 2994.4, \"build_type\": \"RelWithDebInfo\"}, "
	    "\"cells\": [");
	for (c = 0; c < 2; c++) {
		used += (size_t)snprintf(text + used, sizeof(text) - used,
		    "%s{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", "
		    "\"workers\": %d, \"coroutines\": 64, \"workload\": \"resume\", "
		    "\"summary\": {\"runs\": %d, \"runs_ok\": 3, "
		    "\"cpu_us_per_dispatch\": {\"median\": 0.5, \"min\": 0.4, "
		    "\"max\": 0.6, \"cv\": 0.1}}, \"runs\": [%s", c ? ", " : "",
		    c ? 0 : 8, failed ? 4 : 3, failed ? "{\"status\": "
		    "\"failed\", \"error\": \"count check\"}, " : "");
		for (r = 0; r < 3; r++)
			used += (size_t)snprintf(text + used, sizeof(text) - used,
			    "%s{\"status\": \"ok\", \"dispatches\": 1000000, "
			    "\"wall_s\": 0.8, \"cpu_s\": %.2f, \"ops_per_s\": 312500, "
			    "\"cpu_us_per_dispatch\": %.2f, \"threads_peak\": %d, "
			    "\"starved\": %d, \"ctx_switches_per_dispatch\": 0.001}",
			    r ? ", " : "", 0.4 + 0.1 * r, 0.4 + 0.1 * r, 10 + r,
			    c == 0 && r == 1);
		used += (size_t)snprintf(text + used, sizeof(text) - used, "]}");
	}
	snprintf(text + used, sizeof(text) - used, "]}");
	write_file(path, text);
	return path;
}

/* The output of `dispatchbench ARGS` (stdout) into buf; its exit status. */
static int
output_of(const char *args, char *buf, size_t len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s", DB_BINARY, args);
	return shell_output(cmd, buf, len);
}

/* How many times what occurs in s. */
static int
count_of(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

/*
 * A results file that passed validation, but whose summary lost a
 * statistic: plot and report dereferenced the missing median (exit 139),
 * export wrote null for it (exit 0) and advise said the file held no such
 * design. Every reader now names the file and the field, alone.
 */
Test(cli, a_summary_without_its_median_is_named_by_every_reader,
    .timeout = 60)
{
	static const char *const readers[] = { "plot %s -o %s",
	    "report %s -o %s/report.html", "export %s", "compare %s %s",
	    "advise --from %s" };
	const char *file = DB_TEST_DATA "/no-median.json";
	char args[1024], err[4096], want[1024];
	size_t i;
	int status;

	snprintf(want, sizeof(want), "dispatchbench: %s: cells[0].summary."
	    "cpu_us_per_dispatch.median is missing (a number)\n", file);
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		snprintf(args, sizeof(args), readers[i], file, strncmp(
		    readers[i], "compare", 7) == 0 ? file : tmp("plots"));
		status = run(args, err, sizeof(err));
		cr_assert_eq(status, 2, "`%s` exited %d: %s", args, status, err);
		cr_assert_str_eq(err, want, "`%s`", args);
	}
}

/*
 * Every command of the table, as --help lists it, given a word more than
 * a call holds (CALL_MAX_WORDS, commands.h): exit 2 and one line naming
 * the word, never a write past words[]. A sweep's option follows the
 * words, so that a build which took them all fails on it at once rather
 * than running a sweep.
 */
Test(cli, every_command_refuses_a_word_more_than_a_call_holds,
    .timeout = 120)
{
	char help[8192], args[512], err[4096], want[256], name[32];
	char *line, *save = NULL;
	int status, i, commands = 0;
	size_t used;

	cr_assert_eq(output_of("--help", help, sizeof(help)), 0);
	for (line = strtok_r(help, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  ", 2) != 0 || sscanf(line, "%31s", name) != 1)
			continue;
		commands++;
		used = (size_t)snprintf(args, sizeof(args), "%s", name);
		for (i = 0; i <= CALL_MAX_WORDS; i++)
			used += (size_t)snprintf(args + used, sizeof(args) - used,
			    " w");
		snprintf(args + used, sizeof(args) - used, " --dispatcher nosuch");
		status = run(args, err, sizeof(err));
		snprintf(want, sizeof(want), "dispatchbench: unexpected argument "
		    "'w' (usage: dispatchbench %s", name);
		cr_assert_eq(status, 2, "`%s` exited %d: %s", args, status, err);
		cr_assert_eq(strncmp(err, want, strlen(want)), 0, "`%s` said: %s",
		    args, err);
		cr_assert_eq(lines_of(err), 1, "`%s` said: %s", args, err);
	}
	cr_assert_geq(commands, 15, "--help listed %d commands:\n%s", commands,
	    help);
}

/*
 * --from advises on the load its file holds: without --blocking, or with
 * another, it refuses with one line naming what the file holds (it once
 * recommended from the resume-only rows alone, in silence).
 */
Test(cli, advise_from_refuses_a_load_the_file_does_not_hold, .timeout = 60)
{
	char err[1024];

	cr_assert_eq(run("advise --from " DB_TEST_DATA "/advise-blocking.json "
	    "--rate 5000 --p99 20", err, sizeof(err)), 2, "%s", err);
	cr_assert_str_eq(err, "dispatchbench: advise: " DB_TEST_DATA
	    "/advise-blocking.json holds sleep:5:0.25 beside resume-only: give "
	    "the one to advise on as --blocking\n");
	cr_assert_eq(run("advise --from " DB_TEST_DATA "/advise-blocking.json "
	    "--blocking 5:1.0 --rate 1000", err, sizeof(err)), 2, "%s", err);
	cr_assert_str_eq(err, "dispatchbench: advise: " DB_TEST_DATA
	    "/advise-blocking.json holds sleep:5:0.25, not --blocking "
	    "sleep:5:1\n");
}

/*
 * advise under a load makes its cells anew, then named the design from
 * the first of the cells it had freed: on this file (the fuzzer's seed,
 * cut down from the committed advise results) it printed a name of
 * garbage or died of it (exit 139), as the heap fell.
 */
Test(cli, advise_under_a_load_names_the_design_it_read, .timeout = 60)
{
	char out[8192];
	int status;

	status = output_of("advise --from " DB_TEST_DATA "/advise-blocking.json "
	    "--blocking 5:0.25 2>&1", out, sizeof(out));
	cr_assert_eq(status, 0, "advise exited %d:\n%s", status, out);
	cr_assert_not_null(strstr(out, "\nadvise: shared over lfseg, 64 "
	    "coroutines, measured on 2 CPUs. An op is 4 resumptions."), "%s",
	    out);
	cr_assert_not_null(strstr(out, "\nrecommendation: N=16 or wider. no "
	    "knee: capacity still grows at the widest width (3127 ops/s at "
	    "N=16"), "%s", out);
}

/*
 * --from reads what the file measured: its design, queue and coroutines,
 * never the command line's defaults (shared, 64), which once made advise
 * say the file held nothing, or name a design it never ran.
 */
Test(cli, advise_from_names_what_the_file_measured, .timeout = 60)
{
	char cmd[1024], out[8192];
	int status;

	snprintf(cmd, sizeof(cmd), "sed 's/\"shared\"/\"limited\"/g; "
	    "s/\"coroutines\": *64/\"coroutines\": 32/g' %s/advise-blocking.json "
	    "> %s", DB_TEST_DATA, tmp("limited.json"));
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "advise --from %s --blocking 5:0.25 "
	    "--rate 2000 2>&1", tmp("limited.json"));
	status = output_of(cmd, out, sizeof(out));
	cr_assert_eq(status, 0, "advise exited %d:\n%s", status, out);
	cr_assert_not_null(strstr(out, "\nadvise: limited over lfseg, 32 "
	    "coroutines, measured on 2 CPUs."), "%s", out);
}

/*
 * An advise file's page opens with its advice: the paragraphs and the
 * table `advise --from` of it prints, word for word, then its picture,
 * before what the cells say.
 */
Test(cli, report_of_an_advise_file_opens_with_its_advice, .timeout = 120)
{
	static char out[1 << 16], page[1 << 21];
	const char *file = tmp("advised.json"), *at[4];
	char args[512], err[4096], *rec, *end;
	size_t n;
	FILE *f;

	snprintf(args, sizeof(args), "sed 's/^{/{\"advise\": {\"load\": "
	    "\"sleep:5:0.25\", \"rate_ops_per_s\": 2000, \"p99_ms\": 100}, /' "
	    "%s/advise-blocking.json > %s", DB_TEST_DATA, file);
	cr_assert_eq(system(args), 0);
	snprintf(args, sizeof(args), "advise --from %s", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(rec = strstr(out, "\nrecommendation: N=16."), "%s",
	    out);
	end = strchr(rec + 1, '\n');
	snprintf(args, sizeof(args), "report %s -o %s", file, tmp("adv.html"));
	cr_assert_eq(run(args, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(f = fopen(tmp("adv.html"), "r"));
	n = fread(page, 1, sizeof(page) - 1, f);
	fclose(f);
	page[n] = '\0';
	at[0] = strstr(page, "<h2 id=\"advice\">The advice</h2>");
	at[1] = strstr(page, "<table id=\"advise\">");
	at[2] = strstr(page, "<figure id=\"advise.svg\">");
	at[3] = strstr(page, "What the data says");
	cr_assert(at[0] && at[1] && at[2] && at[3], "%p %p %p %p", at[0],
	    at[1], at[2], at[3]);
	cr_assert(at[0] < at[1] && at[1] < at[2] && at[2] < at[3], "the advice, "
	    "its table, its picture, then the cells: %td %td %td %td",
	    at[0] - page, at[1] - page, at[2] - page, at[3] - page);
	snprintf(args, sizeof(args), "<p>%.*s</p>", (int)(end - rec - 1),
	    rec + 1);
	cr_assert_not_null(strstr(page, args), "%s not in the page", args);
}

/* Every format of the one renderer: the rows, and the advice beside. */
Test(cli, advise_writes_every_format, .timeout = 60)
{
	char out[16384];
	cJSON *doc;

	cr_assert_eq(output_of("advise --from " DB_TEST_DATA "/advise-blocking"
	    ".json --blocking 5:0.25 --rate 2000 --format csv", out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_eq(strncmp(out, "pool,workers,view,cpu_us_per_dispatch,", 38),
	    0, "%s", out);
	cr_assert_not_null(strstr(out, "\nsingle,16,,"), "%s", out);
	cr_assert_not_null(strstr(out, ",recommended\n"), "%s", out);
	cr_assert_eq(output_of("advise --from " DB_TEST_DATA "/advise-blocking"
	    ".json --blocking 5:0.25 --rate 2000 --format json", out,
	    sizeof(out)), 0, "%s", out);
	doc = cJSON_Parse(out);
	cr_assert_not_null(doc, "not JSON: %s", out);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "rows")), 4);
	cr_assert_eq(strncmp(cJSON_GetArrayItem(cJSON_GetObjectItem(doc,
	    "advice"), 0)->valuestring, "recommendation: N=16.", 21), 0);
	cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "about"),
	    "resumptions_per_op")->valueint, 4);
	cJSON_Delete(doc);
	cr_assert_eq(output_of("advise --from " DB_TEST_DATA "/advise-blocking"
	    ".json --blocking 5:0.25 --rate 2000 --format markdown", out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "\n| N | CPU µs/dispatch |"), "%s", out);
	cr_assert_not_null(strstr(out, "\nprice: "), "%s", out);
}

/*
 * The command's own path, live: a short sweep with a split and the load
 * again at the target's coroutines, then --from of the file it wrote
 * alone (the file holds the load and the target) gives the same advice,
 * word for word; an option given overrides the file's and says so in one
 * line. The test the sanitizer builds run on the command (it once read
 * freed cells).
 */
Test(cli, advise_live_and_from_its_file_agree, .timeout = 300)
{
	static char live[16384], again[16384];
	char cmd[1024], err[1024];
	const char *adv, *adv2;
	struct stat st;
	cJSON *doc;
	int status;

	snprintf(cmd, sizeof(cmd), "advise --blocking 1:0.5 --workers 1,4 "
	    "--reps 2 --time 0.1 --warmup 0.05 --rate 100 --quiet --out %s "
	    "2>/dev/null", tmp("advise.json"));
	status = output_of(cmd, live, sizeof(live));
	cr_assert_eq(status, 0, "advise exited %d:\n%s", status, live);
	cr_assert_not_null(strstr(live, "split pool: N=2 for the non-blocking "
	    "work and the blocking call on a view of 4"), "%s", live);
	/* 100 ops/s x 2 ms an op: 1 coroutine in flight at the target. */
	cr_assert_not_null(strstr(live, "\nprice: at the target the whole "
	    "pool burns "), "%s", live);
	snprintf(cmd, sizeof(cmd), "advise --from %s 2>%s", tmp("advise.json"),
	    tmp("from.err"));
	cr_assert_eq(output_of(cmd, again, sizeof(again)), 0, "%s", again);
	adv = strstr(live, "\nadvise: ");
	adv2 = strstr(again, "\nadvise: ");
	cr_assert(adv != NULL && adv2 != NULL, "%s\n---\n%s", live, again);
	cr_assert_str_eq(adv, adv2, "live and --from alone differ");
	cr_assert(stat(tmp("from.err"), &st) == 0 && st.st_size == 0,
	    "--from alone said more on stderr");
	cr_assert_eq(results_read(tmp("advise.json"), &doc, cmd, sizeof(cmd)),
	    0, "%s", cmd);
	cr_assert_float_eq(results_num(results_obj(doc, "advise"),
	    "rate_ops_per_s"), 100, 1e-9);
	cr_assert_float_eq(results_num(results_obj(doc, "advise"),
	    "at_target_coroutines"), 1, 1e-9);
	cJSON_Delete(doc);
	snprintf(cmd, sizeof(cmd), "advise --from %s --rate 150",
	    tmp("advise.json"));
	cr_assert_eq(run(cmd, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(err, "dispatchbench: advise: --rate 150 overrides "
	    "the file's 100\n");
	snprintf(cmd, sizeof(cmd), "advise --from %s --rate 150 2>/dev/null",
	    tmp("advise.json"));
	cr_assert_eq(output_of(cmd, again, sizeof(again)), 0, "%s", again);
	cr_assert_not_null(strstr(again, "check (Little's law): 150 ops/s x "),
	    "%s", again);
	cr_assert_not_null(strstr(again, "\nprice: at the target the whole "
	    "pool burns "), "150 ops/s keeps 1 coroutine busy too: %s", again);
	/* 600 ops/s keeps 2 busy: the file's cells at its target are not it. */
	snprintf(cmd, sizeof(cmd), "advise --from %s --rate 600 2>/dev/null",
	    tmp("advise.json"));
	cr_assert_eq(output_of(cmd, again, sizeof(again)), 0, "%s", again);
	cr_assert_not_null(strstr(again, "(at the target rate it was not "
	    "measured)"), "%s", again);
	snprintf(cmd, sizeof(cmd), "plot %s -o %s >/dev/null 2>&1",
	    tmp("advise.json"), tmp(""));
	cr_assert_eq(output_of(cmd, again, sizeof(again)), 0);
	cr_assert_eq(access(tmp("advise.svg"), R_OK), 0, "no advise picture");
}

/* The example plugins pass what every built-in passes. */
Test(cli, the_example_plugins_pass_verify, .timeout = 300)
{
	static char out[16384];

	cr_assert_eq(output_of("verify --queue " DB_PLUGIN_TWOLOCK
	    " --workers 1,4 --items 200000", out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "verify: 7 checks, 0 failed"), "%s", out);
	cr_assert_eq(output_of("verify --dispatcher " DB_PLUGIN_CONDPOOL
	    " --workers 1,4,64", out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "verify: 3 checks, 0 failed"), "%s", out);
	cr_assert_eq(output_of("verify --dispatcher " DB_PLUGIN_CXXPOOL
	    " --workers 1,4,64", out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "verify: 3 checks, 0 failed"), "%s", out);
}

/*
 * The C++ example is measured as any design: its count exact and its
 * counter reported.
 */
Test(cli, a_design_in_cpp_is_measured, .timeout = 120)
{
	const cJSON *run;
	char cmd[1024], out[4096], msg[512];
	cJSON *doc;

	snprintf(cmd, sizeof(cmd), "run --dispatcher " DB_PLUGIN_CXXPOOL
	    " --workers 2 --reps 1 --warmup 0 --time 0.1 --out %s",
	    tmp("cxx.json"));
	cr_assert_eq(output_of(cmd, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(results_read(tmp("cxx.json"), &doc, msg, sizeof(msg)), 0,
	    "%s", msg);
	run = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(doc, "cells"), 0), "runs"), 0);
	cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(run,
	    "status")), "ok", "%s", cJSON_Print(run));
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "count_ok")));
	cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(run,
	    "unparks_per_dispatch")), "%s", cJSON_Print(run));
	cJSON_Delete(doc);
}

Test(cli, every_design_passes_verify, .timeout = 600)
{
	static char out[16384];

	static char list[8192];
	char *line, *save = NULL, want[64];
	int checks = -1, failed = -1, designs = 0;

	cr_assert_eq(output_of("verify --dispatcher all --workers 1,4", out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_eq(sscanf(strstr(out, "verify: ") != NULL ? strstr(out,
	    "verify: ") : "", "verify: %d checks, %d failed", &checks,
	    &failed), 2, "%s", out);
	cr_assert_eq(failed, 0, "%s", out);
	cr_assert_eq(checks, count_of(out, "\nok    count: ") +
	    (strncmp(out, "ok    count: ", 13) == 0), "%s", out);
	cr_assert_null(strstr(out, "FAIL"), "%s", out);
	/* Every design `list` names was counted, at both widths if it has one. */
	cr_assert_eq(output_of("list", list, sizeof(list)), 0);
	for (line = strtok_r(strstr(list, "dispatchers:\n"), "\n", &save);
	    line != NULL && strcmp(line, "queues:") != 0;
	    line = strtok_r(NULL, "\n", &save)) {
		/* A program is checked by every run's count (test_program). */
		if (strncmp(line, "  ", 2) != 0 ||
		    strstr(line, "(a program of its own)") != NULL)
			continue;
		snprintf(want, sizeof(want), "count: %.*s", (int)strcspn(line + 2,
		    " "), line + 2);
		cr_assert_not_null(strstr(out, want), "%s missing:\n%s", want,
		    out);
		designs++;
	}
	cr_assert_geq(checks, 2 * designs - 1, "%d designs:\n%s", designs, out);
}

/* A queue that drops one push in the stress fails, naming the item. */
Test(cli, a_plugin_that_drops_an_item_fails_verify_and_names_it,
    .timeout = 300)
{
	static char out[16384];

	setenv("DROPPING_AT", "150000", 1);
	cr_assert_eq(output_of("verify --queue " DB_PLUGIN_DROPPING
	    " --workers 2 --items 100000 2>&1", out, sizeof(out)), 1, "%s",
	    out);
	cr_assert_not_null(strstr(out, "FAIL  stress: "), "%s", out);
	cr_assert_not_null(strstr(out, "1 item never came out, the first item "),
	    "%s", out);
}

/* A sweep over a plugin records it: its name in the cells, its checksum. */
Test(cli, a_sweep_over_a_plugin_records_it, .timeout = 300)
{
	char args[512], msg[256];
	static char out[16384];
	cJSON *doc, *cells, *plugins;

	snprintf(args, sizeof(args), "run --dispatcher shared --queue lfseg,"
	    DB_PLUGIN_TWOLOCK " --workers 2 --reps 1 --warmup 0.02 --time 0.05 "
	    "--quiet --out %s", tmp("plugin.json"));
	cr_assert_eq(output_of(args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(results_read(tmp("plugin.json"), &doc, msg, sizeof(msg)),
	    0, "%s", msg);
	cells = cJSON_GetObjectItem(doc, "cells");
	cr_assert_eq(cJSON_GetArraySize(cells), 2);
	cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cells, 1),
	    "queue")->valuestring, "twolock");
	cr_assert_eq(results_num(cJSON_GetObjectItem(cJSON_GetArrayItem(cells,
	    1), "summary"), "runs_ok"), 1);
	plugins = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "context"),
	    "plugins");
	cr_assert_eq(cJSON_GetArraySize(plugins), 1);
	cr_assert_eq(strlen(cJSON_GetObjectItem(cJSON_GetArrayItem(plugins, 0),
	    "sha256")->valuestring), 64);
	cJSON_Delete(doc);
}

/*
 * pair: processes of alternating windows, one estimate each, saved as it
 * goes; the verdict's exit status is compare's.
 */
Test(cli, pair_alternates_windows_in_processes, .timeout = 300)
{
	static char out[16384], text[1 << 20];
	char args[512];
	cJSON *doc, *procs, *p, *w;
	int status, first[2] = { 0, 0 };
	FILE *f;
	size_t n;

	snprintf(args, sizeof(args), "pair --a lfseg --b vyukov --workers 2 "
	    "--processes 6 --pairs 4 --warmup 0.01 --time 0.02 --out %s "
	    "2>/dev/null", tmp("pair.json"));
	status = output_of(args, out, sizeof(out));
	cr_assert(strstr(out, "verdict: ") != NULL, "%s", out);
	cr_assert_eq(status, strstr(out, "verdict: regressed") != NULL ? 1 : 0,
	    "%s", out);
	cr_assert_not_null(f = fopen(tmp("pair.json"), "r"));
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	cr_assert_not_null(doc = cJSON_Parse(text));
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
	procs = cJSON_GetObjectItem(doc, "processes");
	cr_assert_eq(cJSON_GetArraySize(procs), 6);
	cJSON_ArrayForEach(p, procs) {
		cr_assert(results_num(p, "ratio") > 0);
		cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(p,
		    "windows")), 8);
		/* Every pair runs both arms, and the arm that goes first alternates. */
		cJSON_ArrayForEach(w, cJSON_GetObjectItem(p, "windows"))
			if (results_num(w, "position") == 0)
				first[strcmp(results_str(w, "arm", "?"), "b") == 0]++;
	}
	cr_assert_eq(first[0], 12);
	cr_assert_eq(first[1], 12);
	cJSON_Delete(doc);
}

/*
 * pair writes its windows only where --out says: it once wrote them over
 * run's default results file. ab refuses --precision: a cell stopped
 * early in one build would leave its runs unpaired.
 */
Test(cli, pair_and_ab_keep_to_their_own_files, .timeout = 300)
{
	char args[512], err[1024];
	struct stat st;

	cr_assert_eq(mkdir(tmp("results"), 0755), 0);
	snprintf(args, sizeof(args), "cd %s && %s pair --a lfseg --b vyukov "
	    "--workers 2 --processes 6 --pairs 2 --warmup 0.01 --time 0.02 "
	    ">/dev/null 2>&1", tmp(""), DB_BINARY);
	cr_assert_neq(system(args), -1);
	cr_assert_neq(stat(tmp("results/sweep.json"), &st), 0,
	    "pair wrote run's results file");
	snprintf(args, sizeof(args), "ab --a %s --b %s --precision 5",
	    DB_BINARY, DB_BINARY);
	cr_assert_eq(run(args, err, sizeof(err)), 2, "%s", err);
	cr_assert_not_null(strstr(err, "--precision: ab runs every cell"),
	    "%s", err);
	cr_assert_eq(lines_of(err), 1, "%s", err);
}

/* A candidate that loses a task in any window is broken: exit 1. */
Test(cli, pair_calls_a_candidate_that_drops_broken, .timeout = 300)
{
	static char out[16384];
	char args[512];

	setenv("DROPPING_AT", "5000", 1);
	snprintf(args, sizeof(args), "pair --a mutex --b " DB_PLUGIN_DROPPING
	    " --workers 2 --processes 6 --pairs 2 --warmup 0.01 --time 0.05 "
	    "--out %s 2>&1", tmp("broken-pair.json"));
	cr_assert_eq(output_of(args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "verdict: broken"), "%s", out);
	cr_assert_not_null(strstr(out, "a dispatch was lost"), "%s", out);
}

Test(cli, export_writes_csv_markdown_and_json_rows)
{
	const char *file = write_runs("runs.json", true);
	char out[16384], args[256];
	cJSON *rows;

	snprintf(args, sizeof(args), "export %s --format csv", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	cr_assert_eq(lines_of(out), 3, "a header and a row per cell:\n%s", out);
	cr_assert(strncmp(out, "dispatcher,queue,workers,coroutines,workload,"
	    "runs_ok,runs,runs_starving,cpu_us_per_dispatch,", 80) == 0, "%s",
	    out);
	cr_assert_not_null(strstr(out, "\nshared,lfseg,8,64,resume,3,4,1,0.5,"),
	    "%s", out);
	cr_assert_not_null(strstr(out, "\nshared,lfseg,inf,64,resume,3,4,0,0.5,"),
	    "%s", out);
	snprintf(args, sizeof(args), "export %s --format markdown", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	cr_assert_eq(lines_of(out), 4, "%s", out);
	cr_assert_not_null(strstr(out, "\n|---|"), "%s", out);
	snprintf(args, sizeof(args), "export %s --format json", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	rows = cJSON_Parse(out);
	cr_assert(cJSON_IsArray(rows) && cJSON_GetArraySize(rows) == 2, "%s",
	    out);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0),
	    "latency_p99_us")), "a figure no run has is null");
	cJSON_Delete(rows);
	/* The table: starved as the runs that starved, of the ok runs. */
	snprintf(args, sizeof(args), "export %s", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "    1/3 "), "%s", out);
}

/* A cell of write_harness: its design, its cost and its bare loop. */
static size_t
harness_cell(char *text, size_t len, const char *design, double cpu,
    double bare)
{

	return (size_t)snprintf(text, len, "{\"dispatcher\": \"%s\", "
	    "\"queue\": \"lfseg\", \"workers\": 1, \"coroutines\": 64, "
	    "\"workload\": \"resume\", \"summary\": {\"runs\": 1, "
	    "\"runs_ok\": 1, \"cpu_us_per_dispatch\": {\"median\": %g, "
	    "\"min\": %g, \"max\": %g}, \"bare_loop_us_per_dispatch\": "
	    "{\"median\": %g, \"min\": %g, \"max\": %g}}, \"runs\": "
	    "[{\"status\": \"ok\", \"cpu_us_per_dispatch\": %g, "
	    "\"bare_loop_us_per_dispatch\": %g}]}", design, cpu, cpu, cpu, bare,
	    bare, bare, cpu, bare);
}

/*
 * Every table a person reads ends with the bare loop, the median of the
 * cells' (0.0018 and 0.0020: 0.0019), and the text says what the harness
 * itself costs: inline's 0.003 over it, 1.58x. Programs get each cell's
 * own bare loop as a column.
 */
Test(cli, export_states_the_harness_cost_beside_the_designs)
{
	const char *file = tmp("harness.json");
	char text[2048], out[16384], args[256];
	cJSON *rows;
	size_t used;

	used = (size_t)snprintf(text, sizeof(text), "{\"context\": "
	    "{\"schema\": 1}, \"cells\": [");
	used += harness_cell(text + used, sizeof(text) - used, "inline", 0.003,
	    0.0020);
	used += (size_t)snprintf(text + used, sizeof(text) - used, ", ");
	used += harness_cell(text + used, sizeof(text) - used, "shared", 0.5,
	    0.0018);
	snprintf(text + used, sizeof(text) - used, "]}");
	write_file(file, text);
	snprintf(args, sizeof(args), "export %s", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	cr_assert_not_null(strstr(out, "\nbare loop "), "%s", out);
	cr_assert_not_null(strstr(out, "  0.00190  "), "%s", out);
	cr_assert_not_null(strstr(out, "\nthe harness's own cost: inline "
	    "0.00300 µs a dispatch is 1.58× the bare loop's 0.00190 "), "%s",
	    out);
	snprintf(args, sizeof(args), "export %s --format csv", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	cr_assert_eq(lines_of(out), 3, "no reference row for programs:\n%s",
	    out);
	snprintf(args, sizeof(args), "export %s --format json", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	rows = cJSON_Parse(out);
	cr_assert(cJSON_IsArray(rows) && cJSON_GetArraySize(rows) == 2, "%s",
	    out);
	cr_assert_float_eq(results_num(cJSON_GetArrayItem(rows, 0),
	    "bare_loop_us_per_dispatch"), 0.0020, 1e-12, "%s", out);
	cr_assert_float_eq(results_num(cJSON_GetArrayItem(rows, 1),
	    "bare_loop_us_per_dispatch"), 0.0018, 1e-12, "%s", out);
	cJSON_Delete(rows);
}

/* Every key of an entry of google-benchmark's own output, same JSON type. */
static void
same_shape(const cJSON *ours, const cJSON *ref, const char *what)
{
	const cJSON *f, *o;

	cJSON_ArrayForEach(f, ref) {
		if (strcmp(f->string, "ops_per_s") == 0)
			continue;	/* the reference's own counter */
		o = cJSON_GetObjectItemCaseSensitive(ours, f->string);
		cr_assert_not_null(o, "%s: no \"%s\"", what, f->string);
		cr_assert_eq(o->type & 0xff, f->type & 0xff, "%s: \"%s\" has "
		    "another JSON type", what, f->string);
	}
}

static const cJSON *
first_of(const cJSON *benchmarks, const char *run_type)
{
	const cJSON *b;

	cJSON_ArrayForEach(b, benchmarks)
		if (strcmp(cJSON_GetObjectItem(b, "run_type")->valuestring,
		    run_type) == 0)
			return b;
	return NULL;
}

/*
 * The gbench export has the shape of google-benchmark's JSON reporter (a
 * file libbenchmark 1.7.1 wrote, tests/data), and its own compare.py
 * reads two of them.
 */
Test(cli, export_gbench_reads_as_google_benchmark, .timeout = 120)
{
	static char out[65536], ref_text[16384];
	cJSON *ours, *ref;
	const cJSON *b;
	FILE *f;
	size_t n;
	int k = 0;

	const char *file = write_runs("runs.json", true);
	char args[512];

	snprintf(args, sizeof(args), "export %s --format gbench", file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	f = fopen(DB_TEST_DATA "/gbench-reference.json", "r");
	cr_assert_not_null(f);
	n = fread(ref_text, 1, sizeof(ref_text) - 1, f);
	ref_text[n] = '\0';
	fclose(f);
	ours = cJSON_Parse(out);
	ref = cJSON_Parse(ref_text);
	cr_assert(ours != NULL && ref != NULL);
	/* Left out when not measured: no governor on a VM, no cache list. */
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(ref, "context"),
	    "cpu_scaling_enabled");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(ref, "context"),
	    "caches");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(ref, "context"),
	    "load_avg");
	same_shape(cJSON_GetObjectItem(ours, "context"),
	    cJSON_GetObjectItem(ref, "context"), "context");
	cr_assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(ours, "context"),
	    "cpu_scaling_enabled"), "no governor was read: not said");
	cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(ours,
	    "context"), "library_build_type")->valuestring, "release");
	cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(ours, "context"),
	    "mhz_per_cpu")->valuedouble, 2994.4);
	same_shape(first_of(cJSON_GetObjectItem(ours, "benchmarks"),
	    "iteration"), first_of(cJSON_GetObjectItem(ref, "benchmarks"),
	    "iteration"), "iteration");
	same_shape(first_of(cJSON_GetObjectItem(ours, "benchmarks"),
	    "aggregate"), first_of(cJSON_GetObjectItem(ref, "benchmarks"),
	    "aggregate"), "aggregate");
	/* 2 cells x (3 ok runs + mean, median, stddev, cv). */
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(ours, "benchmarks"))
		k++;
	cr_assert_eq(k, 14);
	b = first_of(cJSON_GetObjectItem(ours, "benchmarks"), "iteration");
	cr_assert_float_eq(cJSON_GetObjectItem(b, "cpu_time")->valuedouble,
	    400.0, 1e-9, "ns of CPU per dispatch");
	cr_assert_eq(cJSON_GetObjectItem(b, "threads")->valuedouble, 10,
	    "the run's peak thread count");
	cJSON_Delete(ours);
	cJSON_Delete(ref);
	f = fopen(tmp("gbench.json"), "w");
	fputs(out, f);
	fclose(f);
	snprintf(args, sizeof(args), "/usr/bin/python3 /usr/share/benchmark/"
	    "compare.py benchmarks %s %s >%s 2>&1", tmp("gbench.json"),
	    tmp("gbench.json"), tmp("gbench.txt"));
	cr_assert_eq(system(args), 0, "google-benchmark's compare.py "
	    "(apt-get install libbenchmark-tools python3-scipy) could not "
	    "read the export");
}

/* The gbench entry of name, or NULL. */
static const cJSON *
gbench_entry(const cJSON *doc, const char *name)
{
	const cJSON *b;

	cJSON_ArrayForEach(b, cJSON_GetObjectItem(doc, "benchmarks"))
		if (strcmp(cJSON_GetObjectItem(b, "name")->valuestring, name) == 0)
			return b;
	return NULL;
}

/*
 * google-benchmark's aggregates over a cell's ok runs, as its reporter
 * writes them: a skewed cell (CPU 100, 200, 600 ns a dispatch; wall 300,
 * 400, 800; 4, 10, 11 threads; 1000, 2000, 6000 ops/s) keeps the mean,
 * the median, the sample standard deviation and the cv apart. The failed
 * run, whose figures are far off, is in none of them.
 */
Test(cli, export_gbench_aggregates_are_the_ok_runs)
{
	static char out[1 << 16];
	static const char *const aggs[] = { "mean", "median", "stddev", "cv" };
	/* mean, median, stddev, cv of each figure above. */
	static const double cpu[] = { 300, 200, 264.57513110645906,
	    0.88191710368819687 };
	static const double real[] = { 500, 400, 264.57513110645906,
	    0.52915026221291811 };
	static const double ops[] = { 3000, 2000, 2645.7513110645906,
	    0.88191710368819687 };
	const char *name = "shared/lfseg/workers:2/coroutines:64/resume";
	const cJSON *b;
	char args[512], agg[128], text[2048];
	cJSON *doc;
	int a;

	snprintf(text, sizeof(text), "{\"context\": {\"schema\": 1}, "
	    "\"cells\": [{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", "
	    "\"workers\": 2, \"coroutines\": 64, \"workload\": \"resume\", "
	    "\"summary\": {\"runs\": 4, \"runs_ok\": 3, \"cpu_us_per_dispatch\": "
	    "{\"median\": 0.2, \"min\": 0.1, \"max\": 0.6, \"cv\": 0.9}}, "
	    "\"runs\": ["
	    "{\"status\": \"ok\", \"dispatches\": 1000000, \"wall_s\": 0.3, "
	    "\"cpu_s\": 0.1, \"threads_peak\": 4, \"ops_per_s\": 1000}, "
	    "{\"status\": \"failed\", \"error\": \"count check\", "
	    "\"dispatches\": 1000000, \"wall_s\": 90, \"cpu_s\": 90, "
	    "\"threads_peak\": 90, \"ops_per_s\": 90}, "
	    "{\"status\": \"ok\", \"dispatches\": 1000000, \"wall_s\": 0.8, "
	    "\"cpu_s\": 0.6, \"threads_peak\": 11, \"ops_per_s\": 6000}, "
	    "{\"status\": \"ok\", \"dispatches\": 1000000, \"wall_s\": 0.4, "
	    "\"cpu_s\": 0.2, \"threads_peak\": 10, \"ops_per_s\": 2000}]}]}");
	write_file(tmp("skewed.json"), text);
	snprintf(args, sizeof(args), "export %s --format gbench",
	    tmp("skewed.json"));
	cr_assert_eq(output_of(args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(doc = cJSON_Parse(out), "%s", out);
	for (a = 0; a < 4; a++) {
		snprintf(agg, sizeof(agg), "%s_%s", name, aggs[a]);
		cr_assert_not_null(b = gbench_entry(doc, agg), "no %s", agg);
		cr_assert_str_eq(field_text(b, "run_type"), "aggregate");
		cr_assert_str_eq(field_text(b, "run_name"), name);
		cr_assert_str_eq(field_text(b, "aggregate_name"), aggs[a]);
		cr_assert_str_eq(field_text(b, "aggregate_unit"), a == 3 ?
		    "percentage" : "time", "%s", agg);
		cr_assert_eq(field_number(b, "repetitions"), 3, "%s", agg);
		cr_assert_eq(field_number(b, "iterations"), 3, "%s", agg);
		cr_assert_eq(field_number(b, "threads"), 10, "%s: the median",
		    agg);
		cr_assert_str_eq(field_text(b, "time_unit"), "ns");
		cr_assert_float_eq(field_number(b, "cpu_time"), cpu[a],
		    1e-6 * cpu[a], "%s cpu_time %g", agg, field_number(b,
		    "cpu_time"));
		cr_assert_float_eq(field_number(b, "real_time"), real[a],
		    1e-6 * real[a], "%s real_time %g", agg, field_number(b,
		    "real_time"));
		cr_assert_float_eq(field_number(b, "ops_per_s"), ops[a],
		    1e-6 * ops[a], "%s ops_per_s %g", agg, field_number(b,
		    "ops_per_s"));
	}
	cJSON_Delete(doc);
}

/*
 * compare: CSV rows (RFC 4180: quoted where a field needs it), the ratio
 * picture with its band; a file whose runs failed is broken against itself, exit 1.
 */
Test(cli, compare_writes_csv_and_a_ratio_plot, .timeout = 60)
{
	const char *file = write_runs("runs.json", false);
	char out[16384], args[512];

	/* Three runs a side cannot pass Holm over two cells: undecided, 3. */
	snprintf(args, sizeof(args), "compare %s %s --allow-other-machine "
	    "--format csv --plot %s", file, file, tmp_dir);
	cr_assert_eq(output_of(args, out, sizeof(out)), EXIT_UNDECIDED, "%s",
	    out);
	cr_assert_not_null(strstr(out, ",undecided"), "%s", out);
	snprintf(args, sizeof(args), "compare %s %s --allow-other-machine "
	    "--format csv --accept-undecided --plot %s", file, file, tmp_dir);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0);
	cr_assert_eq(lines_of(out), 3, "%s", out);
	cr_assert(strncmp(out, "cell,runs_base,runs_new,", 24) == 0, "%s", out);
	cr_assert_not_null(strstr(out, "\nshared/lfseg w=8 c=64 "), "%s", out);
	cr_assert_eq(access(tmp("ratio.png"), R_OK), 0);
	cr_assert_eq(access(tmp("ratio.svg"), R_OK), 0);
	file = write_runs("failed.json", true);
	snprintf(args, sizeof(args), "compare %s %s --allow-other-machine "
	    "--format csv", file, file);
	cr_assert_eq(output_of(args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, ",broken,"), "%s", out);
}

/*
 * With a machine format, stdout holds that format alone: a sweep's JSON
 * rows and google-benchmark's JSON parse as they are.
 */
Test(cli, machine_formats_are_alone_on_stdout, .timeout = 120)
{
	static char out[1 << 16];
	static const char *const formats[] = { "json", "gbench" };
	char args[512];
	cJSON *j;
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "run --dispatcher inline,shared "
		    "--workers 2 --reps 2 --warmup 0 --time 0.02 --format %s "
		    "--out %s 2>/dev/null", formats[i], tmp("sweep.json"));
		cr_assert_eq(output_of(args, out, sizeof(out)), 0);
		cr_assert_not_null(j = cJSON_Parse(out), "%s: %s", formats[i],
		    out);
		cJSON_Delete(j);
	}
}

/*
 * An arm whose runs print ok but exit non-zero (a sanitizer's report
 * after the result) failed them: `ab` calls it broken and exits 1, and its
 * stdout is the comparison's JSON alone.
 */
Test(cli, ab_calls_an_arm_that_exits_non_zero_broken, .timeout = 120)
{
	static char out[1 << 16];
	char args[1024];
	const cJSON *row;
	cJSON *rows;
	FILE *f = fopen(tmp("arm.sh"), "w");

	cr_assert_not_null(f);
	fputs("#!/bin/sh\necho '{\"status\": \"ok\", \"cpu_us_per_dispatch\": "
	    "0.5, \"dispatches\": 1000, \"wall_s\": 0.1, \"cpu_s\": 0.0005}'\n"
	    "exit 66\n", f);
	fclose(f);
	chmod(tmp("arm.sh"), 0755);
	snprintf(args, sizeof(args), "ab --a %s --b %s --dispatcher shared "
	    "--workers 2 --reps 4 --warmup 0 --time 0.02 --format json --out %s "
	    "2>/dev/null", DB_BINARY, tmp("arm.sh"), tmp("ab.json"));
	cr_assert_eq(output_of(args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(rows = cJSON_Parse(out), "%s", out);
	row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(results_str(row, "verdict", ""), "broken");
	cr_assert_str_eq(results_str(cJSON_GetObjectItem(row, "new_runs"),
	    "errors", ""), "failed: exit 66");
	cJSON_Delete(rows);
}

/* `ab --budget`: rounds until decided, then the sequential verdicts. */
Test(cli, ab_with_a_budget_decides_sequentially, .timeout = 180)
{
	static char out[1 << 16];
	char args[1024];
	cJSON *rows;

	snprintf(args, sizeof(args), "ab --a %s --b '%s --payload-ns 20000' "
	    "--dispatcher inline --reps 4 --warmup 0 --time 0.02 --budget 20s "
	    "--format json --out %s 2>/dev/null", DB_BINARY, DB_BINARY,
	    tmp("ab.json"));
	cr_assert_eq(output_of(args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(rows = cJSON_Parse(out), "%s", out);
	cr_assert_str_eq(results_str(cJSON_GetArrayItem(rows, 0), "verdict",
	    ""), "regressed");
	cr_assert_str_eq(results_str(cJSON_GetArrayItem(rows, 0), "correction",
	    ""), "sequential");
	cJSON_Delete(rows);
}

/*
 * The HTML report, loaded by headless Chromium from a file with no network:
 * the context and summary tables and the inlined figures are in the page
 * it renders, and nothing is fetched from elsewhere.
 */
Test(cli, report_opens_in_a_browser_with_its_tables_and_figures,
    .timeout = 180)
{
	static char dom[1 << 20];
	char err[4096], *summary;
	size_t n;
	FILE *p;

	const char *file = write_runs("runs.json", true);
	char args[512];

	snprintf(args, sizeof(args), "report %s -o %s", file,
	    tmp("report.html"));
	cr_assert_eq(run(args, err, sizeof(err)), 0, "%s", err);
	snprintf(args, sizeof(args), "chromium --headless --no-sandbox "
	    "--disable-gpu --dump-dom file://%s 2>/dev/null", tmp("report.html"));
	p = popen(args, "r");
	cr_assert_not_null(p);
	n = fread(dom, 1, sizeof(dom) - 1, p);
	dom[n] = '\0';
	cr_assert_eq(pclose(p), 0, "chromium (apt-get install chromium) could "
	    "not load the report");
	cr_assert_not_null(strstr(dom, "<table id=\"context\">"), "%.400s", dom);
	cr_assert_not_null(strstr(dom, "<table id=\"summary\">"));
	/* A header and a row per cell. */
	summary = strstr(dom, "<table id=\"summary\">");
	*strstr(summary, "</table>") = '\0';
	cr_assert_eq(count_of(summary, "<tr>"), 3, "%s", summary);
	summary[strlen(summary)] = '<';
	cr_assert(count_of(dom, "<svg") >= 1, "no figure in the page");
	cr_assert_null(strstr(dom, "src=\"http"), "the page fetches something");
	cr_assert_null(strstr(dom, "href=\"http"), "the page links out");
}

/*
 * With --counters, a run counts the kernel's software events over its
 * window, every thread included, or its results say why not; the hardware
 * ones come only with a PMU, and a sweep says once, on stderr, why they
 * did not. Without, nothing is counted.
 */
Test(cli, a_run_counts_software_events_or_says_why, .timeout = 120)
{
	static char out[65536];
	const cJSON *ev, *absent, *r;
	char args[512], err[4096], msg[512];
	cJSON *doc;
	int status;

	snprintf(args, sizeof(args), "run --dispatcher shared --workers 2 "
	    "--counters default --warmup 0.02 --time 0.1 --reps 1 --out %s",
	    tmp("perf.json"));
	status = run(args, err, sizeof(err));
	cr_assert_eq(status, 0, "exited %d: %s", status, err);
	cr_assert_eq(results_read(tmp("perf.json"), &doc, msg, sizeof(msg)), 0,
	    "%s", msg);
	ev = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc,
	    "context"), "counters"), "events");
	absent = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    doc, "context"), "counters"), "absent");
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(doc, "cells"), 0), "runs"), 0);
	if (cJSON_GetArraySize(ev) == 0) {
		cr_assert(cJSON_IsString(absent), "no events and no reason");
		cr_assert_not_null(strstr(err, absent->valuestring), "%s", err);
		cr_log_info("no counters here: %s", absent->valuestring);
	} else {
		/* Two workers park and wake: they switch, and it is seen. */
		cr_assert_gt(results_num(r,
		    "perf_context_switches_per_dispatch"), 0);
		cr_assert(isfinite(results_num(r,
		    "perf_task_clock_ns_per_dispatch")));
		cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(r,
		    "perf"), "cpu_migrations"));
		cr_assert(cJSON_IsBool(cJSON_GetObjectItem(r,
		    "perf_multiplexed")));
	}
	if (cJSON_IsString(absent))
		cr_assert_eq(count_of(err, absent->valuestring), 1,
		    "said once: %s", err);
	if (cJSON_IsString(absent) && strstr(absent->valuestring,
	    "no hardware") != NULL)
		cr_assert(!isfinite(results_num(r, "perf_cycles_per_dispatch")),
		    "cycles without a PMU");
	cJSON_Delete(doc);
	cr_assert_eq(output_of("cell --dispatcher inline --warmup 0 --time "
	    "0.02", out, sizeof(out)), 0, "%s", out);
	cr_assert_null(strstr(out, "perf_"), "counted by default: %s", out);
}

/* plan prints the PU of each thread, computed without running. */
Test(cli, plan_prints_where_each_thread_runs)
{
	static char out[65536];

	cr_assert_eq(output_of("plan --topology 'pack:2 numa:2 core:16 pu:2' "
	    "--pin spread-numa --workers 6 --format csv", out, sizeof(out)), 0,
	    "%s", out);
	cr_assert_str_eq(out, "thread,pu,os_index,core,numa,package\n"
	    "0,0,0,0,0,0\n1,32,32,16,1,0\n2,64,64,32,2,1\n3,96,96,48,3,1\n"
	    "4,2,2,1,0,0\n5,34,34,17,1,0\n");
	cr_assert_eq(output_of("plan --topology " DB_TEST_DATA
	    "/xeon-e5-2650-2s.xml --pin core --workers 3 --format csv", out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_str_eq(out, "thread,pu,os_index,core,numa,package\n"
	    "0,0,0,0,0,0\n1,2,1,1,0,0\n2,4,2,2,0,0\n");
}

/*
 * matrix: every ordered pair of PUs once, each with what it shares and
 * both figures; a queue that drops an item fails it, and says where.
 */
Test(cli, matrix_measures_every_pair, .timeout = 300)
{
	static char out[65536];
	unsigned int n = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	char args[512];
	const cJSON *row;
	cJSON *rows;
	int pairs = 0;

	n = n > 4 ? 4 : n;
	snprintf(args, sizeof(args), "matrix --cpuset 0-%u --rounds 2000 "
	    "--reps 3 --format json", n - 1);
	cr_assert_eq(output_of(args, out, sizeof(out)), 0, "%s", out);
	rows = cJSON_Parse(out);
	cr_assert_not_null(rows, "%s", out);
	cJSON_ArrayForEach(row, rows) {
		cr_assert_gt(results_num(row, "line_ns"), 0);
		cr_assert_gt(results_num(row, "queue_ns"), 0);
		if (results_num(row, "from") == results_num(row, "to"))
			cr_assert_str_eq(results_str(row, "shares", ""), "PU");
		else
			cr_assert_str_neq(results_str(row, "shares", ""), "PU");
		pairs++;
	}
	cr_assert_eq(pairs, (int)(n * n));
	cJSON_Delete(rows);
	setenv("DROPPING_AT", "500", 1);
	cr_assert_eq(output_of("matrix --queue " DB_PLUGIN_DROPPING
	    " --rounds 2000 --reps 1 --cpuset 0 2>&1", out, sizeof(out)), 1,
	    "%s", out);
	unsetenv("DROPPING_AT");
	cr_assert_not_null(strstr(out, "did not give back the item pushed"),
	    "%s", out);
}

/*
 * --host quiet: each run waits, at most a minute, for the machine to go
 * quiet and records how long; every summary counts the runs that stalled
 * and those the machine's other load shared.
 */
Test(cli, host_quiet_waits_and_summaries_count_busy_runs, .timeout = 200)
{
	char args[512], msg[256];
	static char out[16384];
	const cJSON *run, *summary;
	cJSON *doc;

	snprintf(args, sizeof(args), "run --dispatcher inline --reps 1 "
	    "--warmup 0 --time 0.05 --host quiet --quiet --out %s",
	    tmp("quiet.json"));
	cr_assert_eq(output_of(args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(results_read(tmp("quiet.json"), &doc, msg, sizeof(msg)),
	    0, "%s", msg);
	run = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(doc, "cells"), 0), "runs"), 0);
	cr_assert(results_num(run, "host_wait_s") >= 0.5 &&
	    results_num(run, "host_wait_s") < 61, "%g",
	    results_num(run, "host_wait_s"));
	cr_assert(cJSON_IsBool(cJSON_GetObjectItem(run, "host_busy")));
	summary = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
	    doc, "cells"), 0), "summary");
	cr_assert_eq(results_num(summary, "runs_stalled"), 0);
	cr_assert_eq(results_num(summary, "runs_host_busy"), cJSON_IsTrue(
	    cJSON_GetObjectItem(run, "host_busy")));
	cJSON_Delete(doc);
}

/*
 * A stalled window lost nothing: the sweep goes on, exits 0, and says so
 * once at its end (one coroutine asleep 2 s through a 0.1 s window).
 */
Test(cli, a_stalled_window_is_said_not_failed, .timeout = 120)
{
	char args[512];
	static char err[16384];

	snprintf(args, sizeof(args), "run --dispatcher shared --workers 1 "
	    "--coroutines 1 --workload sleep:2000:1 --reps 1 --warmup 0.05 "
	    "--time 0.1 --out %s", tmp("stalled.json"));
	cr_assert_eq(run(args, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(strstr(err, "1 of 1 runs stalled (no dispatch in "
	    "the window): no statistic takes them"), "%s", err);
}

/* Runs the binary from folder dir, as run does from the tests' own. */
static int
run_in(const char *dir, const char *args, char *err, size_t len)
{
	const char *path = tmp("stderr-in.txt");
	char cmd[2048];
	int status;
	FILE *f;
	size_t n;

	snprintf(cmd, sizeof(cmd), "cd '%s' && %s %s >/dev/null 2>%s", dir,
	    DB_BINARY, args, path);
	status = system(cmd);
	f = fopen(path, "r");
	n = fread(err, 1, len - 1, f);
	err[n] = '\0';
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * From a folder that is not the source tree, each default output is
 * there, under results/ (from the source tree, test_sweep: under build/).
 */
Test(cli, default_outputs_land_in_the_current_folder, .timeout = 300)
{
	static const char *const files[] = { "results/sweep.json",
	    "results/sweep-a.json", "results/sweep-b.json",
	    "results/advise.json" };
	char dir[256], path[512], err[8192], msg[512];
	cJSON *doc;
	size_t i;

	snprintf(dir, sizeof(dir), "%s", tmp("elsewhere"));
	cr_assert_eq(mkdir(dir, 0777), 0);
	cr_assert_eq(run_in(dir, "run --dispatcher inline --reps 1 --warmup 0 "
	    "--time 0.02", err, sizeof(err)), 0, "%s", err);
	/*
	 * Two of one binary: no cell regresses but by chance (exit 1). Its
	 * arms run alike, every repetition, though run's cells may stop early.
	 */
	cr_assert_leq(run_in(dir, "ab --a " DB_BINARY " --b " DB_BINARY
	    " --dispatcher inline --warmup 0 --time 0.02 --accept-undecided",
	    err, sizeof(err)), 1, "%s", err);
	cr_assert_eq(run_in(dir, "advise --workers 1,2 --reps 1 --warmup 0 "
	    "--time 0.02", err, sizeof(err)), 0, "%s", err);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		cr_assert_eq(access(path, R_OK), 0, "no %s", path);
	}
	for (i = 1; i <= 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		cr_assert_eq(results_read(path, &doc, msg, sizeof(msg)), 0, "%s",
		    msg);
		cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(
		    cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "cells"), 0),
		    "runs")), 6, "%s", files[i]);
		cr_assert_eq(results_num(doc, "reps_min"), 6);
		cJSON_Delete(doc);
	}
}

/* A results file made deeper than one missing folder is made all the same. */
Test(cli, a_results_file_gets_every_folder_it_needs, .timeout = 60)
{
	char args[512], err[4096];

	snprintf(args, sizeof(args), "run --dispatcher inline --reps 1 "
	    "--warmup 0 --time 0.02 --out %s", tmp("a/b/sweep.json"));
	cr_assert_eq(run(args, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(access(tmp("a/b/sweep.json"), R_OK), 0);
}

/* The one cell of a sweep of inline with these options, and its doc. */
static const cJSON *
stop_of(const char *options, cJSON **doc)
{
	char args[512], err[8192], msg[512];

	snprintf(args, sizeof(args), "run --dispatcher inline --warmup 0 "
	    "--time 0.1 %s --out %s", options, tmp("stop.json"));
	cr_assert_eq(run(args, err, sizeof(err)), 0, "%s: %s", args, err);
	cr_assert_eq(results_read(tmp("stop.json"), doc, msg, sizeof(msg)), 0,
	    "%s", msg);
	return cJSON_GetArrayItem(cJSON_GetObjectItem(*doc, "cells"), 0);
}

/* The figures of the cell's ok runs, sorted; how many. */
static size_t
stop_figures(const cJSON *cell, double *v, size_t max)
{
	const cJSON *run;
	size_t n = 0, i, j;
	double x;

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs"))
		if (n < max && strcmp(results_str(run, "status", "?"), "ok") == 0)
			v[n++] = results_num(run, "cpu_us_per_dispatch");
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--)
			x = v[j], v[j] = v[j - 1], v[j - 1] = x;
	return n;
}

/*
 * By default a cell stops once it has the runs compare needs to judge it
 * (4 for one cell: 3 a side never give a p below 0.1) and its median's
 * interval is within --precision of it, and says so; one that never gets
 * there runs --reps; --reps given alone runs exactly that many; from 7
 * runs on the interval is the median's 95 % one, not the lowest to
 * highest.
 */
Test(cli, a_cell_stops_once_its_median_is_known_within_the_precision,
    .timeout = 300)
{
	const cJSON *cell, *stop;
	double v[16];
	cJSON *doc;
	size_t n;

	/* Within a factor of 11: any three runs of a quiet machine. */
	cell = stop_of("--precision 1000", &doc);
	stop = cJSON_GetObjectItem(cell, "stop");
	cr_assert_eq(stop_figures(cell, v, 16), 4);
	cr_assert(results_true(stop, "early"));
	cr_assert_str_eq(results_str(stop, "why", "?"), "precision");
	cr_assert_eq(results_num(stop, "median_lo"), v[0]);
	cr_assert_eq(results_num(stop, "median_hi"), v[3]);
	cr_assert_float_eq(results_num(stop, "coverage"), 0.875, 1e-9);
	cr_assert_eq(results_num(doc, "reps"), 6);
	cr_assert_eq(results_num(doc, "reps_min"), 4);
	cJSON_Delete(doc);

	/* Never that close: all 6, and why (a stalled window, beside load). */
	cell = stop_of("--precision 0.0001", &doc);
	stop = cJSON_GetObjectItem(cell, "stop");
	cr_assert_eq(results_num(stop, "runs"), 6);
	cr_assert_not(results_true(stop, "early"));
	cr_assert_str_eq(results_str(stop, "why", "?"), results_num(
	    results_obj(cell, "summary"), "runs_ok") == 6 ? "reps" :
	    "run_not_ok");
	cJSON_Delete(doc);

	cell = stop_of("--reps 4", &doc);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cell, "runs")), 4);
	cr_assert_str_eq(results_str(cJSON_GetObjectItem(cell, "stop"), "why",
	    "?"), "fixed");
	cr_assert_eq(results_num(doc, "reps_min"), 4);
	cJSON_Delete(doc);

	cell = stop_of("--reps 8 --precision 1000", &doc);
	cr_assert_eq(stop_figures(cell, v, 16), 4);
	cJSON_Delete(doc);

	/* 10 runs: the 2nd and the 9th cover 97.9 %, the 3rd and 8th less. */
	cell = stop_of("--reps 10 --precision 0.0001", &doc);
	stop = cJSON_GetObjectItem(cell, "stop");
	n = stop_figures(cell, v, 16);
	cr_assert_eq(results_num(stop, "runs"), 10);
	cr_assert_eq(n, 10, "a run beside other load stalled: run again");
	cr_assert_eq(results_num(stop, "median_lo"), v[1]);
	cr_assert_eq(results_num(stop, "median_hi"), v[8]);
	cr_assert_float_eq(results_num(stop, "coverage"), 1 - 22.0 / 1024,
	    1e-9);
	cJSON_Delete(doc);
}

/*
 * Two files of one sweep can be compared cell by cell: under Holm over 7
 * cells a p must pass 0.05 / 7, which 6 runs a side can reach and 3 to 5
 * cannot, so no cell stops before 6, however close its runs; --reps of
 * fewer runs them, saying what compare will make of them.
 */
Test(cli, a_sweep_runs_what_compare_needs_to_judge_each_cell,
    .timeout = 120)
{
	char args[512], err[8192];
	const cJSON *cell;
	cJSON *doc;

	cell = stop_of("--coroutines 1..64 --precision 1000", &doc);
	cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "cells")), 7);
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cell,
		    "runs")), 6);
	cr_assert_eq(results_num(doc, "reps_min"), 6);
	cJSON_Delete(doc);
	snprintf(args, sizeof(args), "run --dispatcher inline --coroutines "
	    "1..64 --warmup 0 --time 0.02 --reps 3 --out %s",
	    tmp("judged.json"));
	cr_assert_eq(run(args, err, sizeof(err)), 0, "%s", err);
	cr_assert(strstr(err, "note: --reps 3: compare of two such files can "
	    "decide none of their 7 cells (a p must pass 0.0071, which 6 runs "
	    "a side can reach)\n") != NULL, "%s", err);
}

/* Whether v is of the list's type (a number: or null, as a lost count). */
static bool
of_type(const cJSON *v, enum rf_type type)
{

	switch (type) {
	case RF_NUMBER:
		return cJSON_IsNumber(v) || cJSON_IsNull(v);
	case RF_STRING:
		return cJSON_IsString(v);
	case RF_BOOL:
		return cJSON_IsBool(v);
	case RF_OBJECT:
		return cJSON_IsObject(v);
	case RF_ARRAY:
		return cJSON_IsArray(v);
	}
	return false;
}

/*
 * A run writes each field by the list (bench/fields/runfields.h), of its
 * type, or a counter's by its name: the list the readers and the schema
 * are checked against is the one the writer keeps.
 */
Test(cli, a_run_writes_only_the_fields_the_list_names)
{
	static const char *const cells[] = {
		"cell --dispatcher stealing --workers 2",
		"cell --dispatcher shared --workers 2 --workload sleep:1:0.5",
		"cell --dispatcher eventloop --workers 2 --workload request",
	};
	static char out[1 << 16];
	const struct rf_field *rf;
	char cmd[256];
	const cJSON *f;
	cJSON *run;
	size_t i;

	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s --warmup 0 --time 0.05",
		    cells[i]);
		cr_assert_eq(output_of(cmd, out, sizeof(out)), 0, "%s", out);
		cr_assert_not_null(run = cJSON_Parse(out), "%s: %s", cmd, out);
		cJSON_ArrayForEach(f, run) {
			rf = rf_find(f->string);
			cr_assert(rf != NULL || params_counter(f->string), "%s "
			    "wrote `%s`, which the list does not name", cmd,
			    f->string);
			if (rf != NULL)
				cr_assert(of_type(f, rf->type), "%s wrote `%s` "
				    "as other than %s", cmd, f->string,
				    rf_type_name(rf->type));
		}
		cJSON_Delete(run);
	}
}

/*
 * fields prints the list the suite reads and writes a run by: every field
 * once, with its type, unit and better side.
 */
Test(cli, fields_prints_every_run_field_with_its_unit_and_side)
{
	static char out[1 << 16];
	char line[256];
	size_t i;

	cr_assert_eq(output_of("fields --format csv", out, sizeof(out)), 0,
	    "%s", out);
	cr_assert_eq(strncmp(out, "key,type,unit,better,from\n", 26), 0, "%s",
	    out);
	cr_assert_not_null(strstr(out, "\ncpu_us_per_dispatch,a number,µs,"
	    "lower,"), "%s", out);
	cr_assert_not_null(strstr(out, "\nops_per_s,a number,ops/s,higher,"),
	    "%s", out);
	for (i = 0; i < RF_NFIELDS; i++) {
		snprintf(line, sizeof(line), "\n%s,%s,", rf_fields[i].key,
		    rf_type_name(rf_fields[i].type));
		cr_assert_not_null(strstr(out, line), "no row %s", line + 1);
	}
}
