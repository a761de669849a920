/*
 * context.c - what could skew a number: the machine, its CPU and cpuset,
 * the kernel, the build and its binary (see context.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <hwloc.h>

#include "context.h"
#include "gitrev.h"
#include "pin.h"
#include "plugin.h"

#ifndef DB_BUILD_FLAGS
#define DB_BUILD_FLAGS "unknown"
#endif
#ifndef DB_BUILD_TYPE
#define DB_BUILD_TYPE "unknown"
#endif

static void
context_cpu_model(char *buf, size_t len)
{
	char line[256], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "model name", 10) != 0)
			continue;
		if ((colon = strchr(line, ':')) != NULL) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = '\0';
		}
		break;
	}
	if (f != NULL)
		fclose(f);
	return;
}

void
context_sha256(const char *path, char *buf, size_t len)
{
	char cmd[4200];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
	p = popen(cmd, "r");

	snprintf(buf, len, "unknown");
	if (p == NULL)
		return;
	if (fscanf(p, "%64s", buf) != 1)
		snprintf(buf, len, "unknown");
	pclose(p);
	return;
}

/*
 * What the kernel says of the CPU's clock, where it says anything: the
 * frequency governor of CPU 0 (a VM often has none) and its MHz.
 */
static void
context_cpufreq(cJSON *ctx)
{
	char line[256];
	FILE *f;

	if ((f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	    "r")) != NULL) {
		if (fgets(line, sizeof(line), f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			cJSON_AddStringToObject(ctx, "cpu_governor", line);
		}
		fclose(f);
	}
	if ((f = fopen("/proc/cpuinfo", "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "cpu MHz", 7) == 0 && strchr(line, ':') != NULL) {
			cJSON_AddNumberToObject(ctx, "cpu_mhz",
			    strtod(strchr(line, ':') + 1, NULL));
			break;
		}
	}
	fclose(f);
	return;
}

static void
context_topology(cJSON *ctx)
{
	hwloc_topology_t topo;
	char summary[256], *allowed = NULL;

	if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
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
	context_cpu_model(buf, sizeof(buf));
	cJSON_AddStringToObject(ctx, "cpu_model", buf);
	cJSON_AddNumberToObject(ctx, "online_cpus", sysconf(_SC_NPROCESSORS_ONLN));
	context_topology(ctx);
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
