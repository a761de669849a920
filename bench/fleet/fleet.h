/*
 * fleet.h - a fleet's job array in its shared folder: the manifest that
 * submit writes (fleet-JOB.json: the job and its size, for a task Slurm
 * keeps no record of), each task's results (HOST-JOB-TASK.json) and exit
 * file (.exit: what the run returned), their states and their merge.
 * The tasks only write files; the collector alone reads them together.
 */
#ifndef BENCH_FLEET_H
#define BENCH_FLEET_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "slurm.h"

#define FLEET_MAX_TASKS	1000		/* Slurm's default MaxArraySize */
#define FLEET_GRACE_S	90		/* a completed task's files may take */

struct fleet_task {
	struct slurm_task slurm;	/* what Slurm says, if it does */
	char state[32];			/* Slurm's, else from the files */
	char results[4400];		/* its results file; "" none */
	int exit;			/* from its exit file; -1 none */
	char note[600];
	bool merged;			/* its results are in the merge */
};

struct fleet {
	char dir[4096];
	char job[SLURM_JOB];
	unsigned int n;
	struct fleet_task *t;
};

/*
 * The shared folder dir, made if missing, as every node names it: its
 * absolute path into abs; -1 with err when it cannot be made or Slurm's
 * #SBATCH lines cannot name it.
 */
int fleet_dir(const char *dir, char *abs, size_t len, char *err,
    size_t errlen);

/*
 * Submits a, its script kept in the shared folder as fleet-JOB.sh, and
 * writes the manifest there (fleet-JOB.json: the job, its size, now and
 * the command argv); the job's id into job, or -1 with err.
 */
int fleet_submit(const struct slurm_array *a, int argc, char **argv,
    char *job, size_t len, char *err, size_t errlen);

/* The fleet of job in dir (NULL: the newest manifest there). */
int fleet_open(struct fleet *f, const char *dir, const char *job, char *err,
    size_t errlen);

/*
 * Each task's state and files, now; how many tasks may still change, or
 * -1 with err when Slurm cannot be asked.
 */
int fleet_poll(struct fleet *f, char *err, size_t errlen);

/*
 * Polls until no task can change or timeout_s passes (0: no timeout),
 * then up to FLEET_GRACE_S more while a completed task's results are not
 * seen; the tasks still live, or -1 with err.
 */
int fleet_wait(struct fleet *f, double timeout_s, char *err, size_t errlen);

/*
 * The merged results of every task that wrote a readable file (a partial
 * one too, said so in its note), dated now; or NULL when none did.
 */
cJSON *fleet_merge(struct fleet *f, char *err, size_t errlen);

/*
 * The results files at paths[0..n) merged as one document dated now (the
 * merge command's: several machines' results), or NULL with err: the
 * first file that cannot be read, or why they do not merge.
 */
cJSON *fleet_merge_files(char *const *paths, int n, char *err,
    size_t errlen);

/* The tasks Slurm says completed whose results file is not seen (yet). */
unsigned int fleet_unseen(const struct fleet *f);

/* The tasks that did not complete with a whole, readable results file. */
unsigned int fleet_failed(const struct fleet *f);

/* One row per task: its state, exit, node, results and a note. */
void fleet_table(const struct fleet *f, FILE *out, int format);

void fleet_close(struct fleet *f);

#endif /* BENCH_FLEET_H */
