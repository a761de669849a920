/*
 * measure.h - what the kernel says a process spent, read at the two ends of
 * a measured window.
 */
#ifndef BENCH_MEASURE_H
#define BENCH_MEASURE_H

struct measure_sample {
	double wall_s;		/* CLOCK_MONOTONIC */
	double cpu_s;		/* getrusage(RUSAGE_SELF) utime + stime */
	double cpu_clock_s;	/* CLOCK_PROCESS_CPUTIME_ID */
	double cpu_sched_s;	/* sum of /proc/self/task/<tid>/schedstat */
	long nvcsw;		/* voluntary context switches */
	long nivcsw;		/* involuntary context switches */
	/*
	 * The whole machine, from /proc/stat's "cpu" line: seconds of CPU
	 * busy (ours and every other process's) and stolen by the
	 * hypervisor; NAN if unread. What else ran beside a window.
	 */
	double host_busy_s;
	double host_steal_s;
};

void measure_sample(struct measure_sample *s);
double measure_now(void);

/* From /proc/self/status: Threads, VmRSS and RssAnon (kB); -1 if unread. */
long measure_status(const char *field);

/* CPUs this process may run on (its affinity mask). */
unsigned int measure_cpus(void);

/* getrusage ru_maxrss: the process's peak RSS in kB. */
long measure_peak_rss_kb(void);

#endif /* BENCH_MEASURE_H */
