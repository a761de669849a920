/*
 * plugin.c - queues and designs from shared objects (see plugin.h).
 *
 * A table is checked before anything calls it: its ABI version and size
 * (a plugin built against another version of the headers would read
 * fields that are not there), its name, and the functions the suite calls
 * unconditionally. The object stays loaded until the process ends: a
 * table and the code it points to are never unmapped under a thread.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "designs.h"
#include "plugin.h"

#define PLUGIN_MAX	16

enum plugin_kind { PLUGIN_QUEUE, PLUGIN_DESIGN, PLUGIN_PROGRAM };

static const char *const plugin_kinds[] = { "queue", "dispatcher",
    "program" };

#define PLUGIN_EXEC	"exec:"

struct plugin {
	enum plugin_kind kind;
	const void *ops;
	const char *name;
	unsigned int abi;
	/* A program's design and its command (the spec's path). */
	struct program prog;
	const char *argv[2];
	char spec[PATH_MAX];
	char path[PATH_MAX];
	char sha256[80];
};

static struct plugin plugins[PLUGIN_MAX];
static size_t nplugins;

static int
plugin_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

bool
plugin_is_spec(const char *text)
{

	return strchr(text, '/') != NULL;
}

/*
 * How far a table got before it was refused: plugin_find tells the
 * reason of the loader that got furthest, the loader's own.
 */
enum plugin_reach {
	PLUGIN_UNLOADED,	/* the object did not load */
	PLUGIN_NO_SYMBOL,	/* it has no table of this kind */
	PLUGIN_HEAD,		/* its table's version or size is not ours */
	PLUGIN_TABLE		/* its table is ours, but refused */
};

/* The ":SYMBOL" of PATH[:SYMBOL], or NULL. */
static const char *
plugin_named_symbol(const char *spec)
{
	const char *colon = strrchr(spec, ':');

	return colon != NULL && strchr(colon, '/') == NULL ? colon : NULL;
}

/* PATH[:SYMBOL]: the symbol's address, or NULL with err and *reach set. */
static void *
plugin_symbol(const char *spec, const char *dflt, char *path,
    enum plugin_reach *reach, char *err, size_t errlen)
{
	const char *colon = plugin_named_symbol(spec), *sym = dflt;
	void *h, *p;

	snprintf(path, PATH_MAX, "%s", spec);
	if (colon != NULL) {
		path[colon - spec] = '\0';
		sym = colon + 1;
	}
	*reach = PLUGIN_UNLOADED;
	if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		plugin_error(err, errlen, "cannot load %s: %s", path, dlerror());
		return NULL;
	}
	*reach = PLUGIN_NO_SYMBOL;
	if ((p = dlsym(h, sym)) == NULL)
		plugin_error(err, errlen, "%s has no symbol %s", path, sym);
	else
		*reach = PLUGIN_HEAD;
	return p;
}

static const struct plugin *
plugin_loaded(enum plugin_kind kind, const char *spec)
{
	size_t i;

	for (i = 0; i < nplugins; i++)
		if (plugins[i].kind == kind && strcmp(plugins[i].spec, spec) == 0)
			return &plugins[i];
	return NULL;
}

/*
 * The checks every table takes, whatever its kind: an ABI version from
 * oldest to want (the versions whose layouts are this build's), its size,
 * its name.
 */
static int
plugin_check_head(const char *path, const char *name, unsigned int abi,
    unsigned int oldest, unsigned int want_abi, unsigned int size,
    unsigned int want_size, char *err, size_t errlen)
{
	char reads[32];

	if (abi < oldest || abi > want_abi) {
		if (oldest < want_abi)
			snprintf(reads, sizeof(reads), "%u to %u", oldest,
			    want_abi);
		else
			snprintf(reads, sizeof(reads), "%u", want_abi);
		return plugin_error(err, errlen, "%s: ABI version %u, this build "
		    "reads %s: rebuild it against these headers", path, abi,
		    reads);
	}
	if (size != want_size)
		return plugin_error(err, errlen, "%s: its table is %u bytes, "
		    "this build's %u: rebuild it against these headers", path,
		    size, want_size);
	if (name == NULL || *name == '\0' || strchr(name, '/') != NULL)
		return plugin_error(err, errlen, "%s: its name must be a word",
		    path);
	return 0;
}

static const void *
plugin_add(enum plugin_kind kind, const char *spec, const void *ops,
    const char *name, unsigned int abi, const char *path, char *err,
    size_t errlen)
{
	struct plugin *p;

	if (nplugins == PLUGIN_MAX) {
		plugin_error(err, errlen, "more than %d plugins", PLUGIN_MAX);
		return NULL;
	}
	p = &plugins[nplugins++];
	*p = (struct plugin){ .kind = kind, .ops = ops, .name = name,
	    .abi = abi };
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	snprintf(p->path, sizeof(p->path), "%s", path);
	context_sha256(path, p->sha256, sizeof(p->sha256));
	return ops;
}

static const struct db_queue_ops *
plugin_queue_reach(const char *spec, enum plugin_reach *reach, char *err,
    size_t errlen)
{
	const struct plugin *done = plugin_loaded(PLUGIN_QUEUE, spec);
	const struct db_queue_ops *q;
	char path[PATH_MAX];

	if (done != NULL)
		return done->ops;
	if ((q = plugin_symbol(spec, PLUGIN_QUEUE_SYMBOL, path, reach, err,
	    errlen)) == NULL)
		return NULL;
	if (plugin_check_head(path, q->name, q->abi, DB_QUEUE_ABI_OLDEST,
	    DB_QUEUE_ABI_VERSION, q->size, sizeof(*q), err, errlen) != 0)
		return NULL;
	*reach = PLUGIN_TABLE;
	if (q->create == NULL || q->destroy == NULL || q->push == NULL ||
	    q->pop == NULL || q->empty == NULL) {
		plugin_error(err, errlen, "%s: queue %s lacks one of create, "
		    "destroy, push, pop, empty", path, q->name);
		return NULL;
	}
	if (queue_find(q->name) != NULL) {
		plugin_error(err, errlen, "%s: the name %s is a built-in queue's",
		    path, q->name);
		return NULL;
	}
	return plugin_add(PLUGIN_QUEUE, spec, q, q->name, q->abi, path, err,
	    errlen);
}

const struct db_queue_ops *
plugin_queue(const char *spec, char *err, size_t errlen)
{
	enum plugin_reach reach;

	return plugin_queue_reach(spec, &reach, err, errlen);
}

static const struct db_disp_ops *
plugin_design_reach(const char *spec, enum plugin_reach *reach, char *err,
    size_t errlen)
{
	const struct plugin *done = plugin_loaded(PLUGIN_DESIGN, spec);
	const struct db_disp_ops *d;
	char path[PATH_MAX];

	if (done != NULL)
		return done->ops;
	if ((d = plugin_symbol(spec, PLUGIN_DISP_SYMBOL, path, reach, err,
	    errlen)) == NULL)
		return NULL;
	if (plugin_check_head(path, d->name, d->abi, DB_DISP_ABI_OLDEST,
	    DB_DISP_ABI_VERSION, d->size, sizeof(*d), err, errlen) != 0)
		return NULL;
	*reach = PLUGIN_TABLE;
	if (d->create == NULL || d->dispatch == NULL || d->shutdown == NULL) {
		plugin_error(err, errlen, "%s: dispatcher %s lacks one of "
		    "create, dispatch, shutdown", path, d->name);
		return NULL;
	}
	if (disp_find(d->name) != NULL) {
		plugin_error(err, errlen, "%s: the name %s is a built-in "
		    "design's", path, d->name);
		return NULL;
	}
	return plugin_add(PLUGIN_DESIGN, spec, d, d->name, d->abi, path, err,
	    errlen);
}

const struct db_disp_ops *
plugin_design(const char *spec, char *err, size_t errlen)
{
	enum plugin_reach reach;

	return plugin_design_reach(spec, &reach, err, errlen);
}

bool
plugin_is_program(const char *text)
{

	return strncmp(text, PLUGIN_EXEC, strlen(PLUGIN_EXEC)) == 0;
}

/*
 * exec:PATH, a program that answers the protocol (docs/external.md):
 * named by its file's name, real by what it says at its start.
 */
const struct db_disp_ops *
plugin_program(const char *spec, char *err, size_t errlen)
{
	const struct plugin *done = plugin_loaded(PLUGIN_PROGRAM, spec);
	const char *path = spec + strlen(PLUGIN_EXEC), *name;
	struct plugin *p;
	struct stat st;

	if (done != NULL)
		return done->ops;
	errno = 0;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    access(path, X_OK) != 0) {
		plugin_error(err, errlen, "%s: not a program this user can "
		    "run: %s", path, errno != 0 ? strerror(errno) :
		    "not a file");
		return NULL;
	}
	name = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	if (disp_find(name) != NULL) {
		plugin_error(err, errlen, "%s: the name %s is a built-in "
		    "design's", path, name);
		return NULL;
	}
	if (nplugins == PLUGIN_MAX) {
		plugin_error(err, errlen, "more than %d plugins", PLUGIN_MAX);
		return NULL;
	}
	p = &plugins[nplugins];
	(void)plugin_add(PLUGIN_PROGRAM, spec, &p->prog, NULL,
	    PROGRAM_PROTOCOL, path, err, errlen);
	p->name = p->path + (name - path);
	p->argv[0] = p->path;
	p->prog = (struct program){ .ops = { DB_DISP_OPS_HEAD,
	    .name = p->name, .model = "a program of its own "
	    "(docs/external.md)", .real = "its own runtime",
	    .flags = DB_DISP_PROGRAM }, .argv = p->argv };
	return p->ops;
}

/*
 * A plugin's queue or, failing that, its design. Refused, the reason is
 * the loader's own, as --queue or --dispatcher would give it, of the
 * kind whose table got further (the queue's of a tie: it is tried
 * first); "neither" only when the object has neither table. One table
 * named by its symbol and refused as both could be either: both reasons.
 */
static int
plugin_find_spec(const char *spec, const struct db_queue_ops **q,
    const struct db_disp_ops **d, char *err, size_t errlen)
{
	enum plugin_reach at[2] = { PLUGIN_UNLOADED, PLUGIN_UNLOADED };
	char why[2][512];

	if ((*q = plugin_queue_reach(spec, &at[0], why[0],
	    sizeof(why[0]))) != NULL || (*d = plugin_design_reach(spec,
	    &at[1], why[1], sizeof(why[1]))) != NULL)
		return 0;
	if (at[0] == PLUGIN_NO_SYMBOL && at[1] == PLUGIN_NO_SYMBOL &&
	    plugin_named_symbol(spec) == NULL)
		return plugin_error(err, errlen, "%s is neither a queue nor a "
		    "dispatcher plugin: it has no symbol %s or %s", spec,
		    PLUGIN_QUEUE_SYMBOL, PLUGIN_DISP_SYMBOL);
	if (at[0] == PLUGIN_HEAD && at[1] == PLUGIN_HEAD &&
	    plugin_named_symbol(spec) != NULL)
		return plugin_error(err, errlen, "as a queue, %s; as a "
		    "dispatcher, %s", why[0], why[1]);
	return plugin_error(err, errlen, "%s", why[at[1] > at[0]]);
}

int
plugin_find(const char *spec, const struct db_queue_ops **q,
    const struct db_disp_ops **d, char *err, size_t errlen)
{

	*q = NULL;
	*d = NULL;
	if (plugin_is_spec(spec))
		return plugin_find_spec(spec, q, d, err, errlen);
	if ((*q = queue_find(spec)) == NULL && (*d = disp_find(spec)) == NULL)
		return snprintf(err, errlen, "'%s' is neither a queue nor a "
		    "dispatcher (see `dispatchbench list`)", spec), -1;
	return 0;
}

const char *
plugin_spec(const void *ops)
{
	size_t i;

	for (i = 0; i < nplugins; i++)
		if (plugins[i].ops == ops)
			return plugins[i].spec;
	return NULL;
}

cJSON *
plugin_json(void)
{
	cJSON *a = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; i < nplugins; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "kind", plugin_kinds[plugins[i].kind]);
		cJSON_AddStringToObject(o, "name", plugins[i].name);
		cJSON_AddStringToObject(o, "spec", plugins[i].spec);
		cJSON_AddStringToObject(o, "path", plugins[i].path);
		cJSON_AddStringToObject(o, "sha256", plugins[i].sha256);
		cJSON_AddNumberToObject(o, "abi", plugins[i].abi);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

const void *
plugin_at(size_t i, bool *queue)
{

	if (i >= nplugins)
		return NULL;
	*queue = plugins[i].kind == PLUGIN_QUEUE;
	return plugins[i].ops;
}
