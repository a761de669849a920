/*
 * slurm.h - a job array on Slurm, through Slurm's own commands: the batch
 * script a fleet submits, its submission (sbatch), and each task's state
 * as Slurm tells it (scontrol while it remembers the job, sacct where
 * accounting is kept).
 */
#ifndef BENCH_SLURM_H
#define BENCH_SLURM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SLURM_JOB	32		/* a job id's text, with room */

/* One task of an array, as Slurm tells it; state "" when it does not. */
struct slurm_task {
	char state[32];			/* COMPLETED, FAILED, CANCELLED, ... */
	char exit[16];			/* ExitCode: status:signal */
	char node[64];
	char reason[64];		/* why it waits, or why it ended */
};

/* A fleet's array: one task per node, each node to itself. */
struct slurm_array {
	const char *dir;		/* shared: every node writes there */
	const char *binary;		/* this build, as every node reaches it */
	const char *partition, *constraint;	/* NULL: the cluster's */
	unsigned int tasks;
	unsigned int minutes;		/* each task's time limit */
	char **run;			/* run's options, as the user gave them */
	int nrun;
};

/* The batch script of a (absolute paths, each word quoted for sh). */
void slurm_script(FILE *out, const struct slurm_array *a);

/*
 * Submits the batch script at path with sbatch; the job's id in job, or
 * -1 and sbatch's own words in err.
 */
int slurm_submit(const char *path, char *job, size_t len, char *err,
    size_t errlen);

/*
 * The state of each task 0..n-1 of array job into t (state "" where Slurm
 * has no record of it: a task cancelled before it started leaves none);
 * 1 when Slurm knows the job, 0 when it does not (any more: "Invalid job
 * id", and no accounting), -1 when Slurm cannot be asked (err says why).
 */
int slurm_states(const char *job, struct slurm_task *t, unsigned int n,
    char *err, size_t errlen);

/*
 * Whether a task in state will change no more: Slurm's end states, and
 * the collector's own NO RECORD and UNKNOWN; any other, never heard of
 * included, may still change.
 */
bool slurm_final(const char *state);

#endif /* BENCH_SLURM_H */
