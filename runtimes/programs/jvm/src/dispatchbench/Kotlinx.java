/*
 * Kotlinx.java - dispatchbench's external program for kotlinx.coroutines'
 * dispatchers as Debian ships them (libkotlinx-coroutines-java 1.0.1),
 * driven from Java, speaking the suite's external-program protocol,
 * version 1, on stdin and stdout.
 *
 *	dbkotlinx io|default|limited --workers N --coroutines C
 *
 * A coroutine's resumption in kotlinx is dispatcher.dispatch(context,
 * continuation) of its DispatchedContinuation, a DispatchedTask, which is
 * the scheduler's own Task class (public in the bytecode, so Java may
 * extend it). Each coroutine here is such a Task that dispatches itself
 * again the same way, so the scheduler stamps and queues it as it does a
 * continuation (a plain Runnable would be wrapped in a new TaskImpl per
 * dispatch), and ends each run with its context's afterTask, as
 * DispatchedTask.run does.
 *
 * io: Dispatchers.IO with kotlinx.coroutines.io.parallelism N. In 1.0.1
 *   that is the default scheduler's blocking(N), a LimitingDispatcher: up
 *   to N tasks in flight on the shared scheduler as blocking tasks, the
 *   rest in the view's ConcurrentLinkedQueue, from which each finished
 *   task's afterTask dispatches the next. The scheduler keeps its default
 *   core size, max(CPUs, 2). Beside the models `limited` and `shared`.
 * default: Dispatchers.Default with kotlinx.coroutines.scheduler.core.
 *   pool.size N: N CPU permits. A task a worker dispatches lands in that
 *   worker's LIFO slot and runs next, so with more coroutines than
 *   workers, each worker keeps resuming one and the rest wait in the
 *   rings behind the slots. Beside `default`.
 * limited: Dispatchers.Default's limited(N), 1.0.1's forerunner of
 *   limitedParallelism: the same LimitingDispatcher with non-blocking
 *   tasks. limited is a public member (of a class marked
 *   @InternalCoroutinesApi), so Java calls it by its name: only Kotlin's
 *   internal members have mangled ones, such as
 *   dispatchWithContext$kotlinx_coroutines_core. 1.0.1 refuses a view
 *   wider than the scheduler's core size, so an N above the default core
 *   size raises the core size to N. Beside `limited`.
 *
 * The models beside these follow kotlinx 1.8-1.10. Debian ships 1.0.1,
 * whose CoroutineScheduler differs from them, as its bytecode shows:
 *  - CPU permits are a java.util.concurrent.Semaphore, not bits of the
 *    control word;
 *  - a dispatch from one of its workers goes to that worker's local queue
 *    (a LIFO slot, the task it displaces to a 128-slot ring) and wakes no
 *    one unless the ring holds more than 96 (or a worker running a
 *    blocking task dispatches a non-blocking one); a dispatch to the
 *    global queue asks for a worker (unpark one, else start one while
 *    fewer than the core size are not blocking). 1.8-1.10 signal on every
 *    dispatch that is not a tail dispatch;
 *  - an idle CPU worker polls 1500 times, yielding its thread for the
 *    last 500, then parks for 25 us, half as long again each time up to
 *    1 s, where 1.8-1.10 rescan once and park until unparked;
 *  - the view keeps no worker loop of its own (1.6's LimitedDispatcher
 *    runs one that takes tasks off its queue): every task goes to the
 *    scheduler on its own, with the view as its task context;
 *  - Debian built the jar without atomicfu's bytecode transformation, so
 *    every atomic field is an object of libkotlinx-atomicfu-java's
 *    (AtomicInt, AtomicLong, AtomicRef) behind one more pointer, each
 *    operation passing an interceptor hook, where the upstream jar has a
 *    volatile field and a field updater.
 * No counter lines: 1.0.1's scheduler keeps no counters a program can
 * read.
 */
package dispatchbench;

import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.CoroutineDispatcher;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.scheduling.ExperimentalCoroutineDispatcher;
import kotlinx.coroutines.scheduling.Task;
import kotlinx.coroutines.scheduling.TaskContext;

public final class Kotlinx {
	/* The system properties kotlinx 1.0.1 reads once, at class init. */
	private static final String IO_PARALLELISM =
		"kotlinx.coroutines.io.parallelism";
	private static final String CORE_POOL_SIZE =
		"kotlinx.coroutines.scheduler.core.pool.size";

	private Kotlinx() {
	}

	public static void main(String[] args) throws Exception {
		Invocation inv = Invocation.parse("dbkotlinx", args,
			"io", "default", "limited");
		CoroutineDispatcher dispatcher = dispatcher(inv);
		Coroutines coroutines = new Coroutines(inv.coroutines);
		for (int i = 0; i < inv.coroutines; i++)
			new Coroutine(coroutines, i, dispatcher).start();
		new Control(inv, coroutines).serve("kotlinx.coroutines "
			+ JarVersion.of(Dispatchers.class) + " " + what(inv.mode),
			() -> { });
	}

	/* Sets the mode's property, then touches Dispatchers for the first time. */
	private static CoroutineDispatcher dispatcher(Invocation inv) {
		switch (inv.mode) {
		case "io":
			System.setProperty(IO_PARALLELISM,
				Integer.toString(inv.workers));
			return Dispatchers.getIO();
		case "default":
			System.setProperty(CORE_POOL_SIZE,
				Integer.toString(inv.workers));
			return Dispatchers.getDefault();
		default:
			raiseCoreSizeTo(inv.workers);
			return ((ExperimentalCoroutineDispatcher)
				Dispatchers.getDefault()).limited(inv.workers);
		}
	}

	/* kotlinx's default core size is max(CPUs, 2) (TasksKt.CORE_POOL_SIZE). */
	private static void raiseCoreSizeTo(int n) {
		int core = Math.max(Runtime.getRuntime().availableProcessors(), 2);
		if (n > core)
			System.setProperty(CORE_POOL_SIZE, Integer.toString(n));
	}

	private static String what(String mode) {
		switch (mode) {
		case "io":
			return "Dispatchers.IO";
		case "default":
			return "Dispatchers.Default";
		default:
			return "Dispatchers.Default.limited";
		}
	}

	/* One coroutine, resumed by the dispatcher it hands itself to. */
	private static final class Coroutine extends Task {
		private final Coroutines coroutines;
		private final int index;
		private final CoroutineDispatcher dispatcher;

		Coroutine(Coroutines coroutines, int index,
				CoroutineDispatcher dispatcher) {
			this.coroutines = coroutines;
			this.index = index;
			this.dispatcher = dispatcher;
		}

		/* The first handoff, from the control thread. */
		void start() {
			coroutines.firstHandoff(index);
			dispatch();
		}

		@Override
		public void run() {
			/* Read first: our own dispatch below replaces it. */
			TaskContext context = taskContext;
			if (coroutines.resume(index))
				dispatch();
			context.afterTask();
		}

		private void dispatch() {
			dispatcher.dispatch(EmptyCoroutineContext.INSTANCE, this);
		}
	}
}
