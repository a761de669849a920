/*
 * runner.c - runs the registered tests, each in a forked child with an
 * alarm at its timeout (see criterion/criterion.h).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "criterion/criterion.h"

#define CRS_TIMEOUT_S	900

static struct crs_test *crs_tests;

void
crs_register(struct crs_test *t)
{

	t->next = crs_tests;
	crs_tests = t;
	return;
}

void
crs_check(int ok, const char *file, int line, const char *expr,
    const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	/* fmt is " " and the assertion's own message, if it has one. */
	fprintf(stderr, "%s:%d: assertion failed: %s:", file, line, expr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	_exit(1);
}

/* A skipped test says why and does not fail, as in Criterion. */
void
crs_skip(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "skipped: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(NULL);
	_exit(0);
}

/* Runs one test (param: NULL, or the parameter) in a child; 1 if it passed. */
static int
crs_run(const struct crs_test *t, void *param, size_t i)
{
	int status;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		alarm((unsigned int)(t->timeout > 0 ? t->timeout : CRS_TIMEOUT_S));
		if (t->fn != NULL)
			t->fn();
		else
			t->pfn(param);
		fflush(NULL);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 1;
	printf("[FAIL] %s::%s", t->suite, t->name);
	if (param != NULL)
		printf(" (parameter %zu)", i);
	if (WIFSIGNALED(status))
		printf(": %s", strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		printf(": exit status %d%s", WEXITSTATUS(status),
		    WEXITSTATUS(status) == 66 ? " (a ThreadSanitizer report)" : "");
	printf("\n");
	return 0;
}

int
main(void)
{
	struct criterion_test_params p;
	const struct crs_test *t;
	int tested = 0, passed = 0;
	size_t i;

	for (t = crs_tests; t != NULL; t = t->next) {
		if (t->fn != NULL) {
			tested++;
			passed += crs_run(t, NULL, 0);
			continue;
		}
		p = t->params();
		for (i = 0; i < p.length; i++) {
			tested++;
			passed += crs_run(t, (char *)p.params + i * p.size, i);
		}
	}
	printf("[====] Synthesis: Tested: %d | Passing: %d | Failing: %d\n",
	    tested, passed, tested - passed);
	return passed == tested ? 0 : 1;
}
