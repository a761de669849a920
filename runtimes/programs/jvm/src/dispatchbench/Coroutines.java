/*
 * Coroutines.java - the C coroutines' counters, the stop flag and the
 * count of coroutines still running, as the external-program protocol,
 * version 1, has them: dispatched[i] and resumed[i], each written only
 * by coroutine i and read by the control thread with acquire loads.
 *
 * The counters live in one long[] rather than in each task object: the
 * JVM lays out an object's fields as it likes, so padding fields do not
 * keep two objects' counters apart, while an array is contiguous. Each
 * coroutine's pair starts STRIDE longs after the last one's, 128 bytes:
 * an array is only 8-byte aligned, so 64 bytes apart would let the end of
 * one pair and the start of the next share a line. A STRIDE in front and
 * one behind keep the array's header and its neighbours off the first and
 * the last pair's lines.
 */
package dispatchbench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CountDownLatch;

final class Coroutines {
	private static final VarHandle SLOT =
		MethodHandles.arrayElementVarHandle(long[].class);
	private static final int STRIDE = 16;	/* longs: 128 bytes */

	final int count;
	private final long[] slots;
	private final CountDownLatch running;
	private volatile boolean stopping;

	Coroutines(int count) {
		this.count = count;
		slots = new long[(count + 2) * STRIDE];
		running = new CountDownLatch(count);
	}

	/*
	 * Counts coroutine i's first handoff. It comes before the handoff:
	 * once handed over, the coroutine may run on a worker at once and
	 * write its counters there.
	 */
	void firstHandoff(int i) {
		add(dispatched(i));
	}

	/*
	 * One resumption of coroutine i, counted. Returns true with its next
	 * handoff already counted (for the same reason), which the caller must
	 * then make; false once the stop flag is set: the coroutine has ended.
	 */
	boolean resume(int i) {
		add(resumed(i));
		if (stopping) {
			running.countDown();
			return false;
		}
		add(dispatched(i));
		return true;
	}

	/* Sets the stop flag and waits for every coroutine to end. */
	void stop() throws InterruptedException {
		stopping = true;
		running.await();
	}

	/* `word D R_0 ... R_{C-1}` from one pass of acquire loads. */
	String report(String word) {
		StringBuilder rs = new StringBuilder(count * 12);
		long d = 0;
		for (int i = 0; i < count; i++) {
			d += (long) SLOT.getAcquire(slots, dispatched(i));
			rs.append(' ').append((long) SLOT.getAcquire(slots,
				resumed(i)));
		}
		return word + " " + d + rs;
	}

	private static int dispatched(int i) {
		return (i + 1) * STRIDE;
	}

	private static int resumed(int i) {
		return (i + 1) * STRIDE + 1;
	}

	/*
	 * The single writer's increment: no read-modify-write is needed. The
	 * plain load sees the coroutine's own last store even from another
	 * thread, since each handoff orders the two; the release store is what
	 * the control thread's acquire load pairs with.
	 */
	private void add(int slot) {
		SLOT.setRelease(slots, slot, (long) SLOT.get(slots, slot) + 1);
	}
}
