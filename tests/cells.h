/*
 * cells.h - cells as `run` makes them from its options, every other
 * parameter at the sweep's default: a test measures the cells a user gets.
 */
#ifndef TESTS_CELLS_H
#define TESTS_CELLS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * The cells of args ("--dispatcher shared --workers 2"), in sweep order,
 * and their sweep in *sp when sp is not NULL (the caller frees both);
 * aborts on a bad one.
 */
static inline struct cell *
cells_sweep(const char *args, size_t *n, struct sweep **sp)
{
	/* A cell points into its words (its pin): they outlive it. */
	static char store[1 << 16];
	static size_t used;
	char *words[64], *text, *save = NULL, err[256];
	struct sweep *s = malloc(sizeof(*s));
	size_t len = strlen(args) + 1;
	struct cell *cells;
	int argc = 0;

	if (s == NULL || used + len > sizeof(store))
		abort();
	text = memcpy(store + used, args, len);
	used += len;
	for (text = strtok_r(text, " ", &save); text != NULL && argc < 64;
	    text = strtok_r(NULL, " ", &save))
		words[argc++] = text;
	cli_defaults(s);
	if (cli_parse(s, argc, words, err, sizeof(err)) != 0 ||
	    (cells = cli_cells(s, n, err, sizeof(err))) == NULL) {
		fprintf(stderr, "cells_sweep(%s): %s\n", args, err);
		abort();
	}
	if (sp != NULL)
		*sp = s;
	else
		free(s);
	return cells;
}

/* The one cell of args; aborts unless there is exactly one. */
static inline struct cell
cells_one(const char *args)
{
	struct cell *cells, c;
	size_t n;

	cells = cells_sweep(args, &n, NULL);
	if (n != 1) {
		fprintf(stderr, "cells_one(%s): %zu cells\n", args, n);
		abort();
	}
	c = cells[0];
	free(cells);
	return c;
}

#endif /* TESTS_CELLS_H */
