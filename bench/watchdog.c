/*
 * watchdog.c - hung-run detection and its report (see watchdog.h).
 */
#include <dirent.h>
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
	double block = (double)p->block_ns * 1e-9 * 2 + 1;
	double stall = asked > 0 ? asked : WATCHDOG_STALL_S;

	return p->kind != WORKLOAD_RESUME && block > stall ? block : stall;
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

/* Every thread: its id, name, scheduler state and what it waits in. */
static cJSON *
watchdog_threads(void)
{
	cJSON *arr = cJSON_CreateArray(), *t;
	char path[320], name[64], stat[512], wchan[64], st[2] = "?", *paren;
	struct dirent *e;
	DIR *dir = opendir("/proc/self/task");

	while (dir != NULL && (e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		watchdog_proc(path, name, sizeof(name));
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
		watchdog_proc(path, stat, sizeof(stat));
		snprintf(path, sizeof(path), "/proc/self/task/%s/wchan", e->d_name);
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

char *
watchdog_stacks(pid_t pid)
{
	char cmd[128], *out = malloc(WATCHDOG_STACKS_MAX);
	size_t len = 0, r;
	FILE *p;

	if (out == NULL)
		return NULL;
	snprintf(cmd, sizeof(cmd), "timeout 20 gdb -q -nx -batch -p %d "
	    "-ex 'thread apply all bt' 2>/dev/null", (int)pid);
	if ((p = popen(cmd, "r")) == NULL) {
		free(out);
		return NULL;
	}
	while (len < WATCHDOG_STACKS_MAX - 1 &&
	    (r = fread(out + len, 1, WATCHDOG_STACKS_MAX - 1 - len, p)) > 0)
		len += r;
	out[len] = '\0';
	if (pclose(p) != 0 || strstr(out, "Thread") == NULL) {
		free(out);
		return NULL;
	}
	return out;
}

static cJSON *
watchdog_report(struct watchdog *wd, double still_s)
{
	cJSON *r = cJSON_CreateObject(), *per;
	uint64_t *runs = calloc(wd->w->n, sizeof(*runs));
	char *stacks;
	unsigned int i;

	if (runs == NULL)
		abort();
	cJSON_AddNumberToObject(r, "stalled_s", still_s);
	cJSON_AddNumberToObject(r, "resumptions",
	    (double)workload_count(wd->w, runs));
	per = cJSON_AddArrayToObject(r, "coroutine_resumptions");
	for (i = 0; i < wd->w->n && i < 256; i++)
		cJSON_AddItemToArray(per, cJSON_CreateNumber((double)runs[i]));
	cJSON_AddItemToObject(r, "threads", watchdog_threads());
	stacks = watchdog_stacks(getpid());
	cJSON_AddStringToObject(r, "stacks", stacks != NULL ? stacks :
	    "unavailable: gdb is not installed or could not attach");
	free(stacks);
	free(runs);
	return r;
}

static void *
watchdog_main(void *arg)
{
	struct timespec tick = { 0, WATCHDOG_TICK_MS * 1000000L };
	struct watchdog *wd = arg;
	uint64_t last = workload_count(wd->w, NULL), now;
	double moved = measure_now();

	while (!atomic_load(&wd->stop)) {
		nanosleep(&tick, NULL);
		if ((now = workload_count(wd->w, NULL)) != last) {
			last = now;
			moved = measure_now();
		} else if (measure_now() - moved > wd->stall_s) {
			wd->report = watchdog_report(wd, measure_now() - moved);
			atomic_store(&wd->fired, 1);
			break;
		}
	}
	return NULL;
}

int
watchdog_start(struct watchdog *wd, struct workload *w, double stall_s)
{

	wd->w = w;
	wd->stall_s = stall_s;
	wd->report = NULL;
	atomic_init(&wd->stop, 0);
	atomic_init(&wd->fired, 0);
	return -pthread_create(&wd->tid, NULL, watchdog_main, wd);
}

bool
watchdog_fired(struct watchdog *wd)
{

	return atomic_load(&wd->fired) != 0;
}

void
watchdog_stop(struct watchdog *wd)
{

	atomic_store(&wd->stop, 1);
	pthread_join(wd->tid, NULL);
	return;
}
