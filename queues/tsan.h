/*
 * tsan.h - ThreadSanitizer annotations for the queues whose ordering TSan
 * cannot see; nothing outside a -fsanitize=thread build.
 *
 * ck's gcc port makes ck_pr loads and stores volatile accesses ordered by
 * explicit fences, which TSan takes for plain, racing accesses. Around a
 * ck call the thread's memory accesses are ignored (never a whole file),
 * and each item carries the order the queue gives it: released by its
 * producer before the push, acquired by its consumer after the pop.
 */
#ifndef QUEUES_TSAN_H
#define QUEUES_TSAN_H

#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#define TSAN_ACQUIRE(p)		__tsan_acquire(p)
#define TSAN_RELEASE(p)		__tsan_release(p)
#define TSAN_IGNORE_BEGIN()	__tsan_ignore_thread_begin()
#define TSAN_IGNORE_END()	__tsan_ignore_thread_end()
#else
#define TSAN_ACQUIRE(p)		((void)(p))
#define TSAN_RELEASE(p)		((void)(p))
#define TSAN_IGNORE_BEGIN()	((void)0)
#define TSAN_IGNORE_END()	((void)0)
#endif

#endif /* QUEUES_TSAN_H */
