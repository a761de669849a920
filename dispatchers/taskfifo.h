/*
 * taskfifo.h - an intrusive FIFO of tasks for one thread (or under one
 * lock): the trampoline of `inline`, an event loop's local queue, the
 * overflow of a bounded `rendezvous`, the injection queue of `stealing`.
 * Plain loads and stores through the task's own link: no allocation, no
 * atomic read-modify-write.
 */
#ifndef DISPATCHERS_TASKFIFO_H
#define DISPATCHERS_TASKFIFO_H

#include "designs.h"

struct taskfifo {
	struct db_task *head;
	struct db_task *tail;
};

static inline void
taskfifo_push(struct taskfifo *f, struct db_task *t)
{

	t->next = NULL;
	if (f->tail != NULL)
		f->tail->next = t;
	else
		f->head = t;
	f->tail = t;
	return;
}

static inline struct db_task *
taskfifo_pop(struct taskfifo *f)
{
	struct db_task *t = f->head;

	if (t == NULL)
		return NULL;
	f->head = t->next;
	if (f->head == NULL)
		f->tail = NULL;
	return t;
}

#endif /* DISPATCHERS_TASKFIFO_H */
