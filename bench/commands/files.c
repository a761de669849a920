/*
 * files.c - the commands that read a results file: plot, report, export.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "export.h"
#include "figure.h"
#include "report.h"
#include "results.h"

/* What the options of this file's commands fill (commands.h). */
struct file_args {			/* plot, report, export */
	const char *out;
	int format;
};
#define COMMAND_ARGS	struct file_args

static const struct param plot_opts[] = {
	{ .flag = "-o", .kind = PARAM_PATH, ARG(out), .metavar = "DIR",
	    .help = "where the plots go (default: the results' folder)" },
};

static const struct param report_opts[] = {
	{ .flag = "-o", .kind = PARAM_PATH, ARG(out), .metavar = "PAGE.html",
	    .help = "the page (default: report.html beside the results)" },
};

static const struct param export_opts[] = {
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F", .help = "the rows' format" },
};

/*
 * Where plot and report write: -o, or beside the results (name: in their
 * folder; empty: the folder itself). Reads the results.
 */
static int
file_args_read(struct call *c, const char *name, cJSON **doc, char *out,
    size_t outlen, char *err, size_t errlen)
{
	const char *path = c->words[0], *slash = strrchr(path, '/');

	if (ARGS_OF(c)->out != NULL)
		snprintf(out, outlen, "%s", ARGS_OF(c)->out);
	else if (slash != NULL)
		snprintf(out, outlen, "%.*s%s%s", (int)(slash - path), path,
		    *name != '\0' ? "/" : "", name);
	else
		snprintf(out, outlen, "%s", *name != '\0' ? name : ".");
	return results_read(path, doc, err, errlen);
}

/*
 * The results drawn by draw where file_args_read says (a folder for name
 * "", made if missing; else a file), and where that is told.
 */
static int
file_draw(struct call *c, const char *name, const char *what,
    int (*draw)(const cJSON *, const char *, char *, size_t))
{
	char err[512], where[4096];
	cJSON *doc;
	int rc;

	if (file_args_read(c, name, &doc, where, sizeof(where), err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	if (*name == '\0')
		mkdir(where, 0777);
	rc = draw(doc, where, err, sizeof(err));
	cJSON_Delete(doc);
	if (rc != 0)
		return command_bad("%s", err);
	printf("%s in %s\n", what, where);
	return 0;
}

static int
cmd_plot(struct call *c)
{

	return file_draw(c, "", "plots", figure_results);
}

/* An advise file's page opens with its advice (advise_page). */
static int
cmd_report(struct call *c)
{
	char err[512], where[4096], *advice = NULL;
	size_t len;
	cJSON *doc;
	FILE *f;
	int rc = 0;

	if (file_args_read(c, "report.html", &doc, where, sizeof(where), err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	if (cJSON_IsObject(cJSON_GetObjectItem(doc, "advise"))) {
		f = open_memstream(&advice, &len);
		rc = advise_page(c->words[0], f);
		fclose(f);
	}
	if (rc == 0 && report_write_advised(doc, advice, where, err,
	    sizeof(err)) != 0)
		rc = command_bad("%s", err);
	free(advice);
	cJSON_Delete(doc);
	if (rc == 0)
		printf("report in %s\n", where);
	return rc;
}

static int
cmd_export(struct call *c)
{
	char err[512];
	cJSON *doc;

	if (results_read(c->words[0], &doc, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	export_write(stdout, doc, (enum table_format)ARGS_OF(c)->format,
	    "cells");
	cJSON_Delete(doc);
	return 0;
}

const struct command command_plot = {
	.name = "plot",
	.args = "RESULTS.json [-o DIR]",
	.summary = "a results file as gnuplot figures",
	OPTS(plot_opts),
	.minwords = 1,
	.maxwords = 1,
	.run = cmd_plot,
};
const struct command command_report = {
	.name = "report",
	.args = "RESULTS.json [-o PAGE.html]",
	.summary = "a results file as one page: what it says, figures, table",
	OPTS(report_opts),
	.minwords = 1,
	.maxwords = 1,
	.run = cmd_report,
};
const struct command command_export = {
	.name = "export",
	.args = "RESULTS.json [--format F]",
	.summary = "a results file as rows for other tools, or gbench's JSON",
	OPTS(export_opts),
	.minwords = 1,
	.maxwords = 1,
	.run = cmd_export,
};
