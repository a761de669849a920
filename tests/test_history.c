/*
 * test_history.c - the history store, history and bisect through the
 * binary: an import keeps every run and is refused twice, by its bytes or
 * by its runs; a file of a newer schema, a damaged file, a file that is
 * not a store, an empty one and a store of a newer schema get one line
 * and exit 2; a damaged or truncated store is said so in SQLite's words,
 * and written nothing; two first imports at once both go in; an import
 * that fails half way, or is killed half way, leaves the store as it was;
 * a machine is its identity; probes are kept; a version 1 store is
 * migrated; history orders commits by depth and UTC time, in the clone
 * or outside it, names the revision a step begins at, its size, and
 * fails a merge's CI only on a fresh step; an exact count steps at the
 * revision it moved; bisect refuses what is not a range, and names the
 * first commit whose exact count moved; a step is slower by its whole
 * verdict, not slower only when each way of seeing a rise rules it out.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <sqlite3.h>

#include "binary.h"
#include "bisection.h"
#include "results.h"
#include "step.h"
#include "store.h"
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
 * The reference file as run on day day of a made-up history: its first
 * ncells cells (0: none, copies past its end), each run's CPU per
 * dispatch times factor.
 */
static cJSON *
revision_doc(int day, double factor, int ncells)
{
	cJSON *doc, *cells, *cell, *run, *f;
	char err[256], date[64];
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
	snprintf(date, sizeof(date), "2026-%02d-%02dT00:00:00Z", 1 + day / 28,
	    1 + day % 28);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "date",
	    cJSON_CreateString(date));
	return doc;
}

/* doc as the results of the build of revision rev, written to name. */
static const char *
save_as(cJSON *doc, const char *name, const char *rev)
{
	const char *path = tmp(name);

	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "git_rev",
	    cJSON_CreateString(rev));
	cr_assert_eq(results_write(doc, path), 0);
	cJSON_Delete(doc);
	return path;
}

/* Revision abc<rev> of a made-up history, run on day rev. */
static const char *
revision_file(const char *name, int rev, double factor, int ncells)
{
	char field[64];

	snprintf(field, sizeof(field), "abc%04d", rev);
	return save_as(revision_doc(rev, factor, ncells), name, field);
}

#define COUNTED	"instructions_per_dispatch"

/*
 * Revision abc<rev> of a made-up counted history, run on day rev: the
 * reference file's first two cells, every run counting count
 * instructions a dispatch.
 */
static const char *
counted_file(const char *name, int rev, double count)
{
	cJSON *doc = revision_doc(rev, 1, 2), *cell, *run;
	char field[64];

	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs"))
			cJSON_AddNumberToObject(run, COUNTED, count);
	snprintf(field, sizeof(field), "abc%04d", rev);
	return save_as(doc, name, field);
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

/* db holds the import of first (3 cells) alone, as it was after it. */
static void
holds_only(const char *db, const char *first)
{

	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM revision"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM cell"), 3);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(first));
	return;
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

/* sql run on the store db. */
static void
store_exec_sql(const char *db, const char *sql)
{
	sqlite3 *s;

	cr_assert_eq(sqlite3_open(db, &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK, "%s",
	    sqlite3_errmsg(s));
	sqlite3_close(s);
	return;
}

/*
 * A file the reader takes whole, whose insert fails half way: the store
 * refuses a value once it holds the first import's twice, half of the
 * second's (twice the cells), in its fourth cell, after its revision,
 * import, probes, a new cell and many runs went in. The insert's error is
 * said on one line, and nothing of the file is kept; without the fault
 * the same file then goes in whole.
 */
Test(store, an_insert_that_fails_deep_in_a_file_keeps_none_of_it)
{
	const char *db = kept(tmp("h.db"));
	const char *first = kept(revision_file("r.json", 1, 1, 3));
	const char *second = kept(revision_file("s.json", 2, 1, 6));
	char args[512], out[8192], sql[512];
	long long values;

	with_probe(second, "bare_loop", 0.29, 0.28, 0.31);
	snprintf(args, sizeof(args), "store add --db %s %s", db, first);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	values = query(db, "SELECT COUNT(*) FROM value");
	snprintf(sql, sizeof(sql), "CREATE TRIGGER fault BEFORE INSERT ON "
	    "value WHEN (SELECT COUNT(*) FROM value) >= %lld BEGIN SELECT "
	    "RAISE(ABORT, 'planted fault'); END", 2 * values);
	store_exec_sql(db, sql);
	snprintf(args, sizeof(args), "store add --db %s %s", db, second);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_not_null(strstr(out, "planted fault"), "%s", out);
	holds_only(db, first);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM probe"), 0);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM value"), values);
	store_exec_sql(db, "DROP TRIGGER fault");
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 2);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(first) +
	    runs_in(second));
}

/*
 * Killed while its transaction is open (the rollback journal is there),
 * an import leaves the store as it was, whole; the same file then goes
 * in as if never tried.
 */
Test(store, a_killed_import_leaves_the_store_as_it_was)
{
	const char *db = kept(tmp("h.db"));
	const char *big = kept(revision_file("big.json", 2, 1, 1500));
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
	/* Well into its 1500 cells (a second or more), not at its first row. */
	usleep(300000);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	cr_assert(WIFSIGNALED(st), "the import ended before it was killed");
	holds_only(db, first);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM value v LEFT JOIN run r "
	    "ON r.id = v.run_id WHERE r.id IS NULL"), 0);
	snprintf(args, sizeof(args), "store add --db %s %s", db, big);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 2);
}

/* `store add` of file into db, run in folder dir (NULL: here). */
static int
add_to(const char *dir, const char *db, const char *file, char *out,
    size_t len)
{
	char args[512], env[256] = "";

	if (dir != NULL)
		snprintf(env, sizeof(env), "cd '%s' &&", dir);
	snprintf(args, sizeof(args), "store add --db %s %s", db, file);
	return binary_run(env, args, out, len);
}

/* Zeroes the pages of db that sql (on dbstat) names, as a bad disk would. */
static int
zero_pages(const char *db, const char *sql)
{
	static char zeros[65536];
	long long page[64], size;
	sqlite3_stmt *st;
	sqlite3 *s;
	FILE *f;
	int n = 0, i;

	size = query(db, "PRAGMA page_size");
	cr_assert_eq(sqlite3_open_v2(db, &s, SQLITE_OPEN_READONLY, NULL),
	    SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK,
	    "%s", sqlite3_errmsg(s));
	while (n < 64 && sqlite3_step(st) == SQLITE_ROW)
		page[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	cr_assert_not_null(f = fopen(db, "r+b"));
	for (i = 0; i < n; i++) {
		cr_assert_eq(fseek(f, (page[i] - 1) * size, SEEK_SET), 0);
		cr_assert_eq(fwrite(zeros, 1, (size_t)size, f), (size_t)size);
	}
	fclose(f);
	return n;
}

/* The sha256 of a file's bytes, to see it unchanged. */
static void
sum_of(const char *path, char *buf, size_t len)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "sha256sum '%s'", path);
	cr_assert_eq(shell_output(cmd, buf, len), 0);
	return;
}

/* A store of n imports of one cell each, revisions abc0001.. */
static const char *
store_of(const char *name, int n)
{
	const char *db = kept(tmp(name));
	char file[32], out[4096];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "f%d.json", i);
		cr_assert_eq(add_to(NULL, db, revision_file(file, i + 1, 1, 1),
		    out, sizeof(out)), 0, "%s", out);
	}
	return db;
}

/*
 * A zeroed page in the import table: list stops there with SQLite's
 * words and exit 2, never a part of the imports and exit 0.
 */
Test(store, a_damaged_page_fails_list_in_sqlites_words)
{
	const char *db = store_of("h.db", 3);
	char args[512], out[8192];

	cr_assert_eq(zero_pages(db, "SELECT pageno FROM dbstat WHERE name = "
	    "'import' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 1"),
	    1);
	snprintf(args, sizeof(args), "store list --db %s", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "database disk image is malformed"),
	    "%s", out);
}

/* Eight damaged pages: add writes nothing and says what SQLite found. */
Test(store, add_refuses_a_damaged_store_and_leaves_it_as_it_was)
{
	const char *db = store_of("h.db", 3);
	char out[8192], before[128], after[128];

	cr_assert_eq(zero_pages(db, "SELECT pageno FROM dbstat WHERE name = "
	    "'import' AND pagetype = 'overflow' ORDER BY pageno LIMIT 8"), 8);
	sum_of(db, before, sizeof(before));
	cr_assert_eq(add_to(NULL, db, revision_file("n.json", 9, 1, 1), out,
	    sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "damaged, nothing written"), "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	sum_of(db, after, sizeof(after));
	cr_assert_str_eq(before, after);
}

/*
 * A truncated store is damaged, not another kind of file; an empty file
 * is refused and stays empty, never made a store.
 */
Test(store, a_truncated_or_empty_file_is_named_as_such)
{
	const char *db = store_of("h.db", 2), *empty = kept(tmp("empty.db"));
	char args[512], out[8192];
	struct stat sb;
	FILE *f;

	cr_assert_eq(stat(db, &sb), 0);
	cr_assert_eq(truncate(db, sb.st_size / 2), 0);
	snprintf(args, sizeof(args), "store list --db %s", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "database disk image is malformed"),
	    "%s", out);
	cr_assert_null(strstr(out, "not a dispatchbench store"), "%s", out);
	cr_assert_not_null(f = fopen(empty, "w"));
	fclose(f);
	cr_assert_eq(add_to(NULL, empty, revision_file("r.json", 1, 1, 1),
	    out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "empty file, not a dispatchbench store"),
	    "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_eq(stat(empty, &sb), 0);
	cr_assert_eq(sb.st_size, 0);
}

/* `store add` of file into db in a child, its output into log. */
static pid_t
add_in_child(const char *db, const char *file, const char *log)
{
	pid_t pid;
	int fd;

	if ((pid = fork()) == 0) {
		if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(DB_BINARY, DB_BINARY, "store", "add", "--db", db, file,
		    (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Two imports into a store that is not there yet, at once: both go in. */
Test(store, two_first_imports_at_once_both_go_in)
{
	const char *a = kept(revision_file("a.json", 1, 1, 1));
	const char *b = kept(revision_file("b.json", 2, 1, 1));
	const char *la = kept(tmp("a.log")), *lb = kept(tmp("b.log"));
	char db[200], said[2][4096], cmd[512];
	pid_t pa, pb;
	int i, sa, sb;

	for (i = 0; i < 20; i++) {
		snprintf(db, sizeof(db), "%s", tmp("c.db"));
		snprintf(db + strlen(db), sizeof(db) - strlen(db), "%d", i);
		pa = add_in_child(db, a, la);
		pb = add_in_child(db, b, lb);
		waitpid(pa, &sa, 0);
		waitpid(pb, &sb, 0);
		snprintf(cmd, sizeof(cmd), "cat '%s'", la);
		shell_output(cmd, said[0], sizeof(said[0]));
		snprintf(cmd, sizeof(cmd), "cat '%s'", lb);
		shell_output(cmd, said[1], sizeof(said[1]));
		cr_assert(WIFEXITED(sa) && WEXITSTATUS(sa) == 0, "%s", said[0]);
		cr_assert(WIFEXITED(sb) && WEXITSTATUS(sb) == 0, "%s", said[1]);
		cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 2);
	}
}

/* from written again with other spacing and its runs' fields reordered. */
static void
reserialised(const char *from, const char *to)
{
	const cJSON *cell;
	cJSON *doc, *run, *f;
	char err[256], *text;
	FILE *out;

	cr_assert_eq(results_read(from, &doc, err, sizeof(err)), 0, "%s", err);
	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
			f = cJSON_DetachItemFromObject(run, "status");
			cJSON_AddItemToObject(run, "status", f);
		}
	cr_assert_not_null(text = cJSON_PrintUnformatted(doc));
	cr_assert_not_null(out = fopen(to, "w"));
	fprintf(out, "%s\n", text);
	fclose(out);
	free(text);
	cJSON_Delete(doc);
	return;
}

Test(store, the_same_runs_in_other_bytes_are_a_duplicate)
{
	const char *file = kept(revision_file("r.json", 1, 1, 3));
	const char *db = kept(tmp("h.db")), *copy = kept(tmp("copy.json"));
	char out[8192];

	cr_assert_eq(add_to(NULL, db, file, out, sizeof(out)), 0, "%s", out);
	reserialised(file, copy);
	cr_assert_eq(add_to(NULL, db, copy, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "already in"), "%s", out);
	cr_assert_not_null(strstr(out, "the same runs as"), "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(file));
}

/*
 * A machine is every field identity.h names: the same host and CPU under
 * another kernel is a second machine, named apart, and the import says
 * which field made it one.
 */
Test(store, a_machine_is_its_identity)
{
	const char *db = kept(tmp("h.db"));
	char out[8192];
	cJSON *doc = revision_doc(2, 1, 1);

	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "kernel",
	    cJSON_CreateString("Linux 7.0.0 x86_64"));
	cr_assert_eq(add_to(NULL, db, revision_file("r.json", 1, 1, 1), out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_eq(add_to(NULL, db, save_as(doc, "k.json", "abc0002"), out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "a new machine: not vm (AMD EPYC, 2 "
	    "CPUs) (kernel 'Linux 6.18.44-fc-v1098 x86_64' against 'Linux "
	    "7.0.0 x86_64')"), "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM machine"), 2);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM machine WHERE name = "
	    "'vm (AMD EPYC, 2 CPUs) #2' AND identity LIKE '%kernel=Linux 7.0.0 "
	    "x86_64%'"), 1);
}

static int
probe_seen(const struct store_probe *p, void *arg)
{
	char *seen = arg;
	size_t used = strlen(seen);

	snprintf(seen + used, 4096 - used, "%lld %s %s %s %g %g %g %lld "
	    "%lld;", p->sitting, p->revision, p->name, p->unit ? p->unit : "-",
	    p->median, p->min, p->max, p->n, p->ord);
	return 0;
}

/* An import's calibration probes as its context had them, read back. */
Test(store, keeps_each_imports_probes)
{
	const char *db = kept(tmp("h.db"));
	cJSON *doc = revision_doc(1, 1, 1), *probes, *p;
	char out[8192], err[512], seen[4096] = "";
	struct store *s;

	probes = cJSON_AddObjectToObject(cJSON_GetObjectItem(doc, "context"),
	    "probes");
	p = cJSON_AddObjectToObject(probes, "bare_loop");
	cJSON_AddStringToObject(p, "unit", "ns");
	cJSON_AddNumberToObject(p, "median", 1.5);
	cJSON_AddNumberToObject(p, "min", 1.25);
	cJSON_AddNumberToObject(p, "max", 2);
	cJSON_AddNumberToObject(p, "n", 9);
	p = cJSON_AddObjectToObject(probes, "futex_wake");
	cJSON_AddStringToObject(p, "unit", "ns");
	cJSON_AddNumberToObject(p, "n", 0);
	cJSON_AddNumberToObject(cJSON_GetObjectItem(doc, "context"),
	    "git_depth", 7);
	cr_assert_eq(add_to(NULL, db, save_as(doc, "p.json", "abc0001"), out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_eq(store_open(db, false, &s, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(store_probes(s, probe_seen, seen, err, sizeof(err)), 2,
	    "%s", err);
	store_close(s);
	cr_assert_str_eq(seen, "1 abc0001 bare_loop ns 1.5 1.25 2 9 7;"
	    "1 abc0001 futex_wake ns nan nan nan 0 7;");
}

/*
 * A store made by version 1 (tests/data/history-v1.db: two imports of
 * two commits made at 04:30 on a -05:00 clock) is migrated when opened:
 * commit times in UTC, machines by identity, each import's runs hashed
 * from its document (so that document written again is a duplicate),
 * runs still its imports'.
 */
Test(store, migrates_a_version_1_store)
{
	const char *db = kept(tmp("v1.db")), *doc = kept(tmp("doc.json"));
	char cmd[512], out[8192];

	snprintf(cmd, sizeof(cmd), "cp %s/history-v1.db %s && chmod u+w %s",
	    DB_TEST_DATA, db, db);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "store list --db %s --format csv", db);
	cr_assert_eq(binary_run("", cmd, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(query(db, "PRAGMA user_version"), 2);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM revision WHERE "
	    "committed_at = '2026-01-01T09:30:00Z' AND ord = 1"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM machine"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(DISTINCT runs_sha256) FROM "
	    "import"), 2);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM pragma_foreign_key_check"),
	    0);
	snprintf(cmd, sizeof(cmd), "sqlite3 %s 'SELECT document FROM import "
	    "WHERE id = 2' > %s", db, doc);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(add_to(NULL, db, doc, out, sizeof(out)), 2, "%s", out);
	cr_assert_not_null(strstr(out, "the same runs as ../v1-2.json"), "%s",
	    out);
	cr_assert_eq(add_to(NULL, db, revision_file("r.json", 3, 1, 1), out,
	    sizeof(out)), 0, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 3);
	/* run's rows still belong to (and go with) the imports. */
	snprintf(cmd, sizeof(cmd), "sqlite3 %s 'PRAGMA foreign_keys=ON; DELETE "
	    "FROM import WHERE id = 1'", db);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run WHERE import_id = 1"),
	    0);
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

/*
 * history of db finds one step in each of its two series, +30 % from
 * revision rev on, confirmed; its output stays in out.
 */
static void
finds_the_step(const char *db, const char *extra, const char *rev,
    char *out, size_t len)
{
	char args[512], want[64];

	snprintf(args, sizeof(args), "history --db %s%s", db, extra);
	cr_assert_eq(binary_run("", args, out, len), 0, "%s", out);
	cr_assert_not_null(strstr(out, "2 steps, 0 of them unconfirmed"), "%s",
	    out);
	snprintf(want, sizeof(want), "%s  ", rev);
	cr_assert_not_null(strstr(out, want), "%s", out);
	cr_assert_not_null(strstr(out, "+30.0 %"), "%s", out);
	return;
}

Test(history, names_the_revision_a_step_begins_at)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512];

	history_of(db, 8, 4, 1.3);
	/* Four revisions after it: confirmed, and no news for a merge. */
	finds_the_step(db, " --fail-on-step", "abc0004", out, sizeof(out));
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
	cr_assert_not_null(strstr(out, "got worse: a step no earlier merge saw"),
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

/* The n commits of the clone in dir, oldest first, in git's format. */
static void
commits_of(const char *dir, const char *format, char sha[][48], int n)
{
	char cmd[512], out[4096], *line;
	int i;

	snprintf(cmd, sizeof(cmd), "cd %s && git log --reverse --format=%s",
	    dir, format);
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 0);
	for (i = 0, line = strtok(out, "\n"); i < n && line != NULL;
	    i++, line = strtok(NULL, "\n"))
		snprintf(sha[i], 48, "%s", line);
	cr_assert_eq(i, n);
	return;
}

/*
 * A repository in dir of eight first-parent commits an hour apart in
 * UTC, made on clocks whose offsets make their %cI strings sort 0 4 1 5
 * 2 6 3 7; their short hashes into sha.
 */
static void
clocks_apart(const char *dir, char sha[8][48])
{
	static const int local[8] = { 1, 3, 5, 7, 2, 4, 6, 8 };
	char cmd[4096], out[1024];
	size_t used;
	int i;

	used = (size_t)snprintf(cmd, sizeof(cmd), "mkdir -p %s && cd %s && "
	    "git init -q && git config user.email t@example.org && "
	    "git config user.name t", dir, dir);
	for (i = 0; i < 8; i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used,
		    " && echo %d > f && git add f && GIT_COMMITTER_DATE="
		    "2026-01-01T%02d:00:00-%02d:00 git commit -qm c%d", i,
		    local[i], 10 + i - local[i], i);
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 0, "%s", out);
	commits_of(dir, "%h", sha, 8);
	return;
}

/*
 * Commits ordered by their UTC time and depth, not their %cI strings:
 * the +30 % step from commit 4 on is found there.
 */
Test(history, orders_commits_in_utc_whatever_their_clocks)
{
	const char *repo = kept(tmp("repo")), *db = kept(tmp("h.db"));
	char sha[8][48], name[32];
	static char out[65536];
	int i;

	clocks_apart(repo, sha);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "r%d.json", i);
		cr_assert_eq(add_to(repo, db, save_as(revision_doc(i, i >= 4 ?
		    1.3 : 1, 2), name, sha[i]), out, sizeof(out)), 0, "%s",
		    out);
	}
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM revision WHERE "
	    "committed_at = '2026-01-01T14:00:00Z' AND ord = 5"), 1);
	finds_the_step(db, "", sha[4], out, sizeof(out));
}

/* How many times s holds w. */
static int
times_in(const char *s, const char *w)
{
	int n = 0;

	for (; (s = strstr(s, w)) != NULL; s++)
		n++;
	return n;
}

/*
 * Eight revisions (prefix000..007), from 004 on slower by 30 %, each
 * measured in two sittings on days against their order, imported where
 * git knows none of them; each build recorded its commit's depth and
 * time when depth says so, the time on a clock set back an hour a commit
 * (commit order is the depth's, the time only breaks a tie).
 */
static void
outside_the_clone(const char *db, const char *prefix, bool depth)
{
	char name[32], rev[32], when[32], out[4096];
	cJSON *doc, *ctx;
	int i, k;

	for (i = 0; i < 16; i++) {
		k = i % 2;
		doc = revision_doc(k * 20 + 8 - i / 2, i >= 8 ? 1.3 : 1, 2);
		ctx = cJSON_GetObjectItem(doc, "context");
		snprintf(when, sizeof(when), "2026-01-01T%02d:00:00Z",
		    17 - i / 2);
		if (depth) {
			cJSON_AddStringToObject(ctx, "git_time", when);
			cJSON_AddNumberToObject(ctx, "git_depth", 100 + i / 2);
		}
		snprintf(name, sizeof(name), "r%d-%d.json", i / 2, k);
		snprintf(rev, sizeof(rev), "%s%03d", prefix, i / 2);
		cr_assert_eq(add_to(tmp(""), db, save_as(doc, name, rev), out,
		    sizeof(out)), 0, "%s", out);
		cr_assert_not_null(strstr(out, "git does not know"), "%s", out);
	}
	return;
}

/* Each of prefix000..007 one row of the one series of 'inline c=64'. */
static void
each_revision_once(const char *db, const char *prefix, char *out,
    size_t len)
{
	char args[512], rev[32];
	int i;

	snprintf(args, sizeof(args), "history --db %s --format csv --cell "
	    "'inline c=64'", db);
	cr_assert_eq(binary_run("", args, out, len), 0, "%s", out);
	for (i = 0; i < 8; i++) {
		snprintf(rev, sizeof(rev), ",%s%03d,", prefix, i);
		cr_assert_eq(times_in(out, rev), 1, "%s", out);
	}
	return;
}

/*
 * Outside the clone the depth and time the builds recorded order the
 * revisions, each one point: the step from 004 on is found there.
 */
Test(history, orders_by_what_the_build_recorded_outside_the_clone)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];

	outside_the_clone(db, "dead", true);
	finds_the_step(db, "", "dead004", out, sizeof(out));
	each_revision_once(db, "dead", out, sizeof(out));
	cr_assert_not_null(strstr(out, ",dead004,2026-01-01T13:00:00Z,"),
	    "%s", out);
}

/*
 * A revision nothing dates (a build before git_time) is one point too,
 * where its first sitting puts it, whatever sittings followed.
 */
Test(history, a_revision_is_one_point_whatever_imported_it)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];

	outside_the_clone(db, "beef", false);
	each_revision_once(db, "beef", out, sizeof(out));
}

/*
 * Eight revisions imported out of their order, their names sorting
 * against their dates (abc0007 the oldest, abc0000 the newest), git
 * knowing none: each is placed by its date, the +30 % from the fifth on
 * steps at abc0003, and the rows run oldest first.
 */
Test(history, orders_by_date_not_by_name_or_import)
{
	static const int order[8] = { 5, 2, 7, 0, 3, 6, 1, 4 };
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512], name[32], rev[32];
	const char *at, *last;
	int i, k;

	for (i = 0; i < 8; i++) {
		k = order[i];
		snprintf(name, sizeof(name), "r%d.json", k);
		snprintf(rev, sizeof(rev), "abc%04d", 7 - k);
		cr_assert_eq(add_to(tmp(""), db, save_as(revision_doc(k, k >= 4 ?
		    1.3 : 1, 2), name, rev), out, sizeof(out)), 0, "%s", out);
	}
	finds_the_step(db, "", "abc0003", out, sizeof(out));
	snprintf(args, sizeof(args), "history --db %s --format csv --cell "
	    "'inline c=64'", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	for (i = 7, last = out; i >= 0; i--, last = at) {
		snprintf(rev, sizeof(rev), ",abc%04d,", i);
		cr_assert_not_null(at = strstr(out, rev), "%s", out);
		cr_assert_gt(at, last, "abc%04d out of its order:\n%s", i, out);
	}
}

/* The reference file as run on host, a CPU of model, into name. */
static const char *
machine_file(const char *name, const char *host, const char *model)
{
	cJSON *doc = revision_doc(1, 1, 3), *ctx;

	ctx = cJSON_GetObjectItem(doc, "context");
	cJSON_ReplaceItemInObject(ctx, "host", cJSON_CreateString(host));
	cJSON_ReplaceItemInObject(ctx, "cpu_model", cJSON_CreateString(model));
	return save_as(doc, name, "abc0001");
}

/*
 * A merged file goes in whole or not at all: with one of its machines'
 * files in already, it is refused on one line and nothing of the other
 * machine is kept, which then goes in alone.
 */
Test(store, a_merged_file_with_one_machine_in_is_refused_whole)
{
	const char *db = kept(tmp("h.db")), *m = kept(tmp("m.json"));
	const char *a = kept(machine_file("epyc.json", "vm", "AMD EPYC"));
	const char *b = kept(machine_file("xeon.json", "xeon1", "Intel Xeon"));
	char args[1024], out[8192];

	snprintf(args, sizeof(args), "merge %s %s -o %s", a, b, m);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	snprintf(args, sizeof(args), "store add --db %s %s", db, b);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	snprintf(args, sizeof(args), "store add --db %s %s", db, m);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(lines_of(out), 1, "%s", out);
	cr_assert_not_null(strstr(out, "already in"), "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM import"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM machine"), 1);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(b));
	snprintf(args, sizeof(args), "store add --db %s %s", db, a);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM machine"), 2);
	cr_assert_eq(query(db, "SELECT COUNT(*) FROM run"), runs_in(a) +
	    runs_in(b));
}

/* A row of ab's, as compare writes it, and the step's mark of it. */
struct step_case {
	char row[700];
	enum step_mark mark;
	char why[200];		/* the step's why, or "" */
};

/*
 * Issue 44's rows, their figures as compare gave them. A step was "not
 * slower" from the interval of the center alone, or from `improved`:
 * bisect skipped the culprit of a regression the interval does not see.
 * Each way the verdict sees a rise past the threshold on the worse side
 * must be ruled out: the tail (3 of 12 runs twice as slow), the slow
 * share (20 % -> 40 %, the mean +17 %), the regimes moving apart (the
 * fast one 10 % faster, the slow share 4/20 -> 10/20: `improved`, the
 * mean x1.21) and the mirror (fewer slow runs, the fast ones 12 %
 * slower); and a rate's worse side is down (ops per second 30 % lower was
 * "not slower"). A row that regressed, whatever for, is slower; one that
 * rules each out is still not slower. compare now calls the regimes
 * moving apart `inconclusive: mixed`: the step reads it the same way.
 */
static struct step_case step_cases[] = {
	{ "{\"cell\": \"c\", \"verdict\": \"inconclusive\", \"why\": "
	    "\"inside ±5 %, but the 90th percentile moved +98.6 %\", "
	    "\"better\": \"lower\", \"ratio\": 1.004, \"ratio_lo\": 0.992, "
	    "\"ratio_hi\": 1.031, \"tail_change\": 0.986, \"bimodal\": false}",
	    STEP_OPEN, "inside ±5 %, but the 90th percentile moved +98.6 %" },
	{ "{\"cell\": \"c\", \"verdict\": \"inconclusive\", \"why\": \"\", "
	    "\"better\": \"lower\", \"ratio\": 1.006, \"ratio_lo\": 0.999, "
	    "\"ratio_hi\": 1.04, \"tail_change\": 0.004, \"bimodal\": true, "
	    "\"runs_base\": 20, \"runs_new\": 20, \"slow_base\": 4, "
	    "\"slow_new\": 8, \"within_regimes\": 1.002, "
	    "\"slow_share_change_lo\": -0.082, \"slow_share_change_hi\": "
	    "0.445, \"slow_share_margin\": 0.0496}", STEP_OPEN, "its slow "
	    "share 4/20 -> 8/20 may have moved +44 points, past its margin of 5" },
	{ "{\"cell\": \"c\", \"verdict\": \"improved\", \"why\": \"within "
	    "regimes -9.9 %\", \"better\": \"lower\", \"ratio\": 0.906, "
	    "\"ratio_lo\": 0.899, \"ratio_hi\": 1.783, \"tail_change\": -0.093, "
	    "\"bimodal\": true, \"runs_base\": 20, \"runs_new\": 20, "
	    "\"slow_base\": 4, \"slow_new\": 10, \"within_regimes\": 0.901, "
	    "\"slow_share_change_lo\": 0.005, \"slow_share_change_hi\": 0.534, "
	    "\"slow_share_margin\": 0.062}", STEP_OPEN, "within regimes -9.9 %; "
	    "its interval does not rule out +5 %" },
	{ "{\"cell\": \"c\", \"verdict\": \"inconclusive\", \"why\": "
	    "\"mixed: within regimes -10.0 %, slow share 4/20 -> 10/20, mean "
	    "+19.1 %\", \"better\": \"lower\", \"ratio\": 0.929, \"ratio_lo\": "
	    "0.892, \"ratio_hi\": 1.909, \"tail_change\": 0.035, \"bimodal\": "
	    "true, \"runs_base\": 20, \"runs_new\": 20, \"slow_base\": 4, "
	    "\"slow_new\": 10, \"within_regimes\": 0.9, "
	    "\"slow_share_change_lo\": 0.005, \"slow_share_change_hi\": 0.534, "
	    "\"slow_share_margin\": 0.049}", STEP_OPEN, "mixed: within regimes "
	    "-10.0 %, slow share 4/20 -> 10/20, mean +19.1 %; its interval does "
	    "not rule out +5 %" },
	{ "{\"cell\": \"c\", \"verdict\": \"improved\", \"why\": \"slow "
	    "share 10/20 -> 4/20\", \"better\": \"lower\", \"ratio\": 0.95, "
	    "\"ratio_lo\": 0.90, \"ratio_hi\": 1.02, \"tail_change\": 0.01, "
	    "\"bimodal\": true, \"runs_base\": 20, \"runs_new\": 20, "
	    "\"slow_base\": 10, \"slow_new\": 4, \"within_regimes\": 1.12, "
	    "\"slow_share_change_lo\": -0.534, \"slow_share_change_hi\": "
	    "-0.005, \"slow_share_margin\": 0.06}", STEP_OPEN, "slow share "
	    "10/20 -> 4/20; within regimes +12.0 %" },
	{ "{\"cell\": \"c\", \"verdict\": \"inconclusive\", \"why\": \"\", "
	    "\"better\": \"higher\", \"ratio\": 0.70, \"ratio_lo\": 0.65, "
	    "\"ratio_hi\": 0.75, \"tail_change\": -0.3}", STEP_OPEN, "its "
	    "interval does not rule out -5 %" },
	{ "{\"cell\": \"c\", \"verdict\": \"regressed\", \"why\": \"a slow "
	    "minority: the 90th percentile +98.6 %, the center +0.4 %\", "
	    "\"better\": \"lower\", \"ratio\": 1.004, \"ratio_lo\": 0.992, "
	    "\"ratio_hi\": 1.031, \"tail_change\": 0.986}", STEP_SLOWER,
	    "a slow minority: the 90th percentile +98.6 %, the center +0.4 %" },
	{ "{\"cell\": \"c\", \"verdict\": \"regressed\", \"why\": \"slow "
	    "share 4/20 -> 10/20\", \"better\": \"lower\", \"ratio\": 1.01, "
	    "\"ratio_lo\": 0.99, \"ratio_hi\": 1.03, \"bimodal\": true}",
	    STEP_SLOWER, "slow share 4/20 -> 10/20" },
	{ "{\"cell\": \"c\", \"verdict\": \"inconclusive\", \"why\": \"could "
	    "not see changes below 7 %\", \"better\": \"lower\", \"ratio\": "
	    "1.0, \"ratio_lo\": 0.96, \"ratio_hi\": 1.03, \"tail_change\": "
	    "0.02, \"bimodal\": true, \"runs_base\": 20, \"runs_new\": 20, "
	    "\"slow_base\": 4, \"slow_new\": 4, \"within_regimes\": 1.01, "
	    "\"slow_share_change_lo\": -0.04, \"slow_share_change_hi\": 0.04, "
	    "\"slow_share_margin\": 0.05}", STEP_GOOD, "could not see changes "
	    "below 7 %" },
};

ParameterizedTestParameters(bisect, a_step_is_slower_by_the_whole_verdict)
{

	return cr_make_param_array(struct step_case, step_cases,
	    sizeof(step_cases) / sizeof(step_cases[0]));
}

ParameterizedTest(struct step_case *c, bisect,
    a_step_is_slower_by_the_whole_verdict)
{
	cJSON *rows = cJSON_CreateArray(), *row = cJSON_Parse(c->row);
	struct step st;

	cr_assert_not_null(row, "%s", c->row);
	cJSON_AddItemToArray(rows, row);
	step_judge(rows, NULL, 0.05, &st);
	cr_assert_eq(st.mark, c->mark, "%s: %s, not %s", c->row,
	    step_marks[st.mark], step_marks[c->mark]);
	cr_assert_str_eq(st.why, c->why);
	cJSON_Delete(rows);
}

/*
 * A step of bisect --pair: pair's result as a row. Its better side went
 * unsaid, so a rate 30 % lower read as a cost 30 % lower: not slower.
 */
Test(bisect, a_pair_step_of_a_rate_is_judged_on_its_worse_side)
{
	cJSON *doc = cJSON_Parse("{\"cell\": {\"dispatcher\": \"shared\"}, "
	    "\"result\": {\"verdict\": \"inconclusive\", \"why\": \"\", "
	    "\"better\": \"higher\", \"exact\": false, \"ratio\": 0.7, "
	    "\"lo\": 0.65, \"hi\": 0.75, \"p\": 0.1, \"processes\": 6}}");
	cJSON *rows = step_pair_rows(doc);
	struct step st;

	step_judge(rows, NULL, 0.05, &st);
	cr_assert_eq(st.mark, STEP_OPEN, "%s", step_marks[st.mark]);
	cr_assert_str_eq(st.why, "its interval does not rule out -5 %");
	cJSON_Delete(rows);
	cJSON_Delete(doc);
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
 * What a clone's scripts/build-rev.sh makes of a revision here: a binary
 * (scripts/counted.sh) whose every run prints the run of its folder's
 * run.json, which counts the revision's `count` file instructions a
 * dispatch, as a counted window records it.
 */
static const char counted_build[] =
    "#!/bin/sh\n"
    "set -e\n"
    "mkdir -p \"$2/bench\"\n"
    "printf '{\"status\":\"ok\",\"" COUNTED "\":%s,"
    "\"instructions_counter\":\"callgrind\"}\\n' "
    "\"$(git show \"$1:count\")\" > \"$2/bench/run.json\"\n"
    "cp \"$(dirname \"$0\")/counted.sh\" \"$2/bench/dispatchbench\"\n"
    "chmod +x \"$2/bench/dispatchbench\"\n";
static const char counted_binary[] =
    "#!/bin/sh\n"
    "[ \"$1\" = --version ] && exec echo 'dispatchbench (build Release)'\n"
    "exec cat \"$(dirname \"$0\")/run.json\"\n";

/* text into dir/name. */
static void
write_to(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	return;
}

/*
 * A clone in dir of six first-parent commits, the fourth on counting one
 * instruction a dispatch more (300, then 301), built by counted_build;
 * their hashes into sha.
 */
static void
counted_clone(const char *dir, char sha[6][48])
{
	char cmd[4096], out[1024];
	size_t used;
	int i;

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/scripts && cd %s && git init "
	    "-q && git config user.email t@example.org && git config "
	    "user.name t && printf 'build-rev/\\n*.db\\n' > .gitignore", dir,
	    dir);
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 0, "%s", out);
	write_to(dir, "scripts/build-rev.sh", counted_build);
	write_to(dir, "scripts/counted.sh", counted_binary);
	used = (size_t)snprintf(cmd, sizeof(cmd), "cd %s", dir);
	for (i = 0; i < 6; i++)
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used,
		    " && echo %d > count && echo %d > n && git add -A && "
		    "git commit -qm c%d", i >= 3 ? 301 : 300, i, i);
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 0, "%s", out);
	commits_of(dir, "%H", sha, 6);
	return;
}

/*
 * A bisection over made-up commits, measured by what each commit's mark
 * says: G not slower, S slower, K a run broke, O inconclusive, x its
 * build fails (the build-rev.sh here fails for a commit named x...).
 */
struct route {
	const char *marks;	/* each commit's, oldest first, BAD last */
	const char *order;	/* the commits measured, in turn */
	int good, bad;		/* where the search ends */
	const char *why;	/* what it says when it names none; "": one */
};

static const char route_build[] =
    "#!/bin/sh\n"
    "case $1 in x*) exit 1 ;; esac\n"
    "mkdir -p \"$2/bench\" && : > \"$2/bench/dispatchbench\" &&\n"
    "    chmod +x \"$2/bench/dispatchbench\"\n";

static char route_seen[16];

/* Measures commit sha as its mark says, and notes its turn. */
static int
route_step(void *arg, const char *sha, const char *bin, const char *path,
    struct step *st)
{
	const struct route *r = arg;
	char m = r->marks[sha[1] - '0'];

	(void)bin;
	(void)path;
	route_seen[strlen(route_seen)] = sha[1];
	st->mark = m == 'S' ? STEP_SLOWER : m == 'G' ? STEP_GOOD : m == 'K' ?
	    STEP_SKIP : STEP_OPEN;
	snprintf(st->verdict, sizeof(st->verdict), "%s", step_marks[st->mark]);
	return 0;
}

/*
 * bisect's decisions over a series of steps, no revision built: the
 * middle of what is left each time (of an odd range, the lower), a
 * commit that does not build or whose run broke passed over for the next
 * nearest the middle, an inconclusive step or BAD not slower ending it,
 * and the commits left named when only skipped ones stand between.
 */
static const struct route routes[] = {
	{ "GGGGSSS", "6243", 3, 4, "" },
	{ "GGGGGSSS", "7354", 4, 5, "" },
	{ "SSSSSSS", "620", -1, 0, "" },
	{ "GGGxGSSS", "7245", 4, 5, "" },
	{ "GGGxSSSS", "724", 2, 4, "could not be built" },
	{ "GGGKSSSS", "7324", 2, 4, "could not be built" },
	{ "GGGOSSSS", "73", -1, 7, "stayed inconclusive" },
	{ "GGGGGGGG", "7", -1, 7, "BAD is not slower" },
	{ "GGGGGGGO", "7", -1, 7, "BAD against GOOD has no answer" },
};

Test(bisect, each_step_halves_what_is_left_and_says_where_it_ended)
{
	static struct bisection b;
	const struct route *r;
	const char *why;
	size_t k;
	int i, good, bad, rc;

	mkdir(tmp("clone"), 0777);
	mkdir(tmp("clone/scripts"), 0777);
	write_to(tmp("clone"), "scripts/build-rev.sh", route_build);
	for (k = 0; k < sizeof(routes) / sizeof(routes[0]); k++) {
		r = &routes[k];
		memset(&b, 0, sizeof(b));
		memset(route_seen, 0, sizeof(route_seen));
		snprintf(b.top, sizeof(b.top), "%s", tmp("clone"));
		snprintf(b.dir, sizeof(b.dir), "%s", tmp(""));
		snprintf(b.out, sizeof(b.out), "%s", tmp(""));
		b.measure = route_step;
		b.arg = (void *)r;
		for (i = 0; r->marks[i] != '\0'; i++)
			snprintf(b.sha[i], sizeof(b.sha[i]), "%c%d",
			    r->marks[i] == 'x' ? 'x' : 'c', i);
		b.n = i;
		good = -1;
		bad = b.n - 1;
		why = bisection_search(&b, &good, &bad, &rc);
		cr_assert_eq(rc, 0);
		cr_assert_str_eq(route_seen, r->order, "%s: measured %s, not %s",
		    r->marks, route_seen, r->order);
		cr_assert_eq(good, r->good, "%s: good %d", r->marks, good);
		cr_assert_eq(bad, r->bad, "%s: bad %d", r->marks, bad);
		if (*r->why == '\0')
			cr_assert_null(why, "%s: %s", r->marks, why);
		else
			cr_assert_not_null(why != NULL ? strstr(why, r->why) :
			    NULL, "%s: %s", r->marks, why);
	}
}

/*
 * Issue 43: bisect --metric instructions_per_dispatch names the first
 * commit whose exact count moved from GOOD's, one instruction on 300
 * (+0.3 %): bisect passes no --threshold of its own to its steps, and
 * each step's verdict on exact counts needs no test; with --threshold 5
 * given, BAD is not slower.
 */
Test(bisect, names_the_first_commit_whose_exact_count_moved, .timeout = 120)
{
	const char *repo = kept(tmp("counted"));
	static char out[65536];
	char cmd[4096], want[128];
	char sha[6][48];

	counted_clone(repo, sha);
	snprintf(cmd, sizeof(cmd), "cd %s && %s bisect %s %s --metric " COUNTED
	    " --db h.db --reps 2 --warmup 0 --time 0.01 --budget 10 2>&1",
	    repo, DB_BINARY, sha[0], sha[5]);
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 0, "%s", out);
	snprintf(want, sizeof(want), "first slower commit: %.7s c3\n",
	    sha[3]);
	cr_assert_not_null(strstr(out, want), "%s", out);
	cr_assert_not_null(strstr(out, "regressed, +0.3 % instructions "
	    "(exact: 300.0 -> 301.0 a dispatch)"), "%s", out);
	snprintf(cmd, sizeof(cmd), "cd %s && %s bisect %s %s --metric " COUNTED
	    " --db h.db --reps 2 --warmup 0 --time 0.01 --budget 10 "
	    "--threshold 5 2>&1", repo, DB_BINARY, sha[0], sha[5]);
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 3, "%s", out);
	cr_assert_not_null(strstr(out, "BAD is not slower than GOOD"), "%s",
	    out);
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

/* A merge's CI: file into the store db, then history's exit, its text in out. */
static int
merged(const char *db, const char *file, char *out, size_t len)
{
	char args[512];

	snprintf(args, sizeof(args), "store add --db %s %s", db, file);
	cr_assert_eq(binary_run("", args, out, len), 0, "%s", out);
	snprintf(args, sizeof(args), "history --db %s --fail-on-step", db);
	return binary_run("", args, out, len);
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
	char name[32];
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
			rc = merged(db, file, out, sizeof(out));
			cr_assert_eq(rc, !moved && i == 3, "moved %d, merge %d: "
			    "exit %d\n%s", moved, i + 1, rc, out);
		}
		cr_assert_eq(strstr(out, "the machine moved (bare_loop 0.29 -> "
		    "0.57 ns)") != NULL, moved, "%s", out);
	}
}

/* Every run of the file at path with its bare loop times factor. */
static void
with_bare(const char *path, double factor)
{
	cJSON *doc, *cell, *run, *f;
	char err[256];

	cr_assert_eq(results_read(path, &doc, err, sizeof(err)), 0, "%s", err);
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs"))
			if ((f = cJSON_GetObjectItem(run,
			    "bare_loop_us_per_dispatch")) != NULL)
				cJSON_SetNumberValue(f, f->valuedouble *
				    factor);
	cr_assert_eq(results_write(doc, path), 0);
	cJSON_Delete(doc);
	return;
}

/*
 * Seven merges, the fourth twice as dear, the probes of every sitting
 * alike: with the runs' bare loop 1.6 times slower from that sitting on
 * (a host that gave the core another speed after its probes), the step
 * is the machine's and no merge fails; with the runs' bare loop as fast
 * from there on, or faster, which explains no rise, or 1.1 times slower,
 * far less than the step, the fourth merge fails.
 */
Test(history, a_step_the_runs_bare_loop_moved_with_is_the_machine)
{
	static const double after[4] = { 1.6, 1, 0.6, 1.1 };
	const char *db;
	static char out[65536];
	char name[32];
	const char *file;
	int i, k, rc;

	for (k = 0; k < 4; k++) {
		snprintf(name, sizeof(name), "bare%d.db", k);
		db = kept(tmp(name));
		for (i = 0; i < 7; i++) {
			snprintf(name, sizeof(name), "b%d-%d.json", k, i);
			file = revision_file(name, i, i >= 3 ? 2.0 : 1, 4);
			with_probe(file, "bare_loop", 0.29, 0.28, 0.31);
			with_bare(file, i >= 3 ? after[k] : 1);
			rc = merged(db, file, out, sizeof(out));
			cr_assert_eq(rc, k > 0 && i == 3, "bare x%g, merge %d: "
			    "exit %d\n%s", after[k], i + 1, rc, out);
		}
		cr_assert_eq(strstr(out, "the machine moved (the runs' bare "
		    "loop ") != NULL, k == 0, "%s", out);
	}
}

/*
 * Issue 43: a counted history, 300 instructions a dispatch and 301 from
 * revision 5 on (+0.3 %, far under the default threshold): each series
 * is exact, and steps at revision 5, confirmed, with no test; a
 * --threshold of 5 given calls it nothing; a count that moves at the
 * newest revision fails the merge at once, though the bare loop's probe
 * moved with it: a machine's speed moves no count.
 */
Test(history, an_exact_count_steps_at_the_revision_it_moved)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512], name[32];
	const char *file;
	int i;

	for (i = 0; i < 9; i++) {
		snprintf(name, sizeof(name), "c%d.json", i);
		file = counted_file(name, i, i == 8 ? 302 : i >= 5 ? 301 : 300);
		with_probe(file, "bare_loop", i == 8 ? 0.57 : 0.29, i == 8 ?
		    0.55 : 0.28, i == 8 ? 0.60 : 0.31);
		if (i == 8)
			continue;
		snprintf(args, sizeof(args), "store add --db %s %s", db, file);
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s",
		    out);
	}
	snprintf(args, sizeof(args), "history --db %s --metric " COUNTED
	    " --fail-on-step", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "2 steps, 0 of them unconfirmed"), "%s",
	    out);
	cr_assert_not_null(strstr(out, "abc0005  "), "%s", out);
	cr_assert_not_null(strstr(out, "+0.333 % (exact)"), "%s", out);
	cr_assert_not_null(strstr(out, "step (exact)"), "%s", out);
	snprintf(args, sizeof(args), "history --db %s --metric " COUNTED
	    " --threshold 5", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, ": 0 steps"), "%s", out);
	snprintf(args, sizeof(args), "store add --db %s %s", db, file);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	snprintf(args, sizeof(args), "history --db %s --metric " COUNTED
	    " --fail-on-step", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "abc0008  "), "%s", out);
	cr_assert_null(strstr(out, "the machine moved"), "%s", out);
}

/*
 * Issue 44: +1 % a revision over 20 revisions was two steps, with no word
 * of a drift. Each of the two series is named a drift over all 20, with
 * its rate and its whole change, and no step is left. The history of one
 * +30 % step (names_the_revision_a_step_begins_at) stays a step.
 */
Test(history, a_steady_rise_is_named_a_drift)
{
	const char *db = kept(tmp("h.db"));
	static char out[65536];
	char args[512], name[32];
	int i;

	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "d%d.json", i);
		snprintf(args, sizeof(args), "store add --db %s %s", db,
		    revision_file(name, i, pow(1.01, i), 2));
		cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s",
		    out);
	}
	snprintf(args, sizeof(args), "history --db %s", db);
	cr_assert_eq(binary_run("", args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, ": 0 steps, 0 of them unconfirmed"),
	    "%s", out);
	cr_assert_not_null(strstr(out, "2 series drift: "), "%s", out);
	cr_assert_not_null(strstr(out, " build: drift: +1.0 % a revision over "
	    "20 revisions, abc0000..abc0019, +20.8 % in all"), "%s", out);
}
