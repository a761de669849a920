/*
 * fuzz_report.c - libFuzzer target: any bytes as the results file of
 * `dispatchbench report FILE -o PAGE`: the findings, the figures, the
 * tables and the context of one page.
 */
#include <stdio.h>

#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char page[256];
	const char *args[] = { "report", fuzz_doc_path(0), "-o", page, NULL };

	snprintf(page, sizeof(page), "%s/report.html", fuzz_dir());
	fuzz_doc_write(0, data, size);
	fuzz_command(args);
	return 0;
}
