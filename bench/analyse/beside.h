/*
 * beside.h - a real runtime's cells beside the models of its design.
 *
 * A results file's context lists the real runtimes and library queues it
 * may name ("runtimes": {name: {kind, real, beside}}). A cell runs one
 * when its dispatcher or its queue is one; each model named beside it has
 * the cell that is the same but for that name (params_same_but). A model
 * may name the knobs that make it the runtime's path as a command line
 * does ("stealing --yield go"): its cell is the one at those values.
 */
#ifndef BENCH_BESIDE_H
#define BENCH_BESIDE_H

#include <cjson/cJSON.h>

/* The library and version a cell runs ("GLib 2.74.6"), or NULL: models. */
const char *beside_real(const cJSON *doc, const cJSON *cell);

typedef void beside_fn(const cJSON *real, const cJSON *model,
    const char *name, void *arg);

/*
 * fn(real cell, model cell, the model's name) for every real runtime's
 * cell of doc and each model's cell of models beside it (models may be
 * doc), in doc's order.
 */
void beside_each(const cJSON *doc, const cJSON *models, beside_fn *fn,
    void *arg);

/*
 * The cell of the first model beside a real runtime's cell that doc holds
 * (its runtime's "beside" list in order), or NULL: a model's cell, or a
 * runtime none of whose models doc measured. Pictures draw a runtime in
 * that model's colour.
 */
const cJSON *beside_first(const cJSON *doc, const cJSON *cell);

#endif /* BENCH_BESIDE_H */
