/*
 * cxxpool.cpp - a design of your own in C++: N std::threads over one
 * std::deque under a std::mutex, woken by a std::condition_variable only
 * when one waits. The installed headers read as C++ (extern "C", no C
 * atomics, no compound literals); the table is C's, its functions never
 * let an exception out.
 *
 *	c++ -std=c++20 -shared -fPIC -O2 $(pkg-config --cflags dispatchbench) \
 *	    -o libcxxpool.so cxxpool.cpp -lpthread
 *	dispatchbench verify --dispatcher ./libcxxpool.so
 *	dispatchbench run --dispatcher shared,./libcxxpool.so --workers 1..64
 */
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include <dispatchbench/dispatcher.h>

extern "C" const struct db_disp_ops dispatchbench_dispatcher;

namespace {

struct pool {
	db_disp_config cfg;
	std::mutex lock;
	std::condition_variable nonempty;
	std::deque<db_task *> fifo;
	std::vector<std::thread> threads;
	uint64_t ran = 0;
	uint64_t unparks = 0;		/* notifies to a waiting thread */
	unsigned int waiting = 0;
	bool stop = false;
};

/* What the suite holds: a C struct, its dispatcher first. */
struct handle {
	db_dispatcher base;
	pool *p;
};

void
worker(pool *p, unsigned int index)
{
	if (p->cfg.thread_start != nullptr)	/* pinning, first */
		p->cfg.thread_start(p->cfg.thread_arg, index);
	std::unique_lock<std::mutex> l(p->lock);
	for (;;) {
		p->waiting++;
		p->nonempty.wait(l, [p] { return !p->fifo.empty() || p->stop; });
		p->waiting--;
		if (p->fifo.empty())
			return;			/* stopped and drained */
		db_task *t = p->fifo.front();
		p->fifo.pop_front();
		p->ran++;
		l.unlock();
		t->fn(t);
		l.lock();
	}
}

void
cxxpool_dispatch(db_dispatcher *d, db_task *t) noexcept
{
	pool *p = reinterpret_cast<handle *>(d)->p;
	std::lock_guard<std::mutex> g(p->lock);

	p->fifo.push_back(t);
	if (p->waiting > 0) {
		p->unparks++;
		p->nonempty.notify_one();
	}
}

/* Stops and joins what was started; the stats when st is not null. */
void
cxxpool_stop(handle *h, db_disp_stats *st) noexcept
{
	pool *p = h->p;

	{
		std::lock_guard<std::mutex> g(p->lock);
		p->stop = true;
	}
	p->nonempty.notify_all();
	for (std::thread &th : p->threads)
		th.join();
	if (st != nullptr) {
		st->ran = p->ran;
		st->threads_started = st->threads_peak =
		    static_cast<unsigned int>(p->threads.size());
		st->count[DB_DISP_C_unparks] = p->unparks;
	}
	delete p;
	delete h;
}

void
cxxpool_shutdown(db_dispatcher *d, db_disp_stats *st) noexcept
{
	cxxpool_stop(reinterpret_cast<handle *>(d), st);
}

int
cxxpool_create(db_dispatcher **dp, const db_disp_config *cfg) noexcept
{
	if (cfg->workers == 0)
		return -EINVAL;		/* a fixed pool has a width */
	handle *h = new (std::nothrow) handle{ { &dispatchbench_dispatcher },
	    nullptr };
	if (h == nullptr || (h->p = new (std::nothrow) pool{}) == nullptr) {
		delete h;
		return -ENOMEM;
	}
	h->p->cfg = *cfg;
	try {
		h->p->threads.reserve(cfg->workers);
		for (unsigned int i = 0; i < cfg->workers; i++)
			h->p->threads.emplace_back(worker, h->p, i);
	} catch (const std::system_error &) {
		cxxpool_stop(h, nullptr);
		return -EAGAIN;
	} catch (const std::bad_alloc &) {
		cxxpool_stop(h, nullptr);
		return -ENOMEM;
	}
	*dp = &h->base;
	return 0;
}

} /* namespace */

extern "C" const struct db_disp_ops dispatchbench_dispatcher = {
	DB_DISP_OPS_HEAD,
	.name = "cxxpool",
	.model = "N std::threads on a std::mutex, a std::condition_variable "
	    "and a std::deque (an example plugin in C++)",
	.real = nullptr,
	.beside = nullptr,
	.flags = 0,
	.counts = DB_DISP_COUNT(unparks),
	.create = cxxpool_create,
	.dispatch = cxxpool_dispatch,
	.yield = nullptr,
	.shutdown = cxxpool_shutdown,
};
