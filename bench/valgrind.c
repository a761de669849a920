/*
 * valgrind.c - a process counted by callgrind runs under Valgrind (see
 * valgrind.h).
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <valgrind/valgrind.h>

#include "cell.h"
#include "child.h"
#include "count.h"
#include "valgrind.h"

/* Exit status of a run that could not start under Valgrind (a usage error's). */
#define VALGRIND_UNSTARTED	2

int
valgrind_prepare(char *err, size_t len)
{
	char *argv[] = { (char *)"valgrind", (char *)"--version", NULL };
	char out[64];

	if (getenv(COUNT_VERSION_ENV) != NULL)
		return 0;
	if (child_output(argv, out, sizeof(out)) != 0 ||
	    strncmp(out, "valgrind-", 9) != 0) {
		snprintf(err, len, "--metric instructions: counting needs a PMU "
		    "or Valgrind's callgrind, and Valgrind is not installed "
		    "(apt-get install valgrind)");
		return -1;
	}
	out[strcspn(out, "\n")] = '\0';
	setenv(COUNT_VERSION_ENV, out, 1);
	return 0;
}

/* Removes the folder of dumps, and what the process left in it. */
static void
valgrind_clean(const char *dir)
{
	char path[4400];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
	return;
}

/*
 * This binary and its command line under callgrind, instrumenting nothing
 * until the window opens; fair scheduling, so that no thread waits out
 * the warm-up for its turn. Its output is passed on; its exit status is
 * returned, or the signal that ended it raised here. The user's own
 * Valgrind options (VALGRIND_OPTS) would change what is counted, so they
 * are dropped. hwloc's x86 backend cannot read the CPU under Valgrind and
 * says so: the topology comes from Linux all the same. Every symbol is
 * bound at the start: a function's first call through the PLT costs its
 * lookup (1,566 instructions of do_lookup_x), and whether that first call
 * comes inside the window or before it can differ run to run.
 */
static int
valgrind_run(const char *dir, int argc, char **argv)
{
	char self[4096], out[4200], **args;
	static const char *const opts[] = { "valgrind", "--tool=callgrind",
	    "--instr-atstart=no", "--fair-sched=yes", "--compress-strings=no",
	    "--compress-pos=no", "-q" };
	size_t nopts = sizeof(opts) / sizeof(opts[0]), n;
	struct child ch;
	int i, rc;

	if ((args = calloc(nopts + (size_t)argc + 2, sizeof(*args))) == NULL)
		abort();
	(void)child_self(self, sizeof(self));
	snprintf(out, sizeof(out), "--callgrind-out-file=%s/cg.%%p", dir);
	for (n = 0; n < nopts; n++)
		args[n] = (char *)opts[n];
	args[n++] = out;
	args[n++] = self;
	for (i = 1; i < argc; i++)
		args[n++] = argv[i];
	setenv(COUNT_DIR_ENV, dir, 1);
	setenv("HWLOC_COMPONENTS", "-x86", 0);
	setenv("LD_BIND_NOW", "1", 1);
	unsetenv("VALGRIND_OPTS");
	child_run(args[0], args, CHILD_PATH | CHILD_TIED, 0, NULL, &ch);
	fwrite(ch.out, 1, ch.len, stdout);
	fflush(stdout);
	rc = child_exit(&ch);
	if (ch.end == CHILD_EXITED && WIFSIGNALED(ch.status))
		rc = -WTERMSIG(ch.status);
	child_free(&ch);
	free(args);
	return rc;
}

bool
valgrind_wrap(const struct cell *c, int argc, char **argv, int *status)
{
	char dir[4096], err[256];
	const char *tmp = getenv("TMPDIR");

	if (c->count == 0 || RUNNING_ON_VALGRIND ||
	    count_counter(c) != COUNT_CALLGRIND)
		return false;
	if (valgrind_prepare(err, sizeof(err)) != 0) {
		fprintf(stderr, "dispatchbench: %s\n", err);
		*status = VALGRIND_UNSTARTED;
		return true;
	}
	snprintf(dir, sizeof(dir), "%s/dispatchbench-count-XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		fprintf(stderr, "dispatchbench: no folder for callgrind's "
		    "dumps under %s\n", tmp != NULL ? tmp : "/tmp");
		*status = VALGRIND_UNSTARTED;
		return true;
	}
	*status = valgrind_run(dir, argc, argv);
	valgrind_clean(dir);
	/* A crash is the runner's to see as one. */
	if (*status < 0) {
		signal(-*status, SIG_DFL);
		raise(-*status);
	}
	return true;
}
