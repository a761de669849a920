/*
 * watchdog.c - hung-run detection and its report (see watchdog.h).
 */
#define _GNU_SOURCE	/* sem_clockwait */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "watchdog.h"

#define WATCHDOG_STACKS_MAX	(256 * 1024)

double
watchdog_stall_for(const struct workload_profile *p, double asked)
{
	double block = p->block_ns > 0 ? (double)p->block_ns * 1e-9 * 2 + 1 : 0;
	double stall = asked > 0 ? asked : WATCHDOG_STALL_S;

	return block > stall ? block : stall;
}

/* One line of a /proc file of this process, or "?". */
static void
watchdog_proc(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "?");
	if (f != NULL && fgets(buf, (int)len, f) != NULL)
		buf[strcspn(buf, "\n")] = '\0';
	if (f != NULL)
		fclose(f);
	return;
}

cJSON *
watchdog_threads(pid_t pid)
{
	cJSON *arr = cJSON_CreateArray(), *t;
	char dirpath[32], path[320], name[64], stat[512], wchan[64];
	char st[2] = "?", *paren;
	struct dirent *e;
	DIR *dir;

	snprintf(dirpath, sizeof(dirpath), "/proc/%d/task", (int)pid);
	dir = opendir(dirpath);
	while (dir != NULL && (e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", dirpath, e->d_name);
		watchdog_proc(path, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s/stat", dirpath, e->d_name);
		watchdog_proc(path, stat, sizeof(stat));
		snprintf(path, sizeof(path), "%s/%s/wchan", dirpath, e->d_name);
		watchdog_proc(path, wchan, sizeof(wchan));
		/* The state follows the name's closing parenthesis. */
		paren = strrchr(stat, ')');
		st[0] = paren != NULL && paren[1] == ' ' ? paren[2] : '?';
		t = cJSON_CreateObject();
		cJSON_AddNumberToObject(t, "tid", atoi(e->d_name));
		cJSON_AddStringToObject(t, "name", name);
		cJSON_AddStringToObject(t, "state", st);
		cJSON_AddStringToObject(t, "wchan", wchan);
		cJSON_AddItemToArray(arr, t);
	}
	if (dir != NULL)
		closedir(dir);
	return arr;
}

/*
 * gdb writes into a file, never a pipe: it stops every thread of pid,
 * which may be this process, and a reader stopped by gdb cannot drain the
 * pipe gdb fills (68 TSan threads' stacks are over a pipe's 64 kB; gdb
 * then waited on the pipe and its threads on gdb, past every deadline).
 */
char *
watchdog_stacks(pid_t pid)
{
	char path[] = "/tmp/dispatchbench-stacks-XXXXXX", cmd[160];
	char *out = malloc(WATCHDOG_STACKS_MAX);
	ssize_t r;
	size_t len = 0;
	int fd = mkstemp(path), status;

	if (out == NULL || fd < 0) {
		free(out);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	snprintf(cmd, sizeof(cmd), "timeout -k 5 20 gdb -q -nx -batch -p %d "
	    "-ex 'thread apply all bt' >%s 2>/dev/null", (int)pid, path);
	status = system(cmd);
	while (len < WATCHDOG_STACKS_MAX - 1 &&
	    (r = read(fd, out + len, WATCHDOG_STACKS_MAX - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	close(fd);
	unlink(path);
	if (status != 0 || strstr(out, "Thread") == NULL) {
		free(out);
		return NULL;
	}
	return out;
}

cJSON *
watchdog_report(struct workload *w, double still_s)
{
	cJSON *r = cJSON_CreateObject(), *per;
	uint64_t *runs = calloc(w->n, sizeof(*runs));
	char *stacks;
	unsigned int i;

	if (runs == NULL)
		abort();
	cJSON_AddNumberToObject(r, "stalled_s", still_s);
	cJSON_AddNumberToObject(r, "resumptions",
	    (double)workload_count(w, runs));
	per = cJSON_AddArrayToObject(r, "coroutine_resumptions");
	for (i = 0; i < w->n && i < 256; i++)
		cJSON_AddItemToArray(per, cJSON_CreateNumber((double)runs[i]));
	cJSON_AddItemToObject(r, "threads", watchdog_threads(getpid()));
	stacks = watchdog_stacks(getpid());
	cJSON_AddStringToObject(r, "stacks", stacks != NULL ? stacks :
	    "unavailable: gdb is not installed or could not attach");
	free(stacks);
	free(runs);
	return r;
}

/*
 * One tick, or less when watchdog_stop posts: a run ends when its window
 * does, not up to a tick later (a 0.3 s window waited 50 ms on average,
 * every run of a sweep).
 */
static void
watchdog_tick(struct watchdog *wd)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += WATCHDOG_TICK_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (sem_clockwait(&wd->wake, CLOCK_MONOTONIC, &until) != 0 &&
	    errno == EINTR)
		;
	return;
}

static void *
watchdog_main(void *arg)
{
	struct watchdog *wd = arg;
	uint64_t last = workload_count(wd->w, NULL), now;
	double moved = measure_now();

	while (!atomic_load(&wd->stop)) {
		watchdog_tick(wd);
		if (atomic_load(&wd->guarding)) {
			if (measure_now() > wd->guard_until)
				wd->wedged(wd->wedged_arg);
			continue;
		}
		if (atomic_load(&wd->fired))
			continue;
		if ((now = workload_count(wd->w, NULL)) != last) {
			last = now;
			moved = measure_now();
		} else if (measure_now() - moved > wd->stall_s) {
			wd->report = watchdog_report(wd->w,
			    measure_now() - moved);
			atomic_store(&wd->fired, 1);
		}
	}
	return NULL;
}

int
watchdog_start(struct watchdog *wd, struct workload *w, double stall_s)
{
	int rc;

	wd->w = w;
	wd->stall_s = stall_s;
	wd->report = NULL;
	atomic_init(&wd->stop, 0);
	atomic_init(&wd->fired, 0);
	atomic_init(&wd->guarding, 0);
	if (sem_init(&wd->wake, 0, 0) != 0)
		return -errno;
	if ((rc = pthread_create(&wd->tid, NULL, watchdog_main, wd)) != 0)
		sem_destroy(&wd->wake);
	return -rc;
}

bool
watchdog_fired(struct watchdog *wd)
{

	return atomic_load(&wd->fired) != 0;
}

void
watchdog_guard(struct watchdog *wd, double seconds, void (*wedged)(void *),
    void *arg)
{

	wd->guard_until = measure_now() + seconds;
	wd->wedged = wedged;
	wd->wedged_arg = arg;
	atomic_store(&wd->guarding, 1);
	return;
}

void
watchdog_stop(struct watchdog *wd)
{

	atomic_store(&wd->stop, 1);
	sem_post(&wd->wake);
	pthread_join(wd->tid, NULL);
	sem_destroy(&wd->wake);
	return;
}
