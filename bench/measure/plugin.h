/*
 * plugin.h - a queue or a design of the user's own, loaded from a shared
 * object by path: `./libq.so` (its `dispatchbench_queue` or
 * `dispatchbench_dispatcher`) or `./libq.so:SYMBOL`.
 *
 * A loaded table works everywhere a built-in does: it is found by the same
 * name lookups once loaded, its spec is what a child process is given, and
 * the results' context records its path and checksum.
 */
#ifndef BENCH_PLUGIN_H
#define BENCH_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

struct db_disp_ops;
struct db_queue_ops;

#define PLUGIN_QUEUE_SYMBOL	"dispatchbench_queue"
#define PLUGIN_DISP_SYMBOL	"dispatchbench_dispatcher"

/* A spec names a plugin when it is a path: it holds a '/'. */
bool plugin_is_spec(const char *text);

/* NULL, with one line in err, when it cannot be loaded or is refused. */
const struct db_queue_ops *plugin_queue(const char *spec, char *err,
    size_t errlen);
const struct db_disp_ops *plugin_design(const char *spec, char *err,
    size_t errlen);

/*
 * A program of the user's (exec:PATH), run through the external-program
 * protocol (docs/external.md); NULL with err set if PATH is no program.
 */
bool plugin_is_program(const char *text);
const struct db_disp_ops *plugin_program(const char *spec, char *err,
    size_t errlen);

/*
 * A queue (into *q) or a design (into *d) by its name or its plugin's
 * spec; -1 with one line in err when it is neither.
 */
int plugin_find(const char *spec, const struct db_queue_ops **q,
    const struct db_disp_ops **d, char *err, size_t errlen);

/* The spec a table was loaded by; NULL for a built-in. */
const char *plugin_spec(const void *ops);

/* Every plugin loaded: [{kind, name, spec, path, sha256, abi}]. */
cJSON *plugin_json(void);

/* The i-th plugin loaded (a struct db_queue_ops when *queue), or NULL. */
const void *plugin_at(size_t i, bool *queue);

#endif /* BENCH_PLUGIN_H */
