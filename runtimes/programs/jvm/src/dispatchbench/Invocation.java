/*
 * Invocation.java - the command line of dispatchbench's JVM programs,
 * as the external-program protocol, version 1, passes it:
 *
 *	MODE --workers N --coroutines C
 *
 * the two options last and in that order. A bad one is one line on
 * stderr and exit status 2.
 */
package dispatchbench;

final class Invocation {
	final String program;
	final String mode;
	final int workers;
	final int coroutines;

	private Invocation(String program, String mode, int workers,
			int coroutines) {
		this.program = program;
		this.mode = mode;
		this.workers = workers;
		this.coroutines = coroutines;
	}

	/* Parses args for program, whose modes are modes; exits on a bad one. */
	static Invocation parse(String program, String[] args, String... modes) {
		String usage = "usage: " + program + " " + String.join("|", modes)
			+ " --workers N --coroutines C";
		if (args.length != 5 || !args[1].equals("--workers")
				|| !args[3].equals("--coroutines"))
			fail(program, usage);
		if (!java.util.List.of(modes).contains(args[0]))
			fail(program, "unknown mode \"" + args[0] + "\"; " + usage);
		return new Invocation(program, args[0],
			positive(program, "--workers", args[2]),
			positive(program, "--coroutines", args[4]));
	}

	/* Up to nine digits: every such number is an int. */
	private static int positive(String program, String name, String s) {
		int n = s.matches("[0-9]{1,9}") ? Integer.parseInt(s) : 0;
		if (n < 1)
			fail(program, name + " wants a positive integer, not \""
				+ s + "\"");
		return n;
	}

	private static void fail(String program, String message) {
		System.err.println(program + ": " + message);
		System.exit(2);
	}
}
