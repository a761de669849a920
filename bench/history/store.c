/*
 * store.c - the history store in SQLite (see store.h; the schema is
 * documented in docs/history.md and must change with STORE_SCHEMA).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "context.h"
#include "identity.h"
#include "params.h"
#include "results.h"
#include "runfields.h"
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
 * itself (git_rev): a dirty tree's build is a revision of its own. A
 * machine is its identity (identity.h), an import's runs are one
 * runs_sha256 whatever bytes carried them.
 */
static const char store_schema_v2[] =
	"CREATE TABLE machine("
	" id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE,"
	" name TEXT NOT NULL, host TEXT NOT NULL, cpu_model TEXT NOT NULL,"
	" online_cpus INTEGER NOT NULL, topology TEXT NOT NULL,"
	" cpuset TEXT NOT NULL) STRICT;"
	"CREATE TABLE revision("
	" id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, sha TEXT,"
	" ord INTEGER, committed_at TEXT, subject TEXT) STRICT;"
	"CREATE TABLE import("
	" id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE,"
	" runs_sha256 TEXT NOT NULL UNIQUE,"
	" file TEXT NOT NULL, imported_at TEXT NOT NULL,"
	" machine_id INTEGER NOT NULL REFERENCES machine(id),"
	" revision_id INTEGER NOT NULL REFERENCES revision(id),"
	" date TEXT NOT NULL, build_type TEXT NOT NULL, build_flags TEXT,"
	" compiler TEXT, kernel TEXT, binary_sha256 TEXT,"
	" complete INTEGER NOT NULL, document TEXT NOT NULL) STRICT;"
	"CREATE TABLE probe("
	" import_id INTEGER NOT NULL REFERENCES import(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, unit TEXT, median REAL, min REAL, max REAL,"
	" n INTEGER NOT NULL, PRIMARY KEY(import_id, name)) STRICT,"
	" WITHOUT ROWID;";

/* The tables version 1 made as version 2 has them. */
static const char store_schema_v1[] =
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

/*
 * The end of a read loop whose last step gave rc: SQLITE_DONE (or a row
 * the caller stopped at), else SQLite's words in err and -1.
 */
static int
store_done(struct store *s, sqlite3_stmt *st, int rc, char *err,
    size_t errlen)
{

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		store_fail(s, "cannot read", err, errlen);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* The number sql gives into *v; -1 with SQLite's words. */
static int
store_number(struct store *s, const char *sql, long long *v, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot read", err, errlen);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	return store_done(s, st, rc, err, errlen);
}

/*
 * SQLite's own check of every page, before anything is written: a write
 * into a damaged file spreads the damage, and then the file is refused
 * with what SQLite found, on one line.
 */
static int
store_check(struct store *s, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char said[512], *c;

	if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st,
	    NULL) != SQLITE_OK)
		return store_fail(s, "damaged, nothing written", err, errlen);
	if (sqlite3_step(st) != SQLITE_ROW) {
		store_fail(s, "damaged, nothing written", err, errlen);
		sqlite3_finalize(st);
		return -1;
	}
	snprintf(said, sizeof(said), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (strcmp(said, "ok") == 0)
		return 0;
	/* Its findings come a line each: one line here. */
	for (c = said; *c != '\0'; c++)
		if (*c == '\n')
			*c = ' ';
	snprintf(err, errlen, "%s: damaged, nothing written: %s (sqlite3 "
	    "%s .recover saves what it can)", s->path, said, s->path);
	return -1;
}

static int store_migrate(struct store *s, char *err, size_t errlen);

/*
 * The file must be a store (its application id) of a version this build
 * reads; version 1 is migrated. Its schema is read first: a damaged file
 * is said so in SQLite's words, never taken for another kind of file.
 */
static int
store_schema_check(struct store *s, char *err, size_t errlen)
{
	long long version = 0, app = 0, tables;

	if (store_number(s, "SELECT COUNT(*) FROM sqlite_schema", &tables,
	    err, errlen) != 0 ||
	    store_number(s, "PRAGMA application_id", &app, err, errlen) != 0 ||
	    store_number(s, "PRAGMA user_version", &version, err, errlen) != 0)
		return -1;
	if (app != STORE_APPLICATION_ID)
		return snprintf(err, errlen, "%s: not a dispatchbench store",
		    s->path), -1;
	if (version > STORE_SCHEMA)
		return snprintf(err, errlen, "%s: store schema %lld is newer "
		    "than this build reads (%d)", s->path, version,
		    STORE_SCHEMA), -1;
	return version == 1 ? store_migrate(s, err, errlen) : 0;
}

/*
 * A new store is made whole in a file of its own beside path, then linked
 * to path, which fails if another importer linked one first: then that
 * one is the store. No process ever sees a store without its schema.
 */
static int
store_make(const char *path, char *err, size_t errlen)
{
	char tmp[PATH_MAX], sql[sizeof(store_schema_v1) +
	    sizeof(store_schema_v2) + 128];
	struct store s = { NULL, path };
	mode_t mask;
	int fd, rc = -1;

	/* mkstemp makes it 0600: the store gets what a new file gets. */
	mask = umask(0);
	umask(mask);
	snprintf(tmp, sizeof(tmp), "%s.new-XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0)
		return snprintf(err, errlen, "%s: cannot make a store there: "
		    "%s", path, strerror(errno)), -1;
	fchmod(fd, 0666 & ~mask);
	close(fd);
	snprintf(sql, sizeof(sql), "BEGIN;%s%sPRAGMA application_id=%d;"
	    "PRAGMA user_version=%d;COMMIT;", store_schema_v2, store_schema_v1,
	    STORE_APPLICATION_ID, STORE_SCHEMA);
	if (sqlite3_open_v2(tmp, &s.db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK)
		store_fail(&s, "cannot make a store there", err, errlen);
	else if (store_exec(&s, sql, err, errlen) == 0)
		rc = 0;
	sqlite3_close(s.db);
	if (rc == 0 && link(tmp, path) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: cannot make a store there: %s",
		    path, strerror(errno));
		rc = -1;
	}
	unlink(tmp);
	return rc;
}

/*
 * Only a path where nothing is becomes a store; an empty file is refused
 * like any other file that is not one.
 */
static int
store_find(const char *path, bool create, char *err, size_t errlen)
{
	struct stat sb;

	if (stat(path, &sb) == 0)
		return sb.st_size > 0 ? 0 : (snprintf(err, errlen, "%s: an "
		    "empty file, not a dispatchbench store (store add makes "
		    "one where no file is)", path), -1);
	if (errno != ENOENT)
		return snprintf(err, errlen, "%s: %s", path, strerror(errno)),
		    -1;
	if (!create)
		return snprintf(err, errlen, "%s: no store there (store add "
		    "makes one)", path), -1;
	return store_make(path, err, errlen);
}

int
store_open(const char *path, bool create, struct store **sp, char *err,
    size_t errlen)
{
	struct store *s;

	if (store_find(path, create, err, errlen) != 0)
		return -1;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		abort();
	s->path = path;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		store_fail(s, "cannot open", err, errlen);
		store_close(s);
		return -1;
	}
	/* Another writer (a CI job) waits its turn rather than failing. */
	sqlite3_busy_timeout(s->db, 10000);
	if (store_exec(s, "PRAGMA foreign_keys=ON", err, errlen) != 0 ||
	    store_schema_check(s, err, errlen) != 0) {
		if (sqlite3_errcode(s->db) == SQLITE_NOTADB)
			snprintf(err, errlen, "%s: not a dispatchbench store "
			    "(%s)", path, sqlite3_errmsg(s->db));
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

static void
store_bind_num(sqlite3_stmt *st, int i, double v)
{

	if (v == v)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
	return;
}

/*
 * A revision named by a build (hex, maybe -dirty): what git knows of it
 * here, else the commit time and first-parent depth its build recorded.
 */
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
store_git(const cJSON *ctx, struct store_rev *r)
{
	const char *name = results_str(ctx, "git_rev", "unknown");
	size_t n = strcspn(name, "-");
	char cmd[256], line[512], *tab;
	FILE *p;

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->date, sizeof(r->date), "%s", results_str(ctx, "git_time",
	    ""));
	r->ord = results_int(ctx, "git_depth", -1);
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
		r->ord = -1;
		if (fgets(line, sizeof(line), p) != NULL)
			r->ord = strtoll(line, NULL, 10);
	}
	pclose(p);
	return;
}

/*
 * The machine of ctx by its identity; a new one is named for people by
 * host, CPU and CPUs, with "#2", "#3" after the first of those that
 * differs in another field.
 */
static long long
store_machine(struct store *s, const cJSON *ctx, char *err, size_t errlen)
{
	static const char *const f[] = { "host", "cpu_model", "topology",
	    "cpuset" };
	char key[4096], name[1024];
	sqlite3_stmt *st;
	long long id;
	int i;

	identity_key(ctx, key, sizeof(key));
	snprintf(name, sizeof(name), "%s (%s, %d CPUs)", results_str(ctx, f[0],
	    "?"), results_str(ctx, f[1], "?"), results_int(ctx, "online_cpus",
	    0));
	if ((st = store_prepare(s, "INSERT INTO machine(identity, name, host, "
	    "cpu_model, topology, cpuset, online_cpus) SELECT ?1, ?2 || IIF("
	    "COUNT(*) = 0, '', ' #' || (COUNT(*) + 1)), ?3, ?4, ?5, ?6, ?7 "
	    "FROM machine WHERE host = ?3 AND cpu_model = ?4 AND online_cpus = "
	    "?7 ON CONFLICT(identity) DO UPDATE SET identity=excluded.identity "
	    "RETURNING id", err, errlen)) == NULL)
		return -1;
	store_bind_text(st, 1, key);
	store_bind_text(st, 2, name);
	for (i = 0; i < 4; i++)
		store_bind_text(st, i + 3, results_str(ctx, f[i], "?"));
	sqlite3_bind_int(st, 7, results_int(ctx, "online_cpus", 0));
	id = store_step_id(st);
	sqlite3_finalize(st);
	return id > 0 ? id : store_fail(s, "cannot write", err, errlen);
}

/*
 * The revision's row. Its commit time is kept in UTC, whatever offset
 * the committer's clock had; what git here knows wins over what a build
 * recorded, which only fills what is unknown.
 */
static long long
store_revision(struct store *s, const struct store_rev *r, char *err,
    size_t errlen)
{
	sqlite3_stmt *st;
	long long id;

	if ((st = store_prepare(s, "INSERT INTO revision(name, sha, ord, "
	    "committed_at, subject) VALUES (?1, ?2, ?3, strftime("
	    "'%Y-%m-%dT%H:%M:%SZ', ?4), ?5) ON CONFLICT(name) DO UPDATE SET "
	    "sha=COALESCE(excluded.sha, sha), ord=IIF(excluded.sha IS NULL, "
	    "COALESCE(ord, excluded.ord), COALESCE(excluded.ord, ord)), "
	    "committed_at=IIF(excluded.sha IS NULL, COALESCE(committed_at, "
	    "excluded.committed_at), COALESCE(excluded.committed_at, "
	    "committed_at)), subject=COALESCE(excluded.subject, subject) "
	    "RETURNING id", err, errlen)) == NULL)
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

static int
store_name_cmp(const void *a, const void *b)
{

	return strcmp((*(const cJSON *const *)a)->string,
	    (*(const cJSON *const *)b)->string);
}

static int
store_line_cmp(const void *a, const void *b)
{

	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A run's line of the canonical text: cell, rep, status, numbers by name. */
static char *
store_run_line(const char *key, const cJSON *run)
{
	const cJSON *f, **num = NULL;
	size_t n = 0, cap = 0, i, len;
	char *line;
	FILE *m;

	cJSON_ArrayForEach(f, run) {
		if (!cJSON_IsNumber(f) || strcmp(f->string, RF(rep)) == 0)
			continue;
		if (n == cap && (num = realloc(num, (cap = cap * 2 + 32) *
		    sizeof(*num))) == NULL)
			abort();
		num[n++] = f;
	}
	if (n > 1)
		qsort(num, n, sizeof(*num), store_name_cmp);
	if ((m = open_memstream(&line, &len)) == NULL)
		abort();
	fprintf(m, "%s\t%d\t%s", key, results_int(run, RF(rep), -1),
	    results_str(run, RF(status), "?"));
	for (i = 0; i < n; i++)
		fprintf(m, "\t%s=%.17g", num[i]->string, num[i]->valuedouble);
	fclose(m);
	free(num);
	return line;
}

/*
 * The sha256 of doc's runs, whatever bytes carried them: the context's
 * date, host and binary, then a line per run (its cell's key, rep, status
 * and numeric fields by name, every number by one format), the lines
 * sorted. A file written again with other spacing or field order is the
 * same runs. -1 with err when it cannot be had.
 */
static int
store_runs_sha(const cJSON *doc, char *buf, size_t len, char *err,
    size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context"), *cell, *run;
	char key[1024], dev[64], **lines = NULL;
	size_t n = 0, cap = 0, i;
	FILE *f;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		params_key(cell, true, key, sizeof(key));
		cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
			if (n == cap && (lines = realloc(lines, (cap = cap * 2 +
			    64) * sizeof(*lines))) == NULL)
				abort();
			lines[n++] = store_run_line(key, run);
		}
	}
	if (n > 1)
		qsort(lines, n, sizeof(*lines), store_line_cmp);
	snprintf(buf, len, "unknown");
	if ((f = tmpfile()) != NULL) {
		fprintf(f, "%s\t%s\t%s\n", results_str(ctx, "date", "?"),
		    results_str(ctx, "host", "?"), results_str(ctx,
		    "binary_sha256", "?"));
		for (i = 0; i < n; i++)
			fprintf(f, "%s\n", lines[i]);
		fflush(f);
		snprintf(dev, sizeof(dev), "/dev/fd/%d", fileno(f));
		context_sha256(dev, buf, len);
		fclose(f);
	}
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	if (strcmp(buf, "unknown") != 0)
		return 0;
	return snprintf(err, errlen, "cannot hash the runs (sha256sum)"), -1;
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
	sqlite3_bind_int(im->run, 3, results_int(run, RF(rep), -1));
	store_bind_text(im->run, 4, results_str(run, RF(status), "?"));
	sqlite3_bind_int(im->run, 5, results_true(run, RF(host_busy)));
	if ((id = store_step_id(im->run)) <= 0)
		return store_fail(s, "cannot write", err, errlen);
	cJSON_ArrayForEach(f, run) {
		if (!cJSON_IsNumber(f) || strcmp(f->string, RF(rep)) == 0)
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

/* The calibration probes the context recorded, each as its row. */
static int
store_probes_of(struct store *s, long long import, const cJSON *ctx,
    char *err, size_t errlen)
{
	const cJSON *p, *probes = results_obj(ctx, "probes");
	sqlite3_stmt *st;
	int rc = 0;

	if (probes == NULL)
		return 0;
	if ((st = store_prepare(s, "INSERT INTO probe(import_id, name, unit, "
	    "median, min, max, n) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", err,
	    errlen)) == NULL)
		return -1;
	cJSON_ArrayForEach(p, probes) {
		if (!cJSON_IsObject(p))
			continue;
		sqlite3_bind_int64(st, 1, import);
		store_bind_text(st, 2, p->string);
		store_bind_text(st, 3, results_str(p, "unit", NULL));
		store_bind_num(st, 4, results_num(p, "median"));
		store_bind_num(st, 5, results_num(p, "min"));
		store_bind_num(st, 6, results_num(p, "max"));
		sqlite3_bind_int(st, 7, results_int(p, "n", 0));
		if (store_step_id(st) < 0) {
			rc = store_fail(s, "cannot write", err, errlen);
			break;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* The import's own row, for the file at path whose bytes' sha256 is sha. */
static long long
store_import_row(struct store *s, const char *path, const char *sha,
    const char *runs, const cJSON *doc, long long machine, long long rev,
    char *err, size_t errlen)
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
	    "build_type, build_flags, compiler, kernel, binary_sha256, "
	    "runs_sha256) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
	    "?11, ?12, ?13, ?14) RETURNING id", err, errlen)) == NULL)
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
	store_bind_text(st, 14, runs);
	id = store_step_id(st);
	sqlite3_finalize(st);
	free(text);
	return id > 0 ? id : store_fail(s, "cannot write", err, errlen);
}

/*
 * The import already in the store of these bytes, or of the same runs
 * in other bytes: 1 with err saying which, 0 when none is, -1 on a fault.
 */
static int
store_seen(struct store *s, const char *sha, const char *runs, char *err,
    size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT file, imported_at, "
	    "sha256 = ?1 FROM import WHERE sha256 = ?1 OR runs_sha256 = ?2",
	    err, errlen);
	int rc;

	if (st == NULL)
		return -1;
	store_bind_text(st, 1, sha);
	store_bind_text(st, 2, runs);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		snprintf(err, errlen, "already in %s: %s %s on %s", s->path,
		    sqlite3_column_int(st, 2) ? "imported from" :
		    "the same runs as", sqlite3_column_text(st, 0),
		    sqlite3_column_text(st, 1));
	if (store_done(s, st, rc, err, errlen) != 0)
		return -1;
	return rc == SQLITE_ROW;
}

/*
 * Where ctx's identity is new to the store but its host, CPU model and
 * CPUs are not, the fields that tell it from the newest such machine, on
 * one line into buf ("" otherwise): the reason a history splits there.
 */
static int
store_newcomer(struct store *s, const cJSON *ctx, char *buf, size_t len,
    char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT m.name, (SELECT document "
	    "FROM import WHERE machine_id = m.id ORDER BY id DESC LIMIT 1) FROM "
	    "machine m WHERE m.host = ?2 AND m.cpu_model = ?3 AND "
	    "m.online_cpus = ?4 AND NOT EXISTS (SELECT 1 FROM machine WHERE "
	    "identity = ?1) ORDER BY m.id DESC LIMIT 1", err, errlen);
	char key[4096], diff[1024];
	cJSON *doc;
	int rc;

	if (st == NULL)
		return -1;
	identity_key(ctx, key, sizeof(key));
	store_bind_text(st, 1, key);
	store_bind_text(st, 2, results_str(ctx, "host", "?"));
	store_bind_text(st, 3, results_str(ctx, "cpu_model", "?"));
	sqlite3_bind_int(st, 4, results_int(ctx, "online_cpus", 0));
	buf[0] = '\0';
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		doc = cJSON_Parse((const char *)sqlite3_column_text(st, 1));
		identity_diff(results_obj(doc, "context"), ctx, diff,
		    sizeof(diff));
		snprintf(buf, len, "a new machine: not %s (%s)",
		    sqlite3_column_text(st, 0), diff);
		cJSON_Delete(doc);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, "cannot read", err, errlen);
	return 0;
}

static int
store_insert(struct store *s, const char *path, const char *sha,
    const char *runs, const cJSON *doc, const struct store_rev *rev,
    char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	struct store_import im;
	long long machine, r;

	if ((machine = store_machine(s, ctx, err, errlen)) < 0 ||
	    (r = store_revision(s, rev, err, errlen)) < 0 ||
	    (im.id = store_import_row(s, path, sha, runs, doc, machine, r, err,
	    errlen)) < 0 ||
	    store_probes_of(s, im.id, ctx, err, errlen) != 0)
		return -1;
	return store_cells(s, &im, doc, err, errlen);
}

/* One machine's results, its bytes' sha256 and its runs' not in the store. */
static int
store_one(struct store *s, const char *path, const char *sha,
    const cJSON *doc, char *what, size_t whatlen, char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	struct store_rev rev;
	size_t used = strlen(what);
	char runs[80], news[1200];

	store_git(ctx, &rev);
	if (store_runs_sha(doc, runs, sizeof(runs), err, errlen) != 0 ||
	    store_seen(s, sha, runs, err, errlen) != 0 ||
	    store_newcomer(s, ctx, news, sizeof(news), err, errlen) != 0 ||
	    store_insert(s, path, sha, runs, doc, &rev, err, errlen) != 0)
		return -1;
	snprintf(what + used, whatlen - used, "%s%s: %d cells of %s (%.60s) "
	    "on %s (%s)%s%s", used > 0 ? "\n" : "", path, cJSON_GetArraySize(
	    results_arr(doc, "cells")), rev.name, *rev.sha ? rev.subject :
	    "a commit git does not know here", results_str(ctx, "host", "?"),
	    results_str(ctx, "cpu_model", "?"), *news ? "\n  " : "", news);
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

/* Opens a write: a transaction no other writer enters, on a sound file. */
static int
store_begin(struct store *s, char *err, size_t errlen)
{

	if (store_exec(s, "BEGIN IMMEDIATE", err, errlen) != 0)
		return -1;
	if (store_check(s, err, errlen) == 0)
		return 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Closes it: committed when rc is 0, else rolled back; rc, or -1. */
static int
store_end(struct store *s, int rc, char *err, size_t errlen)
{

	if (rc == 0 && store_exec(s, "COMMIT", err, errlen) == 0)
		return 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int
store_add(struct store *s, const char *path, char *what, size_t whatlen,
    char *err, size_t errlen)
{
	char sha[80];
	cJSON *doc;
	int rc;

	if (results_read(path, &doc, err, errlen) != 0)
		return -1;
	context_sha256(path, sha, sizeof(sha));
	what[0] = '\0';
	if ((rc = store_begin(s, err, errlen)) == 0)
		rc = store_end(s, results_machines(doc) > 0 ? store_machines(s,
		    doc, what, whatlen, err, errlen) : store_one(s, path, sha,
		    doc, what, whatlen, err, errlen), err, errlen);
	cJSON_Delete(doc);
	return rc;
}

/*
 * Version 1 keyed a machine by five fields and a duplicate by its bytes
 * alone, and kept commit dates with their clock's offset. Its machine,
 * revision and import tables are made again as version 2 has them, each
 * import's machine and runs from its document, in one transaction: a
 * failure leaves version 1 as it was. The old tables step aside first
 * without the references to them in other tables following (so run's
 * import_id names the new import table).
 */
static const char store_v1_aside[] =
	"ALTER TABLE machine RENAME TO machine_v1;"
	"ALTER TABLE revision RENAME TO revision_v1;"
	"ALTER TABLE import RENAME TO import_v1;";
static const char store_v1_revisions[] =
	"INSERT INTO revision SELECT id, name, sha, ord, strftime("
	"'%Y-%m-%dT%H:%M:%SZ', committed_at), subject FROM revision_v1;";
static const char store_v1_gone[] =
	"DROP TABLE import_v1;DROP TABLE machine_v1;DROP TABLE revision_v1;";

/* One version 1 import, its document parsed, as version 2's row. */
static int
store_migrate_import(struct store *s, sqlite3_stmt *ins, long long id,
    const cJSON *doc, char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	long long machine;
	char runs[80];

	if ((machine = store_machine(s, ctx, err, errlen)) < 0 ||
	    store_runs_sha(doc, runs, sizeof(runs), err, errlen) != 0)
		return -1;
	sqlite3_bind_int64(ins, 1, id);
	store_bind_text(ins, 2, runs);
	sqlite3_bind_int64(ins, 3, machine);
	if (store_step_id(ins) < 0) {
		if (sqlite3_errcode(s->db) != SQLITE_CONSTRAINT)
			return store_fail(s, "cannot migrate to schema 2", err,
			    errlen);
		return snprintf(err, errlen, "%s: cannot migrate to schema 2: "
		    "import %lld holds the same runs as an earlier one; delete "
		    "one of them (sqlite3: PRAGMA foreign_keys=ON; DELETE FROM "
		    "import WHERE id = %lld) and open it again", s->path, id,
		    id), -1;
	}
	return store_probes_of(s, id, ctx, err, errlen);
}

static int
store_migrate_imports(struct store *s, char *err, size_t errlen)
{
	sqlite3_stmt *st, *ins;
	cJSON *doc;
	int rc = SQLITE_DONE, bad = 0;

	st = store_prepare(s, "SELECT id, document FROM import_v1 ORDER BY id",
	    err, errlen);
	ins = store_prepare(s, "INSERT INTO import(id, sha256, runs_sha256, "
	    "file, imported_at, machine_id, revision_id, date, build_type, "
	    "build_flags, compiler, kernel, binary_sha256, complete, document) "
	    "SELECT id, sha256, ?2, file, imported_at, ?3, revision_id, date, "
	    "build_type, build_flags, compiler, kernel, binary_sha256, "
	    "complete, document FROM import_v1 WHERE id = ?1", err, errlen);
	bad = st == NULL || ins == NULL;
	while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		doc = cJSON_Parse((const char *)sqlite3_column_text(st, 1));
		bad = store_migrate_import(s, ins, sqlite3_column_int64(st, 0),
		    doc, err, errlen) != 0;
		cJSON_Delete(doc);
	}
	sqlite3_finalize(ins);
	if (bad)
		return sqlite3_finalize(st), -1;
	return store_done(s, st, rc, err, errlen);
}

static int
store_migrate(struct store *s, char *err, size_t errlen)
{
	char sql[sizeof(store_schema_v2) + 64];
	long long bad = 0;
	int rc;

	/* Neither pragma acts inside a transaction. */
	if (store_exec(s, "PRAGMA foreign_keys=OFF;PRAGMA legacy_alter_table="
	    "ON", err, errlen) != 0 || store_begin(s, err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "%sPRAGMA user_version=%d;",
	    store_schema_v2, STORE_SCHEMA);
	rc = store_exec(s, store_v1_aside, err, errlen) != 0 ||
	    store_exec(s, sql, err, errlen) != 0 ||
	    store_exec(s, store_v1_revisions, err, errlen) != 0 ||
	    store_migrate_imports(s, err, errlen) != 0 ||
	    store_exec(s, store_v1_gone, err, errlen) != 0 ||
	    store_number(s, "SELECT COUNT(*) FROM pragma_foreign_key_check",
	    &bad, err, errlen) != 0 ? -1 : 0;
	if (rc == 0 && bad != 0) {
		snprintf(err, errlen, "%s: cannot migrate to schema 2: %lld "
		    "rows name a row that is not there", s->path, bad);
		rc = -1;
	}
	rc = store_end(s, rc, err, errlen);
	if (store_exec(s, "PRAGMA legacy_alter_table=OFF;PRAGMA foreign_keys="
	    "ON", err, errlen) != 0)
		return -1;
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
	    "m.name, i.build_type, (SELECT COUNT(DISTINCT cell_id) FROM run "
	    "WHERE import_id = i.id), (SELECT COUNT(*) FROM run WHERE "
	    "import_id = i.id), CASE i.complete WHEN 1 THEN 'yes' ELSE 'no' END,"
	    " i.file FROM import i JOIN revision r ON r.id = i.revision_id "
	    "JOIN machine m ON m.id = i.machine_id ORDER BY i.id", err, errlen);
	cJSON *rows = cJSON_CreateArray();
	int rc;

	if (st == NULL)
		return cJSON_Delete(rows), -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cJSON_AddItemToArray(rows, store_row(st, t.cols, (int)t.ncols));
	if ((rc = store_done(s, st, rc, err, errlen)) == 0)
		table_write(out, (enum table_format)format, &t, rows);
	cJSON_Delete(rows);
	return rc;
}

/*
 * Each revision once, where a series puts it: its first-parent depth
 * (those without one last), then its commit time in UTC, else its first
 * import's date; a revision is one point whatever imported it.
 */
#define STORE_REVS	"WITH rev AS (SELECT r.id, r.name, COALESCE(r.ord, " \
	"-1) AS ord, r.ord IS NULL AS unordered, COALESCE(r.committed_at, " \
	"MIN(i.date)) AS at FROM revision r JOIN import i ON i.revision_id = " \
	"r.id GROUP BY r.id) "
#define STORE_REV_ORDER	"r.unordered, r.ord, r.at, r.id, i.id"

long
store_values(struct store *s, const char *metric,
    int (*fn)(const struct store_value *, void *), void *arg, char *err,
    size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, STORE_REVS "SELECT m.id, m.name, "
	    "c.key, i.build_type, r.name, r.at, v.value, r.ord, i.id "
	    "FROM value v JOIN run u ON u.id = v.run_id JOIN import i ON i.id ="
	    " u.import_id JOIN machine m ON m.id = i.machine_id JOIN rev r"
	    " ON r.id = i.revision_id JOIN cell c ON c.id = u.cell_id WHERE "
	    "v.metric = ?1 AND u.status = 'ok' ORDER BY m.id, c.key, "
	    "i.build_type, " STORE_REV_ORDER ", u.rep", err, errlen);
	struct store_value v;
	long n = 0;
	int rc;

	if (st == NULL)
		return -1;
	store_bind_text(st, 1, metric);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
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
	return store_done(s, st, rc, err, errlen) == 0 ? n : -1;
}

static double
store_column_num(sqlite3_stmt *st, int i)
{

	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN :
	    sqlite3_column_double(st, i);
}

long
store_probes(struct store *s, int (*fn)(const struct store_probe *, void *),
    void *arg, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, STORE_REVS "SELECT i.id, m.id, "
	    "m.name, i.build_type, r.name, r.ord, p.name, p.unit, p.median, "
	    "p.min, p.max, p.n FROM probe p JOIN import i ON i.id = "
	    "p.import_id JOIN machine m ON m.id = i.machine_id JOIN rev r ON "
	    "r.id = i.revision_id ORDER BY m.id, i.build_type, "
	    STORE_REV_ORDER ", p.name", err, errlen);
	struct store_probe p;
	long n = 0;
	int rc;

	if (st == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		p.sitting = sqlite3_column_int64(st, 0);
		p.machine = sqlite3_column_int64(st, 1);
		p.machine_name = (const char *)sqlite3_column_text(st, 2);
		p.build = (const char *)sqlite3_column_text(st, 3);
		p.revision = (const char *)sqlite3_column_text(st, 4);
		p.ord = sqlite3_column_int64(st, 5);
		p.name = (const char *)sqlite3_column_text(st, 6);
		p.unit = (const char *)sqlite3_column_text(st, 7);
		p.median = store_column_num(st, 8);
		p.min = store_column_num(st, 9);
		p.max = store_column_num(st, 10);
		p.n = sqlite3_column_int64(st, 11);
		n++;
		if (fn(&p, arg) != 0)
			break;
	}
	return store_done(s, st, rc, err, errlen) == 0 ? n : -1;
}

void
store_metrics(struct store *s, char *buf, size_t len)
{
	sqlite3_stmt *st;
	size_t used = 0;
	int rc;

	*buf = '\0';
	if (sqlite3_prepare_v2(s->db, "SELECT DISTINCT metric FROM value "
	    "ORDER BY metric", -1, &st, NULL) != SQLITE_OK) {
		snprintf(buf, len, "? (%s)", sqlite3_errmsg(s->db));
		return;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    used ? ", " : "", sqlite3_column_text(st, 0));
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		snprintf(buf, len, "? (%s)", sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return;
}

/* One statement of a bisection's record, on a store found sound. */
static long long
store_record(struct store *s, sqlite3_stmt *st, char *err, size_t errlen)
{
	long long id;

	if (store_begin(s, err, errlen) != 0)
		return sqlite3_finalize(st), -1;
	id = store_step_id(st);
	if (id < 0)
		store_fail(s, "cannot write", err, errlen);
	sqlite3_finalize(st);
	return store_end(s, id < 0 ? -1 : 0, err, errlen) == 0 ? id : -1;
}

long long
store_bisect_begin(struct store *s, const char *good, const char *bad,
    const char *options, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "INSERT INTO bisect(started_at, "
	    "good, bad, options) VALUES (strftime('%Y-%m-%dT%H:%M:%SZ'), ?1, "
	    "?2, ?3) RETURNING id", err, errlen);

	if (st == NULL)
		return -1;
	store_bind_text(st, 1, good);
	store_bind_text(st, 2, bad);
	store_bind_text(st, 3, options);
	return store_record(s, st, err, errlen);
}

int
store_bisect_step(struct store *s, long long bisect, int n,
    const struct store_step *x, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "INSERT INTO bisect_step(bisect_id,"
	    " n, revision, verdict, why, ratio, lo, hi, p, seconds, runs, mark) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", err,
	    errlen);

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
	return store_record(s, st, err, errlen) < 0 ? -1 : 0;
}

int
store_bisect_end(struct store *s, long long bisect, const char *outcome,
    const char *first_bad, double seconds, char *err, size_t errlen)
{
	sqlite3_stmt *st = store_prepare(s, "UPDATE bisect SET outcome = ?2, "
	    "first_bad = ?3, seconds = ?4 WHERE id = ?1", err, errlen);

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, bisect);
	store_bind_text(st, 2, outcome);
	store_bind_text(st, 3, first_bad);
	store_bind_num(st, 4, seconds);
	return store_record(s, st, err, errlen) < 0 ? -1 : 0;
}
