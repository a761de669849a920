/*
 * child.c - a child process of the tool (see child.h).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "measure.h"
#include "watchdog.h"

#define CHILD_LOOK_MS	200	/* how often deadline and stop are seen */

/* Reads fd into ch until EOF; false if the deadline or stop came first. */
static bool
child_collect(int fd, double deadline, bool (*stop)(void), struct child *ch)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t cap = 0;
	ssize_t r;
	int ms;

	for (;;) {
		ms = deadline > 0 ? (int)fmin((deadline - measure_now()) * 1000,
		    CHILD_LOOK_MS) : CHILD_LOOK_MS;
		if (ms <= 0 || (stop != NULL && stop()))
			return false;
		if (poll(&pfd, 1, ms) <= 0)
			continue;
		if (ch->len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			if ((ch->out = realloc(ch->out, cap)) == NULL)
				abort();
		}
		r = read(fd, ch->out + ch->len, cap - ch->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return true;
		ch->len += (size_t)r;
	}
}

/* Its stdout as a string, whatever it printed. */
static int
child_text(struct child *ch, int rc)
{

	if (ch->out == NULL && (ch->out = malloc(1)) == NULL)
		abort();
	ch->out[ch->len] = '\0';
	return rc;
}

int
child_run(const char *path, char *const argv[], unsigned int flags,
    double deadline, bool (*stop)(void), struct child *ch)
{
	pid_t pid, self = getpid();
	int fds[2];
	bool eof;

	*ch = (struct child){ .end = CHILD_UNSTARTED };
	if (pipe(fds) != 0)
		return ch->why = strerror(errno), child_text(ch, -1);
	if ((pid = fork()) == 0) {
		/*
		 * A tool killed past its deadline leaves no child behind; one
		 * killed before this line ran has a child no longer its own.
		 */
		if ((flags & CHILD_TIED) && (prctl(PR_SET_PDEATHSIG, SIGKILL) !=
		    0 || getppid() != self))
			_exit(127);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (flags & CHILD_PATH)
			execvp(path, argv);
		else
			execv(path, argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return ch->why = "fork failed", child_text(ch, -1);
	}
	eof = child_collect(fds[0], deadline, stop, ch);
	close(fds[0]);
	ch->end = eof ? CHILD_EXITED : stop != NULL && stop() ? CHILD_STOPPED :
	    CHILD_LATE;
	/* Past its deadline: what its threads were doing, then kill it. */
	if (ch->end == CHILD_LATE)
		ch->stacks = watchdog_stacks(pid);
	if (!eof)
		kill(pid, SIGKILL);
	while (waitpid(pid, &ch->status, 0) < 0 && errno == EINTR)
		continue;
	return child_text(ch, eof ? 0 : -1);
}

int
child_exit(const struct child *ch)
{

	if (ch->end != CHILD_EXITED)
		return -1;
	return WIFEXITED(ch->status) ? WEXITSTATUS(ch->status) :
	    128 + WTERMSIG(ch->status);
}

void
child_free(struct child *ch)
{

	free(ch->out);
	free(ch->stacks);
	ch->out = ch->stacks = NULL;
	return;
}

int
child_output(char *const argv[], char *out, size_t len)
{
	struct child ch;
	int rc;

	child_run(argv[0], argv, CHILD_PATH, 0, NULL, &ch);
	snprintf(out, len, "%s", ch.out);
	rc = child_exit(&ch);
	child_free(&ch);
	return rc;
}

int
child_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? 0 : -1;
}
