/*
 * test_fleet.c - many machines through the binary: merge keeps each
 * machine's context whole and marks each cell with its machine, so plot,
 * report and export give a series per machine and compare, advise and the
 * store never mix two; fleet writes an exclusive, never-requeued array,
 * and collect names each task by Slurm's state (here Slurm's commands are
 * stand-ins on PATH that print what a real Slurm 22.05 printed), merges
 * every task that wrote results (its own, not another job's) and fails
 * when any task did not, or when Slurm cannot be asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "binary.h"
#include "results.h"
#include "tmpdir.h"

#define SMALL	DB_TEST_DATA "/../../results/2026-11-30-epyc-2cpu-spin.json"

static cJSON *
read_doc(const char *path)
{
	char err[512];
	cJSON *doc;

	cr_assert_eq(results_read(path, &doc, err, sizeof(err)), 0, "%s", err);
	return doc;
}

/*
 * A machine's results: the small reference file, on host with cpu, at a
 * date of its own (two runs never have the same bytes).
 */
static const char *
machine_file(const char *path, const char *host, const char *cpu)
{
	cJSON *doc = read_doc(SMALL);
	cJSON *ctx = cJSON_GetObjectItem(doc, "context");
	static int second;
	char date[32];

	snprintf(date, sizeof(date), "2026-12-03T00:00:%02dZ", second++ % 60);
	cJSON_ReplaceItemInObject(ctx, "date", cJSON_CreateString(date));
	cJSON_ReplaceItemInObject(ctx, "host", cJSON_CreateString(host));
	cJSON_ReplaceItemInObject(ctx, "cpu_model", cJSON_CreateString(cpu));
	cr_assert_eq(results_write(doc, path), 0);
	cJSON_Delete(doc);
	return path;
}

static int
cells_of(const cJSON *doc, const char *machine)
{
	const cJSON *cell;
	int n = 0;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		n += strcmp(results_str(cell, "machine", ""), machine) == 0;
	return n;
}

static char *
slurp(const char *path)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "%s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Two machines: the small file as it is and on a Xeon named xeon1. */
static const char *
two_machines(char *out, size_t len)
{
	char args[1024];
	const char *a = kept(machine_file(tmp("epyc.json"), "vm", "AMD EPYC"));
	const char *b = kept(machine_file(tmp("xeon.json"), "xeon1",
	    "Intel Xeon"));
	const char *m = kept(tmp("m.json"));

	snprintf(args, sizeof(args), "merge %s %s -o %s", a, b, m);
	cr_assert_eq(binary_run("", args, out, len), 0, "%s", out);
	return m;
}

Test(merge, keeps_each_context_whole_and_marks_each_cell)
{
	cJSON *doc, *xeon;
	const cJSON *m;
	char out[4096];

	doc = read_doc(two_machines(out, sizeof(out)));
	xeon = read_doc(tmp("xeon.json"));
	cr_assert_eq(results_machines(doc), 2);
	cr_assert_eq(results_num(results_obj(doc, "context"), "schema"), 2);
	m = cJSON_GetArrayItem(results_arr(doc, "machines"), 1);
	cr_assert_str_eq(results_str(m, "name", ""),
	    "xeon1 (Intel Xeon, 2 CPUs)");
	cr_assert(cJSON_Compare(results_obj(m, "context"), results_obj(xeon,
	    "context"), true), "the context is not kept whole");
	cr_assert_eq(cells_of(doc, "vm (AMD EPYC, 2 CPUs)"), 3);
	cr_assert_eq(cells_of(doc, "xeon1 (Intel Xeon, 2 CPUs)"), 3);
	cJSON_Delete(doc);
	cJSON_Delete(xeon);
}

Test(merge, tells_two_tasks_on_one_node_apart_and_refuses_a_file_twice)
{
	const char *a = kept(machine_file(tmp("vm-7-0.json"), "vm", "EPYC"));
	const char *b = kept(machine_file(tmp("vm-7-1.json"), "vm", "EPYC"));
	char args[1024], out[4096];
	cJSON *doc;

	snprintf(args, sizeof(args), "merge %s %s -o %s", a, b, tmp("n.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	doc = read_doc(tmp("n.json"));
	cr_assert_eq(cells_of(doc, "vm (EPYC, 2 CPUs) [vm-7-0]"), 3);
	cr_assert_eq(cells_of(doc, "vm (EPYC, 2 CPUs) [vm-7-1]"), 3);
	cJSON_Delete(doc);
	snprintf(args, sizeof(args), "merge %s %s -o %s", a, a, tmp("o.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "are the same results"), "%s", out);
	cr_assert_null(strchr(strchr(out, '\n') + 1, '\n'), "%s", out);
}

Test(merge, a_merged_file_merges_again)
{
	const char *c = kept(machine_file(tmp("arm.json"), "arm1", "Neoverse"));
	char args[1024], out[4096];
	const char *m = two_machines(out, sizeof(out));
	cJSON *doc;

	snprintf(args, sizeof(args), "merge %s %s -o %s", m, c, tmp("3.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	doc = read_doc(tmp("3.json"));
	cr_assert_eq(results_machines(doc), 3);
	cr_assert_eq(cells_of(doc, "xeon1 (Intel Xeon, 2 CPUs)"), 3);
	cr_assert_eq(cells_of(doc, "arm1 (Neoverse, 2 CPUs)"), 3);
	cJSON_Delete(doc);
}

/* path's results marked as a sweep that did not finish; path. */
static const char *
partial(const char *path)
{
	cJSON *doc = read_doc(path);

	cJSON_ReplaceItemInObject(doc, "complete", cJSON_CreateFalse());
	cr_assert_eq(results_write(doc, path), 0);
	cJSON_Delete(doc);
	return path;
}

/* The complete of doc's machine i, and of doc: 1, 0, or -1 if absent. */
static int
complete_of(const cJSON *doc, int i)
{
	const cJSON *o = i < 0 ? doc : cJSON_GetArrayItem(results_arr(doc,
	    "machines"), i);
	const cJSON *c = cJSON_GetObjectItem(o, "complete");

	return cJSON_IsBool(c) ? cJSON_IsTrue(c) : -1;
}

/*
 * A merged file is complete only when each file in it is, whichever
 * comes first, and merged again it stays so; each machine says its own.
 */
Test(merge, a_merged_file_is_complete_only_when_each_input_is)
{
	const char *a = kept(partial(machine_file(tmp("a.json"), "vm",
	    "AMD EPYC")));
	const char *b = kept(machine_file(tmp("b.json"), "xeon1",
	    "Intel Xeon"));
	const char *c = kept(machine_file(tmp("c.json"), "arm1", "Neoverse"));
	char args[1024], out[4096];
	cJSON *doc;
	int order;

	for (order = 0; order < 2; order++) {
		snprintf(args, sizeof(args), "merge %s %s -o %s", order ? b : a,
		    order ? a : b, tmp("m.json"));
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s",
		    out);
		doc = read_doc(tmp("m.json"));
		cr_assert_eq(complete_of(doc, -1), 0, "order %d", order);
		cr_assert_eq(complete_of(doc, order), 0, "the partial one");
		cr_assert_eq(complete_of(doc, !order), 1, "the whole one");
		cJSON_Delete(doc);
	}
	snprintf(args, sizeof(args), "merge %s %s -o %s", tmp("m.json"), c,
	    tmp("m2.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	doc = read_doc(tmp("m2.json"));
	cr_assert_eq(complete_of(doc, -1), 0, "merged again");
	cr_assert_eq(complete_of(doc, 1), 0, "the partial one");
	cr_assert_eq(complete_of(doc, 2), 1);
	cJSON_Delete(doc);
	snprintf(args, sizeof(args), "merge %s %s -o %s", b, c, tmp("m3.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	doc = read_doc(tmp("m3.json"));
	cr_assert_eq(complete_of(doc, -1), 1, "every input whole");
	cJSON_Delete(doc);
}

/*
 * A checksum that could not be taken ("unknown", or none) says nothing:
 * two machines that both lack one are two machines, never one file twice.
 */
Test(merge, a_checksum_not_taken_is_no_twin)
{
	static const char *const sums[] = { "unknown", "" };
	char out[1 << 16], args[1024], name[32];
	const char *m = two_machines(out, sizeof(out));
	const char *c = kept(machine_file(tmp("arm.json"), "arm1", "Neoverse"));
	const char *d = kept(machine_file(tmp("neo.json"), "neo2", "Neoverse"));
	cJSON *doc, *mach;
	int i, k;

	snprintf(args, sizeof(args), "merge %s %s -o %s", c, d, tmp("cd.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < 2; k++) {
			doc = read_doc(k ? tmp("cd.json") : m);
			cJSON_ArrayForEach(mach, cJSON_GetObjectItem(doc,
			    "machines"))
				cJSON_ReplaceItemInObject(mach, "sha256",
				    cJSON_CreateString(sums[i]));
			snprintf(name, sizeof(name), "u%d.json", k);
			cr_assert_eq(results_write(doc, tmp(name)), 0);
			cJSON_Delete(doc);
		}
		snprintf(args, sizeof(args), "merge %s %s -o %s", tmp("u0.json"),
		    tmp("u1.json"), tmp("u.json"));
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0,
		    "sha256 '%s': %s", sums[i], out);
		doc = read_doc(tmp("u.json"));
		cr_assert_eq(results_machines(doc), 4, "sha256 '%s'", sums[i]);
		cJSON_Delete(doc);
	}
}

Test(merge, plot_report_and_export_give_a_series_per_machine)
{
	char args[1024], out[1 << 16];
	const char *m = two_machines(out, sizeof(out));
	const char *text;

	snprintf(args, sizeof(args), "plot %s -o %s", m, tmp("plots"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	text = slurp(tmp("plots/cpu_per_dispatch.svg"));
	cr_assert_not_null(strstr(text, "shared/lfseg spin:5:0.25 on vm (AMD "
	    "EPYC, 2 CPUs)"), "no EPYC series");
	cr_assert_not_null(strstr(text, "shared/lfseg spin:5:0.25 on xeon1 "
	    "(Intel Xeon, 2 CPUs)"), "no Xeon series");
	cr_assert_not_null(strstr(text, "2 machines, a series each"));
	snprintf(args, sizeof(args), "report %s -o %s", m, tmp("r.html"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	text = slurp(tmp("r.html"));
	cr_assert_not_null(strstr(text, "<strong>2 machines</strong>"));
	cr_assert_not_null(strstr(text, "<h2>Context of xeon1 (Intel Xeon, 2 "
	    "CPUs)</h2>"));
	/* Each machine's findings apart: a ranking never mixes two. */
	cr_assert_not_null(strstr(text, "<h2>What the data says on xeon1 (Intel "
	    "Xeon, 2 CPUs)</h2>"));
	snprintf(args, sizeof(args), "export %s --format csv", m);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(strncmp(out, "machine,", 8), 0, "%.200s", out);
	cr_assert_not_null(strstr(out, "\n\"xeon1 (Intel Xeon, 2 CPUs)\","
	    "shared,"), "%.400s", out);
}

Test(merge, compare_and_advise_never_mix_machines)
{
	char args[1024], out[1 << 16];
	const char *m = two_machines(out, sizeof(out));

	snprintf(args, sizeof(args), "compare %s %s", tmp("epyc.json"), m);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "different machines (BASE holds 1, NEW "
	    "2)"), "%s", out);
	snprintf(args, sizeof(args), "compare %s %s", m, m);
	cr_assert_neq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	snprintf(args, sizeof(args), "compare %s %s --allow-other-machine",
	    tmp("epyc.json"), tmp("xeon.json"));
	binary_run("", args, out, sizeof(out));
	cr_assert_not_null(strstr(out, "the files come from different machines "
	    "(host 'vm' against 'xeon1', CPU 'AMD EPYC' against 'Intel Xeon'): "
	    "each change below is the machines' as much as the builds'"), "%s",
	    out);
	snprintf(args, sizeof(args), "advise --from %s", m);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "holds 2 machines' results"), "%s", out);
}

Test(merge, the_store_takes_each_machine_as_its_own_file)
{
	char args[1024], out[1 << 16];
	const char *m = two_machines(out, sizeof(out));
	const char *db = kept(tmp("h.db"));

	snprintf(args, sizeof(args), "store add --db %s %s", db, m);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "on xeon1 (Intel Xeon)"), "%s", out);
	snprintf(args, sizeof(args), "store add --db %s %s", db,
	    tmp("xeon.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "already in"), "%s", out);
}

Test(merge, a_file_that_only_looks_merged_gets_one_line)
{
	char out[1 << 16], args[1024];
	const char *m = two_machines(out, sizeof(out));
	cJSON *doc = read_doc(m), *ctx = cJSON_GetObjectItem(doc, "context");

	/* Schema 1 with machines[]: its cells would be read as one machine. */
	cJSON_ReplaceItemInObject(ctx, "schema", cJSON_CreateNumber(1));
	cr_assert_eq(results_write(doc, tmp("one.json")), 0);
	cJSON_ReplaceItemInObject(ctx, "schema", cJSON_CreateNumber(2.5));
	cr_assert_eq(results_write(doc, tmp("half.json")), 0);
	cJSON_Delete(doc);
	snprintf(args, sizeof(args), "export %s", tmp("one.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "machines[] in a file of schema 1"),
	    "%s", out);
	snprintf(args, sizeof(args), "export %s", tmp("half.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "not a whole number"), "%s", out);
}

Test(merge, a_damaged_merged_file_gets_one_line)
{
	char out[1 << 16], args[1024];
	const char *m = two_machines(out, sizeof(out));
	cJSON *doc = read_doc(m), *cell;

	cell = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "cells"), 4);
	cJSON_ReplaceItemInObject(cell, "machine", cJSON_CreateString("ghost"));
	cr_assert_eq(results_write(doc, tmp("bad.json")), 0);
	cJSON_Delete(doc);
	snprintf(args, sizeof(args), "plot %s -o %s", tmp("bad.json"),
	    tmp("p"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "cells[4].machine 'ghost' is not one of "
	    "machines[]"), "%s", out);
}

/* A stand-in for a Slurm command on PATH: a shell script of body. */
static void
fake(const char *name, const char *body)
{
	char path[256];
	FILE *f;

	mkdir(tmp("bin"), 0777);
	snprintf(path, sizeof(path), "%s/%s", tmp("bin"), name);
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

static const char *
slurm_env(void)
{
	static char env[512];

	snprintf(env, sizeof(env), "PATH=%s:$PATH", tmp("bin"));
	return env;
}

/* What scontrol -o printed of an array task, in a real Slurm 22.05. */
static const char *
record(char *buf, size_t len, int task, const char *state,
    const char *exit)
{

	snprintf(buf, len, "echo 'JobId=%d ArrayJobId=77 ArrayTaskId=%d "
	    "JobName=dispatchbench JobState=%s Reason=None Dependency=(null) "
	    "Requeue=0 Restarts=0 ExitCode=%s NodeList=vm BatchHost=vm'",
	    78 + task, task, state, exit);
	return buf;
}

Test(fleet, submit_writes_an_exclusive_array_and_its_size)
{
	char out[1 << 14], args[1024];
	const char *script;
	cJSON *m;

	/* A site's words on stderr come first on the pipe; the id is last. */
	fake("sbatch", "echo 'sbatch: user message: use the bench partition' "
	    ">&2; echo 77");
	snprintf(args, sizeof(args), "fleet submit --nodes 2 --dir %s --limit 9 "
	    "--dispatcher shared --workers 1,2 --time 0.1", tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 0, "%s",
	    out);
	cr_assert_eq(strncmp(out, "77\n", 3), 0, "%s", out);
	script = slurp(tmp("fleet/fleet-77.sh"));
	cr_assert_not_null(strstr(script, "#SBATCH --array=0-1\n"), "%s",
	    script);
	cr_assert_not_null(strstr(script, "#SBATCH --exclusive\n"));
	cr_assert_not_null(strstr(script, "#SBATCH --no-requeue\n"));
	cr_assert_not_null(strstr(script, "#SBATCH --time=9\n"));
	cr_assert_not_null(strstr(script, " run '--dispatcher' 'shared' "
	    "'--workers' '1,2' '--time' '0.1'"), "%s", script);
	cr_assert_eq(results_read_json(tmp("fleet/fleet-77.json"), &m, out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_eq(results_int(m, "tasks", 0), 2);
	cJSON_Delete(m);
}

Test(fleet, a_rejected_submission_gets_sbatch_s_words)
{
	char out[4096], args[512];

	fake("sbatch", "echo 'sbatch: error: Batch job submission failed: "
	    "Invalid feature specification' >&2; exit 1");
	snprintf(args, sizeof(args), "fleet submit --dir %s --constraint icelake",
	    tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 2, "%s",
	    out);
	cr_assert_not_null(strstr(out, "Invalid feature specification"), "%s",
	    out);
	snprintf(args, sizeof(args), "fleet submit --dir %s --out x.json",
	    tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 2);
	snprintf(args, sizeof(args), "fleet script --dir '%s'", tmp("a b"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 2, "%s",
	    out);
	cr_assert_not_null(strstr(out, "cannot name a folder with a space"),
	    "%s", out);
}

/* A fleet of job 77 in tmp("fleet"): two tasks, task 1's results in. */
static void
fleet_of_two(void)
{
	char out[1024];

	mkdir(tmp("fleet"), 0777);
	cr_assert_eq(system(strcat(strcpy(out, "echo '{\"job\": \"77\", "
	    "\"tasks\": 2}' > "), tmp("fleet/fleet-77.json"))), 0);
	machine_file(tmp("fleet/vm-77-1.json"), "vm", "AMD EPYC");
	cr_assert_eq(system(strcat(strcpy(out, "echo 0 > "),
	    tmp("fleet/vm-77-1.exit"))), 0);
}

/*
 * `fleet collect` of job 77 into tmp("merged.json"), Slurm saying task 0
 * ended in state with exit and task 1 completed: its exit status, what
 * it printed in out.
 */
static int
collect_two(const char *state, const char *exit, char *out, size_t len)
{
	char args[512], a[512], b[512], body[1100];

	snprintf(body, sizeof(body), "%s\n%s", record(a, sizeof(a), 0, state,
	    exit), record(b, sizeof(b), 1, "COMPLETED", "0:0"));
	fake("scontrol", body);
	snprintf(args, sizeof(args), "fleet collect --dir %s -o %s",
	    tmp("fleet"), tmp("merged.json"));
	return binary_run(slurm_env(), args, out, len);
}

Test(fleet, a_cancelled_task_is_named_and_the_other_survives)
{
	char out[1 << 14];
	cJSON *doc;

	fleet_of_two();
	cr_assert_eq(collect_two("CANCELLED", "0:15", out, sizeof(out)), 1,
	    "%s", out);
	cr_assert_not_null(strstr(out, "1 completed whole, 1 not"), "%s", out);
	cr_assert_not_null(strstr(out, "CANCELLED  0:15"), "%s", out);
	doc = read_doc(tmp("merged.json"));
	cr_assert_eq(results_machines(doc), 1);
	cr_assert_eq(cells_of(doc, "vm (AMD EPYC, 2 CPUs)"), 3);
	cJSON_Delete(doc);
}

Test(fleet, every_task_completed_exits_0)
{
	char out[1 << 14], args[512], a[512], b[512], body[1100];

	fleet_of_two();
	machine_file(tmp("fleet/vm-77-0.json"), "vm", "AMD EPYC");
	snprintf(body, sizeof(body), "%s\n%s", record(a, sizeof(a), 0,
	    "COMPLETED", "0:0"), record(b, sizeof(b), 1, "COMPLETED", "0:0"));
	fake("scontrol", body);
	snprintf(args, sizeof(args), "fleet collect --dir %s", tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 0, "%s",
	    out);
	cr_assert_not_null(strstr(out, "2 machines, 6 cells, in "), "%s", out);
}

Test(fleet, a_task_slurm_kept_no_record_of_is_never_a_pass)
{
	char out[1 << 14], args[512], b[512];

	fleet_of_two();
	fake("scontrol", record(b, sizeof(b), 1, "COMPLETED", "0:0"));
	snprintf(args, sizeof(args), "fleet collect --dir %s", tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 1, "%s",
	    out);
	cr_assert_not_null(strstr(out, "NO RECORD"), "%s", out);
	/* Forgotten by slurmctld, no accounting: the tasks' own files. */
	fake("scontrol", "echo 'slurm_load_jobs error: Invalid job id "
	    "specified' >&2; exit 1");
	fake("sacct", "echo 'Slurm accounting storage is disabled' >&2; "
	    "exit 1");
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 1, "%s",
	    out);
	cr_assert_not_null(strstr(out, "UNKNOWN"), "%s", out);
	cr_assert_not_null(strstr(out, "Slurm no longer knows the job and the "
	    "task wrote nothing"), "%s", out);
	cr_assert_not_null(strstr(out, "COMPLETED     0"), "%s", out);
}

Test(fleet, a_controller_that_does_not_answer_is_never_a_guess)
{
	char out[1 << 14], args[512];

	fleet_of_two();
	fake("scontrol", "echo 'slurm_load_jobs error: Unable to contact slurm "
	    "controller (connect failure)' >&2; exit 1");
	snprintf(args, sizeof(args), "fleet collect --dir %s", tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 2, "%s",
	    out);
	cr_assert_not_null(strstr(out, "Unable to contact slurm controller"),
	    "%s", out);
	cr_assert_eq(access(tmp("fleet/merged-77.json"), F_OK), -1);
}

/* Task 1's file of job 77, written by array job job's task task. */
static void
run_by(const char *job, const char *task)
{
	cJSON *doc = read_doc(SMALL), *sl;

	sl = cJSON_AddObjectToObject(cJSON_GetObjectItem(doc, "context"),
	    "slurm");
	cJSON_AddStringToObject(sl, "array_job_id", job);
	cJSON_AddStringToObject(sl, "array_task_id", task);
	cr_assert_eq(results_write(doc, tmp("fleet/vm-77-1.json")), 0);
	cJSON_Delete(doc);
	return;
}

Test(fleet, another_job_s_file_of_the_same_name_is_not_merged)
{
	char out[1 << 14];

	fleet_of_two();
	run_by("5", "1");
	cr_assert_eq(collect_two("FAILED", "1:0", out, sizeof(out)), 1, "%s",
	    out);
	cr_assert_not_null(strstr(out, "another job's results (array job 5)"),
	    "%s", out);
}

/*
 * Both tasks completed, task 0's sweep did not finish: its results are
 * merged, said to be partial, and the collect is no pass (exit 1), the
 * merged file not complete.
 */
Test(fleet, a_partial_task_is_merged_as_such_and_fails)
{
	char out[1 << 14];
	cJSON *doc;

	fleet_of_two();
	partial(machine_file(tmp("fleet/vm-77-0.json"), "vm", "AMD EPYC"));
	cr_assert_eq(collect_two("COMPLETED", "0:0", out, sizeof(out)), 1,
	    "%s", out);
	cr_assert_not_null(strstr(out, "1 completed whole, 1 not"), "%s", out);
	cr_assert_not_null(strstr(out, "partial: its sweep did not finish; "
	    "merged as such"), "%s", out);
	doc = read_doc(tmp("merged.json"));
	cr_assert_eq(results_machines(doc), 2);
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(doc, "complete")));
	cJSON_Delete(doc);
}

/*
 * A file named for task 1 of this job whose run was task 0's (a task
 * that wrote to another's name): not this task's results, not merged.
 */
Test(fleet, a_file_of_another_task_of_the_job_is_not_merged)
{
	char out[1 << 14];
	cJSON *doc;

	fleet_of_two();
	machine_file(tmp("fleet/vm-77-0.json"), "vm", "AMD EPYC");
	run_by("77", "0");
	cr_assert_eq(collect_two("COMPLETED", "0:0", out, sizeof(out)), 1,
	    "%s", out);
	cr_assert_not_null(strstr(out, "1 completed whole, 1 not"), "%s", out);
	cr_assert_not_null(strstr(out, "not merged: another task's results "
	    "(array job 77, task 0)"), "%s", out);
	doc = read_doc(tmp("merged.json"));
	cr_assert_eq(results_machines(doc), 1);
	cJSON_Delete(doc);
}

Test(fleet, collect_waits_for_the_array_and_stops_at_its_timeout)
{
	char out[1 << 14], args[512];

	fleet_of_two();
	fake("scontrol", "echo 'JobId=77 ArrayJobId=77 ArrayTaskId=0-1 "
	    "JobState=PENDING Reason=Resources ExitCode=0:0 NodeList='");
	snprintf(args, sizeof(args), "fleet status --dir %s", tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 0, "%s",
	    out);
	cr_assert_not_null(strstr(out, "2 still to end"), "%s", out);
	/* A throttled remainder, as a list: "1,0%1". */
	fake("scontrol", "echo 'JobId=77 ArrayJobId=77 ArrayTaskId=1,0%1 "
	    "JobState=PENDING Reason=JobArrayTaskLimit ExitCode=0:0'");
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 0, "%s",
	    out);
	cr_assert_not_null(strstr(out, "2 still to end"), "%s", out);
	snprintf(args, sizeof(args), "fleet collect --dir %s --timeout 1",
	    tmp("fleet"));
	cr_assert_eq(binary_run(slurm_env(), args, out, sizeof(out)), 3, "%s",
	    out);
	cr_assert_not_null(strstr(out, "still running (--timeout)"), "%s", out);
}
