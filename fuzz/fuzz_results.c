/*
 * fuzz_results.c - libFuzzer target: any bytes through the results
 * reader, and every valid document through what reads one: the summaries,
 * the memory fits, compare against itself, and advise's rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "compare.h"
#include "results.h"

static void
fuzz_consumers(cJSON *doc)
{
	static struct advise_rows rows;
	struct advise_sel sel = { 0 };
	/* sleep:5:0.25: four resumptions an op, a quarter of them block 5 ms */
	const struct advise_load load = { "sleep:5:0.25", 4 * 0.005 * 0.25,
	    false };
	struct compare_opts co;
	struct advise_pick pick;
	struct advise_target t = { .rate = 5000, .p99_us = 20000 };
	char err[512];
	const cJSON *cell;
	FILE *devnull = fopen("/dev/null", "w");

	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		cJSON_Delete(results_summary(results_arr(cell, "runs")));
	results_memory_fits(doc);
	compare_defaults(&co);
	co.allow_other_machine = true;
	compare_docs(doc, doc, &co, devnull, err, sizeof(err));
	if (advise_select(doc, "input", &sel, err, sizeof(err)) == 0 &&
	    advise_rows(doc, &sel, &load, &rows, err, sizeof(err)) == 0) {
		advise_choose_all(&rows, &t, &pick);
		advise_write(devnull, 0, &rows, &t, &pick, &load, &sel);
	}
	fclose(devnull);
	return;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	cJSON *doc;

	if (results_parse((const char *)data, size, &doc, "input", err,
	    sizeof(err)) == 0) {
		fuzz_consumers(doc);
		cJSON_Delete(doc);
	}
	return 0;
}
