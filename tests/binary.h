/*
 * binary.h - the tool as a user runs it: a shell line's output and exit
 * status, and `dispatchbench ARGS` with what it printed (stdout and
 * stderr).
 */
#ifndef TESTS_BINARY_H
#define TESTS_BINARY_H

#include <stdio.h>
#include <sys/wait.h>

/* What the shell line cmd printed on stdout, into out; its exit status. */
static inline int
shell_output(const char *cmd, char *out, size_t len)
{
	size_t n;
	FILE *p;
	int status;

	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* env: words before the binary (VAR=value ...), or "". */
static inline int
binary_run(const char *env, const char *args, char *out, size_t len)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "%s %s %s 2>&1", env, DB_BINARY, args);
	return shell_output(cmd, out, len);
}

/* The lines of what it printed: one line on stderr is one line. */
static inline int
lines_of(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

#endif /* TESTS_BINARY_H */
