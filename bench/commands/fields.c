/*
 * fields.c - the fields command: the run's fields as the suite lists
 * them (runfields.h), one row each, in any table format.
 */
#include <cjson/cJSON.h>

#include "commands.h"
#include "runfields.h"
#include "table.h"

struct fields_args {
	int format;
};
#define COMMAND_ARGS	struct fields_args

static const struct param fields_opts[] = {
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F", .help = "the rows' format" },
};

static int
cmd_fields(struct call *c)
{
	static const char *const better[] = { "lower", "higher", "-" };
	static const struct table_col cols[] = {
		{ "key", "field" }, { "type", "type" }, { "unit", "unit" },
		{ "better", "better" }, { "from", "where it comes from" },
	};
	const struct table t = { "fields", cols, 5 };
	cJSON *rows = cJSON_CreateArray(), *row;
	size_t i;

	for (i = 0; i < RF_NFIELDS; i++) {
		row = cJSON_CreateObject();
		cJSON_AddStringToObject(row, "key", rf_fields[i].key);
		cJSON_AddStringToObject(row, "type",
		    rf_type_name(rf_fields[i].type));
		cJSON_AddStringToObject(row, "unit", rf_fields[i].unit);
		cJSON_AddStringToObject(row, "better",
		    better[rf_fields[i].better]);
		cJSON_AddStringToObject(row, "from", rf_fields[i].from);
		cJSON_AddItemToArray(rows, row);
	}
	table_write(stdout, (enum table_format)ARGS_OF(c)->format, &t, rows);
	cJSON_Delete(rows);
	return 0;
}

const struct command command_fields = {
	.name = "fields",
	.args = "[options]",
	.summary = "a run's fields: type, unit, better side, source",
	OPTS(fields_opts),
	.run = cmd_fields,
};
