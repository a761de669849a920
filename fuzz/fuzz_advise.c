/*
 * fuzz_advise.c - libFuzzer target: any bytes as the results file of
 * `dispatchbench advise --from FILE`, resume-only and under a blocking
 * load (the sweep's defaults: shared over lfseg, 64 coroutines, as the
 * committed advise results).
 */
#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *resume[] = { "advise", "--from", fuzz_doc_path(0),
	    "--pin", "none", NULL };
	const char *blocking[] = { "advise", "--from", fuzz_doc_path(0),
	    "--pin", "none", "--blocking", "5:0.25", "--rate", "100", NULL };

	fuzz_doc_write(0, data, size);
	fuzz_command(resume);
	fuzz_command(blocking);
	return 0;
}
