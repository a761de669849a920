/*
 * results.c - the results file (see results.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "params.h"
#include "results.h"
#include "stats.h"

/* The summary of one field over the ok runs, or NULL if none has it. */
static cJSON *
results_field(const cJSON *runs, const char *name)
{
	double *v = malloc(sizeof(*v) * (size_t)(cJSON_GetArraySize(runs) + 1));
	const cJSON *run, *f;
	struct stats_summary st;
	cJSON *s = NULL, *b;
	double boundary;
	size_t n = 0, i, slow = 0;

	if (v == NULL)
		abort();
	cJSON_ArrayForEach(run, runs) {
		f = cJSON_GetObjectItemCaseSensitive(run, "status");
		if (!cJSON_IsString(f) || strcmp(f->valuestring, "ok") != 0)
			continue;
		f = cJSON_GetObjectItemCaseSensitive(run, name);
		if (cJSON_IsNumber(f))
			v[n++] = f->valuedouble;
	}
	if (n > 0) {
		stats_summarize(v, n, &st);
		s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "median", st.median);
		cJSON_AddNumberToObject(s, "min", st.min);
		cJSON_AddNumberToObject(s, "max", st.max);
		cJSON_AddNumberToObject(s, "q1", st.q1);
		cJSON_AddNumberToObject(s, "q3", st.q3);
		cJSON_AddNumberToObject(s, "cv", st.cv);
	}
	/* Two regimes: a median would describe neither, so say so. */
	if (n > 0 && st.min > 0 && stats_bimodal(v, n, &boundary)) {
		for (i = 0; i < n; i++)
			slow += v[i] > boundary;
		b = cJSON_AddObjectToObject(s, "bimodal");
		cJSON_AddNumberToObject(b, "boundary", boundary);
		cJSON_AddNumberToObject(b, "runs_above", (double)slow);
		cJSON_AddNumberToObject(b, "share_above", (double)slow / n);
	}
	free(v);
	return s;
}

cJSON *
results_summary(const cJSON *runs)
{
	cJSON *summary = cJSON_CreateObject(), *s;
	const cJSON *first = NULL, *run, *f;
	int ok = 0, n = 0;

	cJSON_ArrayForEach(run, runs) {
		n++;
		f = cJSON_GetObjectItemCaseSensitive(run, "status");
		if (cJSON_IsString(f) && strcmp(f->valuestring, "ok") == 0) {
			ok++;
			first = first ? first : run;
		}
	}
	cJSON_AddNumberToObject(summary, "runs", n);
	cJSON_AddNumberToObject(summary, "runs_ok", ok);
	if (first == NULL)
		return summary;
	cJSON_ArrayForEach(f, first) {
		if (!cJSON_IsNumber(f))
			continue;
		if ((s = results_field(runs, f->string)) != NULL)
			cJSON_AddItemToObject(summary, f->string, s);
	}
	return summary;
}

double
results_num(const cJSON *o, const char *name)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsNumber(f) ? f->valuedouble : NAN;
}

const char *
results_str(const cJSON *o, const char *name, const char *missing)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(f) ? f->valuestring : missing;
}

double
results_stat(const cJSON *cell, const char *field, const char *stat)
{

	return results_num(cJSON_GetObjectItem(cJSON_GetObjectItem(cell,
	    "summary"), field), stat);
}

unsigned int
results_runs_above_zero(const cJSON *cell, const char *field)
{
	const cJSON *run;
	unsigned int n = 0;

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs"))
		n += strcmp(results_str(run, "status", ""), "ok") == 0 &&
		    results_num(run, field) > 0;
	return n;
}

/* One sweep's fit: the cells of doc whose key without width is key. */
static cJSON *
results_fit(const cJSON *cells, const char *key, int ncells)
{
	double *x = calloc((size_t)ncells, sizeof(*x));
	double *y = calloc((size_t)ncells, sizeof(*y));
	double slope, icpt, r2;
	const cJSON *cell;
	cJSON *fit = NULL;
	char k[256];
	size_t n = 0;

	if (x == NULL || y == NULL)
		abort();
	cJSON_ArrayForEach(cell, cells) {
		params_key(cell, false, k, sizeof(k));
		if (strcmp(k, key) != 0)
			continue;
		x[n] = results_stat(cell, "threads_peak", "median");
		y[n] = results_stat(cell, "rss_anon_peak_kb", "median");
		n += isfinite(x[n]) && isfinite(y[n]);
	}
	if (n >= 3 && stats_linfit(x, y, n, &slope, &icpt, &r2)) {
		fit = cJSON_CreateObject();
		cJSON_AddStringToObject(fit, "cells", key);
		cJSON_AddNumberToObject(fit, "points", (double)n);
		cJSON_AddNumberToObject(fit, "kb_per_thread", slope);
		cJSON_AddNumberToObject(fit, "intercept_kb", icpt);
		cJSON_AddNumberToObject(fit, "r2", r2);
	}
	free(x);
	free(y);
	return fit;
}

void
results_memory_fits(cJSON *doc)
{
	const cJSON *cells = cJSON_GetObjectItem(doc, "cells"), *cell, *f;
	cJSON *fits = cJSON_CreateArray(), *fit;
	char key[256];
	bool seen;

	cJSON_ArrayForEach(cell, cells) {
		params_key(cell, false, key, sizeof(key));
		seen = false;
		cJSON_ArrayForEach(f, fits)
			seen |= strcmp(results_str(f, "cells", ""), key) == 0;
		if (!seen && (fit = results_fit(cells, key,
		    cJSON_GetArraySize(cells))) != NULL)
			cJSON_AddItemToArray(fits, fit);
	}
	if (cJSON_HasObjectItem(doc, "memory_fits"))
		cJSON_ReplaceItemInObject(doc, "memory_fits", fits);
	else
		cJSON_AddItemToObject(doc, "memory_fits", fits);
	return;
}

int
results_write_text(const char *text, const char *path)
{
	char tmp[4096];
	FILE *f;
	int error = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return -errno;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) != 0 ||
	    fsync(fileno(f)) != 0)
		error = -errno;
	if (fclose(f) != 0 && error == 0)
		error = -errno;
	if (error == 0 && rename(tmp, path) != 0)
		error = -errno;
	if (error != 0)
		unlink(tmp);
	return error;
}

int
results_write(const cJSON *doc, const char *path)
{
	char *text = cJSON_Print(doc);
	int error;

	if (text == NULL)
		return -ENOMEM;
	error = results_write_text(text, path);
	free(text);
	return error;
}

/* A whole number from lo to RESULTS_MAX_COUNT: readers cast it. */
static bool
results_count(const cJSON *cell, const char *name, double lo)
{
	double v = results_num(cell, name);

	return v >= lo && v <= RESULTS_MAX_COUNT && v == (double)(long)v;
}

int
results_validate(const cJSON *doc, char *err, size_t errlen)
{
	const cJSON *ctx, *cells, *cell, *schema;

	if (!cJSON_IsObject(doc)) {
		snprintf(err, errlen, "not a results file: not a JSON object");
		return -1;
	}
	ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
	schema = cJSON_GetObjectItemCaseSensitive(ctx, "schema");
	cells = cJSON_GetObjectItemCaseSensitive(doc, "cells");
	if (!cJSON_IsNumber(schema) || !cJSON_IsArray(cells)) {
		snprintf(err, errlen, "not a results file: no context.schema "
		    "or cells");
		return -1;
	}
	if (schema->valueint > RESULTS_SCHEMA) {
		snprintf(err, errlen, "results schema %d is newer than this "
		    "build reads (%d)", schema->valueint, RESULTS_SCHEMA);
		return -1;
	}
	cJSON_ArrayForEach(cell, cells) {
		if (!cJSON_IsString(cJSON_GetObjectItem(cell, "dispatcher")) ||
		    !cJSON_IsString(cJSON_GetObjectItem(cell, "queue")) ||
		    !results_count(cell, "workers", 0) ||
		    !results_count(cell, "coroutines", 1) ||
		    !cJSON_IsObject(cJSON_GetObjectItem(cell, "summary"))) {
			snprintf(err, errlen, "malformed cell in results file");
			return -1;
		}
	}
	return 0;
}

int
results_read(const char *path, cJSON **docp, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, r;
	int rc;

	if (f == NULL) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 131072;
			if ((text = realloc(text, cap)) == NULL)
				abort();
		}
		r = fread(text + len, 1, cap - len - 1, f);
		len += r;
	} while (r > 0);
	fclose(f);
	text[len] = '\0';
	rc = results_parse(text, len, docp, path, err, errlen);
	free(text);
	return rc;
}

int
results_parse(const char *text, size_t len, cJSON **docp, const char *name,
    char *err, size_t errlen)
{
	cJSON *doc = cJSON_ParseWithLength(text, len);

	if (doc == NULL) {
		snprintf(err, errlen, "%s is not valid JSON (truncated or "
		    "not a results file)", name);
		return -1;
	}
	if (results_validate(doc, err, errlen) != 0) {
		cJSON_Delete(doc);
		return -1;
	}
	*docp = doc;
	return 0;
}
