/*
 * fields.h - a field of a results object (a run, a cell, a row) as the
 * tests read it: a text that is "" when absent, a number that must be
 * there, or one that may be absent.
 */
#ifndef TESTS_FIELDS_H
#define TESTS_FIELDS_H

#include <cjson/cJSON.h>

static inline const char *
field_text(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static inline double
field_number(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	cr_assert(cJSON_IsNumber(v), "no number %s", name);
	return v->valuedouble;
}

static inline double
field_number_or(const cJSON *o, const char *name, double absent)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsNumber(v) ? v->valuedouble : absent;
}

#endif /* TESTS_FIELDS_H */
