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
	const cJSON *all = results_obj(results_obj(doc, "context"), "runtimes");
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

void
beside_each(const cJSON *doc, const cJSON *models, beside_fn *fn, void *arg)
{
	const cJSON *cells = results_arr(models, "cells"), *cell, *r, *m;
	const char *field, *list, *end;
	char name[64];
	size_t len;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		if ((r = beside_runtime(doc, cell, &field)) == NULL)
			continue;
		for (list = results_str(r, "beside", ""); *list != '\0';
		    list = *end != '\0' ? end + 1 : end) {
			end = list + strcspn(list, ",");
			len = (size_t)(end - list);
			if (len == 0 || len >= sizeof(name))
				continue;
			memcpy(name, list, len);
			name[len] = '\0';
			if ((m = beside_model(cells, cell, field, name)) != NULL)
				fn(cell, m, name, arg);
		}
	}
	return;
}
