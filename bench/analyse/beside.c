/*
 * beside.c - a real runtime's cells beside the models of its design (see
 * beside.h).
 */
#include <stdio.h>
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

/*
 * One model beside a runtime: a design, and the knobs that make it the
 * runtime's path, as a command line gives them ("stealing --yield go").
 */
#define BESIDE_KNOBS	4

struct beside_model {
	char name[64];			/* the item as written */
	char design[32];
	const struct param *knob[BESIDE_KNOBS];
	char value[BESIDE_KNOBS][32];
	const char *keys[BESIDE_KNOBS + 1];	/* field, then the knobs' */
	size_t nknobs;
};

static bool
beside_parse(const char *item, size_t len, const char *field,
    struct beside_model *bm)
{
	char flag[32], *at = bm->name;
	int used;

	if (len == 0 || len >= sizeof(bm->name))
		return false;
	memcpy(bm->name, item, len);
	bm->name[len] = '\0';
	bm->keys[0] = field;
	bm->nknobs = 0;
	if (sscanf(at, "%31s%n", bm->design, &used) != 1)
		return false;
	/* Each knob a flag of a cell's key and its value, in pairs. */
	for (at += used; sscanf(at, "%31s%n", flag, &used) == 1; at += used) {
		if (bm->nknobs == BESIDE_KNOBS ||
		    (bm->knob[bm->nknobs] = params_find(flag)) == NULL ||
		    !(bm->knob[bm->nknobs]->flags & P_KEY) ||
		    bm->knob[bm->nknobs]->key == NULL)
			return false;
		at += used;
		if (sscanf(at, "%31s%n", bm->value[bm->nknobs], &used) != 1)
			return false;
		bm->keys[1 + bm->nknobs] = bm->knob[bm->nknobs]->key;
		bm->nknobs++;
	}
	return true;
}

/* Whether m is a cell of the model bm: its design, at its knobs' values. */
static bool
beside_is(const cJSON *m, const char *field, const struct beside_model *bm)
{
	const char *v;
	char num[32];
	size_t i;

	if (strcmp(results_str(m, field, ""), bm->design) != 0)
		return false;
	for (i = 0; i < bm->nknobs; i++) {
		v = params_value(bm->knob[i], m, num, sizeof(num));
		if (strcmp(v != NULL ? v : bm->knob[i]->dflt, bm->value[i]) != 0)
			return false;
	}
	return true;
}

/* The first cell of the model that is cell but for field and its knobs. */
static const cJSON *
beside_model(const cJSON *cells, const cJSON *cell, const char *field,
    const struct beside_model *bm)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, cells) {
		if (beside_is(m, field, bm) && params_same_except(cell, m,
		    bm->keys, 1 + bm->nknobs))
			return m;
	}
	return NULL;
}

/* fn(real, model, name) for each model beside cell that models holds. */
static void
beside_cell(const cJSON *doc, const cJSON *models, const cJSON *cell,
    beside_fn *fn, void *arg)
{
	struct beside_model bm;
	const char *field, *list, *end;
	const cJSON *r, *m;

	if ((r = beside_runtime(doc, cell, &field)) == NULL)
		return;
	for (list = results_str(r, "beside", ""); *list != '\0';
	    list = *end != '\0' ? end + 1 : end) {
		end = list + strcspn(list, ",");
		if (!beside_parse(list, (size_t)(end - list), field, &bm))
			continue;
		if ((m = beside_model(results_arr(models, "cells"), cell, field,
		    &bm)) != NULL)
			fn(cell, m, bm.name, arg);
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
