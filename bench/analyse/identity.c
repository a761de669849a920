/*
 * identity.c - the fields that make a machine, read from a results file's
 * context (see identity.h; context.c writes them, results/README.md names
 * them).
 */
#include <stdio.h>
#include <string.h>

#include "identity.h"
#include "results.h"

/*
 * A field's label, as the one-line difference says it, and where the
 * context keeps it: "a.b" is member b of object a; "cache:L1d" is the size
 * of that level in machine.caches (hwloc's), which files before the cpu
 * object already record.
 */
static const struct identity_field {
	const char *label;
	const char *path;
} identity_fields[] = {
	{ "host", "host" },
	{ "CPU", "cpu_model" },
	{ "vendor", "cpu.vendor" },
	{ "family", "cpu.family" },
	{ "model", "cpu.model" },
	{ "stepping", "cpu.stepping" },
	{ "microcode", "cpu.microcode" },
	{ "L1d", "cache:L1d" },
	{ "L1i", "cache:L1i" },
	{ "L2", "cache:L2" },
	{ "L3", "cache:L3" },
	{ "features", "cpu.features" },
	{ "flags", "cpu.flags_sha256" },
	{ "SMT", "cpu.smt" },
	{ "hypervisor", "cpu.hypervisor" },
	{ "online CPUs", "online_cpus" },
	{ "cpuset", "cpuset" },
	{ "topology", "topology" },
	{ "kernel", "kernel" },
	{ "governor", "cpu_governor" },
	{ "boost", "cpu.boost" },
	{ "THP", "cpu.thp" },
	{ "build type", "build_type" },
	{ "compiler", "compiler" },
	{ "build flags", "build_flags" },
};

#define IDENTITY_NFIELDS	(sizeof(identity_fields) / sizeof(identity_fields[0]))

static void
identity_scalar(const cJSON *v, char *buf, size_t len)
{

	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.15g", v->valuedouble);
	else if (cJSON_IsBool(v))
		snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "yes" : "no");
	else
		snprintf(buf, len, "unrecorded");
	return;
}

/* The size of one cache level as hwloc's summary in the context has it. */
static void
identity_cache(const cJSON *ctx, const char *level, char *buf, size_t len)
{
	const cJSON *c;
	double kb;

	snprintf(buf, len, "unrecorded");
	cJSON_ArrayForEach(c, results_arr(results_obj(ctx, "machine"),
	    "caches")) {
		if (strcmp(results_str(c, "name", ""), level) != 0)
			continue;
		if ((kb = results_num(c, "size_kb")) == kb)
			snprintf(buf, len, "%.15g KB", kb);
		return;
	}
	return;
}

static void
identity_value(const cJSON *ctx, const struct identity_field *f, char *buf,
    size_t len)
{
	const char *dot = strchr(f->path, '.');
	char parent[32];

	if (strncmp(f->path, "cache:", 6) == 0) {
		identity_cache(ctx, f->path + 6, buf, len);
		return;
	}
	if (dot == NULL) {
		identity_scalar(cJSON_GetObjectItemCaseSensitive(ctx, f->path),
		    buf, len);
		return;
	}
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - f->path),
	    f->path);
	identity_scalar(cJSON_GetObjectItemCaseSensitive(
	    results_obj(ctx, parent), dot + 1), buf, len);
	return;
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

int
identity_diff(const cJSON *a, const cJSON *b, char *buf, size_t len)
{
	char va[512], vb[512];
	size_t i, at = 0;
	int n = 0;

	buf[0] = '\0';
	for (i = 0; i < IDENTITY_NFIELDS; i++) {
		identity_value(a, &identity_fields[i], va, sizeof(va));
		identity_value(b, &identity_fields[i], vb, sizeof(vb));
		if (strcmp(va, vb) == 0)
			continue;
		if (at < len)
			at += snprintf(buf + at, len - at, "%s%s '%s' against "
			    "'%s'", n > 0 ? ", " : "", identity_fields[i].label,
			    va, vb);
		n++;
	}
	return n;
}
