/*
 * main.c - the dispatchbench command: the only file that prints usage and
 * decides exit statuses. 0 success, 1 a run failed, 2 bad input, 130
 * interrupted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pin.h"
#include "plot.h"
#include "results.h"
#include "runner.h"

#define EXIT_USAGE	2

static const char usage[] =
"usage: dispatchbench run [--dispatcher LIST] [--queue LIST] [--workers LIST]\n"
"                         [--coroutines LIST] [--pin none|compact|scatter|PUS]\n"
"                         [--warmup S] [--time S] [--reps N] [--out FILE.json]\n"
"                         [--spins N] [--wake every|lazy] [--pool N]\n"
"                         [--keepalive S] [--capacity N] [--deadline S] [--quiet]\n"
"       dispatchbench plot RESULTS.json [-o DIR]\n"
"       dispatchbench list\n"
"       dispatchbench topo\n"
"LIST is comma-separated; A..B is the powers of two from A to B.\n";

static int
bad(const char *msg)
{

	fprintf(stderr, "dispatchbench: %s\n", msg);
	return EXIT_USAGE;
}

static int
cmd_list(void)
{
	size_t i;

	printf("dispatchers:\n");
	for (i = 0; i < disp_count(); i++)
		printf("  %-11s %s\n", disp_at(i)->name, disp_at(i)->model);
	printf("queues:\n");
	for (i = 0; i < queue_count(); i++)
		printf("  %-11s %s%s\n", queue_at(i)->name, queue_at(i)->model,
		    queue_at(i)->flags & Q_BOUNDED ? " [bounded]" : "");
	return 0;
}

static int
cmd_topo(void)
{
	struct pin_plan plan;
	char err[256];

	if (pin_plan_init(&plan, "none", err, sizeof(err)) != 0)
		return bad(err);
	pin_topology_print(plan.topo, stdout);
	pin_plan_fini(&plan);
	return 0;
}

/* Parses options and checks the pin plan before anything runs. */
static struct cell *
parse_cells(struct cli_opts *o, int argc, char **argv, size_t *n, char *err,
    size_t errlen)
{
	struct pin_plan plan;

	cli_defaults(o);
	if (cli_parse(o, argc, argv, err, errlen) != 0)
		return NULL;
	if (pin_plan_init(&plan, o->pin, err, errlen) != 0)
		return NULL;
	pin_plan_fini(&plan);
	return cli_cells(o, n, err, errlen);
}

static int
cmd_run(int argc, char **argv, int all_argc, char **all_argv)
{
	struct cli_opts o;
	struct cell *cells;
	char err[512];
	size_t n;
	int rc;

	if ((cells = parse_cells(&o, argc, argv, &n, err, sizeof(err))) == NULL)
		return bad(err);
	rc = runner_sweep(&o, cells, n, all_argc, all_argv);
	free(cells);
	return rc;
}

/* One run of one cell, printed as one JSON line: what `run` forks. */
static int
cmd_cell(int argc, char **argv)
{
	struct cli_opts o;
	struct cell *cells;
	char err[512], *text;
	cJSON *run;
	size_t n;

	if ((cells = parse_cells(&o, argc, argv, &n, err, sizeof(err))) == NULL)
		return bad(err);
	if (n != 1) {
		free(cells);
		return bad("cell: the options must name exactly one cell");
	}
	run = cell_run(&cells[0], &o.win);
	text = cJSON_PrintUnformatted(run);
	printf("%s\n", text);
	free(text);
	cJSON_Delete(run);
	free(cells);
	return 0;
}

static int
cmd_plot(int argc, char **argv)
{
	const char *path = NULL, *dir = NULL;
	char err[512], buf[4096], *slash;
	cJSON *doc;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			dir = argv[++i];
		else if (argv[i][0] != '-' && path == NULL)
			path = argv[i];
		else
			return bad("usage: dispatchbench plot RESULTS.json [-o DIR]");
	}
	if (path == NULL)
		return bad("usage: dispatchbench plot RESULTS.json [-o DIR]");
	if (dir == NULL) {
		snprintf(buf, sizeof(buf), "%s", path);
		slash = strrchr(buf, '/');
		if (slash != NULL)
			*slash = '\0';
		dir = slash != NULL ? buf : ".";
	}
	if (results_read(path, &doc, err, sizeof(err)) != 0)
		return bad(err);
	rc = plot_results(doc, dir, err, sizeof(err));
	cJSON_Delete(doc);
	if (rc != 0)
		return bad(err);
	printf("plots in %s\n", dir);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 2, argv + 2, argc, argv);
	if (strcmp(cmd, "cell") == 0)
		return cmd_cell(argc - 2, argv + 2);
	if (strcmp(cmd, "plot") == 0)
		return cmd_plot(argc - 2, argv + 2);
	if (strcmp(cmd, "list") == 0 && argc == 2)
		return cmd_list();
	if (strcmp(cmd, "topo") == 0 && argc == 2)
		return cmd_topo();
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
	    strcmp(cmd, "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	fputs(usage, stderr);
	return argc > 1 ? bad("unknown command") : EXIT_USAGE;
}
