/*
 * fuzz_merge.c - libFuzzer target: any bytes as the first file of
 * `dispatchbench merge FILE SMALL -o MERGED` (a run's file or a merged
 * one), then the merged file through report.
 */
#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char small[] = "{\"context\": {\"schema\": 1, \"host\": "
	    "\"b\"}, \"cells\": []}";
	const char *merge[] = { "merge", fuzz_doc_path(0), fuzz_doc_path(1),
	    "-o", fuzz_doc_path(1), NULL };
	const char *report[] = { "report", fuzz_doc_path(1), "-o", fuzz_dir(),
	    NULL };

	fuzz_doc_write(0, data, size);
	fuzz_doc_write(1, (const uint8_t *)small, sizeof(small) - 1);
	if (fuzz_command(merge) == 0)
		fuzz_command(report);
	return 0;
}
