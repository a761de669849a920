/*
 * measure.h - what the kernel says a process spent, read at the two ends of
 * a measured window.
 */
#ifndef BENCH_MEASURE_H
#define BENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct measure_sample {
	double wall_s;		/* CLOCK_MONOTONIC */
	double cpu_s;		/* getrusage(RUSAGE_SELF) utime + stime;
				   another process's CPU clock */
	double cpu_clock_s;	/* the process's CPU clock */
	double cpu_sched_s;	/* sum of /proc/PID/task/<tid>/schedstat */
	long nvcsw;		/* voluntary context switches (another
				   process: of its live threads) */
	long nivcsw;		/* involuntary context switches */
	/*
	 * The whole machine, from /proc/stat's "cpu" line: seconds of CPU
	 * busy (ours and every other process's) and stolen by the
	 * hypervisor; NAN if unread. What else ran beside a window.
	 */
	double host_busy_s;
	double host_steal_s;
};

/* This process (pid 0) or another. */
void measure_sample(pid_t pid, struct measure_sample *s);
double measure_now(void);

/* The calling thread's CPU clock, in seconds. */
double measure_thread_s(void);

/* Sorts n figures, lowest first. */
void measure_sort(double *v, size_t n);

/*
 * Another process's load worth marking a window for, as a share of the
 * machine's online CPUs, for the CPUs other processes kept busy or the
 * time the hypervisor stole. Idle, this 2-vCPU guest showed at most 2.2 %
 * other load over 21 windows; one CPU hog beside a sweep, at least 10.7 %.
 */
#define MEASURE_HOST_BUSY	0.05

/*
 * What else the machine did between samples a and b: the CPUs other
 * processes kept busy on average (the machine's busy time less ours) and
 * the share of the machine's CPU time stolen, each as a share of its
 * online CPUs (NAN if /proc/stat was unread).
 */
struct measure_host {
	double other_cpus;
	double other_share;
	double steal_share;
	double resolved_share;	/* the least share /proc/stat's ticks tell */
};

void measure_host_between(const struct measure_sample *a,
    const struct measure_sample *b, struct measure_host *h);

/*
 * The machine's busy and stolen seconds into s, from /proc/stat as f
 * reads it at tick clock ticks a second; NAN when f holds no such line.
 */
void measure_host_stat(FILE *f, double tick, struct measure_sample *s);

/*
 * Whether h saw more than MEASURE_HOST_BUSY of other load or steal, and
 * more than /proc/stat's ticks resolve over so short a window.
 */
bool measure_host_busy(const struct measure_host *h);

/*
 * From /proc/PID/status (pid 0: this process): Threads, VmRSS, VmHWM and
 * RssAnon (kB); -1 if unread.
 */
long measure_status(pid_t pid, const char *field);

/* CPUs this process may run on (its affinity mask). */
unsigned int measure_cpus(void);

/* getrusage ru_maxrss: the process's peak RSS in kB. */
long measure_peak_rss_kb(void);

#endif /* BENCH_MEASURE_H */
