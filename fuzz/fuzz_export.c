/*
 * fuzz_export.c - libFuzzer target: any bytes as the results file of
 * `dispatchbench export FILE --format F`, in every format.
 */
#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "table", "csv", "markdown",
	    "json", "html", "gbench" };
	const char *args[] = { "export", fuzz_doc_path(0), "--format", NULL,
	    NULL };
	size_t i;

	fuzz_doc_write(0, data, size);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		args[3] = formats[i];
		fuzz_command(args);
	}
	return 0;
}
