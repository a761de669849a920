/*
 * Netty.java - dispatchbench's external program for Netty's NIO event
 * loops as Debian ships them (libnetty-java 4.1.48), speaking the suite's
 * external-program protocol, version 1, on stdin and stdout.
 *
 *	dbnetty execute --workers N --coroutines C
 *
 * execute: a NioEventLoopGroup of N loops and C tasks, task i at home on
 * loop i mod N: the control thread hands each to its loop once with
 * execute(), and each run hands the task back to its own loop with
 * execute() from inside that loop. Beside the model `eventloop`.
 *
 * In Netty 4.1.48 (SingleThreadEventExecutor, NioEventLoop):
 *  - execute() from inside the loop offers the task to the loop's task
 *    queue, the MPSC queue every other thread uses too (a CAS on its
 *    producer index), and wakes nothing: wakeup(inEventLoop = true)
 *    returns at once. The model's local FIFO, with no atomic at all,
 *    stands for Ktor's NettyDispatcher running the continuation in place
 *    instead; this program measures Netty's own execute();
 *  - while its queue is not empty, each pass of the loop polls the
 *    selector without blocking (selectNow, one epoll_wait with a 0
 *    timeout), then runAllTasks(0): with no I/O ready, the default
 *    ioRatio of 50 gives the tasks a time budget of 0, so the deadline
 *    check after every 64th task ends the pass there. One selectNow and
 *    one System.nanoTime per 64 tasks: the queue is never empty, since
 *    every task puts itself back.
 * No counter lines: Netty keeps no counters a program can read.
 */
package dispatchbench;

import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.Version;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

public final class Netty {
	private Netty() {
	}

	public static void main(String[] args) throws Exception {
		Invocation inv = Invocation.parse("dbnetty", args, "execute");
		NioEventLoopGroup group = new NioEventLoopGroup(inv.workers);
		EventLoop[] loops = loops(group);
		Coroutines coroutines = new Coroutines(inv.coroutines);
		for (int i = 0; i < inv.coroutines; i++)
			new Coroutine(coroutines, i, loops[i % loops.length]).start();
		new Control(inv, coroutines).serve("Netty " + version()
			+ " NioEventLoop", () -> shutDown(group));
	}

	/* The group's loops, in order. */
	private static EventLoop[] loops(NioEventLoopGroup group) {
		EventLoop[] loops = new EventLoop[group.executorCount()];
		int i = 0;
		for (EventExecutor loop : group)
			loops[i++] = (EventLoop) loop;
		return loops;
	}

	/* netty-common's version as Netty tells it, else as its jar does. */
	private static String version() {
		Version v = Version.identify().get("netty-common");
		return v != null ? v.artifactVersion() : JarVersion.of(Version.class);
	}

	/*
	 * Every task has ended by now, so no quiet period is needed; the
	 * timeout only bounds the wait should something still run.
	 */
	private static void shutDown(NioEventLoopGroup group) {
		group.shutdownGracefully(0, 1, TimeUnit.SECONDS)
			.awaitUninterruptibly();
	}

	/* One coroutine, at home on one loop. */
	private static final class Coroutine implements Runnable {
		private final Coroutines coroutines;
		private final int index;
		private final EventLoop loop;

		Coroutine(Coroutines coroutines, int index, EventLoop loop) {
			this.coroutines = coroutines;
			this.index = index;
			this.loop = loop;
		}

		/*
		 * The first handoff, from the control thread: from outside the
		 * loop, execute() starts the loop's thread or wakes it.
		 */
		void start() {
			coroutines.firstHandoff(index);
			loop.execute(this);
		}

		@Override
		public void run() {
			if (coroutines.resume(index))
				loop.execute(this);
		}
	}
}
