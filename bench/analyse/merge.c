/*
 * merge.c - several machines' results as one document.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "merge.h"
#include "results.h"

void
merge_machine_name(const cJSON *ctx, char *buf, size_t len)
{

	snprintf(buf, len, "%s (%s, %d CPUs)", results_str(ctx, "host", "?"),
	    results_str(ctx, "cpu_model", "?"), results_int(ctx, "online_cpus",
	    0));
	return;
}

/* A merge under way: its inputs and what it has made of them. */
struct merge {
	const struct merge_input *in;
	size_t n;
	cJSON *out;
};

/* The merged machine whose field is value, or NULL. */
static const cJSON *
merge_find(const cJSON *out, const char *field, const char *value)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, results_arr(out, "machines"))
		if (strcmp(results_str(m, field, ""), value) == 0)
			return m;
	return NULL;
}

/* The name each machine of in would have were it the only one. */
static size_t
merge_named(const struct merge_input *in, size_t n, const char *want)
{
	const cJSON *m;
	char name[512];
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (results_machines(in[i].doc) == 0) {
			merge_machine_name(results_obj(in[i].doc, "context"),
			    name, sizeof(name));
			k += strcmp(name, want) == 0;
		}
		cJSON_ArrayForEach(m, results_arr(in[i].doc, "machines"))
			k += strcmp(results_str(m, "name", ""), want) == 0;
	}
	return k;
}

/*
 * want, or when other machines have that name too (two tasks on one
 * node), want and the file's name without its folder and ".json".
 */
static void
merge_unique(const struct merge *g, const char *want, const char *path,
    char *buf, size_t len)
{
	const char *base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 :
	    path;
	size_t n = strlen(base);
	int k;

	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	/* Room for the suffixes, which tell names apart: never cut. */
	n = n < 100 ? n : 100;
	snprintf(buf, len, "%.300s", want);
	if (merge_named(g->in, g->n, want) > 1)
		snprintf(buf, len, "%.300s [%.*s]", want, (int)n, base);
	for (k = 2; merge_find(g->out, "name", buf) != NULL; k++)
		snprintf(buf, len, "%.300s [%.*s] #%d", want, (int)n, base, k);
	return;
}

static void
merge_set(cJSON *o, const char *field, const char *value)
{

	cJSON_DeleteItemFromObjectCaseSensitive(o, field);
	cJSON_AddStringToObject(o, field, value);
	return;
}

/*
 * Machine entry (without its name) into out as want, with the cells of src
 * that old names (NULL: every cell); -1 when its bytes are in already.
 */
static int
merge_add(const struct merge *g, cJSON *entry, const char *want,
    const cJSON *src, const char *old, char *err, size_t errlen)
{
	cJSON *out = g->out;
	const char *sha = results_str(entry, "sha256", "");
	/* A checksum that could not be taken matches nothing. */
	const cJSON *twin = *sha != '\0' && strcmp(sha, "unknown") != 0 ?
	    merge_find(out, "sha256", sha) : NULL;
	const cJSON *cell;
	char name[512];
	cJSON *c;

	if (twin != NULL) {
		snprintf(err, errlen, "%s and %s are the same results",
		    results_str(twin, "source", "?"), results_str(entry,
		    "source", "?"));
		cJSON_Delete(entry);
		return -1;
	}
	merge_unique(g, want, results_str(entry, "source", ""), name,
	    sizeof(name));
	merge_set(entry, "name", name);
	cJSON_AddItemToArray(cJSON_GetObjectItem(out, "machines"), entry);
	cJSON_ArrayForEach(cell, results_arr(src, "cells")) {
		if (old != NULL && strcmp(results_str(cell, "machine", ""),
		    old) != 0)
			continue;
		c = cJSON_Duplicate(cell, true);
		merge_set(c, "machine", name);
		cJSON_AddItemToArray(cJSON_GetObjectItem(out, "cells"), c);
	}
	return 0;
}

/* A run's file: one machine, its context and memory fits kept whole. */
static int
merge_run(const struct merge *g, const struct merge_input *in, char *err,
    size_t errlen)
{
	const cJSON *ctx = results_obj(in->doc, "context");
	const cJSON *fits = results_arr(in->doc, "memory_fits");
	cJSON *entry = cJSON_CreateObject();
	char want[512];

	cJSON_AddStringToObject(entry, "source", in->path);
	cJSON_AddStringToObject(entry, "sha256", in->sha256);
	cJSON_AddBoolToObject(entry, "complete", results_true(in->doc,
	    "complete"));
	cJSON_AddItemToObject(entry, "context", cJSON_Duplicate(ctx, true));
	if (fits != NULL)
		cJSON_AddItemToObject(entry, "memory_fits",
		    cJSON_Duplicate(fits, true));
	merge_machine_name(ctx, want, sizeof(want));
	return merge_add(g, entry, want, in->doc, NULL, err, errlen);
}

/* A merged file: each of its machines, renamed only if a name is taken. */
static int
merge_merged(const struct merge *g, const struct merge_input *in, char *err,
    size_t errlen)
{
	const cJSON *m;
	const char *name;

	cJSON_ArrayForEach(m, results_arr(in->doc, "machines")) {
		name = results_str(m, "name", "");
		if (merge_add(g, cJSON_Duplicate(m, true), name, in->doc, name,
		    err, errlen) != 0)
			return -1;
	}
	return 0;
}

cJSON *
merge_docs(const struct merge_input *in, size_t n, const char *date,
    char *err, size_t errlen)
{
	cJSON *out = cJSON_CreateObject(), *ctx;
	struct merge g = { in, n, out };
	bool complete = true;
	size_t i;
	int rc = 0;

	ctx = cJSON_AddObjectToObject(out, "context");
	cJSON_AddNumberToObject(ctx, "schema", RESULTS_SCHEMA_MERGED);
	cJSON_AddStringToObject(ctx, "date", date);
	cJSON_AddArrayToObject(out, "machines");
	cJSON_AddArrayToObject(out, "cells");
	for (i = 0; i < n && rc == 0; i++) {
		rc = results_machines(in[i].doc) > 0 ? merge_merged(&g, &in[i],
		    err, errlen) : merge_run(&g, &in[i], err, errlen);
		complete &= results_true(in[i].doc, "complete");
	}
	cJSON_AddBoolToObject(out, "complete", complete);
	if (rc == 0)
		return out;
	cJSON_Delete(out);
	return NULL;
}
