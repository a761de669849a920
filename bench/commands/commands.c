/*
 * commands.c - the list of sub-commands (commands.h), from which `--help`,
 * `help COMMAND`, `--version` and the usage are made, and the call of the
 * one a command line names (its options parsed by call.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gitrev.h"

static int cmd_help(struct call *);

static const struct command command_help = {
	.name = "help",
	.args = "[COMMAND]",
	.summary = "this, or one command's options",
	.maxwords = 1,
	.run = cmd_help,
};

/* In the order of the usage. */
/* Each command's file defines it; a new one is a line here and its file. */
extern const struct command command_run, command_cell,
    command_list;				/* run.c */
extern const struct command command_topo, command_plan,
    command_matrix;				/* machine.c */
extern const struct command command_ab, command_compare;	/* verdict.c */
extern const struct command command_advise;		/* advise.c */
extern const struct command command_plot, command_report,
    command_export;				/* files.c */
extern const struct command command_verify;		/* verify.c */
extern const struct command command_pair;		/* pair.c */
extern const struct command command_store,
    command_history;				/* history.c */
extern const struct command command_bisect;		/* bisect.c */
extern const struct command command_merge, command_fleet;	/* fleet.c */
extern const struct command command_fields;		/* fields.c */

static const struct command *const commands[] = {
	&command_run, &command_ab, &command_pair, &command_compare,
	&command_advise,
	&command_plot, &command_report, &command_export, &command_list,
	&command_topo, &command_plan, &command_matrix, &command_verify,
	&command_store, &command_history, &command_bisect, &command_merge,
	&command_fleet, &command_fields,
	&command_cell, &command_help,
};

#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const struct command *
command_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void
usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: dispatchbench COMMAND [options]\n\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\n`dispatchbench help COMMAND` gives a command's "
	    "options,\n`dispatchbench --version` the build.\n");
	return;
}

static void
command_usage(FILE *out, const struct command *cmd)
{
	size_t i;

	fprintf(out, "usage: dispatchbench %s %s\n\n%s.\n", cmd->name,
	    cmd->args, cmd->summary);
	if (cmd->nopts > 0) {
		fprintf(out, "\noptions:\n");
		cli_usage(out, cmd->opts, cmd->nopts);
	}
	if (cmd->sweep != NULL) {
		fprintf(out, "\n%s", cmd->sweep[0] == NULL ? "options" :
		    "options of run; here by default");
		for (i = 0; cmd->sweep[i] != NULL; i++)
			fprintf(out, " %s", cmd->sweep[i]);
		fprintf(out, ":\n");
		cli_usage(out, params, nparams);
		fprintf(out, "\nA LIST is comma-separated; A..B is the powers of two "
		    "from A to B.\n");
	}
	return;
}

static int
version(void)
{

	printf("dispatchbench %s (revision %s, build %s, sanitizer %s)\n",
	    DB_VERSION, DB_GIT_REV, *DB_BUILD_TYPE ? DB_BUILD_TYPE : "default",
	    *DB_SANITIZER ? DB_SANITIZER : "none");
	return 0;
}

/*
 * The words a command takes fit a call: an entry of the table that takes
 * more than CALL_MAX_WORDS would have them written past words[]. A wrong
 * table is this build's fault, not the user's: it aborts.
 */
static void
commands_check(void)
{
	const struct command *cmd;
	size_t i;

	for (i = 0; i < NCOMMANDS; i++) {
		cmd = commands[i];
		if (cmd->minwords < 0 || cmd->minwords > cmd->maxwords ||
		    cmd->maxwords > CALL_MAX_WORDS) {
			fprintf(stderr, "dispatchbench: the command table is "
			    "wrong: %s takes %d to %d words, a call holds %d\n",
			    cmd->name, cmd->minwords, cmd->maxwords,
			    CALL_MAX_WORDS);
			abort();
		}
	}
	return;
}

/* Whether a word after the command asks for its help. */
static bool
wants_help(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	return false;
}

struct call *
command_line(int argc, char **argv, const struct command **cmdp, int *status)
{
	struct call *c;
	char err[512];

	commands_check();
	*status = 0;
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return *status = version(), NULL;
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0))
		return usage(stdout), NULL;
	if (argc < 2)
		return usage(stderr), *status = EXIT_USAGE, NULL;
	if ((*cmdp = command_find(argv[1])) == NULL) {
		usage(stderr);
		*status = command_bad("unknown command '%s'", argv[1]);
		return NULL;
	}
	if (wants_help(argc, argv))
		return command_usage(stdout, *cmdp), NULL;
	if ((c = call_make(*cmdp, argc, argv, err, sizeof(err))) == NULL)
		*status = command_bad("%s", err);
	return c;
}

int
commands_main(int argc, char **argv)
{
	const struct command *cmd;
	struct call *c;
	int rc;

	if ((c = command_line(argc, argv, &cmd, &rc)) == NULL)
		return rc;
	rc = cmd->run(c);
	command_line_free(c);
	return rc;
}

static int
cmd_help(struct call *c)
{
	const struct command *cmd;

	if (c->nwords == 0)
		return usage(stdout), 0;
	if ((cmd = command_find(c->words[0])) == NULL)
		return command_bad("help: unknown command '%s'", c->words[0]);
	command_usage(stdout, cmd);
	return 0;
}
