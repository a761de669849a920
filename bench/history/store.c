/*
 * store.c - the history store in SQLite (see store.h; the schema is
 * documented in docs/history.md and must change with STORE_SCHEMA).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "context.h"
#include "params.h"
#include "results.h"
#include "store.h"
#include "table.h"

/* "DBhs": the file's type, at offset 68 of its header. */
#define STORE_APPLICATION_ID	0x44426873

struct store {
	sqlite3 *db;
	const char *path;
};

/*
 * Tables are STRICT (a value of the wrong type is refused, not kept);
 * value holds every numeric field of every run, so any figure a later
 * build reads has its history. A revision is named as its build named
 * itself (git_rev): a dirty tree's build is a revision of its own.
 */
static const char store_schema[] =
	"CREATE TABLE machine("
	" id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL UNIQUE,"
	" host TEXT NOT NULL, cpu_model TEXT NOT NULL,"
	" online_cpus INTEGER NOT NULL, topology TEXT NOT NULL,"
	" cpuset TEXT NOT NULL) STRICT;"
	"CREATE TABLE revision("
	" id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, sha TEXT,"
	" ord INTEGER, committed_at TEXT, subject TEXT) STRICT;"
	"CREATE TABLE import("
	" id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE,"
	" file TEXT NOT NULL, imported_at TEXT NOT NULL,"
	" machine_id INTEGER NOT NULL REFERENCES machine(id),"
	" revision_id INTEGER NOT NULL REFERENCES revision(id),"
	" date TEXT NOT NULL, build_type TEXT NOT NULL, build_flags TEXT,"
	" compiler TEXT, kernel TEXT, binary_sha256 TEXT,"
	" complete INTEGER NOT NULL, document TEXT NOT NULL) STRICT;"
	"CREATE TABLE cell("
	" id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE,"
	" dispatcher TEXT NOT NULL, queue TEXT NOT NULL,"
	" workers INTEGER NOT NULL) STRICT;"
	"CREATE TABLE run("
	" id INTEGER PRIMARY KEY,"
	" import_id INTEGER NOT NULL REFERENCES import(id) ON DELETE CASCADE,"
	" cell_id INTEGER NOT NULL REFERENCES cell(id),"
	" rep INTEGER NOT NULL, status TEXT NOT NULL,"
	" host_busy INTEGER NOT NULL) STRICT;"
	"CREATE TABLE value("
	" run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	" metric TEXT NOT NULL, value REAL NOT NULL,"
	" PRIMARY KEY(run_id, metric)) STRICT, WITHOUT ROWID;"
	"CREATE INDEX value_metric ON value(metric);"
	"CREATE INDEX run_import ON run(import_id);"
	"CREATE TABLE bisect("
	" id INTEGER PRIMARY KEY, started_at TEXT NOT NULL,"
	" good TEXT NOT NULL, bad TEXT NOT NULL, options TEXT NOT NULL,"
	" outcome TEXT, first_bad TEXT, seconds REAL) STRICT;"
	"CREATE TABLE bisect_step("
	" bisect_id INTEGER NOT NULL REFERENCES bisect(id) ON DELETE CASCADE,"
	" n INTEGER NOT NULL, revision TEXT NOT NULL, mark TEXT NOT NULL,"
	" verdict TEXT NOT NULL,"
	" ratio REAL, lo REAL, hi REAL, p REAL, runs INTEGER, seconds REAL,"
	" why TEXT, PRIMARY KEY(bisect_id, n)) STRICT;";

static int
store_fail(struct store *s, const char *what, char *err, size_t errlen)
{

	snprintf(err, errlen, "%s: %s: %s", s->path, what,
	    sqlite3_errmsg(s->db));
	return -1;
}

static int
store_exec(struct store *s, const char *sql, char *err, size_t errlen)
{

	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(s, "cannot write", err, errlen);
	return 0;
}

static long long
store_pragma(struct store *s, const char *name)
{
	char sql[64];
	sqlite3_stmt *st;
	long long v = -1;

	snprintf(sql, sizeof(sql), "PRAGMA %s", name);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * A new file gets the schema in one transaction with its version; an old
 * one must be a store (its application id) of a version this build reads.
 */
static int
store_schema_check(struct store *s, char *err, size_t errlen)
{
	long long version = store_pragma(s, "user_version");
	long long app = store_pragma(s, "application_id");
	char sql[sizeof(store_schema) + 128];

	if (version == 0 && app == 0 && store_pragma(s, "page_count") == 0) {
		snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE;%s"
		    "PRAGMA application_id=%d;PRAGMA user_version=%d;COMMIT;",
		    store_schema, STORE_APPLICATION_ID, STORE_SCHEMA);
		return store_exec(s, sql, err, errlen);
	}
	if (app != STORE_APPLICATION_ID)
		return snprintf(err, errlen, "%s: not a dispatchbench store",
		    s->path), -1;
	if (version > STORE_SCHEMA)
		return snprintf(err, errlen, "%s: store schema %lld is newer "
		    "than this build reads (%d)", s->path, version,
		    STORE_SCHEMA), -1;
	return 0;
}

int
store_open(const char *path, bool create, struct store **sp, char *err,
    size_t errlen)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	struct store *s = calloc(1, sizeof(*s));

	if (s == NULL)
		abort();
	s->path = path;
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, create ?
		    sqlite3_errmsg(s->db) :
		    "no store there (store add makes one)");
		store_close(s);
		return -1;
	}
	/* Another writer (a CI job) waits its turn rather than failing. */
	sqlite3_busy_timeout(s->db, 10000);
	if (store_exec(s, "PRAGMA foreign_keys=ON", err, errlen) != 0 ||
	    store_schema_check(s, err, errlen) != 0) {
		if (strstr(err, "file is not a database") != NULL)
			snprintf(err, errlen, "%s: not a dispatchbench store",
			    path);
		store_close(s);
		return -1;
	}
	*sp = s;
	return 0;
}

void
store_close(struct store *s)
{

	if (s == NULL)
		return;
	sqlite3_close(s->db);
	free(s);
	return;
}

/* sql with ?1.. bound to texts, numbers or NULL; NULL on an error. */
static sqlite3_stmt *
store_prepare(struct store *s, const char *sql, char *err, size_t errlen)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		store_fail(s, "cannot read", err, errlen);
		return NULL;
	}
	return st;
}

static void
store_bind_text(sqlite3_stmt *st, int i, const char *v)
{

	if (v == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	return;
}

/* Steps st once and resets it; the row's first column, or -1 if none. */
static long long
store_step_id(sqlite3_stmt *st)
{
	long long id = -1;
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc == SQLITE_DONE)
		id = 0;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return id;
}

/* What git knows here of a revision named by a build (hex, maybe -dirty). */
struct store_rev {
	char name[64], sha[48], date[40], subject[256];
	long long ord;		/* -1: unknown */
};

static bool
store_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n >= 4 && n <= 40;
}

static void
store_git(const char *name, struct store_rev *r)
{
	size_t n = strcspn(name, "-");
	char cmd[256], line[512], *tab;
	FILE *p;

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->ord = -1;
	if (!store_hex(name, n))
		return;
	snprintf(cmd, sizeof(cmd), "git show -s --format=%%H%%x09%%cI%%x09%%s "
	    "'%.*s^{commit}' 2>/dev/null && git rev-list --first-parent "
	    "--count '%.*s' 2>/dev/null", (int)n, name, (int)n, name);
	if ((p = popen(cmd, "r")) == NULL)
		return;
	if (fgets(line, sizeof(line), p) != NULL &&
	    (tab = strchr(line, '\t')) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(r->sha, sizeof(r->sha), "%.*s", (int)(tab - line),
		    line);
		snprintf(r->date, sizeof(r->date), "%.25s", tab + 1);
		r->date[strcspn(r->date, "\t")] = '\0';
		if ((tab = strchr(tab + 1, '\t')) != NULL)
			snprintf(r->subject, sizeof(r->subject), "%s", tab + 1);
		if (fgets(line, sizeof(line), p) != NULL)
			r->ord = strtoll(line, NULL, 10);
	}
	pclose(p);
	return;
}

static long long
store_machine(struct store *s, const cJSON *ctx, char *err, size_t errlen)
{
	static const char *const f[] = { "host", "cpu_model", "topology",
	    "cpuset" };
	char print[1024];
	sqlite3_stmt *st;
	long long id;
	int i;

	snprintf(print, sizeof(print), "%s|%s|%d|%s|%s",
	    results_str(ctx, f[0], "?"), results_str(ctx, f[1], "?"),
	    results_int(ctx, "online_cpus", 0), results_str(ctx, f[2], "?"),
	    results_str(ctx, f[3], "?"));
	if ((st = store_prepare(s, "INSERT INTO machine(fingerprint, host, "
	    "cpu_model, topology, cpuset, online_cpus) VALUES (?1, ?2, ?3, ?4, "
	    "?5, ?6) ON CONFLICT(fingerprint) DO UPDATE SET fingerprint="
	    "excluded.fingerprint RETURNING id", err, errlen)) == NULL)
		return -1;
	store_bind_text(st, 1, print);
	for (i = 0; i < 4; i++)
		store_bind_text(st, i + 2, results_str(ctx, f[i], "?"));
	sqlite3_bind_int(st, 6, results_int(ctx, "online_cpus", 0));
	id = store_step_id(st);
	sqlite3_finalize(st);
	return id > 0 ? id : store_fail(s, "cannot write", err, errlen);
}

static long long
store_revision(struct store *s, const struct store_rev *r, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	long long id;

	if ((st = store_prepare(s, "INSERT INTO revision(name, sha, ord, "
	    "committed_at, subject) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT"
	    "(name) DO UPDATE SET sha=COALESCE(excluded.sha, sha), ord="
	    "COALESCE(excluded.ord, ord), committed_at=COALESCE(excluded."
	    "committed_at, committed_at), subject=COALESCE(excluded.subject, "
	    "subject) RETURNING id", err, errlen)) == NULL)
		return -1;
	store_bind_text(st, 1, r->name);
	store_bind_text(st, 2, *r->sha ? r->sha : NULL);
	if (r->ord >= 0)
		sqlite3_bind_int64(st, 3, r->ord);
	store_bind_text(st, 4, *r->date ? r->date : NULL);
	store_bind_text(st, 5, *r->sha ? r->subject : NULL);
	id = store_step_id(st);
	sqlite3_finalize(st);
	return id > 0 ? id : store_fail(s, "cannot write", err, errlen);
}

/* The statements an import repeats per cell and per run. */
struct store_import {
	sqlite3_stmt *cell, *run, *value;
	long long id;
};

static int
store_run(struct store *s, struct store_import *im, long long cell,
    const cJSON *run, char *err, size_t errlen)
{
	const cJSON *f;
	long long id;

	sqlite3_bind_int64(im->run, 1, im->id);
	sqlite3_bind_int64(im->run, 2, cell);
	sqlite3_bind_int(im->run, 3, results_int(run, "rep", -1));
	store_bind_text(im->run, 4, results_str(run, "status", "?"));
	sqlite3_bind_int(im->run, 5, results_true(run, "host_busy"));
	if ((id = store_step_id(im->run)) <= 0)
		return store_fail(s, "cannot write", err, errlen);
	cJSON_ArrayForEach(f, run) {
		if (!cJSON_IsNumber(f) || strcmp(f->string, "rep") == 0)
			continue;
		sqlite3_bind_int64(im->value, 1, id);
		store_bind_text(im->value, 2, f->string);
		sqlite3_bind_double(im->value, 3, f->valuedouble);
		if (store_step_id(im->value) < 0)
			return store_fail(s, "cannot write", err, errlen);
	}
	return 0;
}

static int
store_cell(struct store *s, struct store_import *im, const cJSON *cell,
    char *err, size_t errlen)
{
	const cJSON *run;
	char key[1024];
	long long id;

	params_key(cell, true, key, sizeof(key));
	store_bind_text(im->cell, 1, key);
	store_bind_text(im->cell, 2, results_str(cell, "dispatcher", "?"));
	store_bind_text(im->cell, 3, results_str(cell, "queue", "-"));
	sqlite3_bind_int(im->cell, 4, results_int(cell, "workers", -1));
	if ((id = store_step_id(im->cell)) <= 0)
		return store_fail(s, "cannot write", err, errlen);
	cJSON_ArrayForEach(run, results_arr(cell, "runs"))
		if (store_run(s, im, id, run, err, errlen) != 0)
			return -1;
	return 0;
}

static int
store_cells(struct store *s, struct store_import *im, const cJSON *doc,
    char *err, size_t errlen)
{
	const cJSON *cell;
	int rc = -1;

	im->cell = store_prepare(s, "INSERT INTO cell(key, dispatcher, queue, "
	    "workers) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE SET "
	    "key=excluded.key RETURNING id", err, errlen);
	im->run = store_prepare(s, "INSERT INTO run(import_id, cell_id, rep, "
	    "status, host_busy) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id", err,
	    errlen);
	im->value = store_prepare(s, "INSERT INTO value(run_id, metric, value) "
	    "VALUES (?1, ?2, ?3)", err, errlen);
	if (im->cell != NULL && im->run != NULL && im->value != NULL) {
		rc = 0;
		cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
			if ((rc = store_cell(s, im, cell, err, errlen)) != 0)
				break;
	}
	sqlite3_finalize(im->cell);
	sqlite3_finalize(im->run);
	sqlite3_finalize(im->value);
	return rc;
}

/* The import's own row; 0 when these bytes are in already (err says as what). */
static long long
store_import_row(struct store *s, const char *path, const char *sha,
    const cJSON *doc, long long machine, long long rev, char *err,
    size_t errlen)
{
	static const char *const f[] = { "date", "build_type", "build_flags",
	    "compiler", "kernel", "binary_sha256" };
	const cJSON *ctx = results_obj(doc, "context");
	char now[32], *text;
	sqlite3_stmt *st;
	time_t t = time(NULL);
	long long id;
	int i;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if ((st = store_prepare(s, "INSERT INTO import(sha256, file, "
	    "imported_at, machine_id, revision_id, complete, document, date, "
	    "build_type, build_flags, compiler, kernel, binary_sha256) VALUES "
	    "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) "
	    "RETURNING id", err, errlen)) == NULL)
		return -1;
	if ((text = cJSON_PrintUnformatted(doc)) == NULL)
		abort();
	store_bind_text(st, 1, sha);
	store_bind_text(st, 2, path);
	store_bind_text(st, 3, now);
	sqlite3_bind_int64(st, 4, machine);
	sqlite3_bind_int64(st, 5, rev);
	sqlite3_bind_int(st, 6, results_true(doc, "complete"));
	store_bind_text(st, 7, text);
	for (i = 0; i < 6; i++)
		store_bind_text(st, 8 + i, results_str(ctx, f[i], "unknown"));
	id = store_step_id(st);
	sqlite3_finalize(st);
	free(text);
	return id > 0 ? id : store_fail(s, "cannot write", err, errlen);
}

/* The import of these bytes already in the store: its file and date. */
static bool
store_seen(struct store *s, const char *sha, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT file, imported_at FROM "
	    "import WHERE sha256 = ?1", err, errlen);
	bool seen;

	if (st == NULL)
		return false;
	store_bind_text(st, 1, sha);
	if ((seen = sqlite3_step(st) == SQLITE_ROW))
		snprintf(err, errlen, "already in %s: imported from %s on %s",
		    s->path, sqlite3_column_text(st, 0),
		    sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return seen;
}

static int
store_insert(struct store *s, const char *path, const char *sha,
    const cJSON *doc, const struct store_rev *rev, char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	struct store_import im;
	long long machine, r;

	if ((machine = store_machine(s, ctx, err, errlen)) < 0 ||
	    (r = store_revision(s, rev, err, errlen)) < 0 ||
	    (im.id = store_import_row(s, path, sha, doc, machine, r, err,
	    errlen)) < 0)
		return -1;
	return store_cells(s, &im, doc, err, errlen);
}

/* One machine's results, its bytes' sha256 not in the store yet. */
static int
store_one(struct store *s, const char *path, const char *sha,
    const cJSON *doc, char *what, size_t whatlen, char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	struct store_rev rev;
	size_t used = strlen(what);

	store_git(results_str(ctx, "git_rev", "unknown"), &rev);
	if (store_seen(s, sha, err, errlen) ||
	    store_insert(s, path, sha, doc, &rev, err, errlen) != 0)
		return -1;
	snprintf(what + used, whatlen - used, "%s%s: %d cells of %s (%.60s) "
	    "on %s (%s)", used > 0 ? "\n" : "", path, cJSON_GetArraySize(
	    results_arr(doc, "cells")), rev.name, *rev.sha ? rev.subject :
	    "a commit git does not know here", results_str(ctx, "host", "?"),
	    results_str(ctx, "cpu_model", "?"));
	return 0;
}

/* A merged file: each machine as the file it came from, by its bytes. */
static int
store_machines(struct store *s, const cJSON *doc, char *what,
    size_t whatlen, char *err, size_t errlen)
{
	const cJSON *m;
	cJSON *one;
	int i = 0, rc = 0;

	cJSON_ArrayForEach(m, results_arr(doc, "machines")) {
		one = results_machine_doc(doc, i++);
		rc = store_one(s, results_str(m, "source", "?"), results_str(m,
		    "sha256", "?"), one, what, whatlen, err, errlen);
		cJSON_Delete(one);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int
store_add(struct store *s, const char *path, char *what, size_t whatlen,
    char *err, size_t errlen)
{
	char sha[80];
	cJSON *doc;
	int rc = -1;

	if (results_read(path, &doc, err, errlen) != 0)
		return -1;
	context_sha256(path, sha, sizeof(sha));
	what[0] = '\0';
	if (store_exec(s, "BEGIN IMMEDIATE", err, errlen) == 0 &&
	    (results_machines(doc) > 0 ? store_machines(s, doc, what, whatlen,
	    err, errlen) : store_one(s, path, sha, doc, what, whatlen, err,
	    errlen)) == 0)
		rc = store_exec(s, "COMMIT", err, errlen);
	if (rc != 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	cJSON_Delete(doc);
	return rc;
}

static const struct table_col store_list_cols[] = {
	{ "import", "import" }, { "date", "measured" },
	{ "revision", "revision" }, { "machine", "machine" },
	{ "build", "build" }, { "cells", "cells" }, { "runs", "runs" },
	{ "complete", "complete" }, { "file", "file" },
};

/* A row's columns as the table's, each by its type. */
static cJSON *
store_row(sqlite3_stmt *st, const struct table_col *cols, int n)
{
	cJSON *row = cJSON_CreateObject();
	int i;

	for (i = 0; i < n; i++)
		if (sqlite3_column_type(st, i) == SQLITE_TEXT)
			cJSON_AddStringToObject(row, cols[i].name,
			    (const char *)sqlite3_column_text(st, i));
		else
			cJSON_AddNumberToObject(row, cols[i].name,
			    sqlite3_column_double(st, i));
	return row;
}

int
store_list(struct store *s, FILE *out, int format, char *err, size_t errlen)
{
	static const struct table t = { "store", store_list_cols,
	    sizeof(store_list_cols) / sizeof(store_list_cols[0]) };
	sqlite3_stmt *st = store_prepare(s, "SELECT i.id, i.date, r.name, "
	    "m.host || ' (' || m.cpu_model || ', ' || m.online_cpus || "
	    "' CPUs)', i.build_type, (SELECT COUNT(DISTINCT cell_id) FROM run "
	    "WHERE import_id = i.id), (SELECT COUNT(*) FROM run WHERE "
	    "import_id = i.id), CASE i.complete WHEN 1 THEN 'yes' ELSE 'no' END,"
	    " i.file FROM import i JOIN revision r ON r.id = i.revision_id "
	    "JOIN machine m ON m.id = i.machine_id ORDER BY i.id", err, errlen);
	cJSON *rows = cJSON_CreateArray();

	if (st == NULL)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW)
		cJSON_AddItemToArray(rows, store_row(st, t.cols, (int)t.ncols));
	sqlite3_finalize(st);
	table_write(out, (enum table_format)format, &t, rows);
	cJSON_Delete(rows);
	return 0;
}

long
store_values(struct store *s, const char *metric,
    int (*fn)(const struct store_value *, void *), void *arg, char *err,
    size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT m.id, m.host || ' (' || "
	    "m.cpu_model || ', ' || m.online_cpus || ' CPUs)', c.key, "
	    "i.build_type, r.name, COALESCE(r.committed_at, i.date), v.value, "
	    "COALESCE(r.ord, -1), i.id "
	    "FROM value v JOIN run u ON u.id = v.run_id JOIN import i ON i.id ="
	    " u.import_id JOIN machine m ON m.id = i.machine_id JOIN revision r"
	    " ON r.id = i.revision_id JOIN cell c ON c.id = u.cell_id WHERE "
	    "v.metric = ?1 AND u.status = 'ok' ORDER BY m.id, c.key, "
	    "i.build_type, COALESCE(r.committed_at, i.date), r.ord, r.name, "
	    "i.id, u.rep", err, errlen);
	struct store_value v;
	long n = 0;

	if (st == NULL)
		return -1;
	store_bind_text(st, 1, metric);
	while (sqlite3_step(st) == SQLITE_ROW) {
		v.machine = sqlite3_column_int64(st, 0);
		v.machine_name = (const char *)sqlite3_column_text(st, 1);
		v.cell = (const char *)sqlite3_column_text(st, 2);
		v.build = (const char *)sqlite3_column_text(st, 3);
		v.revision = (const char *)sqlite3_column_text(st, 4);
		v.date = (const char *)sqlite3_column_text(st, 5);
		v.value = sqlite3_column_double(st, 6);
		v.ord = sqlite3_column_int64(st, 7);
		v.sitting = sqlite3_column_int64(st, 8);
		n++;
		if (fn(&v, arg) != 0)
			break;
	}
	sqlite3_finalize(st);
	return n;
}

void
store_metrics(struct store *s, char *buf, size_t len)
{
	sqlite3_stmt *st;
	size_t used = 0;

	*buf = '\0';
	if (sqlite3_prepare_v2(s->db, "SELECT DISTINCT metric FROM value "
	    "ORDER BY metric", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    used ? ", " : "", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return;
}

long long
store_bisect_begin(struct store *s, const char *good, const char *bad,
    const char *options, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "INSERT INTO bisect(started_at, "
	    "good, bad, options) VALUES (strftime('%Y-%m-%dT%H:%M:%SZ'), ?1, "
	    "?2, ?3) RETURNING id", err, errlen);
	long long id;

	if (st == NULL)
		return -1;
	store_bind_text(st, 1, good);
	store_bind_text(st, 2, bad);
	store_bind_text(st, 3, options);
	id = store_step_id(st);
	sqlite3_finalize(st);
	return id > 0 ? id : store_fail(s, "cannot write", err, errlen);
}

static void
store_bind_num(sqlite3_stmt *st, int i, double v)
{

	if (v == v)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
	return;
}

int
store_bisect_step(struct store *s, long long bisect, int n,
    const struct store_step *x, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "INSERT INTO bisect_step(bisect_id,"
	    " n, revision, verdict, why, ratio, lo, hi, p, seconds, runs, mark) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", err,
	    errlen);
	long long rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, bisect);
	sqlite3_bind_int(st, 2, n);
	store_bind_text(st, 3, x->revision);
	store_bind_text(st, 4, x->verdict);
	store_bind_text(st, 5, x->why);
	store_bind_num(st, 6, x->ratio);
	store_bind_num(st, 7, x->lo);
	store_bind_num(st, 8, x->hi);
	store_bind_num(st, 9, x->p);
	store_bind_num(st, 10, x->seconds);
	sqlite3_bind_int(st, 11, x->runs);
	store_bind_text(st, 12, x->mark);
	rc = store_step_id(st);
	sqlite3_finalize(st);
	return rc < 0 ? store_fail(s, "cannot write", err, errlen) : 0;
}

int
store_bisect_end(struct store *s, long long bisect, const char *outcome,
    const char *first_bad, double seconds, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "UPDATE bisect SET outcome = ?2, "
	    "first_bad = ?3, seconds = ?4 WHERE id = ?1", err, errlen);
	long long rc;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, bisect);
	store_bind_text(st, 2, outcome);
	store_bind_text(st, 3, first_bad);
	store_bind_num(st, 4, seconds);
	rc = store_step_id(st);
	sqlite3_finalize(st);
	return rc < 0 ? store_fail(s, "cannot write", err, errlen) : 0;
}
