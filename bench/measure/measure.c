/*
 * measure.c - process CPU time three ways, context switches, threads, RSS.
 *
 * getrusage is the headline (it is what WORKLOAD.md and seed 003 use, and
 * it counts threads that exited inside the window). The schedstat sum is
 * the scheduler's own nanosecond counter per live thread: the cross-check,
 * blind to threads that exited.
 *
 * Another process (an external program, program.c) is read from outside:
 * its CPU clock (clock_getcpuclockid: the same sum of every thread's
 * runtime, exited ones included, that getrusage splits into utime and
 * stime), and its live threads' schedstat and context switches.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"

/*
 * /proc/stat counts in clock ticks, each CPU's rounded apart, and the
 * process's own time comes from rusage: a difference of three ticks or
 * less is rounding, not load.
 */
#define MEASURE_HOST_TICKS	3

static double
ts_s(const struct timespec *ts)
{

	return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

static double
tv_s(const struct timeval *tv)
{

	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

double
measure_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts_s(&ts);
}

double
measure_thread_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts_s(&ts);
}

static int
measure_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
measure_sort(double *v, size_t n)
{

	qsort(v, n, sizeof(*v), measure_cmp);
	return;
}

/* /proc/self or /proc/<pid>. */
static void
measure_proc(pid_t pid, char *buf, size_t len)
{

	if (pid == 0)
		snprintf(buf, len, "/proc/self");
	else
		snprintf(buf, len, "/proc/%ld", (long)pid);
	return;
}

/* Field of a status file: "Threads", "voluntary_ctxt_switches"; -1. */
static long
measure_status_at(const char *path, const char *field)
{
	size_t n = strlen(field);
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	}
	if (f != NULL)
		fclose(f);
	return v;
}

/*
 * Every live thread of pid: the sum of its schedstat run time, and of its
 * context switches (read for another process only: getrusage has ours).
 */
static void
measure_tasks(pid_t pid, struct measure_sample *s)
{
	unsigned long long ns, sum = 0;
	char dirpath[64], path[128];
	struct dirent *de;
	long v;
	DIR *dir;
	FILE *f;

	measure_proc(pid, dirpath, sizeof(dirpath));
	strcat(dirpath, "/task");
	dir = opendir(dirpath);
	while (dir != NULL && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%.20s/schedstat", dirpath,
		    de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;	/* the thread exited meanwhile */
		if (fscanf(f, "%llu", &ns) == 1)
			sum += ns;
		fclose(f);
		if (pid == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%.20s/status", dirpath,
		    de->d_name);
		/* Unread (-1): the thread exited between the two reads. */
		if ((v = measure_status_at(path, "voluntary_ctxt_switches")) > 0)
			s->nvcsw += v;
		if ((v = measure_status_at(path,
		    "nonvoluntary_ctxt_switches")) > 0)
			s->nivcsw += v;
	}
	if (dir != NULL)
		closedir(dir);
	s->cpu_sched_s = (double)sum * 1e-9;
	return;
}

/*
 * /proc/stat's first line: user nice system idle iowait irq softirq steal,
 * in clock ticks. Busy is all but idle, iowait and steal.
 */
void
measure_host_stat(FILE *f, double tick, struct measure_sample *s)
{
	unsigned long long v[8];

	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
	    &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8 ||
	    !(tick > 0)) {
		s->host_busy_s = s->host_steal_s = NAN;
		return;
	}
	s->host_busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / tick;
	s->host_steal_s = (double)v[7] / tick;
	return;
}

static void
measure_host(struct measure_sample *s)
{
	FILE *f = fopen("/proc/stat", "r");

	if (f == NULL) {
		s->host_busy_s = s->host_steal_s = NAN;
		return;
	}
	measure_host_stat(f, (double)sysconf(_SC_CLK_TCK), s);
	fclose(f);
	return;
}

static void
measure_self(struct measure_sample *s)
{
	struct rusage ru;
	struct timespec ts;

	getrusage(RUSAGE_SELF, &ru);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	s->cpu_s = tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime);
	s->cpu_clock_s = ts_s(&ts);
	s->nvcsw = ru.ru_nvcsw;
	s->nivcsw = ru.ru_nivcsw;
	return;
}

static void
measure_other(pid_t pid, struct measure_sample *s)
{
	struct timespec ts = { 0, 0 };
	clockid_t clk;

	if (clock_getcpuclockid(pid, &clk) != 0 ||
	    clock_gettime(clk, &ts) != 0)
		ts.tv_sec = -1;
	s->cpu_s = s->cpu_clock_s = ts.tv_sec < 0 ? NAN : ts_s(&ts);
	s->nvcsw = s->nivcsw = 0;
	return;
}

void
measure_sample(pid_t pid, struct measure_sample *s)
{

	s->wall_s = measure_now();
	if (pid == 0)
		measure_self(s);
	else
		measure_other(pid, s);
	measure_tasks(pid, s);
	measure_host(s);
	return;
}

void
measure_host_between(const struct measure_sample *a,
    const struct measure_sample *b, struct measure_host *h)
{
	double wall = b->wall_s - a->wall_s;
	double cpus = (double)sysconf(_SC_NPROCESSORS_ONLN);
	double other = (b->host_busy_s - a->host_busy_s) - (b->cpu_s - a->cpu_s);

	/*
	 * Ticks are coarser than rusage: a quiet window can come out below 0.
	 * NAN (unread) stays NAN.
	 */
	h->other_cpus = (other < 0 ? 0 : other) / wall;
	h->other_share = h->other_cpus / cpus;
	h->steal_share = (b->host_steal_s - a->host_steal_s) / (wall * cpus);
	h->resolved_share = MEASURE_HOST_TICKS / (double)sysconf(_SC_CLK_TCK) /
	    (wall * cpus);
	return;
}

bool
measure_host_busy(const struct measure_host *h)
{
	double least = fmax(MEASURE_HOST_BUSY, h->resolved_share);

	return h->other_share > least || h->steal_share > least;
}

long
measure_status(pid_t pid, const char *field)
{
	char path[64];

	measure_proc(pid, path, sizeof(path));
	strcat(path, "/status");
	return measure_status_at(path, field);
}

long
measure_peak_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

unsigned int
measure_cpus(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	return (unsigned int)CPU_COUNT(&set);
}
