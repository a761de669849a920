/*
 * JarVersion.java - a library's version as its jar tells it: the
 * manifest's Implementation-Version, else the version in the jar's file
 * name after symbolic links (Debian installs kotlinx-coroutines-core.jar
 * as a link to kotlinx-coroutines-core-1.0.1.jar, whose manifest is bare).
 */
package dispatchbench;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class JarVersion {
	private static final Pattern VERSIONED =
		Pattern.compile("-([0-9][^/]*)\\.jar$");

	private JarVersion() {
	}

	/* The version of the jar that loaded c, or "unknown". */
	static String of(Class<?> c) {
		String v = c.getPackage().getImplementationVersion();
		return v != null ? v : fromFileName(c);
	}

	private static String fromFileName(Class<?> c) {
		try {
			Path jar = Path.of(c.getProtectionDomain().getCodeSource()
				.getLocation().toURI()).toRealPath();
			Matcher m = VERSIONED.matcher(jar.getFileName().toString());
			return m.find() ? m.group(1) : "unknown";
		} catch (Exception e) {
			/* no code source, or not a file: the version is not told */
			return "unknown";
		}
	}
}
