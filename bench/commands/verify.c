/*
 * verify.c - the verify command: what a queue or a design must do before
 * its numbers mean anything, checked on a built-in or a plugin alike.
 *
 * --queue Q: the queue's own checks (verify.h), then the workload's exact
 * count on every design that polls a queue, over Q. --dispatcher D: the
 * exact count on D. Widths, coroutines and windows are the sweep's.
 */
#include <stdio.h>

#include <dispatchbench/queue.h>

#include "commands.h"
#include "verify.h"

/* What the options of this file's commands fill (commands.h). */
struct verify_args {
	unsigned int items, producers, consumers;
};
#define COMMAND_ARGS	struct verify_args

static const struct param verify_opts[] = {
	{ .flag = "--items", .kind = PARAM_COUNT, .lo = 1, .hi = 1u << 30,
	    .dflt = "1200000", ARG(items), .metavar = "N",
	    .help = "queue: tagged items through the stress" },
	{ .flag = "--producers", .kind = PARAM_COUNT, .lo = 1, .hi = 1024,
	    .dflt = "2", ARG(producers), .metavar = "N",
	    .help = "queue: producer threads of the stress" },
	{ .flag = "--consumers", .kind = PARAM_COUNT, .lo = 1, .hi = 1024,
	    .dflt = "4", ARG(consumers), .metavar = "N",
	    .help = "queue: consumer threads of the stress" },
};

static const char *const verify_sweep[] = { "--workers", "1,4,64",
    "--coroutines", "16", "--warmup", "0.02", "--time", "0.1", NULL };

struct tally {
	int checks, failed;
};

static void
verify_count(struct tally *t, const struct verify_result *r)
{

	verify_print(stdout, r);
	t->checks++;
	t->failed += !r->ok;
	return;
}

/* The queue's own checks, once per queue of the sweep. */
static void
verify_queues(const struct call *c, const struct verify_sizes *sz,
    struct tally *t)
{
	const struct db_queue_ops *done[64], *q;
	struct verify_result r;
	size_t i, j, n = 0;
	int k;

	for (i = 0; i < c->ncells && n < 64; i++) {
		if ((q = c->cells[i].cfg.queue) == NULL)
			continue;
		for (j = 0; j < n && done[j] != q; j++)
			;
		if (j < n)
			continue;
		done[n++] = q;
		printf("queue %s: %s\n", q->name, q->model);
		for (k = 0; k < VERIFY_NQUEUE; k++) {
			verify_queue(q, (enum verify_queue_check)k, sz, &r);
			verify_count(t, &r);
		}
	}
	return;
}

static int
cmd_verify(struct call *c)
{
	struct verify_args *opt = ARGS_OF(c);
	bool queue = cli_named(c->rest, c->nrest, "--queue");
	struct verify_sizes sz;
	struct verify_result r;
	struct tally t = { 0, 0 };
	char name[256], err[256];
	size_t i;

	if (!queue && !cli_named(c->rest, c->nrest, "--dispatcher"))
		return command_bad("verify: name a --queue or a --dispatcher");
	if (c->sweep.cell.count > 0)
		return command_bad("verify: --count: its checks count items, "
		    "not instructions");
	for (i = 0; i < c->ncells; i++)
		if (c->cells[i].cfg.queue != NULL &&
		    verify_queue_refused(c->cells[i].cfg.queue, err, sizeof(err)))
			return command_bad("verify: %s", err);
	verify_sizes_default(&sz);
	sz.items = opt->items;
	sz.producers = opt->producers;
	sz.consumers = opt->consumers;
	if (queue)
		verify_queues(c, &sz, &t);
	for (i = 0; i < c->ncells; i++) {
		if (queue && !(c->cells[i].disp->flags & DB_DISP_USES_QUEUE))
			continue;
		runner_cell_name(&c->cells[i], name, sizeof(name));
		verify_cell(&c->cells[i], name, &c->sweep.win, &r);
		verify_count(&t, &r);
	}
	printf("verify: %d checks, %d failed\n", t.checks, t.failed);
	return t.failed == 0 ? 0 : RUNNER_RUN_FAILED;
}

const struct command command_verify = {
	.name = "verify",
	.args = "--queue Q | --dispatcher D [options]",
	.summary = "check a queue or a design (a plugin too) before measuring "
	    "it",
	OPTS(verify_opts),
	.sweep = verify_sweep,
	.run = cmd_verify,
};
