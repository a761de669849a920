/*
 * registry.c - the handoff designs, selectable by name, and the one
 * thread-start path they all use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "disp_list.h"

#define DISP_COUNTER_NAME(n, what)	#n,
const char *const disp_counter_names[DB_DISP_NCOUNTERS] = {
	DB_DISP_COUNTERS(DISP_COUNTER_NAME)
};
#undef DISP_COUNTER_NAME

_Static_assert(DB_DISP_NCOUNTERS <= DB_DISP_COUNTER_MAX,
    "struct db_disp_stats has no room for another counter");

#define DISP_ENTRY(n)	&disp_##n,
#define PROGRAM_ENTRY(n, ...)	&program_##n.ops,
static const struct db_disp_ops *const designs[] = {
	DISP_DESIGNS(DISP_ENTRY)
	DISP_PROGRAMS(PROGRAM_ENTRY)
};
#undef PROGRAM_ENTRY
#undef DISP_ENTRY

const struct db_disp_ops *
disp_find(const char *name)
{
	size_t i;

	for (i = 0; i < disp_count(); i++) {
		if (strcmp(designs[i]->name, name) == 0)
			return designs[i];
	}
	return NULL;
}

size_t
disp_count(void)
{

	return sizeof(designs) / sizeof(designs[0]);
}

size_t
disp_local_count(void)
{
#define PROGRAM_ONE(n, ...)	+ 1
	return disp_count() - (0 DISP_PROGRAMS(PROGRAM_ONE));
#undef PROGRAM_ONE
}

const struct db_disp_ops *
disp_at(size_t i)
{

	return i < disp_count() ? designs[i] : NULL;
}

const struct db_disp_ops *
disp_with(unsigned int flags)
{
	size_t i;

	for (i = 0; i < disp_count(); i++) {
		if ((designs[i]->flags & flags) == flags)
			return designs[i];
	}
	return NULL;
}

struct disp_thread_arg {
	const struct db_disp_config *cfg;
	unsigned int index;
	void *(*fn)(void *);
	void *arg;
};

static void *
disp_thread_main(void *p)
{
	struct disp_thread_arg a = *(struct disp_thread_arg *)p;

	free(p);
	if (a.cfg->thread_start != NULL)
		a.cfg->thread_start(a.cfg->thread_arg, a.index);
	return a.fn(a.arg);
}

int
disp_thread_spawn(const struct db_disp_config *cfg, unsigned int index,
    pthread_t *tid, void *(*fn)(void *), void *arg)
{
	struct disp_thread_arg *a = malloc(sizeof(*a));
	int error;

	if (a == NULL)
		return -ENOMEM;
	a->cfg = cfg;
	a->index = index;
	a->fn = fn;
	a->arg = arg;
	error = pthread_create(tid, NULL, disp_thread_main, a);
	if (error != 0) {
		free(a);
		return -error;
	}
	return 0;
}
