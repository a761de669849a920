/*
 * call.c - a command line made into a call of its command: the command's
 * own options and words, and for a sweep's command, run's defaults, the
 * command's and the user's options, checked against the machine.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "count.h"
#include "counters.h"
#include "pin.h"
#include "valgrind.h"

int
command_bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dispatchbench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return EXIT_USAGE;
}

/* Counted cells: each one countable, and something here to count them. */
static int
call_counted(struct call *c, char *err, size_t len)
{
	bool callgrind = false;
	size_t i;

	for (i = 0; i < c->ncells; i++) {
		if (count_check(&c->cells[i], err, len) != 0)
			return -1;
		callgrind |= c->cells[i].count > 0 &&
		    count_counter(&c->cells[i]) == COUNT_CALLGRIND;
	}
	return callgrind ? valgrind_prepare(err, len) : 0;
}

int
command_metric(struct call *c, const char **metric, char *err, size_t len)
{
	size_t i;

	if (strcmp(*metric, COUNT_METRIC) != 0 &&
	    strcmp(*metric, COUNT_FIELD) != 0)
		return 0;
	*metric = COUNT_FIELD;
	if (c->cells == NULL)
		return 0;
	if (cli_given(&c->sweep, "--count") && c->sweep.cell.count == 0)
		return snprintf(err, len, "--metric instructions counts every "
		    "window: --count 0 would time them"), -1;
	if (c->sweep.cell.count == 0)
		c->sweep.cell.count = COUNT_DEFAULT;
	for (i = 0; i < c->ncells; i++)
		if (c->cells[i].count == 0)
			c->cells[i].count = c->sweep.cell.count;
	return call_counted(c, err, len);
}

/*
 * A sweep's options: run's defaults, the command's own, what the user
 * gave; the pin plan and the counters' names checked against the machine
 * before anything runs.
 */
static int
call_sweep(const struct command *cmd, struct call *c, char *err, size_t errlen)
{
	struct pin_plan plan;
	struct counters k;
	int n;

	cli_defaults(&c->sweep);
	for (n = 0; cmd->sweep[n] != NULL; n++)
		continue;
	if (cli_parse(&c->sweep, n, (char **)cmd->sweep, err, errlen) != 0 ||
	    cli_parse(&c->sweep, c->nrest, c->rest, err, errlen) != 0 ||
	    pin_plan_init(&plan, c->sweep.cell.pin, err, errlen) != 0)
		return -1;
	pin_plan_fini(&plan);
	if (counters_init(&k, c->sweep.cell.counters, err, errlen) != 0)
		return -1;
	c->cells = cli_cells(&c->sweep, &c->ncells, err, errlen);
	return c->cells != NULL ? call_counted(c, err, errlen) : -1;
}

static int
call_parse(const struct command *cmd, struct call *c, char *err,
    size_t errlen)
{
	struct cli_words w = { .words = c->words, .maxwords = cmd->maxwords };
	const char *sep = *cmd->args != '\0' ? " " : "";
	char why[400];

	if ((c->rest = calloc((size_t)c->argc, sizeof(*c->rest))) == NULL)
		abort();
	w.rest = cmd->sweep != NULL ? c->rest : NULL;
	if ((c->args = calloc(1, cmd->args_size + 1)) == NULL)
		abort();
	cli_option_defaults(cmd->opts, cmd->nopts, c->args);
	if (cli_options(cmd->opts, cmd->nopts, c->args, c->argc - 2,
	    c->argv + 2, &w, why, sizeof(why)) != 0)
		return snprintf(err, errlen, "%s (usage: dispatchbench %s%s%s)",
		    why, cmd->name, sep, cmd->args), -1;
	if (w.nwords < cmd->minwords)
		return snprintf(err, errlen, "usage: dispatchbench %s%s%s",
		    cmd->name, sep, cmd->args), -1;
	c->nwords = w.nwords;
	c->nrest = w.nrest;
	return cmd->sweep != NULL ? call_sweep(cmd, c, err, errlen) : 0;
}

void
command_line_free(struct call *c)
{

	free(c->cells);
	free(c->rest);
	free(c->args);
	free(c);
	return;
}

struct call *
call_make(const struct command *cmd, int argc, char **argv, char *err,
    size_t errlen)
{
	struct call *c = calloc(1, sizeof(*c));

	if (c == NULL)
		abort();
	c->argc = argc;
	c->argv = argv;
	if (call_parse(cmd, c, err, errlen) == 0)
		return c;
	command_line_free(c);
	return NULL;
}
