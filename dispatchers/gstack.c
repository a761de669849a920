/*
 * gstack.c - a goroutine's stack and its switches (gstack.h).
 *
 * Boost.Context's fcontext (libboost-context) is assembly with C linkage;
 * its header is C++, so its three types and two calls are declared here
 * as boost/context/detail/fcontext.hpp declares them.
 *
 * The sanitizers are told of each switch, or they would take the g's
 * frames for the worker's: ThreadSanitizer gets a fiber per g (the switch
 * synchronises, as the run queue between the two workers does);
 * AddressSanitizer gets the stack that is switched to.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gstack.h"

#if defined(__SANITIZE_THREAD__)
#define GSTACK_TSAN 1
#elif defined(__SANITIZE_ADDRESS__)
#define GSTACK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GSTACK_TSAN 1
#elif __has_feature(address_sanitizer)
#define GSTACK_ASAN 1
#endif
#endif
#if defined(GSTACK_TSAN)
#include <sanitizer/tsan_interface.h>
#elif defined(GSTACK_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

typedef void *fcontext_t;
typedef struct {
	fcontext_t fctx;
	void *data;
} transfer_t;
transfer_t jump_fcontext(fcontext_t const to, void *vp);
fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

/*
 * Go's first stack is 2 KiB (_FixedStack); C frames, and a signal handler
 * that runs on it, need more. A resumption touches the top few lines.
 */
#define GSTACK_SIZE	(64 * 1024)

/* Before a switch to the stack [lo, lo + size): the sanitizers' part. */
static inline void
gstack_leave(void *to_fiber, void **fake, const void *lo, size_t size)
{

#if defined(GSTACK_TSAN)
	__tsan_switch_to_fiber(to_fiber, 0);
	(void)fake, (void)lo, (void)size;
#elif defined(GSTACK_ASAN)
	__sanitizer_start_switch_fiber(fake, lo, size);
	(void)to_fiber;
#else
	(void)to_fiber, (void)fake, (void)lo, (void)size;
#endif
	return;
}

/* On the g's stack, after a switch from the worker whose context is from. */
static inline void
gstack_arrived(struct gstack *gp, fcontext_t from)
{

	gp->g0 = from;
#if defined(GSTACK_ASAN)
	__sanitizer_finish_switch_fiber(gp->fake_stack, &gp->g0_lo,
	    &gp->g0_size);
#endif
	return;
}

/* mcall: back to the worker's stack; the g resumes here next time. */
static void
gstack_mcall(struct gstack *gp)
{
	transfer_t tr;

	gstack_leave(gp->g0_fiber, &gp->fake_stack, gp->g0_lo, gp->g0_size);
	tr = jump_fcontext(gp->g0, NULL);
	gstack_arrived(gp, tr.fctx);
	return;
}

/* A g's whole life: each gogo runs its task's poll once. */
static void
gstack_main(transfer_t tr)
{
	struct gstack *gp = tr.data;

	gstack_arrived(gp, tr.fctx);
	for (;;) {
		gp->task->fn(gp->task);
		gstack_mcall(gp);
	}
}

void
gstack_gogo(struct gstack *gp)
{
	void *fake = NULL;
	transfer_t tr;

#if defined(GSTACK_TSAN)
	gp->g0_fiber = __tsan_get_current_fiber();
#endif
	gstack_leave(gp->fiber, &fake, gp->lo, gp->size);
	tr = jump_fcontext(gp->sched, gp);
#if defined(GSTACK_ASAN)
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	gp->sched = tr.fctx;
	return;
}

/* malg: a g and its stack, a guard page below it. */
static struct gstack *
gstack_new(struct db_task *t)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct gstack *gp;
	char *map;

	if (posix_memalign((void **)&gp, 64, sizeof(*gp)) != 0)
		return NULL;
	map = mmap(NULL, GSTACK_SIZE + page, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (map == MAP_FAILED || mprotect(map, page, PROT_NONE) != 0) {
		if (map != MAP_FAILED)
			munmap(map, GSTACK_SIZE + page);
		free(gp);
		return NULL;
	}
	*gp = (struct gstack){ .task = t, .lo = map + page,
	    .size = GSTACK_SIZE };
	gp->sched = make_fcontext(gp->lo + gp->size, gp->size, gstack_main);
#if defined(GSTACK_TSAN)
	gp->fiber = __tsan_create_fiber(0);
#endif
	return gp;
}

static void
gstack_free(struct gstack *gp)
{

#if defined(GSTACK_TSAN)
	__tsan_destroy_fiber(gp->fiber);
#endif
	munmap(gp->lo - sysconf(_SC_PAGESIZE), gp->size +
	    (size_t)sysconf(_SC_PAGESIZE));
	free(gp);
	return;
}

/* The set's table: g's hashed and compared by their task. */
static unsigned long
gstack_hash(const void *object, unsigned long seed)
{
	uintptr_t t = (uintptr_t)((const struct gstack *)object)->task;

	return (unsigned long)(((t >> 4) ^ seed) * 0x9e3779b97f4a7c15ull);
}

static bool
gstack_same(const void *a, const void *b)
{

	return ((const struct gstack *)a)->task ==
	    ((const struct gstack *)b)->task;
}

static void *
gstack_hs_malloc(size_t size)
{

	return malloc(size);
}

/* Only the set's lock holder reads the table: an old one goes at once. */
static void
gstack_hs_free(void *p, size_t size, bool defer)
{

	(void)size, (void)defer;
	free(p);
	return;
}

static struct ck_malloc gstack_hs_allocator = {
	.malloc = gstack_hs_malloc,
	.free = gstack_hs_free,
};

int
gstack_set_init(struct gstack_set *set)
{

	if (!ck_hs_init(&set->hs, CK_HS_MODE_SPMC | CK_HS_MODE_OBJECT,
	    gstack_hash, gstack_same, &gstack_hs_allocator, 64, 0))
		return -ENOMEM;
	pthread_mutex_init(&set->lock, NULL);
	set->key = (uintptr_t)set * 0x9e3779b97f4a7c15ull;
	return 0;
}

void
gstack_set_destroy(struct gstack_set *set)
{
	ck_hs_iterator_t it = CK_HS_ITERATOR_INITIALIZER;
	void *gp;

	while (ck_hs_next(&set->hs, &it, &gp))
		gstack_free(gp);
	ck_hs_destroy(&set->hs);
	pthread_mutex_destroy(&set->lock);
	return;
}

struct gstack *
gstack_get(struct gstack_set *set, struct db_task *t)
{
	struct gstack key = { .task = t }, *gp;
	unsigned long h = gstack_hash(&key, set->hs.seed);

	pthread_mutex_lock(&set->lock);
	gp = ck_hs_get(&set->hs, h, &key);
	if (gp == NULL && (gp = gstack_new(t)) != NULL &&
	    !ck_hs_put(&set->hs, h, gp)) {
		gstack_free(gp);
		gp = NULL;
	}
	pthread_mutex_unlock(&set->lock);
	if (gp != NULL) {
		t->word[1].ptr = gp;
		t->word[0].u64 = (uintptr_t)gp ^ set->key;
	}
	return gp;
}
