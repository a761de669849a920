/*
 * fuzz_plot.c - libFuzzer target: any bytes as the results file of
 * `dispatchbench plot FILE -o DIR`, every figure's data and script.
 */
#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[] = { "plot", fuzz_doc_path(0), "-o", fuzz_dir(),
	    NULL };

	fuzz_doc_write(0, data, size);
	fuzz_command(args);
	return 0;
}
