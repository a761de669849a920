/*
 * registry.c - the queues, selectable by name.
 */
#include <string.h>

#include <ck_fifo.h>

#include "queue.h"

static const struct queue_ops *const queues[] = {
	&queue_lfseg,		/* first: the queue under Dispatchers.IO */
	&queue_ckring,
#ifdef CK_F_FIFO_MPMC
	&queue_ckfifo,
#endif
	&queue_mutex,
	&queue_vyukov,
	&queue_mpsc,		/* one consumer: the event loop's inbox */
};

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
