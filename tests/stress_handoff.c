/*
 * stress_handoff.c - the handoffs of `shared` and `limited`, resume-only
 * and request, at 1, 4 and 64 workers, run thousands of times in short
 * windows while another process keeps the other CPU busy: a search for
 * the run that stalls (a lost wake-up, a livelock, a shutdown that never
 * returns), which a single long run rarely meets.
 *
 * Each run is a forked child that runs one cell as `dispatchbench cell`
 * does and prints it. A run that stalls reports itself (its watchdog's
 * report: each thread's state, wait channel and stack); a child still
 * running at its deadline is read from /proc and gdb, then killed. Every
 * run that did not end ok is printed with its threads' states and its
 * stacks, grouped; then the counts. Exit status 1 if any run was not ok.
 *
 * DB_STRESS_RUNS: runs of each cell (default 100); DB_STRESS_STALL: the
 * seconds without a resumption that make a run hung (default 2);
 * DB_STRESS_BUSY=0: leave the other CPU idle.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell.h"
#include "cells.h"
#include "designs.h"
#include "measure.h"
#include "scale.h"
#include "watchdog.h"

#define STRESS_FRAMES	6	/* a stack's first frames of our own code */
#define STRESS_GROUPS	16

#if defined(__SANITIZE_THREAD__)
#define STRESS_BUILD	"ThreadSanitizer"
#elif defined(__SANITIZE_ADDRESS__)
#define STRESS_BUILD	"AddressSanitizer"
#else
#define STRESS_BUILD	"plain"
#endif

enum stress_verdict { ST_OK, ST_HUNG, ST_STRANDED, ST_FAILED, ST_CRASHED,
    ST_KILLED, ST_NVERDICTS };

static const char *const stress_names[ST_NVERDICTS] = { "ok", "hung",
    "stranded or lost at the stop", "failed otherwise", "crashed",
    "killed at the deadline" };

static volatile sig_atomic_t stress_interrupted;

static void
stress_on_signal(int sig)
{

	stress_interrupted = sig;
	return;
}

/* A process that keeps one CPU busy until it is killed. */
static pid_t
stress_busy(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			__asm__ __volatile__("" ::: "memory");
	return pid;
}

/* Reads fd until EOF (true) or the deadline (false). */
static bool
stress_read(int fd, double deadline, char *buf, size_t cap)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t len = 0;
	ssize_t r;
	int ms;

	buf[0] = '\0';
	for (;;) {
		ms = (int)((deadline - measure_now()) * 1000);
		if (ms <= 0)
			return false;
		if (poll(&pfd, 1, ms) <= 0)
			continue;
		r = read(fd, buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (len += (size_t)r) == cap - 1)
			break;
	}
	buf[len] = '\0';
	return true;
}

/* One run in a child; the run's JSON, or one the parent made of it. */
static cJSON *
stress_run(const struct cell *c, const struct cell_window *win,
    double deadline_s, char *buf, size_t cap)
{
	int fds[2], status;
	cJSON *run, *report;
	char *stacks;
	pid_t pid;
	bool eof;

	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		perror("stress_handoff: fork");
		exit(2);
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		cell_print(stdout, cell_run(c, win));
		_exit(0);
	}
	close(fds[1]);
	eof = stress_read(fds[0], measure_now() + deadline_s, buf, cap);
	close(fds[0]);
	if (!eof) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", "killed");
		report = cJSON_AddObjectToObject(run, "watchdog");
		cJSON_AddItemToObject(report, "threads", watchdog_threads(pid));
		stacks = watchdog_stacks(pid);
		cJSON_AddStringToObject(report, "stacks", stacks != NULL ?
		    stacks : "unavailable");
		free(stacks);
		kill(pid, SIGKILL);
	}
	waitpid(pid, &status, 0);
	if (!eof)
		return run;
	if (WIFSIGNALED(status)) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", "crashed");
		cJSON_AddStringToObject(run, "error", strsignal(WTERMSIG(status)));
		return run;
	}
	if ((run = cJSON_Parse(buf)) == NULL) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", "failed");
		cJSON_AddStringToObject(run, "error", "the run printed no result");
	}
	return run;
}

static enum stress_verdict
stress_verdict(const cJSON *run)
{
	const char *st = cJSON_GetObjectItem(run, "status")->valuestring;

	if (strcmp(st, "ok") == 0)
		return ST_OK;
	if (strcmp(st, "hung") == 0)
		return ST_HUNG;
	if (strcmp(st, "crashed") == 0)
		return ST_CRASHED;
	if (strcmp(st, "killed") == 0)
		return ST_KILLED;
	if (cJSON_GetObjectItem(run, "stranded_coroutines") != NULL)
		return ST_STRANDED;
	return ST_FAILED;
}

/* The function of one gdb frame line of our own code ("... at /path"). */
static bool
stress_frame(const char *line, char *fn, size_t len)
{
	const char *p = line, *end;

	if (line[0] != '#' || strstr(line, " at /") == NULL)
		return false;
	p += 1 + strspn(p + 1, "0123456789");
	p += strspn(p, " ");
	if (strncmp(p, "0x", 2) == 0 && (p = strstr(p, " in ")) != NULL)
		p += 4;
	if (p == NULL || (end = strpbrk(p, " (")) == NULL)
		return false;
	snprintf(fn, len, "%.*s", (int)(end - p), p);
	return true;
}

struct stress_group {
	char chain[256];
	unsigned int n;
};

static void
stress_group_add(struct stress_group *g, unsigned int *ng, const char *chain)
{
	unsigned int i;

	if (chain[0] == '\0')
		chain = "(no frame of the suite)";
	for (i = 0; i < *ng; i++) {
		if (strcmp(g[i].chain, chain) == 0) {
			g[i].n++;
			return;
		}
	}
	if (*ng < STRESS_GROUPS) {
		snprintf(g[*ng].chain, sizeof(g[*ng].chain), "%s", chain);
		g[(*ng)++].n = 1;
	}
	return;
}

/* The threads of gdb's "thread apply all bt", grouped by their stacks. */
static void
stress_print_stacks(const char *stacks)
{
	struct stress_group g[STRESS_GROUPS];
	char *copy = strdup(stacks), *line, *save = NULL, chain[256] = "";
	char fn[96];
	unsigned int ng = 0, frames = 0, i;
	bool open = false;

	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "Thread ", 7) == 0) {
			if (open)
				stress_group_add(g, &ng, chain);
			open = true;
			chain[0] = '\0';
			frames = 0;
		} else if (open && frames < STRESS_FRAMES &&
		    stress_frame(line, fn, sizeof(fn))) {
			snprintf(chain + strlen(chain), sizeof(chain) -
			    strlen(chain), "%s%s", frames++ ? " < " : "", fn);
		}
	}
	if (open)
		stress_group_add(g, &ng, chain);
	for (i = 0; i < ng; i++)
		printf("      %3u x %s\n", g[i].n, g[i].chain);
	free(copy);
	return;
}

/* Each thread's state and wait channel, counted. */
static void
stress_print_threads(const cJSON *threads)
{
	struct stress_group g[STRESS_GROUPS];
	const cJSON *t;
	char key[128];
	unsigned int ng = 0, i;

	cJSON_ArrayForEach(t, threads) {
		snprintf(key, sizeof(key), "%s %s",
		    cJSON_GetObjectItem(t, "state")->valuestring,
		    cJSON_GetObjectItem(t, "wchan")->valuestring);
		stress_group_add(g, &ng, key);
	}
	printf("    threads (state, wait channel):");
	for (i = 0; i < ng; i++)
		printf("%s %u x %s", i ? "," : "", g[i].n, g[i].chain);
	printf("\n");
	return;
}

static void
stress_print_report(const char *what, const cJSON *report)
{
	const cJSON *stacks = cJSON_GetObjectItem(report, "stacks");

	if (!cJSON_IsObject(report))
		return;
	printf("    %s\n", what);
	stress_print_threads(cJSON_GetObjectItem(report, "threads"));
	if (cJSON_IsString(stacks)) {
		printf("    stacks (frames of the suite, innermost first):\n");
		stress_print_stacks(stacks->valuestring);
	}
	return;
}

static void
stress_print_run(unsigned long i, const struct cell *c, const cJSON *run)
{
	const cJSON *err = cJSON_GetObjectItem(run, "error");
	char wl[32];

	workload_profile_format(&c->profile, wl, sizeof(wl));
	printf("run %lu: %s/%s w=%u c=%u %s: %s: %s\n", i, c->disp->name,
	    c->cfg.queue->name, c->cfg.workers, c->coroutines, wl,
	    cJSON_GetObjectItem(run, "status")->valuestring,
	    cJSON_IsString(err) ? err->valuestring : "-");
	stress_print_report("in the window:", cJSON_GetObjectItem(run,
	    "watchdog"));
	stress_print_report("at the stop:", cJSON_GetObjectItem(run,
	    "watchdog_at_stop"));
	fflush(stdout);
	return;
}

int
main(void)
{
	static const char *const disps[] = { "shared", "limited" };
	static const char *const kinds[] = { "resume", "request" };
	static const unsigned int widths[] = { 1, 4, 64 };
	static char buf[1 << 20];
	char args[160];
	struct cell cells[12];
	struct cell_window win = { 0.01, 0.02 };
	unsigned long runs = scale("DB_STRESS_RUNS", 100), i, total, count[
	    ST_NVERDICTS] = { 0 };
	double stall = (double)scale("DB_STRESS_STALL", 2), started;
	const char *busy_env = getenv("DB_STRESS_BUSY");
	bool busy = busy_env == NULL || strcmp(busy_env, "0") != 0;
	size_t nc = 0, a, b, k;
	enum stress_verdict v;
	pid_t hog = -1;
	cJSON *run;

	for (a = 0; a < 2; a++)
		for (b = 0; b < 2; b++)
			for (k = 0; k < 3; k++) {
				snprintf(args, sizeof(args), "--dispatcher %s "
				    "--workers %u --coroutines 16 --workload %s "
				    "--stall %g", disps[a], widths[k], kinds[b],
				    stall);
				cells[nc++] = cells_one(args);
			}
	signal(SIGINT, stress_on_signal);
	signal(SIGTERM, stress_on_signal);
	if (busy)
		hog = stress_busy();
	total = runs * nc;
	printf("stress_handoff: %zu cells x %lu runs, windows %.2f + %.2f s, "
	    "hung after %.0f s without a resumption, build %s, other CPU %s\n",
	    nc, runs, win.warmup_s, win.time_s, stall, STRESS_BUILD,
	    busy ? "kept busy" : "idle");
	fflush(stdout);
	started = measure_now();
	for (i = 0; i < total && !stress_interrupted; i++) {
		run = stress_run(&cells[i % nc], &win, cell_deadline(
		    &cells[i % nc], &win) + 60, buf, sizeof(buf));
		v = stress_verdict(run);
		count[v]++;
		if (v != ST_OK)
			stress_print_run(i, &cells[i % nc], run);
		cJSON_Delete(run);
	}
	if (hog > 0) {
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
	}
	printf("stress_handoff: %lu runs in %.0f s%s:", i,
	    measure_now() - started, stress_interrupted ? " (interrupted)" :
	    "");
	for (v = ST_OK; v < ST_NVERDICTS; v++)
		printf("%s %lu %s", v ? "," : "", count[v], stress_names[v]);
	printf("\n");
	return count[ST_OK] == i && !stress_interrupted ? 0 : 1;
}
