/*
 * label.h - what a verdict's line names besides its metric: two cells as
 * one label, their key once and each word that differs as "name=a->b",
 * and a cell's plugins by the file each was loaded from, with its
 * checksum (the context's "plugins"). Nothing prints.
 */
#ifndef BENCH_LABEL_H
#define BENCH_LABEL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * Two arms' cells that differ (an arm's own --queue, --payload-ns): the
 * key once, each word that differs as "name=base->new".
 */
void label_keys(const char *ka, const char *kb, char *label, size_t len);

/*
 * Two cells as one label: their key once, each word that differs as
 * "name=a->b" ("shared/lfseg->vyukov w=2 c=64 ...").
 */
void label_cells(const cJSON *a, const cJSON *b, char *buf, size_t len);

/*
 * The file a plugin was loaded from, by its spec: the entry of ctx, the
 * context of the machine that ran the cell (results_context).
 */
const cJSON *label_plugin_entry(const cJSON *ctx, const char *spec);

/* A cell's field of a plugin ("queue_plugin"): the parameter's key, or NULL. */
const char *label_plugin_param(const cJSON *f, char *buf, size_t len);

/* A cell's plugins: [{param, name, spec, path, sha256}], for the JSON. */
cJSON *label_plugins_json(const cJSON *cell, const cJSON *doc);

/* "shared/lfseg w=8 c=64", and the workload when it blocks, of a key. */
void label_short_cell(const char *key, char *buf, size_t len);

/*
 * Whether a cell's key holds every word of filter (NULL: any), each as a
 * word of the key or one side of its design/queue: "shared w=8" names
 * shared/lfseg w=8 and shared/vyukov w=8, never w=80.
 */
bool label_key_holds(const char *filter, const char *key);

#endif /* BENCH_LABEL_H */
