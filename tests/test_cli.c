/*
 * test_cli.c - bad input gets one clear line on stderr and exit status 2,
 * and a tiny real sweep writes a results file `plot` can read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "results.h"

/* Plain arrays: parameters are copied into each test's own process. */
struct bad_case {
	char args[80];
	char says[32];		/* words the one line must contain */
};

static struct bad_case bad_cases[] = {
	{ "run --dispatcher nosuch", "unknown dispatcher" },
	{ "run --queue nosuch", "unknown queue" },
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
	{ "run --wake sometimes", "every or lazy" },
	{ "run --spins -1", "not a number" },
	{ "run --bogus 1", "unknown option" },
	{ "run --reps", "needs a value" },
	{ "run --dispatcher shared --workers inf", "no cell" },
	{ "plot /nonexistent.json", "cannot read" },
	{ "plot @TRUNCATED", "not valid JSON" },
	{ "plot @NOTRESULTS", "not a results file" },
	{ "plot @NEWER", "newer" },
	{ "frobnicate", "unknown command" },
	{ "compare @TRUNCATED @NOTRESULTS", "not valid JSON" },
	{ "compare /nonexistent.json @CELLA", "cannot read" },
	{ "compare @NEWER @NEWER", "newer" },
	{ "compare @CELLA @CELLB", "no cell" },
	{ "compare @CELLA @MACHINEB", "different machines" },
	{ "compare @CELLA", "usage" },
	{ "compare @CELLA @CELLA --threshold 0", "positive" },
	{ "compare @CELLA @CELLA --format html", "table, markdown" },
	{ "ab --a /nonexistent --b /nonexistent", "not an executable" },
	{ "ab --dispatcher shared", "needs --a" },
	{ "run --workload nap:5:0.1", "not resume" },
	{ "run --workload sleep:5", "not resume" },
	{ "run --workload sleep:0:0.1", "0 < MS" },
	{ "run --workload spin:5:1.5", "SHARE <= 1" },
	{ "run --workload resume,", "comma-separated" },
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
	{ "advise --from @CELLA --blocking 5:0.1", "no shared" },
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
	char cmd[1024], path[] = "/tmp/dbtest.XXXXXX";
	int fd = mkstemp(path), status;
	FILE *f;
	size_t n;

	close(fd);
	snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>%s", DB_BINARY, args,
	    path);
	status = system(cmd);
	f = fopen(path, "r");
	n = fread(err, 1, len - 1, f);
	err[n] = '\0';
	fclose(f);
	unlink(path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every @NAME becomes the made-up results file /tmp/dbtest-NAME.json. */
static void
expand(const char *args, char *out, size_t len)
{
	size_t used = 0, k;

	while (*args != '\0' && used + 1 < len) {
		if (*args != '@') {
			out[used++] = *args++;
			continue;
		}
		k = strcspn(++args, " ");
		used += (size_t)snprintf(out + used, len - used,
		    "/tmp/dbtest-%.*s.json", (int)k, args);
		args += k;
	}
	out[used < len ? used : len - 1] = '\0';
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

	write_file("/tmp/dbtest-TRUNCATED.json", "{\"context\": {\"schema\": 1");
	write_file("/tmp/dbtest-NOTRESULTS.json", "[1, 2, 3]");
	write_file("/tmp/dbtest-NEWER.json",
	    "{\"context\": {\"schema\": 999}, \"cells\": []}");
	write_cell("/tmp/dbtest-CELLA.json", "X", 2);
	write_cell("/tmp/dbtest-CELLB.json", "X", 4);
	write_cell("/tmp/dbtest-MACHINEB.json", "Y", 2);
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

Test(cli, tiny_sweep_writes_results_and_plots, .timeout = 300)
{
	char err[4096], msg[512];
	cJSON *doc, *cells, *cell, *runs;
	int status;

	status = run("run --workers 1,2 --warmup 0.02 --time 0.05 --reps 2 "
	    "--out /tmp/dbtest-sweep.json", err, sizeof(err));
	cr_assert_eq(status, 0, "tiny sweep exited %d: %s", status, err);
	cr_assert_eq(results_read("/tmp/dbtest-sweep.json", &doc, msg,
	    sizeof(msg)), 0, "%s", msg);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
	cells = cJSON_GetObjectItem(doc, "cells");
	/* inline once, the four other designs at two widths. */
	cr_assert_eq(cJSON_GetArraySize(cells), 9);
	cJSON_ArrayForEach(cell, cells) {
		runs = cJSON_GetObjectItem(cell, "runs");
		cr_assert_eq(cJSON_GetArraySize(runs), 2);
		cr_assert_not_null(cJSON_GetObjectItem(cJSON_GetObjectItem(cell,
		    "summary"), "cpu_us_per_dispatch"));
	}
	cJSON_Delete(doc);
	status = run("plot /tmp/dbtest-sweep.json -o /tmp", err, sizeof(err));
	cr_assert_eq(status, 0, "plot exited %d: %s", status, err);
	cr_assert_eq(access("/tmp/cpu_per_dispatch.png", R_OK), 0);
	cr_assert_eq(access("/tmp/cpu_per_dispatch.svg", R_OK), 0);
}
