/*
 * test_identity.c - a machine is what measured it (issue 42): `compare`
 * refuses two files whose contexts differ in any field that makes a
 * machine (identity.h), one line naming each field, and with
 * --allow-other-machine compares them under that line, said once; the
 * same context twice is one machine; two merged files match each machine
 * by its name and then by identity; and this machine's own context
 * records its CPU as /proc/cpuinfo says it, the same twice.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "binary.h"
#include "compare.h"
#include "context.h"
#include "fields.h"
#include "identity.h"
#include "tmpdir.h"

/* A context that records every field, as a run on a machine writes it. */
static const char machine_json[] = "{\"schema\": 1, \"host\": \"vm\", "
    "\"cpu_model\": \"AMD EPYC\", \"online_cpus\": 2, \"cpuset\": \"0-1\", "
    "\"topology\": \"1 packages, 2 cores, 2 PUs, allowed PUs 0-1\", "
    "\"machine\": {\"cores\": 2, \"pus\": 2, \"caches\": ["
    "{\"name\": \"L1d\", \"count\": 2, \"size_kb\": 32}, "
    "{\"name\": \"L2\", \"count\": 2, \"size_kb\": 1024}, "
    "{\"name\": \"L3\", \"count\": 1, \"size_kb\": 32768}, "
    "{\"name\": \"L1i\", \"count\": 2, \"size_kb\": 32}]}, "
    "\"cpu\": {\"vendor\": \"AuthenticAMD\", \"family\": 25, \"model\": 1, "
    "\"stepping\": 1, \"microcode\": \"0xa0011d1\", "
    "\"features\": \"avx avx2 constant_tsc erms fsrm\", "
    "\"flags_sha256\": \"3f0a8c1d5e7b9a2c4d6e8f0a1b3c5d7e9f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c\", "
    "\"smt\": \"notsupported\", \"hypervisor\": \"KVMKVMKVM\", "
    "\"boost\": true, \"thp\": \"madvise\"}, "
    "\"kernel\": \"Linux 6.18.44 x86_64\", \"cpu_governor\": \"performance\", "
    "\"compiler\": \"gcc 12.2.0\", \"build_type\": \"RelWithDebInfo\", "
    "\"build_flags\": \"RelWithDebInfo  -O2 -g -DNDEBUG sanitize=\"}";

/* patch over o: a member null removes it, an object is patched within. */
static void
patch(cJSON *o, const cJSON *p)
{
	const cJSON *m;
	cJSON *have;

	cJSON_ArrayForEach(m, p) {
		have = cJSON_GetObjectItemCaseSensitive(o, m->string);
		if (cJSON_IsObject(m) && cJSON_IsObject(have))
			patch(have, m);
		else if (cJSON_IsNull(m))
			cJSON_DeleteItemFromObjectCaseSensitive(o, m->string);
		else if (have != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(o, m->string,
			    cJSON_Duplicate(m, true));
		else
			cJSON_AddItemToObject(o, m->string, cJSON_Duplicate(m,
			    true));
	}
	return;
}

/* The machine's context with patch_json over it. */
static cJSON *
context_of(const char *patch_json)
{
	cJSON *ctx = cJSON_Parse(machine_json), *p = cJSON_Parse(patch_json);

	cr_assert_not_null(ctx);
	cr_assert_not_null(p, "patch %s", patch_json);
	patch(ctx, p);
	cJSON_Delete(p);
	return ctx;
}

/* One cell of 8 runs, about 1 µs a dispatch. */
static cJSON *
cell(void)
{
	static const double v[] = { 1.00, 1.04, 0.97, 1.02, 0.99, 1.01, 1.03,
	    0.98 };
	cJSON *c = cJSON_CreateObject(), *runs, *run;
	size_t i;

	cJSON_AddStringToObject(c, "dispatcher", "shared");
	cJSON_AddStringToObject(c, "queue", "lfseg");
	cJSON_AddNumberToObject(c, "workers", 2);
	cJSON_AddNumberToObject(c, "coroutines", 64);
	runs = cJSON_AddArrayToObject(c, "runs");
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", "ok");
		cJSON_AddNumberToObject(run, "cpu_us_per_dispatch", v[i]);
		cJSON_AddItemToArray(runs, run);
	}
	return c;
}

/* A run's file on the machine patched by patch_json. */
static cJSON *
run_file(const char *patch_json)
{
	cJSON *d = cJSON_CreateObject();

	cJSON_AddItemToObject(d, "context", context_of(patch_json));
	cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "cells"), cell());
	return d;
}

/* A merged file of one machine, named vm, patched by patch_json. */
static cJSON *
merged_file(const char *patch_json)
{
	cJSON *d = cJSON_CreateObject(), *m, *c = cell();

	cJSON_AddNumberToObject(cJSON_AddObjectToObject(d, "context"), "schema",
	    2);
	m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "name", "vm");
	cJSON_AddItemToObject(m, "context", context_of(patch_json));
	cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "machines"), m);
	cJSON_AddStringToObject(c, "machine", "vm");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(d, "cells"), c);
	return d;
}

/* compare's exit, its table (text) into out, its refusal into err. */
static int
compare(cJSON *base, cJSON *new, bool allow, char *out, size_t outlen,
    char *err, size_t errlen)
{
	struct compare_opts o;
	FILE *f = fmemopen(out, outlen, "w");
	int rc;

	compare_defaults(&o);
	o.allow_other_machine = allow;
	err[0] = '\0';
	rc = compare_docs(base, new, &o, f, err, errlen);
	fclose(f);
	cJSON_Delete(base);
	cJSON_Delete(new);
	return rc;
}

/* NEW's context against BASE's (machine_json): what compare must say. */
struct machine_case {
	char patch[200];
	char diff[300];
};

static struct machine_case machine_cases[] = {
	{ "{\"cpu\": {\"family\": 26}}", "family '25' against '26'" },
	{ "{\"machine\": {\"caches\": [{\"name\": \"L1d\", \"size_kb\": 48}, "
	    "{\"name\": \"L2\", \"size_kb\": 1024}, {\"name\": \"L3\", "
	    "\"size_kb\": 32768}, {\"name\": \"L1i\", \"size_kb\": 32}]}}",
	    "L1d '32 KB' against '48 KB'" },
	{ "{\"build_type\": \"Debug\", \"build_flags\": \"Debug  -g "
	    "sanitize=\"}", "build type 'RelWithDebInfo' against 'Debug', "
	    "build flags 'RelWithDebInfo  -O2 -g -DNDEBUG sanitize=' against "
	    "'Debug  -g sanitize='" },
	{ "{\"cpu_governor\": \"powersave\"}",
	    "governor 'performance' against 'powersave'" },
	{ "{\"host\": \"vm2\"}", "host 'vm' against 'vm2'" },
	{ "{\"online_cpus\": 4}", "online CPUs '2' against '4'" },
	{ "{\"cpu\": {\"flags_sha256\": \"0123456789abcdef\"}}",
	    "flags '3f0a8c1d5e7b' against '0123456789ab'" },
	{ "{\"cpu\": {\"boost\": false}, \"kernel\": \"Linux 6.19 x86_64\"}",
	    "kernel 'Linux 6.18.44 x86_64' against 'Linux 6.19 x86_64', "
	    "boost 'yes' against 'no'" },
	/* A file from before the cpu object, against one with it. */
	{ "{\"cpu\": null}", "recorded against unrecorded: vendor, family, "
	    "model, stepping, microcode, features, flags, SMT, hypervisor, "
	    "boost, THP" },
	{ "{\"cpu\": {\"microcode\": null}, \"machine\": {\"caches\": null}, "
	    "\"cpu_governor\": null, \"cpuset\": \"0\"}", "cpuset '0-1' against "
	    "'0'; recorded against unrecorded: microcode, L1d, L1i, L2, L3, "
	    "governor" },
};

ParameterizedTestParameters(identity, another_machine_is_refused)
{

	return cr_make_param_array(struct machine_case, machine_cases,
	    sizeof(machine_cases) / sizeof(machine_cases[0]));
}

/* Refused, one line naming each field that differs and nothing else. */
ParameterizedTest(struct machine_case *c, identity, another_machine_is_refused)
{
	char out[1 << 14], err[1024], want[1024];

	cr_assert_eq(compare(run_file("{}"), run_file(c->patch), false, out,
	    sizeof(out), err, sizeof(err)), COMPARE_BAD_INPUT, "%s", c->patch);
	snprintf(want, sizeof(want), "the files come from different machines "
	    "(%s); pass --allow-other-machine to compare anyway", c->diff);
	cr_assert_str_eq(err, want);
}

/* The fields a file lacks are said as NEW's too, the other way round. */
Test(identity, a_field_only_base_lacks_is_said_so)
{
	char diff[512];
	cJSON *a = context_of("{\"cpu\": {\"thp\": null}}"), *b = context_of("{}");

	cr_assert_eq(identity_diff(a, b, diff, sizeof(diff)), 1);
	cr_assert_str_eq(diff, "unrecorded against recorded: THP");
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* Compared anyway, with the line that says why said once, above. */
Test(identity, another_machine_is_compared_when_allowed)
{
	static const char line[] = "the files come from different machines "
	    "(family '25' against '26'): each change below is the machines' as "
	    "much as the builds' (--allow-other-machine)\n";
	char out[1 << 14], err[1024], *at;

	cr_assert_eq(compare(run_file("{}"), run_file("{\"cpu\": {\"family\": "
	    "26}}"), true, out, sizeof(out), err, sizeof(err)),
	    COMPARE_NO_REGRESSION, "%s", err);
	cr_assert_not_null(at = strstr(out, line), "%s", out);
	cr_assert_null(strstr(at + strlen(line), "different machines"),
	    "said twice: %s", out);
	cr_assert_not_null(strstr(at, "equivalent"), "no verdict below: %s",
	    out);
}

/* The same context twice is one machine: compared, and no line said. */
Test(identity, the_same_context_twice_is_one_machine)
{
	char out[1 << 14], err[1024], key[4096], again[4096];
	cJSON *a = context_of("{}"), *b = context_of("{}");

	cr_assert_eq(compare(run_file("{}"), run_file("{}"), false, out,
	    sizeof(out), err, sizeof(err)), COMPARE_NO_REGRESSION, "%s", err);
	cr_assert_null(strstr(out, "different machines"), "%s", out);
	identity_key(a, key, sizeof(key));
	identity_key(b, again, sizeof(again));
	cr_assert_str_eq(key, again);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* A field neither records agrees: two old files are one machine. */
Test(identity, a_field_neither_records_agrees)
{
	char out[1 << 14], err[1024];

	cr_assert_eq(compare(run_file("{\"cpu\": null}"), run_file("{\"cpu\": "
	    "null}"), false, out, sizeof(out), err, sizeof(err)),
	    COMPARE_NO_REGRESSION, "%s", err);
}

/* Merged files: the machine of NEW's name in BASE is judged by identity. */
Test(identity, a_merged_machine_of_the_same_name_is_judged_by_identity)
{
	char out[1 << 14], err[1024];

	cr_assert_eq(compare(merged_file("{}"), merged_file("{}"), false, out,
	    sizeof(out), err, sizeof(err)), COMPARE_NO_REGRESSION, "%s", err);
	cr_assert_eq(compare(merged_file("{}"), merged_file("{\"cpu\": "
	    "{\"stepping\": 2}}"), false, out, sizeof(out), err, sizeof(err)),
	    COMPARE_BAD_INPUT);
	cr_assert_str_eq(err, "the files come from different machines (vm: "
	    "stepping '1' against '2'); pass --allow-other-machine to compare "
	    "anyway");
}

/*
 * ab's arms are two builds run interleaved here: one machine whatever
 * their build types, which are what it compares, and it says when they
 * were built apart. The B arm is the same binary behind a script whose
 * --version says a MinSizeRel build, which none of the suite's builds is.
 */
Test(identity, ab_compares_two_builds_of_one_machine, .timeout = 120)
{
	static char out[1 << 16];
	char cmd[2048];
	const char *fake = tmp("fake.sh");
	FILE *f = fopen(fake, "w");

	cr_assert_not_null(f);
	fprintf(f, "#!/bin/sh\n[ \"$1\" = --version ] && echo 'dispatchbench "
	    "0.1.0 (revision 0000000, build MinSizeRel, sanitizer none)' && "
	    "exit 0\n"
	    "exec '%s' \"$@\"\n", DB_BINARY);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "chmod +x %s && %s ab --a %s --b %s "
	    "--dispatcher shared --workers 1 --reps 4 --warmup 0 --time 0.01 "
	    "--quiet --out %s 2>&1", fake, DB_BINARY, DB_BINARY, fake,
	    tmp("ab.json"));
	cr_assert_neq(shell_output(cmd, out, sizeof(out)), 2, "%s", out);
	cr_assert_null(strstr(out, "different machines"), "%s", out);
	/* Not one way of building: every change is said to be partly that. */
	cr_assert_not_null(strstr(out, "the arms were built apart (build type "
	    "'"), "%s", out);
	cr_assert_not_null(strstr(out, "' against 'MinSizeRel'"), "%s", out);
	/* B's results do say so: their contexts are not one machine's. */
	snprintf(cmd, sizeof(cmd), "grep -c '\"build_type\":[[:space:]]*"
	    "\"MinSizeRel\"' %s", tmp("ab-b.json"));
	cr_assert_eq(shell_output(cmd, out, sizeof(out)), 0, "%s", out);
}

#if defined(__x86_64__) || defined(__i386__)
/* A number of /proc/cpuinfo's first processor, by its field's name. */
static double
cpuinfo_number(const char *name)
{
	char line[8192], fmt[64];
	FILE *f = fopen("/proc/cpuinfo", "r");
	double v = -1;

	cr_assert_not_null(f);
	snprintf(fmt, sizeof(fmt), "%s : %%lf", name);
	while (v < 0 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, fmt, &v) != 1)
			v = -1;
	}
	fclose(f);
	return v;
}

/* The size of a cache level in a context, 0 if it has none. */
static double
cache_kb(const cJSON *ctx, const char *level)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cJSON_GetObjectItem(cJSON_GetObjectItem(ctx,
	    "machine"), "caches"))
		if (strcmp(field_text(c, "name"), level) == 0)
			return field_number(c, "size_kb");
	return 0;
}

/*
 * This machine's context: its CPU's family, model and stepping as
 * cpuinfo has them, a digest of its flags, its instruction cache beside
 * its data cache (hwloc leaves it out unless asked), and one machine
 * read twice.
 */
Test(identity, this_machine_records_its_cpu_and_is_one_machine)
{
	cJSON *a = context_read(0, NULL), *b = context_read(0, NULL);
	const cJSON *cpu = cJSON_GetObjectItem(a, "cpu");
	char diff[1024];

	cr_assert(cJSON_IsObject(cpu), "no cpu object");
	cr_assert_eq(field_number(cpu, "family"), cpuinfo_number("cpu family"));
	cr_assert_eq(field_number(cpu, "model"), cpuinfo_number("model"));
	cr_assert_eq(field_number(cpu, "stepping"), cpuinfo_number("stepping"));
	cr_assert_eq(strlen(field_text(cpu, "flags_sha256")), 64);
	cr_assert_neq(strlen(field_text(cpu, "hypervisor")), 0);
	cr_assert(cache_kb(a, "L1d") == 0 || cache_kb(a, "L1i") > 0,
	    "an L1d and no L1i");
	cr_assert_eq(identity_diff(a, b, diff, sizeof(diff)), 0, "%s", diff);
	cJSON_Delete(a);
	cJSON_Delete(b);
}
#endif
