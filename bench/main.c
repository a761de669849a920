/*
 * main.c - the dispatchbench command. Its sub-commands and the call of
 * one are commands/'s (commands.c), which the fuzzers link as well.
 */
#include "commands.h"

int
main(int argc, char **argv)
{

	return commands_main(argc, argv);
}
