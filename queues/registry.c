/*
 * registry.c - the queues, selectable by name.
 */
#include <string.h>

#include "queue.h"

#define QUEUE_ENTRY(n)	&queue_##n,
static const struct queue_ops *const queues[] = { QUEUE_LIST(QUEUE_ENTRY) };
#undef QUEUE_ENTRY

const struct queue_ops *
queue_find(const char *name)
{
	size_t i;

	for (i = 0; i < queue_count(); i++) {
		if (strcmp(queues[i]->name, name) == 0)
			return queues[i];
	}
	return NULL;
}

size_t
queue_count(void)
{

	return sizeof(queues) / sizeof(queues[0]);
}

const struct queue_ops *
queue_at(size_t i)
{

	return i < queue_count() ? queues[i] : NULL;
}
