/*
 * identity.c - the fields that make a machine, read from a results file's
 * context (see identity.h; context.c writes them, results/README.md names
 * them).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "identity.h"
#include "results.h"

/*
 * A field's label, as the one-line difference says it, and where the
 * context keeps it: "a.b" is member b of object a; "cache:L1d" is the size
 * of that level in machine.caches (hwloc's), which files before the cpu
 * object already record. A digest is said by its first 12 characters.
 */
static const struct identity_field {
	const char *label;
	const char *path;
	int width;			/* characters said of a value; 0: all */
} identity_fields[] = {
	{ .label = "host", .path = "host" },
	{ .label = "CPU", .path = "cpu_model" },
	{ .label = "vendor", .path = "cpu.vendor" },
	{ .label = "family", .path = "cpu.family" },
	{ .label = "model", .path = "cpu.model" },
	{ .label = "stepping", .path = "cpu.stepping" },
	{ .label = "microcode", .path = "cpu.microcode" },
	{ .label = "L1d", .path = "cache:L1d" },
	{ .label = "L1i", .path = "cache:L1i" },
	{ .label = "L2", .path = "cache:L2" },
	{ .label = "L3", .path = "cache:L3" },
	{ .label = "features", .path = "cpu.features" },
	{ .label = "flags", .path = "cpu.flags_sha256", .width = 12 },
	{ .label = "SMT", .path = "cpu.smt" },
	{ .label = "hypervisor", .path = "cpu.hypervisor" },
	{ .label = "online CPUs", .path = "online_cpus" },
	{ .label = "cpuset", .path = "cpuset" },
	{ .label = "topology", .path = "topology" },
	{ .label = "kernel", .path = "kernel" },
	{ .label = "governor", .path = "cpu_governor" },
	{ .label = "boost", .path = "cpu.boost" },
	{ .label = "THP", .path = "cpu.thp" },
	{ .label = "build type", .path = "build_type" },
	{ .label = "compiler", .path = "compiler" },
	{ .label = "build flags", .path = "build_flags" },
};

#define IDENTITY_NFIELDS	(sizeof(identity_fields) / sizeof(identity_fields[0]))

/* A value as text, or "unrecorded" (and false) where there is none. */
static bool
identity_scalar(const cJSON *v, char *buf, size_t len)
{

	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.15g", v->valuedouble);
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "yes" : "no");
	else
		return snprintf(buf, len, "unrecorded"), false;
	return true;
}

/* The size of one cache level as hwloc's summary in the context has it. */
static bool
identity_cache(const cJSON *ctx, const char *level, char *buf, size_t len)
{
	const cJSON *c;
	double kb;

	snprintf(buf, len, "unrecorded");
	cJSON_ArrayForEach(c, results_arr(results_obj(ctx, "machine"),
	    "caches")) {
		if (strcmp(results_str(c, "name", ""), level) != 0)
			continue;
		kb = results_num(c, "size_kb");
		if (isnan(kb))
			return false;
		snprintf(buf, len, "%.15g KB", kb);
		return true;
	}
	return false;
}

/* Field f of ctx as text; false where ctx does not record it. */
static bool
identity_value(const cJSON *ctx, const struct identity_field *f, char *buf,
    size_t len)
{
	const char *dot = strchr(f->path, '.');
	char parent[32];

	if (strncmp(f->path, "cache:", 6) == 0)
		return identity_cache(ctx, f->path + 6, buf, len);
	if (dot == NULL)
		return identity_scalar(cJSON_GetObjectItemCaseSensitive(ctx,
		    f->path), buf, len);
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - f->path),
	    f->path);
	return identity_scalar(cJSON_GetObjectItemCaseSensitive(
	    results_obj(ctx, parent), dot + 1), buf, len);
}

void
identity_key(const cJSON *ctx, char *buf, size_t len)
{
	char v[512];
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < IDENTITY_NFIELDS && at < len; i++) {
		identity_value(ctx, &identity_fields[i], v, sizeof(v));
		at += snprintf(buf + at, len - at, "%s%s=%s", i > 0 ? ";" : "",
		    identity_fields[i].path, v);
	}
	return;
}

/*
 * The fields a and b record differently, after lead, from buf[*at] on:
 * recorded says which of them record one (1: a alone, 2: b alone, 3:
 * both); where both do, each with its two values. Returns how many.
 */
static int
identity_part(const cJSON *a, const cJSON *b, int recorded, const char *lead,
    char *buf, size_t len, size_t *at)
{
	const struct identity_field *f;
	char va[512], vb[512];
	const char *sep;
	size_t i;
	int n = 0, w;

	for (i = 0; i < IDENTITY_NFIELDS; i++) {
		f = &identity_fields[i];
		if (((int)identity_value(a, f, va, sizeof(va)) |
		    (int)identity_value(b, f, vb, sizeof(vb)) << 1) !=
		    recorded || strcmp(va, vb) == 0)
			continue;
		sep = n > 0 ? ", " : *at > 0 ? "; " : "";
		w = f->width > 0 ? f->width : (int)sizeof(va);
		if (*at < len && recorded != 3)
			*at += (size_t)snprintf(buf + *at, len - *at, "%s%s%s",
			    sep, n > 0 ? "" : lead, f->label);
		else if (*at < len)
			*at += (size_t)snprintf(buf + *at, len - *at, "%s%s "
			    "'%.*s' against '%.*s'", sep, f->label, w, va, w,
			    vb);
		n++;
	}
	return n;
}

/*
 * The values that differ first, then the fields one file lacks by name
 * alone: a file from before a field was recorded lacks a dozen, and
 * "unrecorded against 'AuthenticAMD'" for each would bury the one that
 * moved.
 */
int
identity_diff(const cJSON *a, const cJSON *b, char *buf, size_t len)
{
	size_t at = 0;
	int n;

	buf[0] = '\0';
	n = identity_part(a, b, 3, "", buf, len, &at);
	n += identity_part(a, b, 2, "unrecorded against recorded: ", buf, len,
	    &at);
	n += identity_part(a, b, 1, "recorded against unrecorded: ", buf, len,
	    &at);
	return n;
}
