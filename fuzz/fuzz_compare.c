/*
 * fuzz_compare.c - libFuzzer target: BASE, a NUL, then NEW (or one
 * document as both) through `dispatchbench compare BASE NEW`, cell by
 * cell and --beside, with the ratios drawn.
 */
#include <string.h>

#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	const char *by_key[] = { "compare", fuzz_doc_path(0), fuzz_doc_path(1),
	    "--allow-other-machine", NULL };
	const char *beside[] = { "compare", fuzz_doc_path(0), fuzz_doc_path(1),
	    "--allow-other-machine", "--beside", "--metric", "ops_per_s",
	    "--format", "json", "--plot", fuzz_dir(), NULL };

	if (nul == NULL) {
		fuzz_doc_write(0, data, size);
		fuzz_doc_write(1, data, size);
	} else {
		fuzz_doc_write(0, data, (size_t)(nul - data));
		fuzz_doc_write(1, nul + 1, size - (size_t)(nul - data) - 1);
	}
	fuzz_command(by_key);
	fuzz_command(beside);
	return 0;
}
