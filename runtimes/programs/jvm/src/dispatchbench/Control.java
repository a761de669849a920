/*
 * Control.java - the control thread of dispatchbench's JVM programs: the
 * main thread answers the suite's requests on stdin and stdout, as the
 * external-program protocol, version 1, has them. Neither runtime keeps
 * scheduler counters a program can read, so a stop prints no `counter`
 * lines.
 */
package dispatchbench;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

final class Control {
	private final Invocation invocation;
	private final Coroutines coroutines;
	/*
	 * stdout of its own, buffered and flushed once per answer: System.out
	 * writes through a 128-byte buffer, a system call per 128 bytes of a
	 * count line, on the process clock the suite reads.
	 */
	private final PrintStream out = new PrintStream(new BufferedOutputStream(
		new FileOutputStream(FileDescriptor.out), 1 << 16), false,
		StandardCharsets.US_ASCII);

	Control(Invocation invocation, Coroutines coroutines) {
		this.invocation = invocation;
		this.coroutines = coroutines;
	}

	/*
	 * Prints `ready READY`, then answers until stop or EOF and exits: the
	 * runtime's threads would keep the JVM alive. afterStop runs once the
	 * `stopped` line is out.
	 */
	void serve(String ready, Runnable afterStop)
			throws IOException, InterruptedException {
		answer("ready " + ready);
		BufferedReader in = new BufferedReader(new InputStreamReader(
			System.in, StandardCharsets.US_ASCII));
		for (String line; (line = in.readLine()) != null; ) {
			switch (line) {
			case "count":
				answer(coroutines.report("count"));
				break;
			case "stop":
				coroutines.stop();
				answer(coroutines.report("stopped"));
				afterStop.run();
				System.exit(0);
				break;
			default:
				System.err.println(invocation.program
					+ ": unknown request \"" + line + "\"");
			}
		}
		System.exit(0);
	}

	private void answer(String line) {
		out.print(line);
		out.print('\n');
		out.flush();
	}
}
