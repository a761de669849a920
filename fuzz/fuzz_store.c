/*
 * fuzz_store.c - libFuzzer target: any bytes as the results file of
 * `dispatchbench store add`, into a store made afresh each time, then
 * `history` of what went in, as a table and as CSV.
 */
#include <stdio.h>
#include <unistd.h>

#include "fuzz_command.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char db[4096];
	const char *add[] = { "store", "add", "--db", db, fuzz_doc_path(0),
	    NULL };
	const char *history[] = { "history", "--db", db, "--cell", "w=1",
	    "--format", NULL, NULL };

	snprintf(db, sizeof(db), "%s/h.db", fuzz_dir());
	unlink(db);
	fuzz_doc_write(0, data, size);
	if (fuzz_command(add) != 0)
		return 0;
	history[6] = "table";
	fuzz_command(history);
	history[6] = "csv";
	fuzz_command(history);
	return 0;
}
