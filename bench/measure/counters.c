/*
 * counters.c - perf_event_open over a measured window (see counters.h).
 *
 * A run opens its counters once, before it starts a thread, and enables
 * them once: an event inherited by the threads is enabled and disabled
 * with them by one ioctl on it, and read() sums them and those that exited
 * (perf_event_for_each_child, perf_event_read_value in the kernel). RESET
 * would not clear what exited threads left, so a window is never reset:
 * each run has one.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "runfields.h"

static const struct counters_known {
	const char *name;
	uint32_t type;
	uint64_t config;
} counters_known[] = {
#define COUNTERS_KNOWN(n, t, c)	{ #n, t, c },
	COUNTERS_SOFTWARE(COUNTERS_KNOWN)
	COUNTERS_HARDWARE(COUNTERS_KNOWN)
#undef COUNTERS_KNOWN
};

#define COUNTERS_NKNOWN	(sizeof(counters_known) / sizeof(counters_known[0]))

static bool
counters_has(const struct counters *k, const char *name)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->ev[i].name, name) == 0)
			return true;
	return false;
}

static void
counters_add(struct counters *k, const char *name,
    const struct perf_event_attr *attr)
{
	struct counter *c = &k->ev[k->n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->attr = *attr;
	c->attr.size = sizeof(c->attr);
	c->attr.disabled = 1;
	c->attr.inherit = 1;
	c->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	c->fd = -1;
	return;
}

/* A libpfm4 name as a field: lower case, anything else an underscore. */
static void
counters_field(char *out, size_t len, const char *name)
{
	size_t i;

	for (i = 0; name[i] != '\0' && i + 1 < len; i++)
		out[i] = isalnum((unsigned char)name[i]) ?
		    (char)tolower((unsigned char)name[i]) : '_';
	out[i] = '\0';
	return;
}

static int
counters_named(struct counters *k, const char *name, char *err,
    size_t errlen)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr attr;
	char field[64];
	int ret;

	if ((ret = pfm_initialize()) != PFM_SUCCESS) {
		snprintf(err, errlen, "--counters: libpfm4 could not start: %s",
		    pfm_strerror(ret));
		return -1;
	}
	memset(&arg, 0, sizeof(arg));
	memset(&attr, 0, sizeof(attr));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
	    PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "--counters: no event '%s' here (libpfm4: "
		    "%s)", name, pfm_strerror(ret));
		return -1;
	}
	counters_field(field, sizeof(field), name);
	if (!counters_has(k, field))
		counters_add(k, field, &attr);
	return 0;
}

int
counters_init(struct counters *k, const char *list, char *err,
    size_t errlen)
{
	struct perf_event_attr attr;
	char name[128];
	const char *s;
	size_t i, len;

	memset(k, 0, sizeof(*k));
	if (strcmp(list, "none") == 0)
		return 0;
	for (i = 0; i < COUNTERS_NKNOWN; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.type = counters_known[i].type;
		attr.config = counters_known[i].config;
		counters_add(k, counters_known[i].name, &attr);
	}
	for (s = list; strcmp(list, "default") != 0 && *s != '\0'; s += len) {
		s += *s == ',';
		len = strcspn(s, ",");
		if (len == 0 || len >= sizeof(name)) {
			snprintf(err, errlen, "--counters: '%s' is not a comma "
			    "list of event names", list);
			return -1;
		}
		if (k->n == COUNTERS_MAX) {
			snprintf(err, errlen, "--counters: more than %d events",
			    COUNTERS_MAX);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, s);
		if (counters_named(k, name, err, errlen) != 0)
			return -1;
	}
	return 0;
}

void
counters_instructions(struct counters *k)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_HARDWARE,
	    .config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_kernel = 1,
	    .exclude_hv = 1 };

	memset(k, 0, sizeof(*k));
	counters_add(k, "instructions", &attr);
	return;
}

/* The process and every thread it starts from now on, on any CPU. */
static int
counters_syscall(struct perf_event_attr *attr)
{

	return (int)syscall(SYS_perf_event_open, attr, 0, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
}

static int
counters_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = -9;

	if (f != NULL) {
		if (fscanf(f, "%d", &level) != 1)
			level = -9;
		fclose(f);
	}
	return level;
}

/* Why an event would not open, in the terms a user can act on. */
static void
counters_why(char *out, size_t len, const char *what, const char *name,
    int error)
{
	const char *hint = "";

	if (error == ENOENT || error == EOPNOTSUPP || error == ENODEV)
		hint = " (the CPU shows this system no PMU: a VM without a "
		    "virtual one)";
	else if (error == EACCES || error == EPERM)
		hint = " (kernel.perf_event_paranoid too high for this user)";
	snprintf(out, len, "%s: perf_event_open(%s): %s%s", what, name,
	    strerror(error), hint);
	if (error == EACCES || error == EPERM)
		snprintf(out + strlen(out), len - strlen(out), " [%d]",
		    counters_paranoid());
	return;
}

unsigned int
counters_open(struct counters *k)
{
	unsigned int i, kept = 0;
	struct counter *c;

	k->absent[0] = '\0';
	for (i = 0; i < k->n; i++) {
		c = &k->ev[i];
		if ((c->fd = counters_syscall(&c->attr)) >= 0) {
			k->ev[kept++] = *c;
			continue;
		}
		if (c->attr.type == PERF_TYPE_SOFTWARE) {
			counters_why(k->absent, sizeof(k->absent), "no counters",
			    c->name, errno);
			k->n = kept;
			counters_close(k);
			return 0;
		}
		if (k->absent[0] == '\0') {
			counters_why(k->absent, sizeof(k->absent),
			    "no hardware counters", c->name, errno);
			strncat(k->absent, "; the software ones are counted",
			    sizeof(k->absent) - strlen(k->absent) - 1);
		}
	}
	k->n = kept;
	return kept;
}

void
counters_start(struct counters *k)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		ioctl(k->ev[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	return;
}

void
counters_stop(struct counters *k)
{
	uint64_t r[3];
	unsigned int i;

	for (i = 0; i < k->n; i++)
		ioctl(k->ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < k->n; i++) {
		if (read(k->ev[i].fd, r, sizeof(r)) != sizeof(r))
			memset(r, 0, sizeof(r));
		k->ev[i].value = r[0];
		k->ev[i].enabled = r[1];
		k->ev[i].running = r[2];
	}
	return;
}

void
counters_close(struct counters *k)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		if (k->ev[i].fd >= 0)
			close(k->ev[i].fd);
	k->n = 0;
	return;
}

void
counters_json(const struct counters *k, cJSON *run, double dispatches)
{
	cJSON *raw, *o;
	const struct counter *c;
	bool multiplexed = false;
	char field[96];
	unsigned int i;
	double v;

	if (k->n == 0)
		return;
	raw = cJSON_AddObjectToObject(run, RF(perf));
	for (i = 0; i < k->n; i++) {
		c = &k->ev[i];
		snprintf(field, sizeof(field), "perf_%s_per_dispatch", c->name);
		o = cJSON_AddObjectToObject(raw, c->name);
		cJSON_AddNumberToObject(o, "count", (double)c->value);
		cJSON_AddNumberToObject(o, "enabled_s", c->enabled * 1e-9);
		cJSON_AddNumberToObject(o, "running_s", c->running * 1e-9);
		if (c->running == 0 || dispatches <= 0) {
			cJSON_AddNullToObject(run, field);
			continue;
		}
		multiplexed |= c->running < c->enabled;
		v = (double)c->value * ((double)c->enabled / c->running);
		cJSON_AddNumberToObject(run, field, v / dispatches);
	}
	cJSON_AddBoolToObject(run, RF(perf_multiplexed), multiplexed);
	return;
}

cJSON *
counters_context(const char *list)
{
	cJSON *ctx = cJSON_CreateObject(), *names;
	struct counters k;
	char err[256];
	unsigned int i;

	if (counters_init(&k, list, err, sizeof(err)) != 0)
		return ctx;
	counters_open(&k);
	names = cJSON_AddArrayToObject(ctx, "events");
	for (i = 0; i < k.n; i++)
		cJSON_AddItemToArray(names, cJSON_CreateString(k.ev[i].name));
	if (k.absent[0] != '\0')
		cJSON_AddStringToObject(ctx, "absent", k.absent);
	counters_close(&k);
	return ctx;
}
