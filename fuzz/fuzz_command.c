/*
 * fuzz_command.c - the fuzz targets' command runner (see fuzz_command.h).
 *
 * main.c is built into the targets with main renamed, so a command runs
 * through the same parse and the same handler as on the command line.
 * gnuplot is not under test, and a process per figure would cost each
 * input tens of milliseconds: popen and pclose are wrapped at link time
 * (-Wl,--wrap), and the scripts go to /dev/null once written.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands.h"
#include "fuzz_command.h"

FILE *__wrap_popen(const char *command, const char *mode);
int __wrap_pclose(FILE *f);

static char fuzz_tmp[] = "/tmp/dispatchbench-fuzz.XXXXXX";
static char fuzz_docs[2][sizeof(fuzz_tmp) + 16];

static int
fuzz_remove(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{

	return remove(path);
}

/* The folder and what the commands wrote in it, at the fuzzer's exit. */
static void
fuzz_dir_remove(void)
{

	nftw(fuzz_tmp, fuzz_remove, 16, FTW_DEPTH | FTW_PHYS);
	return;
}

const char *
fuzz_dir(void)
{

	if (fuzz_docs[0][0] == '\0') {
		if (mkdtemp(fuzz_tmp) == NULL)
			abort();
		atexit(fuzz_dir_remove);
		snprintf(fuzz_docs[0], sizeof(fuzz_docs[0]), "%s/a.json",
		    fuzz_tmp);
		snprintf(fuzz_docs[1], sizeof(fuzz_docs[1]), "%s/b.json",
		    fuzz_tmp);
	}
	return fuzz_tmp;
}

const char *
fuzz_doc_path(int which)
{

	fuzz_dir();
	return fuzz_docs[which];
}

void
fuzz_doc_write(int which, const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_doc_path(which), "w");

	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return;
}

int
fuzz_command(const char *const *args)
{
	char *argv[32] = { (char *)"dispatchbench" };
	const struct command *cmd;
	struct call *c;
	int argc = 1, status;

	while (*args != NULL && argc < 31)
		argv[argc++] = (char *)*args++;
	if ((c = command_line(argc, argv, &cmd, &status)) == NULL)
		return status;
	status = cmd->run(c);
	command_line_free(c);
	return status;
}

FILE *
__wrap_popen(const char *command, const char *mode)
{

	return fopen("/dev/null", mode);
}

int
__wrap_pclose(FILE *f)
{

	return fclose(f);
}
