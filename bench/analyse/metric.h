/*
 * metric.h - a run field in words, as every verdict says it (compare, ab,
 * pair): its quantity, unit and better side, whether a run that did its
 * work can have it at 0 or below, and a change of it in a sentence or
 * signed with its interval. Pure functions of strings; nothing prints.
 */
#ifndef BENCH_METRIC_H
#define BENCH_METRIC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A run field in words: the quantity with its unit, the better side, and
 * what a sentence about a change says: "NEW spends 14 % more CPU per
 * dispatch" (verb, noun, more), or "NEW's p99 latency is 14 % higher"
 * (no verb). A field the table lacks is named by itself, as a cost.
 */
struct metric {
	const char *field;
	const char *quantity;		/* "CPU µs per dispatch" */
	const char *unit;		/* "µs"; "" when none is known */
	const char *verb;		/* "spends"; NULL: "'s NOUN is" */
	const char *noun;		/* "CPU per dispatch" */
	const char *more, *less;	/* "more", "fewer"; "higher", "lower" */
	bool higher_is_better;
};

void metric_of(const char *field, struct metric *m);

/* Throughput is better higher; every other figure here is a cost. */
bool metric_higher_is_better(const char *metric);

/*
 * Figures that cannot be 0 or below in a run that did its work: a time
 * per unit of work, a rate of work, the instructions a dispatch executes.
 * Other counts per dispatch (context switches) can be 0.
 */
bool metric_positive(const char *metric);

/* The metric's unit, "" when none is known. */
const char *metric_unit(const char *metric);

/*
 * A change of side against the other, in words: change is B/A - 1, or
 * B - A when difference; "NEW spends 14 % more CPU per dispatch".
 */
const char *metric_in_words(const char *metric, const char *side,
    double change, bool difference, char *buf, size_t len);

/*
 * The same words for a verdict that rests on the change: a regression
 * or an improvement the change points to (not one of two groups of runs
 * or of a slow minority against it), and an equivalence; "" otherwise.
 */
const char *metric_verdict_words(const char *metric, const char *verdict,
    const char *side, double change, bool difference, char *buf, size_t len);

/* A change and its interval, signed: "+14.0 % [+9.1, +19.2]". */
const char *metric_signed(double change, double lo, double hi,
    bool difference, char *buf, size_t len);

#endif /* BENCH_METRIC_H */
