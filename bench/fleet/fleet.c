/*
 * fleet.c - a fleet's job array in its shared folder (see fleet.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "fleet.h"
#include "merge.h"
#include "results.h"
#include "table.h"

/* A manifest's and a merge's date: 2026-12-06T06:58:00Z. */
static void
fleet_now(char *buf, size_t len)
{
	time_t t = time(NULL);

	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	return;
}

/*
 * #SBATCH --output= takes the folder unquoted, and % as a pattern; sbatch
 * and the checksums take it in single quotes.
 */
static int
fleet_dir_named(const char *dir, char *err, size_t errlen)
{

	if (strpbrk(dir, " \t\n%'\"\\") == NULL)
		return 0;
	return snprintf(err, errlen, "--dir %s: Slurm's #SBATCH lines cannot "
	    "name a folder with a space, a quote, a backslash or a %%", dir),
	    -1;
}

int
fleet_dir(const char *dir, char *abs, size_t len, char *err, size_t errlen)
{
	char buf[PATH_MAX];

	if (fleet_dir_named(dir, err, errlen) != 0)
		return -1;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return snprintf(err, errlen, "cannot make %s: %s", dir,
		    strerror(errno)), -1;
	if (realpath(dir, buf) == NULL)
		return snprintf(err, errlen, "%s: %s", dir, strerror(errno)),
		    -1;
	snprintf(abs, len, "%s", buf);
	return fleet_dir_named(abs, err, errlen);
}

/* Writes dir/fleet-JOB.json for a job of n tasks submitted at date. */
static int
fleet_manifest(const char *dir, const char *job, unsigned int n,
    const char *date, int argc, char **argv, char *err, size_t errlen)
{
	cJSON *m = cJSON_CreateObject(), *cmd;
	char path[4400];
	int i, rc;

	cJSON_AddStringToObject(m, "job", job);
	cJSON_AddNumberToObject(m, "tasks", n);
	cJSON_AddStringToObject(m, "submitted", date);
	cmd = cJSON_AddArrayToObject(m, "command");
	for (i = 0; i < argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	snprintf(path, sizeof(path), "%s/fleet-%s.json", dir, job);
	if ((rc = results_write(m, path)) != 0)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(-rc));
	cJSON_Delete(m);
	return rc != 0 ? -1 : 0;
}

/* The script has a name of its own until sbatch names the job. */
int
fleet_submit(const struct slurm_array *a, int argc, char **argv, char *job,
    size_t len, char *err, size_t errlen)
{
	char tmp[4400], path[4400], why[1024], now[32];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/.fleet-submit-%ld.sh", a->dir,
	    (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return snprintf(err, errlen, "cannot write %s: %s", tmp,
		    strerror(errno)), -1;
	slurm_script(f, a);
	fclose(f);
	if (slurm_submit(tmp, job, len, why, sizeof(why)) != 0) {
		unlink(tmp);
		return snprintf(err, errlen, "sbatch: %s", why), -1;
	}
	snprintf(path, sizeof(path), "%s/fleet-%s.sh", a->dir, job);
	rename(tmp, path);
	fleet_now(now, sizeof(now));
	return fleet_manifest(a->dir, job, a->tasks, now, argc, argv, err,
	    errlen);
}

/* The job of dir's newest manifest (fleet-JOB.json). */
static int
fleet_newest(const char *dir, char *job, size_t len, char *err,
    size_t errlen)
{
	char path[4400];
	time_t newest = 0;
	struct dirent *e;
	struct stat st;
	size_t n;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return snprintf(err, errlen, "cannot read %s: %s", dir,
		    strerror(errno)), -1;
	while ((e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if (strncmp(e->d_name, "fleet-", 6) != 0 || n < 12 ||
		    strcmp(e->d_name + n - 5, ".json") != 0 ||
		    strspn(e->d_name + 6, "0123456789") != n - 11)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* Of one second, the later job: the larger id. */
		if (stat(path, &st) == 0 && (st.st_mtime > newest ||
		    (st.st_mtime == newest && strtoull(e->d_name + 6, NULL,
		    10) > strtoull(job, NULL, 10)))) {
			newest = st.st_mtime;
			snprintf(job, len, "%.*s", (int)(n - 11), e->d_name + 6);
		}
	}
	closedir(d);
	if (newest == 0)
		return snprintf(err, errlen, "%s holds no fleet (no "
		    "fleet-JOB.json: give --job, or the folder fleet submit "
		    "wrote)", dir), -1;
	return 0;
}

int
fleet_open(struct fleet *f, const char *dir, const char *job, char *err,
    size_t errlen)
{
	char path[4400];
	cJSON *m;
	int n;

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "%s", dir);
	if (job != NULL && (*job == '\0' || strspn(job, "0123456789") !=
	    strlen(job) || strlen(job) >= sizeof(f->job)))
		return snprintf(err, errlen, "--job %s: not a job id", job), -1;
	if (job != NULL)
		snprintf(f->job, sizeof(f->job), "%s", job);
	else if (fleet_newest(dir, f->job, sizeof(f->job), err, errlen) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/fleet-%s.json", dir, f->job);
	if (results_read_json(path, &m, err, errlen) != 0)
		return -1;
	n = results_int(m, "tasks", 0);
	cJSON_Delete(m);
	if (n < 1 || n > FLEET_MAX_TASKS)
		return snprintf(err, errlen, "%s: tasks is not a count from 1 "
		    "to %d", path, FLEET_MAX_TASKS), -1;
	f->n = (unsigned int)n;
	if ((f->t = calloc(f->n, sizeof(*f->t))) == NULL)
		abort();
	return 0;
}

/*
 * A task's file, named HOST-JOB-TASK.EXT: its task, or -1 when the name
 * is not of job (a host may have '-' in it: the ends are read).
 */
static long
fleet_file_task(const char *name, const char *job, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext), j = strlen(job), k;

	if (n <= e || strcmp(name + n - e, ext) != 0)
		return -1;
	n -= e;
	for (k = 0; k < n && isdigit((unsigned char)name[n - 1 - k]); k++)
		;
	if (k == 0 || k > 4 || n < k + j + 3 || name[n - k - 1] != '-' ||
	    strncmp(name + n - k - 1 - j, job, j) != 0 ||
	    name[n - k - 2 - j] != '-')
		return -1;
	return strtol(name + n - k, NULL, 10);
}

/* The exit a task's run wrote, or -1. */
static int
fleet_exit(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f != NULL) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Each task's results and exit files in the folder. */
static void
fleet_files(struct fleet *f)
{
	struct dirent *e;
	char path[4400];
	DIR *d;
	long k;

	if ((d = opendir(f->dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "%s/%s", f->dir, e->d_name);
		if ((k = fleet_file_task(e->d_name, f->job, ".json")) >= 0 &&
		    k < (long)f->n)
			snprintf(f->t[k].results, sizeof(f->t[k].results), "%s",
			    path);
		if ((k = fleet_file_task(e->d_name, f->job, ".exit")) >= 0 &&
		    k < (long)f->n)
			f->t[k].exit = fleet_exit(path);
	}
	closedir(d);
	return;
}

/* What a task's state is when Slurm says nothing of it. */
static void
fleet_unrecorded(struct fleet_task *t, bool known)
{

	if (t->exit >= 0) {
		snprintf(t->state, sizeof(t->state), "%s", t->exit == 0 ?
		    "COMPLETED" : "FAILED");
		snprintf(t->note, sizeof(t->note), "from the task's exit file "
		    "(Slurm keeps no record)");
	} else if (known) {
		snprintf(t->state, sizeof(t->state), "NO RECORD");
		snprintf(t->note, sizeof(t->note), "Slurm keeps no record and "
		    "the task wrote nothing: cancelled before it started");
	} else {
		snprintf(t->state, sizeof(t->state), "UNKNOWN");
		snprintf(t->note, sizeof(t->note), "Slurm no longer knows the "
		    "job and the task wrote nothing");
	}
	return;
}

int
fleet_poll(struct fleet *f, char *err, size_t errlen)
{
	struct slurm_task *s = calloc(f->n, sizeof(*s));
	struct fleet_task *t;
	int known, live = 0;
	unsigned int i;

	if (s == NULL)
		abort();
	if ((known = slurm_states(f->job, s, f->n, err, errlen)) < 0) {
		free(s);
		return -1;
	}
	for (i = 0; i < f->n; i++) {
		t = &f->t[i];
		memset(t, 0, sizeof(*t));
		t->exit = -1;
		t->slurm = s[i];
	}
	free(s);
	fleet_files(f);
	for (i = 0; i < f->n; i++) {
		t = &f->t[i];
		if (t->slurm.state[0] == '\0')
			fleet_unrecorded(t, known == 1);
		else
			snprintf(t->state, sizeof(t->state), "%s",
			    t->slurm.state);
		live += !slurm_final(t->state);
	}
	return live;
}

/*
 * A task Slurm says completed may wait for its files: a shared file
 * system can show them late (NFS caches a folder's listing up to 60 s).
 */
int
fleet_wait(struct fleet *f, double timeout_s, char *err, size_t errlen)
{
	time_t end = time(NULL) + (time_t)timeout_s, grace;
	int live;

	while ((live = fleet_poll(f, err, errlen)) > 0 &&
	    (timeout_s == 0 || time(NULL) < end))
		sleep(2);
	for (grace = time(NULL) + FLEET_GRACE_S; live == 0 &&
	    fleet_unseen(f) > 0 && time(NULL) < grace; ) {
		sleep(2);
		live = fleet_poll(f, err, errlen);
	}
	return live;
}

/*
 * Whether doc was run by task k of job: a folder used again after the job
 * ids started over may hold another job's file of the same name.
 */
static bool
fleet_ours(const cJSON *doc, const char *job, unsigned int k)
{
	const cJSON *sl = results_obj(results_obj(doc, "context"), "slurm");

	return sl == NULL || (strcmp(results_str(sl, "array_job_id", ""),
	    job) == 0 && strtoul(results_str(sl, "array_task_id", ""), NULL,
	    10) == k);
}

/* Whose results doc holds, not task k's: another job's, or this job's. */
static void
fleet_whose(const cJSON *doc, const char *job, char *note, size_t len)
{
	const cJSON *sl = results_obj(results_obj(doc, "context"), "slurm");
	const char *theirs = results_str(sl, "array_job_id", "?");

	if (strcmp(theirs, job) == 0)
		snprintf(note, len, "not merged: another task's results (array "
		    "job %s, task %s)", job, results_str(sl, "array_task_id",
		    "?"));
	else
		snprintf(note, len, "not merged: another job's results (array "
		    "job %s)", theirs);
	return;
}

/* Task k's results, read; its note says why not, or that they are partial. */
static cJSON *
fleet_read(struct fleet_task *t, const char *job, unsigned int k)
{
	char err[512];
	cJSON *doc;

	if (t->results[0] == '\0')
		return NULL;
	if (results_read(t->results, &doc, err, sizeof(err)) != 0) {
		snprintf(t->note, sizeof(t->note), "not merged: %s", err);
		return NULL;
	}
	if (!fleet_ours(doc, job, k)) {
		fleet_whose(doc, job, t->note, sizeof(t->note));
		cJSON_Delete(doc);
		return NULL;
	}
	if (!results_true(doc, "complete"))
		snprintf(t->note, sizeof(t->note), "partial: its sweep did not "
		    "finish; merged as such");
	return doc;
}

/*
 * in[0..n) merged, dated now, each with its file's sha256; their
 * documents are freed.
 */
static cJSON *
fleet_merge_in(struct merge_input *in, size_t n, char *err, size_t errlen)
{
	char (*sha)[80] = calloc(n, sizeof(*sha)), now[32];
	cJSON *out;
	size_t i;

	if (sha == NULL)
		abort();
	for (i = 0; i < n; i++) {
		context_sha256(in[i].path, sha[i], sizeof(sha[i]));
		in[i].sha256 = sha[i];
	}
	fleet_now(now, sizeof(now));
	out = merge_docs(in, n, now, err, errlen);
	for (i = 0; i < n; i++)
		cJSON_Delete((cJSON *)in[i].doc);
	free(sha);
	return out;
}

cJSON *
fleet_merge(struct fleet *f, char *err, size_t errlen)
{
	struct merge_input *in = calloc(f->n, sizeof(*in));
	cJSON *out = NULL;
	size_t n = 0, i;

	if (in == NULL)
		abort();
	for (i = 0; i < f->n; i++) {
		if ((in[n].doc = fleet_read(&f->t[i], f->job,
		    (unsigned int)i)) == NULL)
			continue;
		f->t[i].merged = true;
		in[n++].path = f->t[i].results;
	}
	if (n == 0)
		snprintf(err, errlen, "no task of job %s wrote results to "
		    "merge", f->job);
	else
		out = fleet_merge_in(in, n, err, errlen);
	free(in);
	return out;
}

cJSON *
fleet_merge_files(char *const *paths, int n, char *err, size_t errlen)
{
	struct merge_input *in = calloc((size_t)n, sizeof(*in));
	cJSON *doc, *out = NULL;
	int i;

	if (in == NULL)
		abort();
	for (i = 0; i < n && results_read(paths[i], &doc, err, errlen) == 0;
	    i++)
		in[i] = (struct merge_input){ doc, paths[i], NULL };
	if (i == n)
		out = fleet_merge_in(in, (size_t)n, err, errlen);
	else
		while (i-- > 0)
			cJSON_Delete((cJSON *)in[i].doc);
	free(in);
	return out;
}

unsigned int
fleet_unseen(const struct fleet *f)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->n; i++)
		n += strcmp(f->t[i].state, "COMPLETED") == 0 &&
		    f->t[i].results[0] == '\0';
	return n;
}

unsigned int
fleet_failed(const struct fleet *f)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->n; i++)
		n += strcmp(f->t[i].state, "COMPLETED") != 0 ||
		    !f->t[i].merged || strncmp(f->t[i].note, "partial", 7) == 0;
	return n;
}

static const struct table_col fleet_cols[] = {
	{ "task", "task" }, { "state", "state" }, { "exit", "exit" },
	{ "node", "node" }, { "results", "results" }, { "note", "" },
};

void
fleet_table(const struct fleet *f, FILE *out, int format)
{
	static const struct table t = { NULL, fleet_cols,
	    sizeof(fleet_cols) / sizeof(fleet_cols[0]) };
	const struct fleet_task *k;
	const char *base;
	char exit[16];
	cJSON *rows = cJSON_CreateArray(), *row;
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		k = &f->t[i];
		base = strrchr(k->results, '/');
		row = cJSON_CreateObject();
		cJSON_AddNumberToObject(row, "task", i);
		cJSON_AddStringToObject(row, "state", k->state);
		if (k->slurm.exit[0] != '\0' || k->exit < 0)
			snprintf(exit, sizeof(exit), "%s", k->slurm.exit);
		else
			snprintf(exit, sizeof(exit), "%d", k->exit);
		cJSON_AddStringToObject(row, "exit", exit);
		cJSON_AddStringToObject(row, "node", k->slurm.node);
		cJSON_AddStringToObject(row, "results", base != NULL ? base + 1 :
		    k->results);
		cJSON_AddStringToObject(row, "note", k->note[0] != '\0' ?
		    k->note : k->slurm.reason[0] != '\0' && strcmp(
		    k->slurm.reason, "None") != 0 ? k->slurm.reason : "");
		cJSON_AddItemToArray(rows, row);
	}
	table_write(out, (enum table_format)format, &t, rows);
	cJSON_Delete(rows);
	return;
}

void
fleet_close(struct fleet *f)
{

	free(f->t);
	f->t = NULL;
	return;
}
