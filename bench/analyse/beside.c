/*
 * beside.c - a real runtime's cells beside the models of its design (see
 * beside.h).
 */
#include <string.h>

#include "beside.h"
#include "params.h"
#include "results.h"

static const char *const beside_kinds[] = { "dispatcher", "queue" };

/* The runtime a cell runs, and the field that names it. */
static const cJSON *
beside_runtime(const cJSON *doc, const cJSON *cell, const char **field)
{
	const cJSON *all = results_obj(results_context(doc, cell), "runtimes");
	const cJSON *r;
	size_t i;

	for (i = 0; i < sizeof(beside_kinds) / sizeof(beside_kinds[0]); i++) {
		r = results_obj(all, results_str(cell, beside_kinds[i], ""));
		if (r != NULL && strcmp(results_str(r, "kind", ""),
		    beside_kinds[i]) == 0) {
			*field = beside_kinds[i];
			return r;
		}
	}
	return NULL;
}

const char *
beside_real(const cJSON *doc, const cJSON *cell)
{
	const char *field;
	const cJSON *r = beside_runtime(doc, cell, &field);

	return r != NULL ? results_str(r, "real", NULL) : NULL;
}

/* The first cell of the model that is cell but for field. */
static const cJSON *
beside_model(const cJSON *cells, const cJSON *cell, const char *field,
    const char *model)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, cells) {
		if (strcmp(results_str(m, field, ""), model) == 0 &&
		    params_same_but(cell, m, field))
			return m;
	}
	return NULL;
}

/* fn(real, model, name) for each model beside cell that models holds. */
static void
beside_cell(const cJSON *doc, const cJSON *models, const cJSON *cell,
    beside_fn *fn, void *arg)
{
	const cJSON *r, *m;
	const char *field, *list, *end;
	char name[64];
	size_t len;

	if ((r = beside_runtime(doc, cell, &field)) == NULL)
		return;
	for (list = results_str(r, "beside", ""); *list != '\0';
	    list = *end != '\0' ? end + 1 : end) {
		end = list + strcspn(list, ",");
		len = (size_t)(end - list);
		if (len == 0 || len >= sizeof(name))
			continue;
		memcpy(name, list, len);
		name[len] = '\0';
		if ((m = beside_model(results_arr(models, "cells"), cell, field,
		    name)) != NULL)
			fn(cell, m, name, arg);
	}
	return;
}

void
beside_each(const cJSON *doc, const cJSON *models, beside_fn *fn, void *arg)
{
	const cJSON *cell;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		beside_cell(doc, models, cell, fn, arg);
	return;
}

static void
beside_keep_first(const cJSON *real, const cJSON *model, const char *name,
    void *arg)
{
	const cJSON **first = arg;

	(void)real;
	(void)name;
	if (*first == NULL)
		*first = model;
	return;
}

const cJSON *
beside_first(const cJSON *doc, const cJSON *cell)
{
	const cJSON *first = NULL;

	beside_cell(doc, doc, cell, beside_keep_first, &first);
	return first;
}
