/*
 * queue_list.h - every queue of this build, for the registry and the tests that
 * name one.
 */
#ifndef QUEUES_QUEUE_LIST_H
#define QUEUES_QUEUE_LIST_H

#include "queues.h"
#include "runtimes.h"

/*
 * Every queue, in the order `list` shows them, the first the default:
 * X(name) for queue_<name> defined in <name>.c. A new queue is its file, a
 * line here and a line in CMakeLists.txt: only the registry and the tests
 * include this list, so nothing else is compiled again. The libraries'
 * queues this build found follow (runtimes/).
 */
#ifdef CK_F_FIFO_MPMC
#define QUEUE_CKFIFO(X)	X(ckfifo)	/* needs a double-width CAS */
#else
#define QUEUE_CKFIFO(X)
#endif
#define QUEUE_LIST(X)							\
	X(lfseg)	/* the queue under Dispatchers.IO */		\
	X(ckring)							\
	QUEUE_CKFIFO(X)							\
	X(mutex)							\
	X(vyukov)							\
	X(mpsc)		/* one consumer: the event loop's inbox */	\
	QUEUE_RUNTIMES(X)

#define QUEUE_EXTERN(n)	extern const struct db_queue_ops queue_##n;
QUEUE_LIST(QUEUE_EXTERN)
#undef QUEUE_EXTERN

#endif /* QUEUES_QUEUE_LIST_H */
