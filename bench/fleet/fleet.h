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

/* Writes dir/fleet-JOB.json for a job of n tasks submitted at date. */
int fleet_manifest(const char *dir, const char *job, unsigned int n,
    const char *date, int argc, char **argv, char *err, size_t errlen);

/* The fleet of job in dir (NULL: the newest manifest there). */
int fleet_open(struct fleet *f, const char *dir, const char *job, char *err,
    size_t errlen);

/*
 * Each task's state and files, now; how many tasks may still change, or
 * -1 with err when Slurm cannot be asked.
 */
int fleet_poll(struct fleet *f, char *err, size_t errlen);

/*
 * The merged results of every task that wrote a readable file (a partial
 * one too, said so in its note), or NULL when none did.
 */
cJSON *fleet_merge(struct fleet *f, const char *date, char *err,
    size_t errlen);

/* The tasks Slurm says completed whose results file is not seen (yet). */
unsigned int fleet_unseen(const struct fleet *f);

/* The tasks that did not complete with a whole, readable results file. */
unsigned int fleet_failed(const struct fleet *f);

/* One row per task: its state, exit, node, results and a note. */
void fleet_table(const struct fleet *f, FILE *out, int format);

void fleet_close(struct fleet *f);

#endif /* BENCH_FLEET_H */
