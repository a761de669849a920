/*
 * fuzz_cli.c - libFuzzer target: the command line. The input's
 * NUL-separated pieces are the words after the program's name; they are
 * parsed as main parses them (the command, its own options and words, a
 * sweep's options and its cells), and never run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

#define FUZZ_CLI_WORDS	64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[FUZZ_CLI_WORDS + 1], *p;
	const struct command *cmd;
	struct call *c;
	int argc = 0, status;

	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = (char *)"dispatchbench";
	for (p = text; p <= text + size && argc < FUZZ_CLI_WORDS;
	    p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if ((c = command_line(argc, argv, &cmd, &status)) != NULL)
		command_line_free(c);
	free(text);
	return 0;
}
