/*
 * test_docs.c - the documentation says what the tool does. Every option
 * of each command's section of docs/options.md is one `dispatchbench help
 * COMMAND` lists, and every option it lists is documented there; every
 * command the README's recipes call exists, prints its --help and takes
 * the options the recipe gives it; every script, build target and built
 * file a recipe names exists; every `--format` row names every format;
 * the schema's table of a run's fields is the list the suite names them
 * by. A user copies these lines: a renamed option or command must fail
 * here, not in the user's shell.
 */
#define _GNU_SOURCE	/* memmem */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "binary.h"
#include "params.h"
#include "runfields.h"
#include "table.h"

/* The source tree, from the tests' data folder: the docs are read there. */
#define DOCS_TOP	DB_TEST_DATA "/../.."

#define FLAGS_MAX	128
#define FLAG_LEN	32
#define CMDS_MAX	32
#define TEXT_MAX	(1 << 16)
#define WHY_MAX		4096

/* A set of option names, "--workers" or "-o". */
struct flags {
	int n;
	char name[FLAGS_MAX][FLAG_LEN];
};

/* What is wrong, one line each, so a failure names every mismatch. */
struct why {
	int n;
	size_t len;
	char text[WHY_MAX];
};

static void __attribute__((format(printf, 2, 3)))
why_add(struct why *w, const char *fmt, ...)
{
	va_list ap;
	int k;

	w->n++;
	if (w->len >= sizeof(w->text))
		return;
	va_start(ap, fmt);
	k = vsnprintf(w->text + w->len, sizeof(w->text) - w->len, fmt, ap);
	va_end(ap);
	if (k > 0)
		w->len += (size_t)k;
	return;
}

/* The file at path (under the source tree) into buf, whole. */
static void
read_doc(const char *path, char *buf, size_t len)
{
	char full[512];
	size_t n;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", DOCS_TOP, path);
	f = fopen(full, "r");
	cr_assert_not_null(f, "cannot read %s", full);
	n = fread(buf, 1, len - 1, f);
	cr_assert(feof(f), "%s is longer than the test reads", full);
	buf[n] = '\0';
	fclose(f);
	return;
}

/* The stdout of `dispatchbench ARGS` into buf; its exit status. */
static int
output_of(const char *args, char *buf, size_t len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", DB_BINARY, args);
	return shell_output(cmd, buf, len);
}

static bool
flags_has(const struct flags *f, const char *name)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->name[i], name) == 0)
			return true;
	return false;
}

static void
flags_add(struct flags *f, const char *s, size_t len)
{
	char name[FLAG_LEN];

	if (len >= FLAG_LEN)
		len = FLAG_LEN - 1;
	memcpy(name, s, len);
	name[len] = '\0';
	if (flags_has(f, name))
		return;
	cr_assert_lt(f->n, FLAGS_MAX, "more options than the test holds");
	strcpy(f->name[f->n++], name);
	return;
}

static bool
word_char(char c)
{

	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/*
 * Every option named in s[0..end): "--word" or a one-letter "-o", each
 * standing alone (not the dash inside "non-blocking" or "-fPIC").
 */
static void
flags_in_text(const char *s, size_t end, struct flags *f)
{
	size_t i, j;

	for (i = 0; i + 2 < end; i++) {
		if (s[i] != '-' || (i > 0 && word_char(s[i - 1])))
			continue;
		if (s[i + 1] == '-' && islower((unsigned char)s[i + 2])) {
			for (j = i + 2; j < end && (islower((unsigned char)s[j]) ||
			    isdigit((unsigned char)s[j]) || s[j] == '-'); j++)
				;
			flags_add(f, s + i, j - i);
			i = j;
		} else if (islower((unsigned char)s[i + 1]) &&
		    !word_char(s[i + 2])) {
			flags_add(f, s + i, 2);
			i += 2;
		}
	}
	return;
}

/* The options a help lists: each on a line of its own, "  --name ...". */
static void
flags_in_help(const char *help, struct flags *f)
{
	const char *line;
	size_t n;

	for (line = help; line != NULL && *line != '\0';
	    line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "  -", 3) != 0)
			continue;
		n = strcspn(line + 2, " \n");
		flags_add(f, line + 2, n);
	}
	return;
}

/* The options `dispatchbench help cmd` lists. */
static void
flags_of_help(const char *cmd, struct flags *f)
{
	static char help[TEXT_MAX];
	char args[64];

	snprintf(args, sizeof(args), "help %.56s", cmd);
	cr_assert_eq(output_of(args, help, sizeof(help)), 0,
	    "dispatchbench help %s failed", cmd);
	f->n = 0;
	flags_in_help(help, f);
	return;
}

/*
 * The commands `dispatchbench --help` lists: the lines "  NAME  what"
 * between the usage line and the first empty line after them.
 */
static int
commands(char (*name)[FLAG_LEN])
{
	static char help[TEXT_MAX];
	const char *line;
	size_t len;
	int n = 0;

	cr_assert_eq(output_of("--help", help, sizeof(help)), 0);
	for (line = help; line != NULL; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (strncmp(line, "  ", 2) != 0 ||
		    !islower((unsigned char)line[2]))
			continue;
		len = strspn(line + 2, "abcdefghijklmnopqrstuvwxyz");
		cr_assert_lt(n, CMDS_MAX);
		cr_assert_lt(len, FLAG_LEN);
		memcpy(name[n], line + 2, len);
		name[n++][len] = '\0';
	}
	cr_assert_geq(n, 10, "dispatchbench --help lists %d commands", n);
	return n;
}

/*
 * The section of doc under the heading "## title" to the next "## ". *len
 * is its length; NULL when it has none.
 */
static const char *
section_titled(const char *doc, const char *title, size_t *len)
{
	char head[96];
	const char *s, *next;

	snprintf(head, sizeof(head), "\n## %s\n", title);
	s = strstr(doc, head);
	if (s == NULL)
		return NULL;
	s++;
	next = strstr(s + 1, "\n## ");
	*len = next != NULL ? (size_t)(next - s) : strlen(s);
	return s;
}

/* Command cmd's section of doc, under "## `cmd`". */
static const char *
section_of(const char *doc, const char *cmd, size_t *len)
{
	char title[64];

	snprintf(title, sizeof(title), "`%.60s`", cmd);
	return section_titled(doc, title, len);
}

/*
 * The options docs/options.md gives cmd: those its section names, and
 * when it says it takes "the options of a sweep", those of that section.
 */
static bool
flags_of_docs(const char *doc, const char *cmd, struct flags *f)
{
	static const char marker[] = "options of a sweep";
	const char *s, *run;
	size_t len, run_len, i;

	f->n = 0;
	s = section_of(doc, cmd, &len);
	if (s == NULL)
		return false;
	flags_in_text(s, len, f);
	for (i = 0; i + sizeof(marker) - 1 <= len; i++)
		if (strncmp(s + i, marker, sizeof(marker) - 1) == 0)
			break;
	if (i + sizeof(marker) - 1 <= len) {
		run = section_titled(doc, "The options of a sweep", &run_len);
		cr_assert_not_null(run, "docs/options.md has no section \"The "
		    "options of a sweep\"");
		flags_in_text(run, run_len, f);
	}
	return true;
}

Test(docs, every_command_has_a_section_and_every_section_a_command)
{
	static char doc[TEXT_MAX];
	char name[CMDS_MAX][FLAG_LEN], cmd[FLAG_LEN];
	struct why why = { 0 };
	const char *h;
	size_t len;
	int i, n;

	read_doc("docs/options.md", doc, sizeof(doc));
	n = commands(name);
	for (i = 0; i < n; i++)
		if (section_of(doc, name[i], &len) == NULL)
			why_add(&why, "`%s` is a command, but docs/options.md "
			    "has no section \"## `%s`\"\n", name[i], name[i]);
	for (h = strstr(doc, "\n## `"); h != NULL; h = strstr(h + 1, "\n## `")) {
		len = strcspn(h + 5, "`\n");
		snprintf(cmd, sizeof(cmd), "%.*s", (int)len, h + 5);
		for (i = 0; i < n && strcmp(name[i], cmd) != 0; i++)
			;
		if (i == n)
			why_add(&why, "docs/options.md documents `%s`, which "
			    "dispatchbench --help does not list\n", cmd);
	}
	cr_assert_eq(why.n, 0, "%s", why.text);
}

/*
 * Each command's options in `help` against those docs/options.md gives
 * it: from help (each must be documented) or from the docs (each must be
 * in help); what is missing, one line each.
 */
static void
options_missing(bool from_help, struct why *why)
{
	static char doc[TEXT_MAX];
	static struct flags help, docs;
	char name[CMDS_MAX][FLAG_LEN];
	const struct flags *from = from_help ? &help : &docs;
	const struct flags *in = from_help ? &docs : &help;
	int i, j, n;

	read_doc("docs/options.md", doc, sizeof(doc));
	n = commands(name);
	for (i = 0; i < n; i++) {
		if (!flags_of_docs(doc, name[i], &docs))
			continue;
		flags_of_help(name[i], &help);
		for (j = 0; j < from->n; j++)
			if (!flags_has(in, from->name[j]))
				why_add(why, from_help ? "`help %s` lists %s, "
				    "docs/options.md does not document it\n" :
				    "docs/options.md gives `%s` %s, which its help "
				    "does not list\n", name[i], from->name[j]);
	}
	return;
}

Test(docs, every_option_in_help_is_documented)
{
	struct why why = { 0 };

	options_missing(true, &why);
	cr_assert_eq(why.n, 0, "%s", why.text);
}

Test(docs, every_documented_option_is_in_help)
{
	struct why why = { 0 };

	options_missing(false, &why);
	cr_assert_eq(why.n, 0, "%s", why.text);
}

/*
 * The lines of the README's ```sh blocks, continuations joined and
 * comments dropped, one a line in out.
 */
static void
recipe_lines(const char *readme, char *out, size_t len)
{
	const char *s, *end;
	size_t n = 0;
	bool comment;

	for (s = strstr(readme, "```sh\n"); s != NULL;
	    s = strstr(end, "```sh\n")) {
		s += 6;
		end = strstr(s, "```");
		cr_assert_not_null(end, "an ```sh block of the README never ends");
		for (comment = false; s < end && n + 2 < len; s++) {
			if (*s == '\\' && s[1] == '\n') {
				s++;
				continue;
			}
			if (*s == '#' && (n == 0 || isspace((unsigned char)out[n - 1])))
				comment = true;
			if (*s == '\n')
				comment = false;
			if (!comment)
				out[n++] = *s;
		}
	}
	out[n] = '\0';
	return;
}

/* The next word of *s (quotes dropped) into w; false at the line's end. */
static bool
next_word(const char **s, char *w, size_t len)
{
	size_t n = 0;

	while (**s == ' ' || **s == '\t' || **s == '\'' || **s == '"')
		(*s)++;
	if (**s == '\0' || **s == '\n')
		return false;
	while (**s != '\0' && !isspace((unsigned char)**s)) {
		if (**s != '\'' && **s != '"' && n + 1 < len)
			w[n++] = **s;
		(*s)++;
	}
	w[n] = '\0';
	return true;
}

static bool
is_binary(const char *w)
{
	const char *base = strrchr(w, '/');

	return strcmp(base != NULL ? base + 1 : w, "dispatchbench") == 0;
}

/*
 * One line of a recipe: each dispatchbench COMMAND in it prints its
 * --help, and every option after it (up to && or |) is one that help
 * lists. A dispatchbench followed by an option is an arm of `ab`: its
 * options are the command's.
 */
static void
check_recipe_line(const char *line, struct why *why)
{
	static char help[TEXT_MAX];
	static struct flags f;
	char w[256], cmd[FLAG_LEN] = "", args[64];
	const char *s = line;
	bool after_binary = false, known = false;

	while (next_word(&s, w, sizeof(w))) {
		if (strcmp(w, "&&") == 0 || strcmp(w, "|") == 0 ||
		    strcmp(w, ";") == 0) {
			cmd[0] = '\0';
		} else if (after_binary && w[0] != '-' && cmd[0] == '\0') {
			snprintf(cmd, sizeof(cmd), "%.*s", FLAG_LEN - 1, w);
			snprintf(args, sizeof(args), "%s --help", cmd);
			f.n = 0;
			known = output_of(args, help, sizeof(help)) == 0 &&
			    strncmp(help, "usage: dispatchbench ", 21) == 0;
			if (known)
				flags_in_help(help, &f);
			else
				why_add(why, "the README's recipe calls `%s`, whose "
				    "--help fails: %s\n", cmd, line);
		} else if (known && cmd[0] != '\0' && w[0] == '-' && isalpha(
		    (unsigned char)w[w[1] == '-' ? 2 : 1]) && !flags_has(&f, w)) {
			why_add(why, "the README's recipe gives `%s` %s, which its "
			    "help lacks: %s\n", cmd, w, line);
		}
		after_binary = is_binary(w);
	}
	return;
}

Test(docs, every_recipe_command_exists_and_takes_its_options)
{
	static char readme[TEXT_MAX], lines[TEXT_MAX];
	struct why why = { 0 };
	const char *line;
	char *nl;
	int calls = 0;

	read_doc("README.md", readme, sizeof(readme));
	recipe_lines(readme, lines, sizeof(lines));
	for (line = lines; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			break;
		*nl = '\0';
		calls += strstr(line, "dispatchbench ") != NULL;
		check_recipe_line(line, &why);
	}
	cr_assert_geq(calls, 4, "the README's recipes call dispatchbench %d "
	    "times", calls);
	cr_assert_eq(why.n, 0, "%s", why.text);
}

/*
 * What a word names inside the build folder when it is a file the build
 * makes (the binary, a plugin) under ./build/ or build/; else NULL.
 */
static const char *
built_file(const char *w)
{
	const char *rest;

	if (strncmp(w, "./build/", 8) == 0)
		rest = w + 8;
	else if (strncmp(w, "build/", 6) == 0)
		rest = w + 6;
	else
		return NULL;
	return is_binary(w) || strstr(w, ".so") != NULL ? rest : NULL;
}

/* Whether the suite's CMake files define the build target name. */
static bool
is_target(const char *name)
{
	static const char *const lists[] = { "CMakeLists.txt",
	    "tests/CMakeLists.txt" };
	static char text[TEXT_MAX];
	char want[96];
	const char *s;
	size_t i, n;

	n = (size_t)snprintf(want, sizeof(want), "add_custom_target(%s", name);
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		read_doc(lists[i], text, sizeof(text));
		for (s = strstr(text, want); s != NULL; s = strstr(s + 1, want))
			if (isspace((unsigned char)s[n]))
				return true;
	}
	return false;
}

/*
 * What a recipe runs besides dispatchbench is there: each scripts/ file,
 * each `--target`, and each built file it reads from build/ (the
 * binary, the example plugins) in this build, whose folder holds
 * bench/dispatchbench.
 */
Test(docs, every_script_target_and_built_file_a_recipe_names_exists)
{
	static char readme[TEXT_MAX], lines[TEXT_MAX];
	char w[256], prev[256] = "", path[768], build[512];
	struct why why = { 0 };
	const char *s;

	snprintf(build, sizeof(build), "%s", DB_BINARY);
	*strstr(build, "/bench/dispatchbench") = '\0';
	read_doc("README.md", readme, sizeof(readme));
	recipe_lines(readme, lines, sizeof(lines));
	for (s = lines; *s != '\0'; s += *s == '\n') {
		while (next_word(&s, w, sizeof(w))) {
			path[0] = '\0';
			if (strncmp(w, "scripts/", 8) == 0)
				snprintf(path, sizeof(path), "%s/%s", DOCS_TOP, w);
			else if (built_file(w) != NULL)
				snprintf(path, sizeof(path), "%s/%s", build,
				    built_file(w));
			if (path[0] != '\0' && access(path, R_OK) != 0)
				why_add(&why, "a recipe names %s, which is not "
				    "there (%s)\n", w, path);
			if (strcmp(prev, "--target") == 0 && !is_target(w))
				why_add(&why, "a recipe builds --target %s, which no "
				    "CMakeLists.txt defines\n", w);
			snprintf(prev, sizeof(prev), "%s", w);
		}
	}
	cr_assert_eq(why.n, 0, "%s", why.text);
}

/*
 * The run fields results/README.md's table names, each a backquoted name
 * of a row's first column, from its header "| field | meaning |" to the
 * first line that is not a row: into names, with NUL between.
 */
static size_t
schema_fields(char *names, size_t len)
{
	char full[512], line[8192], *p, *q;
	bool in = false;
	size_t used = 0;
	FILE *f;

	snprintf(full, sizeof(full), "%s/results/README.md", DOCS_TOP);
	cr_assert_not_null(f = fopen(full, "r"), "cannot read %s", full);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strcmp(line, "| field | meaning |\n") == 0) {
			in = true;
			continue;
		}
		if (in && line[0] != '|')
			break;
		if (!in || strncmp(line, "|---", 4) == 0)
			continue;
		*strchr(line + 1, '|') = '\0';
		for (p = strchr(line, '`'); p != NULL && (q = strchr(p + 1,
		    '`')) != NULL; p = strchr(q + 1, '`')) {
			cr_assert(used + (size_t)(q - p) < len);
			memcpy(names + used, p + 1, (size_t)(q - p - 1));
			used += (size_t)(q - p);
			names[used - 1] = '\0';
		}
	}
	fclose(f);
	cr_assert(in, "results/README.md has no table \"| field | meaning |\"");
	return used;
}

static bool
names_has(const char *names, size_t len, const char *name)
{
	const char *p;

	for (p = names; p < names + len; p += strlen(p) + 1)
		if (strcmp(p, name) == 0)
			return true;
	return false;
}


/*
 * The schema's table of a run's fields is the list the suite writes and
 * reads them by (bench/fields/runfields.h), a counter's aside: a field added
 * to one and not the other fails here, named.
 */
Test(docs, the_schema_lists_every_run_field_and_no_other)
{
	static char names[TEXT_MAX];
	struct why why = { 0 };
	size_t len = schema_fields(names, sizeof(names)), i;
	const char *p;

	for (i = 0; i < RF_NFIELDS; i++)
		if (!names_has(names, len, rf_fields[i].key))
			why_add(&why, "`%s` (%s, %s) is a run field the "
			    "schema's table in results/README.md does not "
			    "name\n", rf_fields[i].key, rf_type_name(
			    rf_fields[i].type), rf_fields[i].from);
	for (p = names; p < names + len; p += strlen(p) + 1)
		if (rf_find(p) == NULL && !params_counter(p) &&
		    strcmp(p, "perf_NAME_per_dispatch") != 0)
			why_add(&why, "results/README.md names `%s`, which "
			    "bench/fields/runfields.h does not list\n", p);
	cr_assert_eq(why.n, 0, "%s", why.text);
}

/*
 * Every `--format F` row of docs/options.md names the formats the tool
 * takes, as table_format_list() says them: a format added to the tool and
 * not to a command's row fails here, with the row.
 */
Test(docs, every_format_option_lists_every_format)
{
	static char doc[TEXT_MAX];
	struct why why = { 0 };
	const char *row = doc, *end;
	int rows = 0;

	read_doc("docs/options.md", doc, sizeof(doc));
	while ((row = strstr(row, "\n| `--format F` |")) != NULL) {
		end = strchr(row + 1, '\n');
		end = end != NULL ? end : row + strlen(row);
		rows++;
		if (memmem(row, (size_t)(end - row), table_format_list(),
		    strlen(table_format_list())) == NULL)
			why_add(&why, "docs/options.md:%.*s\n  does not list "
			    "%s\n", (int)(end - row - 1), row + 1,
			    table_format_list());
		row = end;
	}
	cr_assert_gt(rows, 0, "docs/options.md has no `--format F` row");
	cr_assert_eq(why.n, 0, "%s", why.text);
}
