/*
 * params.c - a results file's cells named from the parameter table (see
 * params.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "results.h"

/*
 * A cell's value of p as text, or NULL when p does not apply to it: a
 * design's own knob is recorded only for the designs it applies to, and
 * "-" is the queue of a design that takes none. A field a file predates
 * reads as its default.
 */
const char *
params_value(const struct param *p, const cJSON *cell, char *buf, size_t len)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(cell, p->key);

	if (cJSON_IsString(f))
		return strcmp(f->valuestring, "-") == 0 ? NULL : f->valuestring;
	if (!cJSON_IsNumber(f))
		return params_owned(p) ? NULL : p->dflt;
	if (p->kind == PARAM_WIDTH && f->valuedouble == 0)
		snprintf(buf, len, "inf");
	else if (p->kind == PARAM_SECONDS)
		snprintf(buf, len, "%g", f->valuedouble);
	else
		snprintf(buf, len, "%.0f", f->valuedouble);
	return buf;
}

/* A merged file's cell: " on" its machine, after its key or its series. */
static void
params_machine(const cJSON *cell, char *buf, size_t len)
{
	const char *m = results_str(cell, "machine", NULL);
	size_t used = strlen(buf);

	if (m != NULL && used < len)
		snprintf(buf + used, len - used, " on %s", m);
	return;
}

void
params_key(const cJSON *cell, bool workers, char *buf, size_t len)
{
	const struct param *p;
	const char *v;
	char num[32];
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < nparams && used < len; i++) {
		p = &params[i];
		if (!(p->flags & P_KEY) || (!workers && p->kind == PARAM_WIDTH) ||
		    (v = params_value(p, cell, num, sizeof(num))) == NULL ||
		    (!(p->flags & P_DENSE) && strcmp(v, p->dflt) == 0))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    p->label, v);
	}
	params_machine(cell, buf, len);
	return;
}

/*
 * Whether two cells are one cell but for key (the design, or the queue):
 * of one machine, every other key parameter equal where both have it,
 * and at its default where only one does (a design's own knob). A queue
 * only one of them
 * takes is not compared: the model's first cell in a file's order is
 * taken, its sweep's first --queue.
 */
static bool
params_listed(const struct param *p, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(p->key, keys[i]) == 0)
			return true;
	return false;
}

bool
params_same_except(const cJSON *a, const cJSON *b, const char *const *keys,
    size_t nkeys)
{
	char na[32], nb[32];
	const struct param *p;
	const char *va, *vb;
	size_t i;

	if (strcmp(results_str(a, "machine", ""), results_str(b, "machine",
	    "")) != 0)
		return false;
	for (i = 0; i < nparams; i++) {
		p = &params[i];
		if (!(p->flags & P_KEY) || params_listed(p, keys, nkeys))
			continue;
		va = params_value(p, a, na, sizeof(na));
		vb = params_value(p, b, nb, sizeof(nb));
		if (va != NULL && vb != NULL) {
			if (strcmp(va, vb) != 0)
				return false;
		} else if ((va = va != NULL ? va : vb) != NULL &&
		    p->kind != PARAM_QUEUE && strcmp(va, p->dflt) != 0)
			return false;
	}
	return true;
}

bool
params_same_but(const cJSON *a, const cJSON *b, const char *key)
{

	return params_same_except(a, b, &key, 1);
}

/*
 * A design's own knob (not its queue), or a parameter named only off its
 * default: its values make variants of the design.
 */
static bool
params_variant(const struct param *p)
{

	return (p->flags & P_KEY) && ((params_owned(p) && p->kind !=
	    PARAM_QUEUE) || !(p->flags & P_DENSE));
}

const char *
params_design(const cJSON *cell, char *buf, size_t len)
{
	const struct param *p;
	const char *v;
	char num[32];
	size_t i, k, used;

	used = (size_t)snprintf(buf, len, "%s", results_str(cell, "dispatcher",
	    "?"));
	for (i = 0; i < nparams && used < len; i++) {
		p = &params[i];
		if (!params_variant(p) || (v = params_value(p, cell, num,
		    sizeof(num))) == NULL)
			continue;
		for (k = 0; p->suffix != NULL && p->names[k] != NULL; k++)
			if (strcmp(p->names[k], v) == 0)
				used += (size_t)snprintf(buf + used, len - used,
				    "%s", p->suffix[k]);
		if (p->suffix == NULL && strcmp(v, p->dflt) != 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			    p->label, v);
	}
	return buf;
}

void
params_series(const cJSON *cell, char *buf, size_t len)
{
	const struct param *p;
	const char *v;
	char num[32];
	size_t i, used;

	params_design(cell, buf, len);
	used = strlen(buf);
	for (i = 0; i < nparams && used < len; i++) {
		p = &params[i];
		if (!(p->flags & P_KEY) || p->kind == PARAM_DESIGN ||
		    p->kind == PARAM_WIDTH || params_variant(p) ||
		    (v = params_value(p, cell, num, sizeof(num))) == NULL ||
		    (!(p->flags & P_SHOWN) && strcmp(v, p->dflt) == 0))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    p->label, v);
	}
	if (used < len && results_num(cell, "workers") == 0)
		snprintf(buf + used, len - used, " unbounded");
	params_machine(cell, buf, len);
	return;
}
