/*
 * test_history.c - the history store, history and bisect through the
 * binary: an import keeps every run and is refused twice; a file of a
 * newer schema, a damaged file, a file that is not a store and a store
 * of a newer schema get one line and exit 2; an import that fails half
 * way, or is killed half way, leaves the store as it was; history names
 * the revision a step begins at, its size, and fails a merge's CI only on
 * a fresh step; bisect refuses what is not a range.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <sqlite3.h>

#include "binary.h"
#include "results.h"
#include "tmpdir.h"

#define REFERENCE	DB_TEST_DATA "/../../results/2026-12-03-epyc-2cpu-default.json"

/* How many runs the cells of a results file hold. */
static long long
runs_in(const char *path)
{
	const cJSON *cell;
	long long n = 0;
	char err[256];
	cJSON *doc;

	cr_assert_eq(results_read(path, &doc, err, sizeof(err)), 0, "%s", err);
	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		n += cJSON_GetArraySize(results_arr(cell, "runs"));
	cJSON_Delete(doc);
	return n;
}

/*
 * The reference file as revision rev of a made-up history: its first
 * ncells cells (0: all, copies past its end), each run's CPU per dispatch
 * times factor, written to name.
 */
static const char *
revision_file(const char *name, int rev, double factor, int ncells)
{
	cJSON *doc, *cells, *cell, *run, *f;
	char err[256], field[64];
	const char *path = tmp(name);
	int i;

	cr_assert_eq(results_read(REFERENCE, &doc, err, sizeof(err)), 0, "%s",
	    err);
	cells = cJSON_DetachItemFromObject(doc, "cells");
	cJSON_AddItemToObject(doc, "cells", cJSON_CreateArray());
	for (i = 0; ncells > 0 && i < ncells; i++) {
		cell = cJSON_Duplicate(cJSON_GetArrayItem(cells, i %
		    cJSON_GetArraySize(cells)), 1);
		cJSON_ReplaceItemInObject(cell, "coroutines",
		    cJSON_CreateNumber(64 + i / cJSON_GetArraySize(cells)));
		cJSON_ArrayForEach(run, results_arr(cell, "runs"))
			if ((f = cJSON_GetObjectItem(run, "cpu_us_per_dispatch")))
				cJSON_SetNumberValue(f, f->valuedouble * factor);
		cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "cells"), cell);
	}
	cJSON_Delete(cells);
	snprintf(field, sizeof(field), "abc%04d", rev);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "git_rev",
	    cJSON_CreateString(field));
	snprintf(field, sizeof(field), "2026-01-%02dT00:00:00Z", rev + 1);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "date",
	    cJSON_CreateString(field));
	cr_assert_eq(results_write(doc, path), 0);
	cJSON_Delete(doc);
	return path;
}

/* from as a file of results schema 99. */
static void
newer(const char *from, const char *to)
{
	char err[256];
	cJSON *doc;

	cr_assert_eq(results_read(from, &doc, err, sizeof(err)), 0, "%s", err);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"),
	    "schema", cJSON_CreateNumber(99));
	cr_assert_eq(results_write(doc, to), 0);
	cJSON_Delete(doc);
	return;
}

/* One number a query of the store gives. */
static long long
query(const char *db, const char *sql)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	long long v = -1;

	cr_assert_eq(sqlite3_open_v2(db, &s, SQLITE_OPEN_READONLY, NULL),
	    SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK,
	    "%s", sqlite3_errmsg(s));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return v;
}

Test(store, keeps_every_run_and_refuses_a_second_import)
{
	const char *file = kept(revision_file("r.json", 1, 1, 3));
	const char *db = kept(tmp("h.db"));
	long long runs = runs_in(file);
	char args[512], out[8192];

	snprintf(args, sizeof(args), "store add --db %s %s", db, file);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "3 cells of abc0001"), "%s", out);
	/* Every run, each of its numeric fields, and the whole file. */
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM value WHERE metric = "
	    "'cpu_us_per_dispatch'"), runs);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import WHERE "
	    "json_valid(document)"), 1);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "already in"), "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs);
	snprintf(args, sizeof(args), "store list --db %s --format csv", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, ",abc0001,"), "%s", out);
}

Test(store, refuses_newer_schemas_damage_and_other_files)
{
	const char *db = kept(tmp("h.db")), *text = kept(tmp("text.db"));
	char args[512], out[8192], cmd[512];
	sqlite3 *s;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "head -c 5000 %s > %s", REFERENCE,
	    tmp("cut.json"));
	cr_assert_eq(system(cmd), 0);
	newer(REFERENCE, tmp("new.json"));
	snprintf(args, sizeof(args), "store add --db %s %s", db, tmp("new.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "newer than this build reads"), "%s", out);
	snprintf(args, sizeof(args), "store add --db %s %s", db, tmp("cut.json"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_not_null(f = fopen(text, "w"));
	fprintf(f, "not a database at all, but long enough to be read as one "
	    "and refused by what it is\n");
	fclose(f);
	snprintf(args, sizeof(args), "store list --db %s", text);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "not a dispatchbench store"), "%s", out);
	snprintf(args, sizeof(args), "store list --db %s", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(sqlite3_open(db, &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, "PRAGMA user_version=99", NULL, NULL,
	    NULL), SQLITE_OK);
	sqlite3_close(s);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "store schema 99 is newer"), "%s", out);
	snprintf(args, sizeof(args), "store list --db %s", tmp("none.db"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "no store there"), "%s", out);
}

/* from with its last run's cpu_s given twice (before its rep), as to. */
static void
twice(const char *from, const char *to)
{
	static char text[1 << 20];
	const char *at, *last = NULL;
	FILE *f;
	size_t n;

	cr_assert_not_null(f = fopen(from, "r"));
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	for (at = text; (at = strstr(at, "\"rep\"")) != NULL; at++)
		last = at;
	cr_assert_not_null(last);
	cr_assert_not_null(f = fopen(to, "w"));
	fprintf(f, "%.*s\"cpu_s\": 1, %s", (int)(last - text), text, last);
	fclose(f);
	return;
}

/*
 * A file that reads as results but holds one field twice in its last run
 * fails on that run's last insert: nothing of it is kept.
 */
Test(store, an_import_that_fails_half_way_keeps_nothing)
{
	const char *db = kept(tmp("h.db")), *bad = kept(tmp("twice.json"));
	const char *first = kept(revision_file("r.json", 1, 1, 3));
	char args[512], out[8192];

	snprintf(args, sizeof(args), "store add --db %s %s", db, first);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	twice(revision_file("s.json", 2, 1, 3), bad);
	snprintf(args, sizeof(args), "store add --db %s %s", db, bad);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(first));
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM revision"), 1);
}

/*
 * Killed while its transaction is open (the rollback journal is there),
 * an import leaves the store as it was, whole; the same file then goes
 * in as if never tried.
 */
Test(store, a_killed_import_leaves_the_store_as_it_was)
{
	const char *db = kept(tmp("h.db"));
	const char *big = kept(revision_file("big.json", 2, 1, 3000));
	const char *first = kept(revision_file("r.json", 1, 1, 3));
	char args[512], out[8192], journal[200];
	struct stat sb;
	pid_t pid;
	int i, st;

	snprintf(args, sizeof(args), "store add --db %s %s", db, first);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	snprintf(journal, sizeof(journal), "%s-journal", db);
	if ((pid = fork()) == 0) {
		execl(DB_BINARY, DB_BINARY, "store", "add", "--db", db, big,
		    (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 200000 && stat(journal, &sb) != 0; i++)
		usleep(50);
	/* Well into its 3000 cells (a second or two), not at its first row. */
	usleep(300000);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	cr_assert(WIFSIGNALED(st), "the import ended before it was killed");
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM revision"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM cell"), 3);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(first));
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM value v LEFT JOIN run r "
	    "ON r.id = v.run_id WHERE r.id IS NULL"), 0);
	snprintf(args, sizeof(args), "store add --db %s %s", db, big);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 2);
}

/* Revisions 0..n-1, from revision `from` on slower by factor. */
static void
history_of(const char *db, int n, int from, double factor)
{
	char args[512], out[4096], name[32];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "r%d.json", i);
		snprintf(args, sizeof(args), "store add --db %s %s", db,
		    revision_file(name, i, i >= from ? factor : 1, 2));
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	}
	return;
}

Test(history, names_the_revision_a_step_begins_at)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512];

	history_of(db, 8, 4, 1.3);
	snprintf(args, sizeof(args), "history --db %s --fail-on-step", db);
	/* Four revisions after it: confirmed, and no news for a merge. */
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "2 steps, 0 of them unconfirmed"), "%s",
	    out);
	cr_assert_not_null(strstr(out, "abc0004  "), "%s", out);
	cr_assert_not_null(strstr(out, "+30.0 %"), "%s", out);
	snprintf(args, sizeof(args), "history --db %s --format csv", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, ",abc0004,"), "%s", out);
	cr_assert_not_null(strstr(out, ",step,1.3"), "%s", out);
}

Test(history, fails_a_merge_only_on_a_fresh_step)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512];

	history_of(db, 6, 5, 1.3);
	snprintf(args, sizeof(args), "history --db %s --fail-on-step", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "unconfirmed (newest)"), "%s", out);
	cr_assert_not_null(strstr(out, "got worse with their newest"),
	    "%s", out);
	snprintf(args, sizeof(args), "history --db %s", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
}

Test(history, a_flat_history_has_no_step)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512];

	history_of(db, 6, 6, 1);
	snprintf(args, sizeof(args), "history --db %s --fail-on-step --cell "
	    "inline", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, ": 0 steps"), "%s", out);
	cr_assert_not_null(strstr(out, "abc0005"), "%s", out);
}

Test(history, says_what_it_lacks)
{
	const char *db = kept(tmp("h.db"));
	char args[512], out[8192];

	snprintf(args, sizeof(args), "history --db %s", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "no store there"), "%s", out);
	history_of(db, 2, 2, 1);
	snprintf(args, sizeof(args), "history --db %s --metric nosuch", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "no run in the store has nosuch"), "%s",
	    out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	snprintf(args, sizeof(args), "history --db %s --cell nosuch", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "matches --cell 'nosuch'"), "%s", out);
}

Test(bisect, refuses_what_is_not_a_range)
{
	char args[512], out[8192];

	snprintf(args, sizeof(args), "bisect --db %s nosuch HEAD", tmp("h.db"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "GOOD: 'nosuch' is not a commit"), "%s",
	    out);
	snprintf(args, sizeof(args), "bisect --db %s HEAD HEAD", tmp("h.db"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "no commit from GOOD to BAD"), "%s", out);
	snprintf(args, sizeof(args), "bisect --db %s HEAD HEAD --dispatcher "
	    "nosuch", tmp("h.db"));
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
}

/*
 * A merge's CI, replayed: `history --fail-on-step` after each of seven
 * merges, each measured in its own sitting (the machine 2-3 % off from
 * one sitting to the next, every cell alike), a push loop making the
 * fourth 31 % dearer. The merge that makes the step fails; the docs-only
 * merge after it, and every later one, pass.
 */
Test(history, fails_the_merge_that_makes_the_step_and_no_other)
{
	static const double sitting[7] = { 1.00, 1.03, 0.98, 1.01, 0.97, 1.02,
	    0.99 };
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512], name[32];
	int i, rc;

	for (i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "m%d.json", i);
		snprintf(args, sizeof(args), "store add --db %s %s", db,
		    revision_file(name, i, sitting[i] * (i >= 3 ? 1.31 : 1),
		    6));
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s",
		    out);
		snprintf(args, sizeof(args), "history --db %s --fail-on-step",
		    db);
		rc = binary_run("", args, out, sizeof(out));
		cr_assert_eq(rc, i == 3, "merge %d: exit %d\n%s", i + 1, rc,
		    out);
	}
}

/* path's context given probe name read median in [min, max] ns, 7 times. */
static void
with_probe(const char *path, const char *name, double median, double min,
    double max)
{
	cJSON *doc, *ctx, *probes, *p;
	char err[256];

	cr_assert_eq(results_read(path, &doc, err, sizeof(err)), 0, "%s", err);
	ctx = cJSON_GetObjectItem(doc, "context");
	if ((probes = cJSON_GetObjectItem(ctx, "probes")) == NULL)
		probes = cJSON_AddObjectToObject(ctx, "probes");
	p = cJSON_AddObjectToObject(probes, name);
	cJSON_AddStringToObject(p, "unit", "ns");
	cJSON_AddNumberToObject(p, "median", median);
	cJSON_AddNumberToObject(p, "min", min);
	cJSON_AddNumberToObject(p, "max", max);
	cJSON_AddNumberToObject(p, "n", 7);
	cr_assert_eq(results_write(doc, path), 0);
	cJSON_Delete(doc);
	return;
}

/*
 * Seven merges, the fourth twice as dear: with the bare loop's probe
 * twice as slow from that sitting on (a new CPU under the same name), the
 * step is the machine's, named with the probe, and no merge fails; with
 * the probes where they were, the fourth merge fails.
 */
Test(history, a_step_the_probes_moved_with_is_the_machine)
{
	const char *db;
	static char out[65536];
	char args[512], name[32];
	const char *file;
	int i, moved, rc;

	for (moved = 1; moved >= 0; moved--) {
		db = kept(tmp(moved ? "moved.db" : "still.db"));
		for (i = 0; i < 7; i++) {
			snprintf(name, sizeof(name), "p%d-%d.json", moved, i);
			file = revision_file(name, i, i >= 3 ? 2.0 : 1, 4);
			with_probe(file, "bare_loop", i >= 3 && moved ? 0.57 :
			    0.29, i >= 3 && moved ? 0.55 : 0.28, i >= 3 &&
			    moved ? 0.60 : 0.31);
			with_probe(file, "line_round_trip", 90, 60, 900);
			snprintf(args, sizeof(args), "store add --db %s %s", db,
			    file);
			cr_assert_eq(binary_run("", args, out, sizeof(out)), 0,
			    "%s", out);
			snprintf(args, sizeof(args), "history --db %s "
			    "--fail-on-step", db);
			rc = binary_run("", args, out, sizeof(out));
			cr_assert_eq(rc, !moved && i == 3, "moved %d, merge %d: "
			    "exit %d\n%s", moved, i + 1, rc, out);
		}
		cr_assert_eq(strstr(out, "the machine moved (bare_loop 0.29 -> "
		    "0.57 ns)") != NULL, moved, "%s", out);
	}
}
