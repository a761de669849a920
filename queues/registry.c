/*
 * registry.c - the queues, selectable by name.
 */
#include <string.h>

#include "queue_list.h"

#define QUEUE_ENTRY(n)	&queue_##n,
static const struct db_queue_ops *const queues[] = { QUEUE_LIST(QUEUE_ENTRY) };
#undef QUEUE_ENTRY

const struct db_queue_ops *
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

const struct db_queue_ops *
queue_at(size_t i)
{

	return i < queue_count() ? queues[i] : NULL;
}

#if defined(__SANITIZE_THREAD__)
/*
 * The real runtimes' libraries are not built for TSan: what they allocate
 * and free for their own bookkeeping (liburcu's barrier records and
 * dummies, libgomp's task records, GLib's sources and list nodes) is
 * ordered by futexes and inline-assembly atomics TSan cannot see. The
 * memory effects of the calls they make (malloc, free) are ignored; their
 * locks and threads are still followed, and the suite's own handoffs
 * through them are annotated where they happen (tsan.h).
 */
const char *__tsan_default_suppressions(void);

const char *
__tsan_default_suppressions(void)
{

	return "called_from_lib:liburcu-bp.so\n"
	    "called_from_lib:liburcu-cds.so\n"
	    "called_from_lib:liburcu-common.so\n"
	    "called_from_lib:libgomp.so\n"
	    "called_from_lib:libglib-2.0.so\n";
}
#endif
