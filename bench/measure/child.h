/*
 * child.h - a child process of the tool: a command line run with its
 * stdout read into memory, within a deadline. A child past its deadline
 * has its threads' stacks taken (gdb), then is killed: a run of a sweep,
 * a process of pair, and bisect's git, builds and steps all start here.
 *
 * The child stays in the tool's process group, so a SIGINT from the
 * terminal reaches it as it reaches the tool.
 */
#ifndef BENCH_CHILD_H
#define BENCH_CHILD_H

#include <stdbool.h>
#include <stddef.h>

#define CHILD_PATH	(1u << 0)	/* argv[0] is looked up in PATH */
#define CHILD_TIED	(1u << 1)	/* killed when the tool dies */

enum child_end {
	CHILD_EXITED,		/* it ended by itself: status says how */
	CHILD_LATE,		/* it passed its deadline and was killed */
	CHILD_STOPPED,		/* stop() said so first, and it was killed */
	CHILD_UNSTARTED,	/* no pipe or no fork: why says which */
};

struct child {
	enum child_end end;
	int status;		/* waitpid's, once it has ended */
	char *out;		/* its stdout, NUL-terminated; never NULL */
	size_t len;
	char *stacks;		/* CHILD_LATE: its threads' stacks, or NULL */
	const char *why;	/* CHILD_UNSTARTED: the reason */
};

/*
 * Runs the program path with argv, its stdout into ch (its stderr is the
 * tool's), until it closes it, the absolute deadline (measure_now's
 * clock; 0: none) or stop (NULL: never), whichever comes first. Returns 0
 * when it ended by itself, -1 otherwise; ch is set either way, and
 * child_free frees it.
 */
int child_run(const char *path, char *const argv[], unsigned int flags,
    double deadline, bool (*stop)(void), struct child *ch);

/* Its exit status, 128 + the signal that ended it, or -1: it did not end. */
int child_exit(const struct child *ch);

void child_free(struct child *ch);

/*
 * Runs argv (argv[0] looked up in PATH) to its end, with its stdout into
 * out, cut at len - 1 bytes; returns child_exit's status.
 */
int child_output(char *const argv[], char *out, size_t len);

/*
 * This binary's path, what the tool's children run, into buf: 0, or -1
 * with errno and buf empty.
 */
int child_self(char *buf, size_t len);

#endif /* BENCH_CHILD_H */
