/*
 * merge.h - several machines' results as one document (schema 2): each
 * machine's context kept whole under "machines", each cell marked with
 * the machine that measured it, so plot, report and export draw one
 * series per machine and compare matches a cell only on its own machine.
 */
#ifndef BENCH_MERGE_H
#define BENCH_MERGE_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* One file to merge: its document, its name and its bytes' sha256. */
struct merge_input {
	const cJSON *doc;
	const char *path;
	const char *sha256;
};

/*
 * The merged document of in[0..n), or NULL with err (two inputs of the
 * same bytes). A merged input gives its machines as they are. A machine
 * is named "host (CPU model, N CPUs)"; two of one name (two tasks on one
 * node) are told apart by their files' names. date is the merge's.
 */
cJSON *merge_docs(const struct merge_input *in, size_t n, const char *date,
    char *err, size_t errlen);

/* A machine's name from its context, as merge gives it. */
void merge_machine_name(const cJSON *ctx, char *buf, size_t len);

#endif /* BENCH_MERGE_H */
