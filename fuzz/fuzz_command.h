/*
 * fuzz_command.h - what the fuzz targets share: a command line run as
 * main runs it, with a document of the fuzzer's as its results file.
 */
#ifndef FUZZ_COMMAND_H
#define FUZZ_COMMAND_H

#include <stddef.h>
#include <stdint.h>

/* Where the document goes, and a folder for what a command writes. */
const char *fuzz_doc_path(int which);
const char *fuzz_dir(void);

/* Writes size bytes as document which (0 or 1) of fuzz_doc_path. */
void fuzz_doc_write(int which, const uint8_t *data, size_t size);

/*
 * Runs `dispatchbench ARGS...` (args NULL-terminated, without the
 * program's name) as main does; returns its exit status.
 */
int fuzz_command(const char *const *args);

#endif /* FUZZ_COMMAND_H */
