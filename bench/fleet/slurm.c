/*
 * slurm.c - a job array on Slurm through sbatch, scontrol and sacct (see
 * slurm.h). Slurm's own commands, not its C API: they are what a user's
 * login node has, and their text is stable across releases.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "slurm.h"

/* word in single quotes for sh, a quote inside as '\''. */
static void
slurm_quote(FILE *out, const char *word)
{

	fputc('\'', out);
	for (; *word != '\0'; word++)
		if (*word == '\'')
			fputs("'\\''", out);
		else
			fputc(*word, out);
	fputc('\'', out);
	return;
}

void
slurm_script(FILE *out, const struct slurm_array *a)
{
	int i;

	fprintf(out, "#!/bin/sh\n#SBATCH --job-name=dispatchbench\n"
	    "#SBATCH --array=0-%u\n#SBATCH --nodes=1\n#SBATCH --ntasks=1\n"
	    "#SBATCH --exclusive\n#SBATCH --no-requeue\n#SBATCH --mem=0\n"
	    "#SBATCH --time=%u\n#SBATCH --output=%s/%%A_%%a.log\n",
	    a->tasks - 1, a->minutes, a->dir);
	if (a->partition != NULL)
		fprintf(out, "#SBATCH --partition=%s\n", a->partition);
	if (a->constraint != NULL)
		fprintf(out, "#SBATCH --constraint=%s\n", a->constraint);
	fputs("#\n# dispatchbench fleet: each array task runs the sweep on a "
	    "node of its own\n# (--exclusive: two benchmarks on one node "
	    "measure each other) and is\n# never started twice "
	    "(--no-requeue: a second run would be another run).\n\ndir=", out);
	slurm_quote(out, a->dir);
	fputs("\nbase=\"$dir/$(hostname -s)-$SLURM_ARRAY_JOB_ID-"
	    "$SLURM_ARRAY_TASK_ID\"\n"
	    "# The array's size, for a collector that finds a task Slurm kept "
	    "no record of.\nfleet=\"$dir/fleet-$SLURM_ARRAY_JOB_ID.json\"\n"
	    "[ -e \"$fleet\" ] || { printf '{\"job\": \"%s\", \"tasks\": "
	    "%s}\\n' \\\n\t\"$SLURM_ARRAY_JOB_ID\" \"$SLURM_ARRAY_TASK_COUNT\" "
	    ">\"$base.fleet\" && mv \"$base.fleet\" \"$fleet\"; }\n"
	    "# The benchmark pins its own threads: its step gets every CPU of "
	    "the node,\n# bound to none.\n"
	    "srun --ntasks=1 --cpus-per-task=\"$SLURM_CPUS_ON_NODE\" "
	    "--cpu-bind=none \\\n\t", out);
	slurm_quote(out, a->binary);
	fputs(" run", out);
	for (i = 0; i < a->nrun; i++) {
		fputc(' ', out);
		slurm_quote(out, a->run[i]);
	}
	fputs(" \\\n\t--out \"$base.json\"\nrc=$?\n"
	    "# What the run said, beside what Slurm will say of the task.\n"
	    "echo \"$rc\" >\"$base.exit.tmp\" && mv \"$base.exit.tmp\" "
	    "\"$base.exit\"\nexit \"$rc\"\n", out);
	return;
}

/* cmd's whole output (stdout and stderr) and exit status; NULL if none. */
static char *
slurm_output(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (p == NULL)
		return NULL;
	mem = open_memstream(&text, &len);
	while ((c = fgetc(p)) != EOF)
		fputc(c, mem);
	fclose(mem);
	c = pclose(p);
	*status = WIFEXITED(c) ? WEXITSTATUS(c) : 128;
	return text;
}

/* Its last line, without the newline: what a command said went wrong. */
static void
slurm_said(const char *text, char *err, size_t errlen)
{
	size_t n = strlen(text);
	const char *line;

	while (n > 0 && text[n - 1] == '\n')
		n--;
	for (line = text + n; line > text && line[-1] != '\n'; line--)
		;
	snprintf(err, errlen, "%.*s", (int)(text + n - line), line);
	return;
}

int
slurm_submit(const char *path, char *job, size_t len, char *err,
    size_t errlen)
{
	char cmd[4400], last[256], *text;
	int status;

	snprintf(cmd, sizeof(cmd), "sbatch --parsable '%s' 2>&1", path);
	if ((text = slurm_output(cmd, &status)) == NULL)
		return snprintf(err, errlen, "cannot run sbatch"), -1;
	/* --parsable: "id" or "id;cluster", last: a site's words come first. */
	slurm_said(text, last, sizeof(last));
	free(text);
	if (status == 0 && isdigit((unsigned char)last[0])) {
		snprintf(job, len, "%.*s", (int)strspn(last, "0123456789"),
		    last);
		return 0;
	}
	if (status == 127)
		snprintf(err, errlen, "sbatch not found: submit from a node of a "
		    "Slurm cluster");
	else
		snprintf(err, errlen, "%s", last);
	return -1;
}

/* The value of key= among a line's words, copied into buf; NULL if none. */
static const char *
slurm_field(const char *line, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	const char *p, *end;

	for (p = line; (p = strstr(p, key)) != NULL; p += k)
		if ((p == line || p[-1] == ' ' || p[-1] == '|') &&
		    p[k] == '=') {
			p += k + 1;
			end = p + strcspn(p, " \n");
			snprintf(buf, len, "%.*s", (int)(end - p), p);
			return buf;
		}
	return NULL;
}

/*
 * What a record says, to each task its list of indexes names ("3",
 * "1-3", "0,2-5%1": a pending remainder of the array).
 */
static void
slurm_apply(const char *list, const struct slurm_task *rec,
    struct slurm_task *t, unsigned int n)
{
	unsigned long lo, hi, i;
	char *end;

	for (;;) {
		lo = strtoul(list, &end, 10);
		if (end == list)
			return;
		hi = *end == '-' ? strtoul(end + 1, &end, 10) : lo;
		for (i = lo; i <= hi && i < n; i++)
			t[i] = *rec;
		if (*end != ',')
			return;
		list = end + 1;
	}
}

/* scontrol -o: one line per record, words of key=value. */
static void
slurm_scontrol_line(const char *line, struct slurm_task *t, unsigned int n)
{
	struct slurm_task rec = { "", "", "", "" };
	char ids[4096];

	if (slurm_field(line, "ArrayTaskId", ids, sizeof(ids)) == NULL ||
	    slurm_field(line, "JobState", rec.state, sizeof(rec.state)) == NULL)
		return;
	slurm_field(line, "ExitCode", rec.exit, sizeof(rec.exit));
	slurm_field(line, "NodeList", rec.node, sizeof(rec.node));
	slurm_field(line, "Reason", rec.reason, sizeof(rec.reason));
	if (strcmp(rec.node, "(null)") == 0)
		rec.node[0] = '\0';
	slurm_apply(ids, &rec, t, n);
	return;
}

/* sacct -P: "12_0|COMPLETED|0:0|node", "12_[1-3%1]|PENDING|0:0|None". */
static void
slurm_sacct_line(const char *line, struct slurm_task *t, unsigned int n)
{
	struct slurm_task rec = { "", "", "", "" };
	const char *ids = strchr(line, '_'), *f[3];

	if (ids == NULL || (f[0] = strchr(ids, '|')) == NULL ||
	    (f[1] = strchr(f[0] + 1, '|')) == NULL ||
	    (f[2] = strchr(f[1] + 1, '|')) == NULL)
		return;
	/* "CANCELLED by 0": the state is its first word. */
	snprintf(rec.state, sizeof(rec.state), "%.*s", (int)strcspn(f[0] + 1,
	    " |"), f[0] + 1);
	snprintf(rec.exit, sizeof(rec.exit), "%.*s", (int)(f[2] - f[1] - 1),
	    f[1] + 1);
	snprintf(rec.node, sizeof(rec.node), "%.*s", (int)strcspn(f[2] + 1,
	    "\n"), f[2] + 1);
	if (strncmp(rec.node, "None", 4) == 0)	/* "None assigned" */
		rec.node[0] = '\0';
	slurm_apply(ids + 1 + (ids[1] == '['), &rec, t, n);
	return;
}

/* Each line of text through fn. */
static void
slurm_lines(const char *text, void (*fn)(const char *, struct slurm_task *,
    unsigned int), struct slurm_task *t, unsigned int n)
{
	const char *line;

	for (line = text; *line != '\0'; line += strcspn(line, "\n") +
	    (line[strcspn(line, "\n")] == '\n'))
		fn(line, t, n);
	return;
}

int
slurm_states(const char *job, struct slurm_task *t, unsigned int n,
    char *err, size_t errlen)
{
	char cmd[160], *text;
	int status;

	memset(t, 0, n * sizeof(*t));
	snprintf(cmd, sizeof(cmd), "scontrol -o show job '%s' 2>&1", job);
	if ((text = slurm_output(cmd, &status)) == NULL || status == 127) {
		free(text);
		return snprintf(err, errlen, "scontrol not found: ask from a "
		    "node of the Slurm cluster"), -1;
	}
	if (status == 0) {
		slurm_lines(text, slurm_scontrol_line, t, n);
		free(text);
		return 1;
	}
	/* A controller that does not answer is no news of the tasks. */
	if (strstr(text, "Invalid job id") == NULL) {
		snprintf(err, errlen, "scontrol: ");
		slurm_said(text, err + strlen(err), errlen - strlen(err));
		free(text);
		return -1;
	}
	free(text);
	/* Forgotten by slurmctld (MinJobAge): accounting, where kept. */
	snprintf(cmd, sizeof(cmd), "sacct -n -P -X -j '%s' -o "
	    "JobID,State,ExitCode,NodeList 2>/dev/null", job);
	if ((text = slurm_output(cmd, &status)) != NULL && status == 0 &&
	    *text != '\0') {
		slurm_lines(text, slurm_sacct_line, t, n);
		free(text);
		return 1;
	}
	free(text);
	return 0;
}

bool
slurm_final(const char *state)
{
	static const char *const end[] = { "COMPLETED", "FAILED", "CANCELLED",
	    "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE",
	    "PREEMPTED", "REVOKED", "NO RECORD", "UNKNOWN" };
	size_t i;

	for (i = 0; i < sizeof(end) / sizeof(end[0]); i++)
		if (strcmp(state, end[i]) == 0)
			return true;
	return false;
}
