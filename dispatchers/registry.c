/*
 * registry.c - the handoff designs, selectable by name, and the one
 * thread-start path they all use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dispatcher.h"

static const struct disp_ops *const designs[] = {
	&disp_inline,
	&disp_shared,
	&disp_limited,
	&disp_rendezvous,
	&disp_eventloop,
	&disp_stealing,
};

const char *const disp_lifo_names[2] = { "on", "off" };
const char *const disp_search_names[2] = { "half", "all" };

const struct disp_ops *
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

const struct disp_ops *
disp_at(size_t i)
{

	return i < disp_count() ? designs[i] : NULL;
}

struct disp_thread_arg {
	const struct disp_config *cfg;
	void *(*fn)(void *);
	void *arg;
};

static void *
disp_thread_main(void *p)
{
	struct disp_thread_arg a = *(struct disp_thread_arg *)p;

	free(p);
	if (a.cfg->thread_start != NULL)
		a.cfg->thread_start(a.cfg->thread_arg);
	return a.fn(a.arg);
}

int
disp_thread_spawn(const struct disp_config *cfg, pthread_t *tid,
    void *(*fn)(void *), void *arg)
{
	struct disp_thread_arg *a = malloc(sizeof(*a));
	int error;

	if (a == NULL)
		return -ENOMEM;
	a->cfg = cfg;
	a->fn = fn;
	a->arg = arg;
	error = pthread_create(tid, NULL, disp_thread_main, a);
	if (error != 0) {
		free(a);
		return -error;
	}
	return 0;
}
