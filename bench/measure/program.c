/*
 * program.c - a run of a design that is a program of its own (program.h),
 * through the external-program protocol (docs/external.md).
 *
 * The program is started with the cell's width and coroutines, bound to
 * the PUs the cell's plan gives that many threads, and asked on its stdin
 * for its counts at both ends of the window. Everything else is read from
 * outside, as a run in this process reads itself: the process's CPU
 * clock, its threads' schedstat and context switches, its threads and
 * memory, each thread's binding. Every answer has the run's stall time to
 * come: a program that misses it is killed with its process group, and
 * the run is hung.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hwloc/glibc-sched.h>

#include "cell.h"
#include "designs.h"
#include "floor.h"
#include "measure.h"
#include "pin.h"
#include "program.h"
#include "runfields.h"
#include "watchdog.h"

/* A JVM starts in about a second here; a cold one on a busy machine, more. */
#define PROGRAM_START_S		30.0
/* From its `stopped` answer and the end of its stdin to its exit. */
#define PROGRAM_EXIT_S		5.0
#define PROGRAM_WORDS		32	/* a command's words, ours included */
#define PROGRAM_STDERR_TAIL	512
/* How often the window looks at the program's threads and memory. */
#define PROGRAM_SAMPLE_NS	20000000L

struct prog {
	pid_t pid;
	int in, out;			/* its stdin, its stdout */
	FILE *err;			/* its stderr */
	char *line;			/* the answer being read */
	size_t len, cap, used;		/* line: its length, size, and the
					   bytes read past it */
	unsigned int n;			/* coroutines */
	double stall_s;
	char why[256];			/* why it failed, once it has */
	bool hung;
};

/*
 * The run fails, or, if it has failed already, keeps its first reason and
 * adds this one to the others.
 */
static void
prog_failed(cJSON *run, const char *why)
{
	cJSON *more;

	if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(run, RF(status))),
	    "ok") == 0) {
		cell_fail(run, why);
		return;
	}
	if ((more = cJSON_GetObjectItem(run, RF(errors_after))) == NULL)
		more = cJSON_AddArrayToObject(run, RF(errors_after));
	cJSON_AddItemToArray(more, cJSON_CreateString(why));
	return;
}

/* Its counters at one end of the window. */
struct prog_end {
	struct measure_sample m;
	uint64_t dispatched;
	uint64_t *resumed;
	uint64_t sum;			/* of resumed */
};

static bool
prog_fail(struct prog *p, bool hung, const char *fmt, const char *word,
    double seconds)
{

	snprintf(p->why, sizeof(p->why), fmt, word, seconds);
	p->hung = hung;
	return false;
}

/*
 * The next line of its stdout into p->line, within seconds of start;
 * false, with why, if it ended or said nothing in time.
 */
static bool
prog_read(struct prog *p, double start, double seconds, const char *asked)
{
	struct pollfd pfd = { .fd = p->out, .events = POLLIN };
	char *nl;
	ssize_t got;
	int ms, ready;

	/* What the last line left behind moves to the front. */
	memmove(p->line, p->line + p->len, p->used - p->len);
	p->used -= p->len;
	p->len = 0;
	while ((nl = memchr(p->line, '\n', p->used)) == NULL) {
		if (p->used + 1 >= p->cap &&
		    (p->line = realloc(p->line, p->cap *= 2)) == NULL)
			abort();
		ms = (int)ceil((start + seconds - measure_now()) * 1000);
		if ((ready = ms > 0 ? poll(&pfd, 1, ms) : 0) < 0 &&
		    errno == EINTR)
			continue;
		if (ready <= 0)
			return prog_fail(p, ready == 0, ready == 0 ? "the program "
			    "did not answer `%s` within %.1f s" : "`%s`: poll "
			    "failed", asked, seconds);
		errno = 0;
		got = read(p->out, p->line + p->used, p->cap - p->used - 1);
		if (got <= 0 && errno != EINTR)
			return prog_fail(p, false, "the program ended before it "
			    "answered `%s`", asked, 0);
		p->used += got > 0 ? (size_t)got : 0;
		p->line[p->used] = '\0';	/* what is past a line reads whole */
	}
	*nl = '\0';
	p->len = (size_t)(nl - p->line) + 1;
	return true;
}

static bool
prog_ask(struct prog *p, const char *request)
{
	char text[16];
	size_t n = (size_t)snprintf(text, sizeof(text), "%s\n", request);

	/* An answer nobody asked for would be taken for the next one. */
	if (p->used > p->len) {
		snprintf(p->why, sizeof(p->why), "the program said more than it "
		    "was asked, before `%s`: \"%.*s\"", request,
		    (int)strcspn(p->line + p->len, "\n") < 60 ?
		    (int)strcspn(p->line + p->len, "\n") : 60, p->line + p->len);
		return false;
	}
	if (write(p->in, text, n) != (ssize_t)n)
		return prog_fail(p, false, "the program ended before it was "
		    "asked `%s`", request, 0);
	return true;
}

/*
 * "WORD D R_0 .. R_{n-1}": its dispatches and every coroutine's
 * resumptions, each a whole number.
 */
static bool
prog_counts(struct prog *p, const char *word, struct prog_end *e)
{
	size_t wl = strlen(word);
	char *s = p->line + wl, *end;
	unsigned int i;

	if (strncmp(p->line, word, wl) != 0 || *s != ' ')
		return false;
	e->sum = 0;
	for (i = 0; i <= p->n; i++) {
		while (*s == ' ')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		errno = 0;
		if (i == 0)
			e->dispatched = strtoull(s, &end, 10);
		else
			e->sum += e->resumed[i - 1] = strtoull(s, &end, 10);
		if (errno != 0 || (*end != ' ' && *end != '\0'))
			return false;
		s = end;
	}
	return *s == '\0';
}

static bool
prog_malformed(struct prog *p, const char *word)
{
	char shape[64];

	snprintf(shape, sizeof(shape), "`%s D R_0 .. R_%u`", word, p->n - 1);
	snprintf(p->why, sizeof(p->why), "the program's answer is not %s: "
	    "\"%.80s\"", shape, p->line);
	return false;
}

/* `count`, answered, then the process read from outside. */
static bool
prog_end_read(struct prog *p, struct prog_end *e)
{

	if (!prog_ask(p, "count") ||
	    !prog_read(p, measure_now(), p->stall_s, "count"))
		return false;
	if (!prog_counts(p, "count", e))
		return prog_malformed(p, "count");
	measure_sample(p->pid, &e->m);
	return true;
}

static void
prog_peak(long *peak, long v)
{

	*peak = v > *peak ? v : *peak;
	return;
}

/* Through the warm-up or the window, keeping its most threads and memory. */
static void
prog_sleep(const struct prog *p, double seconds, long *threads, long *anon)
{
	struct timespec nap = { 0, PROGRAM_SAMPLE_NS };
	double end = measure_now() + seconds;

	*threads = *anon = 0;
	do {
		prog_peak(threads, measure_status(p->pid, "Threads"));
		prog_peak(anon, measure_status(p->pid, "RssAnon"));
		nanosleep(&nap, NULL);
	} while (measure_now() < end);
	return;
}

/* In the child: its binding, its stdin and stdout, then the program. */
static void
prog_exec(const struct cell *c, const cpu_set_t *cpus, int in, int out,
    FILE *err, pid_t parent)
{
	const struct program *pr = program_of(c->disp);
	char *argv[PROGRAM_WORDS + 5], width[16], many[16];
	size_t i;

	setpgid(0, 0);
	/* Whatever ends this process ends the program too, even now. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	if (cpus != NULL && sched_setaffinity(0, sizeof(*cpus), cpus) != 0) {
		fprintf(stderr, "cannot bind the program: %s\n",
		    strerror(errno));
		_exit(126);
	}
	/* The suite ignores SIGPIPE; a program starts as any would. */
	signal(SIGPIPE, SIG_DFL);
	setenv("DISPATCHBENCH_PROTOCOL", "1", 1);
	for (i = 0; pr->argv[i] != NULL && i < PROGRAM_WORDS; i++)
		argv[i] = (char *)pr->argv[i];
	snprintf(width, sizeof(width), "%u", c->cfg.workers);
	snprintf(many, sizeof(many), "%u", c->coroutines);
	argv[i++] = "--workers";
	argv[i++] = width;
	argv[i++] = "--coroutines";
	argv[i++] = many;
	argv[i] = NULL;
	execv(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static bool
prog_start(struct prog *p, const struct cell *c, const cpu_set_t *cpus)
{
	pid_t parent = getpid();
	int to[2], from[2];

	if ((p->err = tmpfile()) == NULL || pipe2(to, O_CLOEXEC) != 0)
		return prog_fail(p, false, "cannot start the program: %s",
		    strerror(errno), 0);
	if (pipe2(from, O_CLOEXEC) != 0) {
		close(to[0]);
		close(to[1]);
		return prog_fail(p, false, "cannot start the program: %s",
		    strerror(errno), 0);
	}
	if ((p->pid = fork()) == 0)
		prog_exec(c, cpus, to[0], from[1], p->err, parent);
	/* Its group is there before anything would kill it. */
	if (p->pid > 0)
		setpgid(p->pid, p->pid);
	close(to[0]);
	close(from[1]);
	p->in = to[1];
	p->out = from[0];
	if (p->pid < 0)
		return prog_fail(p, false, "%s", "fork failed", 0);
	return true;
}

/* Its last words on stderr, for a run that failed. */
static void
prog_stderr(struct prog *p, cJSON *run)
{
	char tail[PROGRAM_STDERR_TAIL + 1];
	long size;
	size_t n;

	if (p->err == NULL || fseek(p->err, 0, SEEK_END) != 0 ||
	    (size = ftell(p->err)) <= 0)
		return;
	fseek(p->err, size > PROGRAM_STDERR_TAIL ? size -
	    PROGRAM_STDERR_TAIL : 0, SEEK_SET);
	n = fread(tail, 1, PROGRAM_STDERR_TAIL, p->err);
	tail[n] = '\0';
	cJSON_AddStringToObject(run, RF(program_stderr), tail);
	return;
}

/*
 * Its threads all inside the PUs it was given (a runtime may place each
 * on fewer); false, with why, if one is not.
 */
static bool
prog_bound(struct prog *p, cJSON *run, const struct pin_plan *plan,
    hwloc_const_bitmap_t given)
{
	cJSON *b = pin_readback(plan, p->pid), *t;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	char *want = NULL;
	bool inside = true;

	cJSON_AddItemToObject(run, RF(bindings), b);
	if (set == NULL)
		abort();
	cJSON_ArrayForEach(t, b) {
		if (hwloc_bitmap_iszero(given) ||
		    (hwloc_bitmap_list_sscanf(set, t->string) == 0 &&
		    hwloc_bitmap_isincluded(set, given)))
			continue;
		hwloc_bitmap_list_asprintf(&want, given);
		snprintf(p->why, sizeof(p->why), "%d thread(s) of the program "
		    "run on PUs %s, outside the %s it was given",
		    (int)t->valuedouble, t->string, want != NULL ? want : "?");
		free(want);
		inside = false;
		break;
	}
	hwloc_bitmap_free(set);
	return inside;
}

/* `stop`: its own counters (totals, into counters), then its final counts. */
static bool
prog_stop(struct prog *p, cJSON *counters, struct prog_end *e)
{
	double start = measure_now();
	unsigned long long v;
	char name[48];
	int at = 0;

	if (!prog_ask(p, "stop"))
		return false;
	while (prog_read(p, start, p->stall_s, "stop") &&
	    strncmp(p->line, "stopped ", 8) != 0) {
		if (sscanf(p->line, "counter %47[a-z0-9_] %llu%n", name, &v,
		    &at) != 2 || p->line[at] != '\0') {
			snprintf(p->why, sizeof(p->why), "the program's answer is "
			    "not `counter NAME VALUE`: \"%.80s\"", p->line);
			return false;
		}
		if (cJSON_GetObjectItemCaseSensitive(counters, name) != NULL) {
			snprintf(p->why, sizeof(p->why), "the program said "
			    "`counter %s` twice", name);
			return false;
		}
		cJSON_AddNumberToObject(counters, name, (double)v);
	}
	if (p->why[0] != '\0')
		return false;
	return prog_counts(p, "stopped", e) || prog_malformed(p, "stopped");
}

/*
 * The count check: every handoff resumed once. A lost resumption leaves
 * its coroutine waiting, so the stop never comes back; one run twice
 * leaves a resumption with no handoff. Its counters, per resumption.
 */
static void
prog_check(cJSON *run, const struct prog_end *e, const cJSON *counters)
{
	double per = e->sum > 0 ? (double)e->sum : 1;
	bool ok = e->dispatched == e->sum;
	char field[96];
	cJSON *f;

	cell_set(run, RF(count_ok), cJSON_CreateBool(ok && strcmp(
	    cJSON_GetStringValue(cJSON_GetObjectItem(run, RF(status))),
	    "ok") == 0));
	cJSON_AddNumberToObject(run, RF(resumptions_total), (double)e->sum);
	cJSON_AddNumberToObject(run, RF(dispatcher_ran), (double)e->dispatched);
	cJSON_AddNumberToObject(run, RF(lost), e->dispatched > e->sum ?
	    (double)(e->dispatched - e->sum) : 0);
	cJSON_AddNumberToObject(run, RF(doubled), e->sum > e->dispatched ?
	    (double)(e->sum - e->dispatched) : 0);
	/* A counter never stands in for a figure measured from outside. */
	cJSON_ArrayForEach(f, counters) {
		snprintf(field, sizeof(field), "%s_per_dispatch", f->string);
		if (cJSON_GetObjectItemCaseSensitive(run, field) == NULL)
			cJSON_AddNumberToObject(run, field, f->valuedouble / per);
	}
	if (!ok)
		prog_failed(run, "count check: the program's handoffs and "
		    "resumptions differ (a dispatch was lost or run twice)");
	return;
}

/* Its first line: `ready RUNTIME VERSION ...`, what it says it is. */
static bool
prog_ready(struct prog *p, cJSON *run)
{

	if (!prog_read(p, measure_now(), PROGRAM_START_S, "start"))
		return false;
	if (strncmp(p->line, "ready ", 6) != 0 || p->line[6] == '\0') {
		snprintf(p->why, sizeof(p->why), "the program's first line is "
		    "not `ready RUNTIME VERSION`: \"%.80s\"", p->line);
		return false;
	}
	cJSON_AddStringToObject(run, RF(program_says), p->line + 6);
	return true;
}

/*
 * The warm-up, then the window between two `count`s: its figures, its
 * coroutines' fairness, its threads, memory and bindings.
 */
static bool
prog_window(struct prog *p, cJSON *run, const struct cell_window *win,
    struct prog_end *a, struct prog_end *b, const struct pin_plan *plan,
    hwloc_const_bitmap_t given)
{
	long threads, anon, warm_threads, warm_anon;
	unsigned int i;

	prog_sleep(p, win->warmup_s, &warm_threads, &warm_anon);
	if (!prog_end_read(p, a))
		return false;
	prog_sleep(p, win->time_s, &threads, &anon);
	if (!prog_end_read(p, b))
		return false;
	for (i = 0; i < p->n; i++)
		if (b->resumed[i] < a->resumed[i]) {
			snprintf(p->why, sizeof(p->why), "the program's count of "
			    "coroutine %u went backwards (%llu, then %llu)", i,
			    (unsigned long long)a->resumed[i],
			    (unsigned long long)b->resumed[i]);
			return false;
		}
	cell_figures(run, &a->m, &b->m, b->sum - a->sum, 0);
	if (b->sum == a->sum)
		cell_stalled(run, win->time_s);
	cell_fairness(run, a->resumed, b->resumed, p->n);
	cJSON_AddNumberToObject(run, RF(threads), measure_status(p->pid,
	    "Threads"));
	cJSON_AddNumberToObject(run, RF(threads_peak), threads);
	cJSON_AddNumberToObject(run, RF(threads_high_water),
	    threads > warm_threads ? threads : warm_threads);
	cJSON_AddNumberToObject(run, RF(rss_kb), measure_status(p->pid,
	    "VmRSS"));
	cJSON_AddNumberToObject(run, RF(rss_anon_kb), measure_status(p->pid,
	    "RssAnon"));
	cJSON_AddNumberToObject(run, RF(rss_anon_peak_kb), anon);
	cJSON_AddNumberToObject(run, RF(peak_rss_kb), measure_status(p->pid,
	    "VmHWM"));
	if (!prog_bound(p, run, plan, given))
		prog_failed(run, p->why);
	p->why[0] = '\0';
	return true;
}

/* How it ended, into buf: "exited with status 3", "was killed by …". */
static void
prog_how(int status, char *buf, size_t len)
{

	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by %s",
		    strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	return;
}

/*
 * Its end: stdin closed, and PROGRAM_EXIT_S to exit 0; a program that
 * failed is killed at once, and how it ended, if it had, is said. Its
 * process group goes with it.
 */
static void
prog_reap(struct prog *p, bool ok)
{
	struct timespec nap = { 0, 10000000L };
	double end = measure_now() + PROGRAM_EXIT_S;
	char how[96];
	int status = 0;
	pid_t done;

	close(p->in);
	close(p->out);
	if (p->pid <= 0)
		return;
	while ((done = waitpid(p->pid, &status, WNOHANG)) == 0 && ok &&
	    measure_now() < end)
		nanosleep(&nap, NULL);
	kill(-p->pid, SIGKILL);
	kill(p->pid, SIGKILL);
	if (done != p->pid) {
		waitpid(p->pid, &status, 0);
		if (ok) {
			snprintf(p->why, sizeof(p->why), "the program did not "
			    "exit within %.0f s of its stdin's end",
			    PROGRAM_EXIT_S);
			return;
		}
		/*
		 * Its pipe closes as it exits, before its status is there: a
		 * program that died on its own as we killed it still says how
		 * (under TSan "exited with status 3" went missing).
		 */
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			return;
	}
	prog_how(status, how, sizeof(how));
	if (!ok)
		snprintf(p->why + strlen(p->why), sizeof(p->why) -
		    strlen(p->why), " (it %s)", how);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		snprintf(p->why, sizeof(p->why), "the program %s", how);
	return;
}

static void
prog_fini(struct prog *p, struct prog_end *a, struct prog_end *b)
{

	if (p->err != NULL)
		fclose(p->err);
	free(p->line);
	free(a->resumed);
	free(b->resumed);
	return;
}

double
program_deadline(const struct cell *c, const struct cell_window *win)
{
	double stall = watchdog_stall_for(&c->profile, c->stall_s);

	return PROGRAM_START_S + win->warmup_s + win->time_s + 3 * stall +
	    PROGRAM_EXIT_S;
}

cJSON *
program_run(const struct cell *c, const struct cell_window *win)
{
	struct prog p = { .pid = -1, .in = -1, .out = -1, .cap = 4096,
	    .n = c->coroutines, .stall_s = watchdog_stall_for(&c->profile,
	    c->stall_s) };
	struct prog_end a = { .resumed = calloc(p.n, sizeof(uint64_t)) };
	struct prog_end b = { .resumed = calloc(p.n, sizeof(uint64_t)) };
	cJSON *run = cJSON_CreateObject(), *counters = cJSON_CreateObject();
	hwloc_bitmap_t given = hwloc_bitmap_alloc();
	struct pin_plan plan;
	cpu_set_t cpus;
	bool ok, bound;

	if (a.resumed == NULL || b.resumed == NULL || given == NULL ||
	    (p.line = malloc(p.cap)) == NULL)
		abort();
	cJSON_AddStringToObject(run, RF(status), "ok");
	cJSON_AddNumberToObject(run, RF(bare_loop_us_per_dispatch),
	    floor_bare_us(CELL_FLOOR_S));
	if (pin_plan_init(&plan, c->pin, p.why, sizeof(p.why)) != 0) {
		hwloc_bitmap_free(given);
		prog_fini(&p, &a, &b);
		cJSON_Delete(counters);
		return cell_fail(run, p.why);
	}
	if ((bound = pin_plan_union(&plan, c->cfg.workers, given)))
		hwloc_cpuset_to_glibc_sched_affinity(plan.topo, given, &cpus,
		    sizeof(cpus));
	/* A program that ends early must not end us with it. */
	signal(SIGPIPE, SIG_IGN);
	ok = prog_start(&p, c, bound ? &cpus : NULL) && prog_ready(&p, run) &&
	    prog_window(&p, run, win, &a, &b, &plan, given) &&
	    prog_stop(&p, counters, &b);
	if (ok)
		prog_check(run, &b, counters);
	prog_reap(&p, ok);
	if (p.why[0] != '\0')
		prog_failed(run, p.why);
	if (p.hung)
		cell_set(run, RF(status), cJSON_CreateString("hung"));
	if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(run, RF(status))),
	    "ok") != 0)
		prog_stderr(&p, run);
	cJSON_Delete(counters);
	hwloc_bitmap_free(given);
	pin_plan_fini(&plan);
	prog_fini(&p, &a, &b);
	return run;
}
