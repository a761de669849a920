/*
 * runfields.c - the list of a run's fields (runfields.h) as a table.
 */
#include <string.h>

#include "runfields.h"

const struct rf_field rf_fields[RF_NFIELDS] = {
#define RF_ROW(k, t, u, b, f)	[RF_##k] = { #k, RF_##t, (u), RF_##b, (f) },
	RF_FIELDS(RF_ROW)
#undef RF_ROW
};

const struct rf_field *
rf_find(const char *key)
{
	size_t i;

	for (i = 0; i < RF_NFIELDS; i++)
		if (strcmp(rf_fields[i].key, key) == 0)
			return &rf_fields[i];
	return NULL;
}

const char *
rf_type_name(enum rf_type type)
{
	static const char *const names[] = {
		[RF_NUMBER] = "a number", [RF_STRING] = "a string",
		[RF_BOOL] = "a boolean", [RF_OBJECT] = "an object",
		[RF_ARRAY] = "an array",
	};

	return names[type];
}
