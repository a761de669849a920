/*
 * context.c - what could skew a number: the machine, its CPU and cpuset,
 * the kernel, the build and its binary (see context.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <hwloc.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "context.h"
#include "designs.h"
#include "gitrev.h"
#include "pin.h"
#include "plugin.h"

#ifndef DB_BUILD_FLAGS
#define DB_BUILD_FLAGS "unknown"
#endif
#ifndef DB_BUILD_TYPE
#define DB_BUILD_TYPE "unknown"
#endif

/* The first word cmd prints, a sha256sum's digest; "unknown" if none. */
static void
context_digest(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");

	snprintf(buf, len, "unknown");
	if (p == NULL)
		return;
	if (fscanf(p, "%64s", buf) != 1)
		snprintf(buf, len, "unknown");
	pclose(p);
	return;
}

void
context_sha256(const char *path, char *buf, size_t len)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
	context_digest(cmd, buf, len);
	return;
}

/*
 * Field name of the first processor in /proc/cpuinfo, as the kernel
 * writes it; false where it has none (another architecture names its CPU
 * otherwise). The line buffer holds a recent CPU's whole flags list.
 */
static bool
context_cpuinfo(const char *name, char *buf, size_t len)
{
	char line[8192], *colon;
	size_t n = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (!found && f != NULL && fgets(line, sizeof(line), f) != NULL &&
	    line[0] != '\n') {
		if (strncmp(line, name, n) != 0 ||
		    (colon = strchr(line, ':')) == NULL ||
		    line + n + strspn(line + n, " \t") != colon)
			continue;
		snprintf(buf, len, "%s", colon + 1 + strspn(colon + 1, " \t"));
		buf[strcspn(buf, "\n")] = '\0';
		found = true;
	}
	if (f != NULL)
		fclose(f);
	return found;
}

/* The first line of a file of the kernel's, without its newline. */
static bool
context_sysfs(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool read = f != NULL && fgets(buf, (int)len, f) != NULL;

	if (f != NULL)
		fclose(f);
	if (read)
		buf[strcspn(buf, "\n")] = '\0';
	return read;
}

/* Whether the CPU flags (space-separated, as cpuinfo has them) hold flag. */
static bool
context_has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *at;

	for (at = flags; (at = strstr(at, flag)) != NULL; at += n)
		if ((at == flags || at[-1] == ' ') && (at[n] == ' ' ||
		    at[n] == '\0'))
			return true;
	return false;
}

/*
 * Which CPU this is, as cpuinfo says: the vendor, family, model and
 * stepping (numbers), and the microcode revision, where the kernel has
 * them (a VM often shows no microcode).
 */
static const struct context_cpu_id {
	const char *name;		/* in /proc/cpuinfo */
	const char *member;		/* in the context's cpu object */
	bool number;
} context_cpu_ids[] = {
	{ .name = "vendor_id", .member = "vendor" },
	{ .name = "cpu family", .member = "family", .number = true },
	{ .name = "model", .member = "model", .number = true },
	{ .name = "stepping", .member = "stepping", .number = true },
	{ .name = "microcode", .member = "microcode" },
};

static void
context_cpu_ids_read(cJSON *cpu)
{
	const struct context_cpu_id *id;
	char v[256], *end;
	double x;
	size_t i;

	for (i = 0; i < sizeof(context_cpu_ids) / sizeof(context_cpu_ids[0]);
	    i++) {
		id = &context_cpu_ids[i];
		if (!context_cpuinfo(id->name, v, sizeof(v)))
			continue;
		if (!id->number) {
			cJSON_AddStringToObject(cpu, id->member, v);
			continue;
		}
		x = strtod(v, &end);
		if (end != v && *end == '\0')
			cJSON_AddNumberToObject(cpu, id->member, x);
	}
	return;
}

/*
 * The flags that choose which code runs, those the CPU has, in this
 * (sorted) order. glibc picks its memcpy, memmove, memset and string
 * loops by them: avx and avx2 for 32-byte loops, avx512f and avx512vl for
 * its EVEX ones, erms and fsrm for `rep movsb`, rtm for the variants that
 * keep a transaction alive. constant_tsc lets the kernel keep the TSC as
 * its clock, so each clock read (every window, every latency sample) stays
 * in the vDSO rather than a system call.
 */
static const char *const context_features[] = { "avx", "avx2", "avx512f",
    "avx512vl", "constant_tsc", "erms", "fsrm", "rtm" };

static void
context_cpu_features(cJSON *cpu, const char *flags)
{
	char list[128] = "";
	size_t i, at = 0;

	for (i = 0; i < sizeof(context_features) / sizeof(context_features[0]);
	    i++)
		if (context_has_flag(flags, context_features[i]))
			at += (size_t)snprintf(list + at, sizeof(list) - at,
			    "%s%s", at > 0 ? " " : "", context_features[i]);
	cJSON_AddStringToObject(cpu, "features", list);
	return;
}

/*
 * The hypervisor under the CPU: CPUID leaf 0x40000000's vendor string
 * ("KVMKVMKVM", "Microsoft Hv", "VMwareVMware") where the kernel says
 * there is one (the hypervisor flag), "none" where it says there is not.
 * Unrecorded off x86, which has no such leaf.
 */
static void
context_cpu_hypervisor(cJSON *cpu, const char *flags)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int r[4];
	char id[13];
	int i;

	if (!context_has_flag(flags, "hypervisor")) {
		cJSON_AddStringToObject(cpu, "hypervisor", "none");
		return;
	}
	__cpuid(0x40000000, r[0], r[1], r[2], r[3]);
	memcpy(id, &r[1], 4);
	memcpy(id + 4, &r[2], 4);
	memcpy(id + 8, &r[3], 4);
	id[12] = '\0';
	for (i = 0; i < 12; i++)
		if (id[i] != '\0' && (id[i] < ' ' || id[i] > '~'))
			id[i] = '?';
	for (i = (int)strlen(id); i > 0 && id[i - 1] == ' '; i--)
		id[i - 1] = '\0';
	cJSON_AddStringToObject(cpu, "hypervisor", id[0] != '\0' ? id :
	    "unknown");
#else
	(void)cpu;
	(void)flags;
#endif
	return;
}

/*
 * Simultaneous multithreading: the kernel's control ("on", "off",
 * "forceoff", "notsupported"), or where it has none hwloc's hardware
 * threads per core ("2 per core"), from the machine object.
 */
static void
context_cpu_smt(cJSON *cpu, const cJSON *machine)
{
	const cJSON *pus = cJSON_GetObjectItem(machine, "pus");
	const cJSON *cores = cJSON_GetObjectItem(machine, "cores");
	char v[64];

	if (context_sysfs("/sys/devices/system/cpu/smt/control", v, sizeof(v)))
		cJSON_AddStringToObject(cpu, "smt", v);
	else if (cJSON_IsNumber(pus) && cJSON_IsNumber(cores) &&
	    cores->valuedouble > 0) {
		snprintf(v, sizeof(v), "%g per core", pus->valuedouble /
		    cores->valuedouble);
		cJSON_AddStringToObject(cpu, "smt", v);
	}
	return;
}

/*
 * Whether the CPU may clock above its base: cpufreq's boost, or
 * intel_pstate's no_turbo turned round; unrecorded where the kernel has
 * neither (a VM, mostly).
 */
static void
context_cpu_boost(cJSON *cpu)
{
	char v[16];

	if (context_sysfs("/sys/devices/system/cpu/cpufreq/boost", v,
	    sizeof(v)))
		cJSON_AddBoolToObject(cpu, "boost", strcmp(v, "0") != 0);
	else if (context_sysfs("/sys/devices/system/cpu/intel_pstate/no_turbo",
	    v, sizeof(v)))
		cJSON_AddBoolToObject(cpu, "boost", strcmp(v, "0") == 0);
	return;
}

/* Transparent huge pages: the word in brackets ("always [madvise] never"). */
static void
context_cpu_thp(cJSON *cpu)
{
	char v[128], *open, *close;

	if (context_sysfs("/sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)) && (open = strchr(v, '[')) != NULL &&
	    (close = strchr(open, ']')) != NULL)
	{
		*close = '\0';
		cJSON_AddStringToObject(cpu, "thp", open + 1);
	}
	return;
}

/*
 * The sha256 of every flag the CPU has, one a line in byte order: two
 * CPUs that differ in any flag differ here, features names the few that
 * matter most.
 */
#define CONTEXT_FLAGS_SHA256	"grep -m1 '^flags' /proc/cpuinfo | " \
	"cut -d: -f2 | tr ' ' '\\n' | grep . | LC_ALL=C sort | sha256sum"

/*
 * "cpu": what tells this CPU from another of the same model string
 * (results/README.md), read after the machine object, whose cores and
 * PUs stand in for the kernel's SMT control where it has none.
 */
static void
context_cpu(cJSON *ctx)
{
	cJSON *cpu = cJSON_AddObjectToObject(ctx, "cpu");
	char flags[8192], sum[80];

	context_cpu_ids_read(cpu);
	if (context_cpuinfo("flags", flags, sizeof(flags))) {
		context_cpu_features(cpu, flags);
		context_digest(CONTEXT_FLAGS_SHA256, sum, sizeof(sum));
		cJSON_AddStringToObject(cpu, "flags_sha256", sum);
		context_cpu_hypervisor(cpu, flags);
	}
	context_cpu_smt(cpu, cJSON_GetObjectItem(ctx, "machine"));
	context_cpu_boost(cpu);
	context_cpu_thp(cpu);
	return;
}

/*
 * What the kernel says of the CPU's clock, where it says anything: the
 * frequency governor of CPU 0 (a VM often has none) and its MHz.
 */
static void
context_cpufreq(cJSON *ctx)
{
	char v[256];

	if (context_sysfs("/sys/devices/system/cpu/cpu0/cpufreq/"
	    "scaling_governor", v, sizeof(v)))
		cJSON_AddStringToObject(ctx, "cpu_governor", v);
	if (context_cpuinfo("cpu MHz", v, sizeof(v)))
		cJSON_AddNumberToObject(ctx, "cpu_mhz", strtod(v, NULL));
	return;
}

static void
context_topology(cJSON *ctx)
{
	hwloc_topology_t topo;
	char summary[256], *allowed = NULL;

	/* Instruction caches too, which hwloc leaves out unless asked. */
	if (hwloc_topology_init(&topo) != 0 ||
	    hwloc_topology_set_icache_types_filter(topo,
	    HWLOC_TYPE_FILTER_KEEP_ALL) != 0 || hwloc_topology_load(topo) != 0)
		return;
	pin_topology_summary(topo, summary, sizeof(summary));
	hwloc_bitmap_list_asprintf(&allowed,
	    hwloc_topology_get_allowed_cpuset(topo));
	cJSON_AddStringToObject(ctx, "topology", summary);
	cJSON_AddStringToObject(ctx, "cpuset", allowed ? allowed : "?");
	cJSON_AddItemToObject(ctx, "machine", pin_topology_json(topo));
	free(allowed);
	hwloc_topology_destroy(topo);
	return;
}

static void
context_runtime(cJSON *o, const char *kind, const char *name,
    const char *real, const char *beside)
{
	cJSON *r;

	if (real == NULL)
		return;
	r = cJSON_AddObjectToObject(o, name);
	cJSON_AddStringToObject(r, "kind", kind);
	cJSON_AddStringToObject(r, "real", real);
	cJSON_AddStringToObject(r, "beside", beside != NULL ? beside : "");
	return;
}

/*
 * "runtimes": {name: {kind, real, beside}}, every real runtime or library
 * queue a cell may name, built in or a plugin: what tables and figures
 * mark as real and draw beside its models.
 */
static void
context_runtimes(cJSON *ctx)
{
	cJSON *o = cJSON_AddObjectToObject(ctx, "runtimes");
	const struct db_disp_ops *d;
	const struct db_queue_ops *q;
	const void *ops;
	bool queue;
	size_t i;

	for (i = 0; (d = disp_at(i)) != NULL; i++)
		context_runtime(o, "dispatcher", d->name, d->real, d->beside);
	for (i = 0; (q = queue_at(i)) != NULL; i++)
		context_runtime(o, "queue", q->name, q->real, q->beside);
	for (i = 0; (ops = plugin_at(i, &queue)) != NULL; i++) {
		if (queue) {
			q = ops;
			context_runtime(o, "queue", q->name, q->real, q->beside);
		} else {
			d = ops;
			context_runtime(o, "dispatcher", d->name, d->real,
			    d->beside);
		}
	}
	return;
}

/*
 * The environment a real runtime reads at startup and changes its numbers
 * by (libgomp's wait policy and binding, GLib's allocator), where set.
 */
static void
context_environment(cJSON *ctx)
{
	static const char *const names[] = { "OMP_WAIT_POLICY",
	    "GOMP_SPINCOUNT", "OMP_PROC_BIND", "OMP_PLACES",
	    "GOMP_CPU_AFFINITY", "OMP_DYNAMIC", "OMP_THREAD_LIMIT", "G_SLICE" };
	cJSON *env = cJSON_AddObjectToObject(ctx, "environment");
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((v = getenv(names[i])) != NULL)
			cJSON_AddStringToObject(env, names[i], v);
	return;
}

/*
 * Under Slurm: the job, the array task and the node the run had, and
 * whether Slurm started it again (a requeued run is a second run).
 */
static void
context_slurm(cJSON *ctx)
{
	static const char *const names[][2] = {
		{ "SLURM_JOB_ID", "job_id" },
		{ "SLURM_ARRAY_JOB_ID", "array_job_id" },
		{ "SLURM_ARRAY_TASK_ID", "array_task_id" },
		{ "SLURM_ARRAY_TASK_COUNT", "array_task_count" },
		{ "SLURMD_NODENAME", "node" },
		{ "SLURM_JOB_PARTITION", "partition" },
		{ "SLURM_CPUS_ON_NODE", "cpus_on_node" },
		{ "SLURM_RESTART_COUNT", "restart_count" },
	};
	cJSON *o;
	const char *v;
	size_t i;

	if (getenv("SLURM_JOB_ID") == NULL)
		return;
	o = cJSON_AddObjectToObject(ctx, "slurm");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((v = getenv(names[i][0])) != NULL)
			cJSON_AddStringToObject(o, names[i][1], v);
	return;
}

/*
 * The build's commit: its name, and where the build knew them its commit
 * time in UTC and first-parent depth, which order the revisions of a
 * history store that git does not know.
 */
static void
context_git(cJSON *ctx)
{

	cJSON_AddStringToObject(ctx, "git_rev", DB_GIT_REV);
	if (*DB_GIT_TIME != '\0')
		cJSON_AddStringToObject(ctx, "git_time", DB_GIT_TIME);
	if (DB_GIT_DEPTH >= 0)
		cJSON_AddNumberToObject(ctx, "git_depth", DB_GIT_DEPTH);
	return;
}

cJSON *
context_read(int argc, char **argv)
{
	cJSON *ctx = cJSON_CreateObject(), *cmd = cJSON_CreateArray(), *plugins;
	char buf[512], host[256] = "?";
	struct utsname u;
	time_t now = time(NULL);
	int i;

	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	cJSON_AddStringToObject(ctx, "date", buf);
	gethostname(host, sizeof(host) - 1);
	cJSON_AddStringToObject(ctx, "host", host);
	if (!context_cpuinfo("model name", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "unknown");
	cJSON_AddStringToObject(ctx, "cpu_model", buf);
	cJSON_AddNumberToObject(ctx, "online_cpus", sysconf(_SC_NPROCESSORS_ONLN));
	context_topology(ctx);
	context_cpu(ctx);
	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s", u.sysname, u.release,
		    u.machine);
		cJSON_AddStringToObject(ctx, "kernel", buf);
	}
	context_cpufreq(ctx);
	cJSON_AddStringToObject(ctx, "compiler", "gcc " __VERSION__);
	cJSON_AddStringToObject(ctx, "build_type", DB_BUILD_TYPE);
	cJSON_AddStringToObject(ctx, "build_flags", DB_BUILD_FLAGS);
	context_git(ctx);
	context_sha256("/proc/self/exe", buf, sizeof(buf));
	cJSON_AddStringToObject(ctx, "binary_sha256", buf);
	context_runtimes(ctx);
	context_environment(ctx);
	context_slurm(ctx);
	plugins = plugin_json();
	if (cJSON_GetArraySize(plugins) > 0)
		cJSON_AddItemToObject(ctx, "plugins", plugins);
	else
		cJSON_Delete(plugins);
	for (i = 0; i < argc; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv[i]));
	cJSON_AddItemToObject(ctx, "command", cmd);
	return ctx;
}

void
context_of_binary(cJSON *ctx, const char *path)
{
	char cmd[4200], line[512], rev[64] = "unknown", type[64] = "unknown";
	const char *at;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' --version 2>/dev/null", path);
	if ((p = popen(cmd, "r")) != NULL) {
		if (fgets(line, sizeof(line), p) != NULL) {
			if ((at = strstr(line, "(revision ")) != NULL)
				sscanf(at, "(revision %63[^,)]", rev);
			if ((at = strstr(line, ", build ")) != NULL)
				sscanf(at, ", build %63[^,)]", type);
		}
		pclose(p);
	}
	cJSON_ReplaceItemInObject(ctx, "git_rev", cJSON_CreateString(rev));
	/* That build's commit is not this one's. */
	cJSON_DeleteItemFromObject(ctx, "git_time");
	cJSON_DeleteItemFromObject(ctx, "git_depth");
	cJSON_ReplaceItemInObject(ctx, "build_type", cJSON_CreateString(
	    strcmp(type, "default") == 0 ? "" : type));
	cJSON_ReplaceItemInObject(ctx, "build_flags",
	    cJSON_CreateString("unknown"));
	return;
}
