/*
 * label.c - cells and plugins in words (see label.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "label.h"
#include "params.h"
#include "results.h"

/*
 * One word of two keys that differs, said once: "w=2->8" and
 * "shared/lfseg->vyukov" (a parameter's value), "shared->limited/lfseg"
 * (the design, its queue the same), or "a->b".
 */
static int
label_word_change(const char *a, size_t na, const char *b, size_t nb,
    char *buf, size_t len)
{
	size_t eq = 0, qa = strcspn(a, "/"), qb = strcspn(b, "/");

	while (eq < na && a[eq] != '=' && a[eq] != '/')
		eq++;
	if (eq < na && eq < nb && strncmp(a, b, eq + 1) == 0)
		return snprintf(buf, len, "%.*s->%.*s", (int)na, a,
		    (int)(nb - eq - 1), b + eq + 1);
	if (qa < na && qb < nb && na - qa == nb - qb && strncmp(a + qa,
	    b + qb, na - qa) == 0)
		return snprintf(buf, len, "%.*s->%.*s", (int)qa, a, (int)nb, b);
	return snprintf(buf, len, "%.*s->%.*s", (int)na, a, (int)nb, b);
}

void
label_keys(const char *ka, const char *kb, char *label, size_t len)
{
	size_t used = 0, wa, wb;

	while (*ka != '\0' && *kb != '\0' && used + 1 < len) {
		wa = strcspn(ka, " ");
		wb = strcspn(kb, " ");
		if (wa == wb && strncmp(ka, kb, wa) == 0)
			used += (size_t)snprintf(label + used, len - used, "%.*s",
			    (int)wa, ka);
		else
			used += (size_t)label_word_change(ka, wa, kb, wb,
			    label + used, len - used);
		ka += wa + (ka[wa] == ' ');
		kb += wb + (kb[wb] == ' ');
		if (*ka != '\0' && used + 1 < len)
			label[used++] = ' ';
	}
	label[used < len ? used : len - 1] = '\0';
	return;
}

void
label_cells(const cJSON *a, const cJSON *b, char *buf, size_t len)
{
	char ka[640], kb[640];

	params_key(a, true, ka, sizeof(ka));
	params_key(b, true, kb, sizeof(kb));
	label_keys(ka, kb, buf, len);
	return;
}

const cJSON *
label_plugin_entry(const cJSON *ctx, const char *spec)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, results_arr(ctx, "plugins"))
		if (strcmp(results_str(p, "spec", ""), spec) == 0)
			return p;
	return NULL;
}

const char *
label_plugin_param(const cJSON *f, char *buf, size_t len)
{
	size_t n = strlen(f->string);

	if (!cJSON_IsString(f) || n <= 7 || n - 7 >= len ||
	    strcmp(f->string + n - 7, "_plugin") != 0)
		return NULL;
	snprintf(buf, len, "%.*s", (int)(n - 7), f->string);
	return buf;
}

cJSON *
label_plugins_json(const cJSON *cell, const cJSON *doc)
{
	cJSON *a = cJSON_CreateArray(), *o;
	const cJSON *f, *e;
	char param[64];

	cJSON_ArrayForEach(f, cell) {
		if (label_plugin_param(f, param, sizeof(param)) == NULL)
			continue;
		e = label_plugin_entry(results_context(doc, cell),
		    f->valuestring);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "param", param);
		cJSON_AddStringToObject(o, "name", results_str(cell, param,
		    "?"));
		cJSON_AddStringToObject(o, "spec", f->valuestring);
		cJSON_AddStringToObject(o, "path", results_str(e, "path", "?"));
		cJSON_AddStringToObject(o, "sha256", results_str(e, "sha256",
		    "unknown"));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* "shared/lfseg w=8 c=64", and the workload when it blocks, of a key. */
void
label_short_cell(const char *key, char *buf, size_t len)
{
	const char *pin = strstr(key, " pin="), *last = strrchr(key, ' ');
	int head = pin != NULL ? (int)(pin - key) : (int)strlen(key);

	if (pin != NULL && strcmp(last, " resume") != 0)
		snprintf(buf, len, "%.*s%s", head, key, last);
	else
		snprintf(buf, len, "%.*s", head, key);
	return;
}

/* A word of the key, or one side of its design/queue ("shared", "lfseg"). */
static bool
label_word_in(const char *word, size_t n, const char *key)
{
	const char *w = key, *slash;
	size_t k;

	while (*w != '\0') {
		k = strcspn(w, " ");
		slash = memchr(w, '/', k);
		if ((k == n && strncmp(w, word, n) == 0) || (slash != NULL &&
		    (((size_t)(slash - w) == n && strncmp(w, word, n) == 0) ||
		    (k - (size_t)(slash - w) - 1 == n &&
		    strncmp(slash + 1, word, n) == 0))))
			return true;
		w += k + (w[k] == ' ');
	}
	return false;
}

bool
label_key_holds(const char *filter, const char *key)
{
	size_t n;

	while (filter != NULL && *filter != '\0') {
		filter += strspn(filter, " ");
		n = strcspn(filter, " ");
		if (n > 0 && !label_word_in(filter, n, key))
			return false;
		filter += n;
	}
	return true;
}
