/*
 * bisection.h - the first commit between GOOD and BAD whose step against
 * GOOD is slower: the commits along first parents (git), each built into
 * a folder of its own by scripts/build-rev.sh (a build made before is
 * reused), each step's line and its record in the store. What a step
 * measures is the caller's (an ab of two builds, or a pair of a plugin's
 * two builds). As `git bisect`, a commit whose build fails is skipped;
 * unlike it, a step that stays inconclusive is said so, never guessed.
 */
#ifndef BENCH_BISECTION_H
#define BENCH_BISECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "step.h"
#include "store.h"

#define BISECTION_MAX	1024	/* commits between GOOD and BAD */
#define BISECTION_BIN	"bench/dispatchbench"	/* in a revision's build */

struct bisection {
	char top[4096];			/* the clone's top folder */
	char dir[4096];			/* where revisions are built */
	char out[4200];			/* where the steps' results go */
	char sha[BISECTION_MAX][48], good[48], goodbin[4200];
	struct step said[BISECTION_MAX];	/* each commit's step, if any */
	int n, steps, built;
	bool pair;			/* the steps are pairs, not abs */
	long long id;			/* the bisection's row in the store */
	struct store *store;
	double started;
	/*
	 * Measures the build bin of commit sha against GOOD's into st, its
	 * results into path; nonzero (the status) ends the bisection.
	 */
	int (*measure)(void *arg, const char *sha, const char *bin,
	    const char *path, struct step *st);
	void *arg;
};

/*
 * The commits from good to bad (git's names) along first parents, oldest
 * first, BAD last, into b; -1 with err when they are no range of this
 * clone.
 */
int bisection_range(struct bisection *b, const char *good, const char *bad,
    char *err, size_t errlen);

/* The revision's binary into bin, built or found built; -1: its build failed. */
int bisection_build(struct bisection *b, const char *sha, char *bin,
    size_t len);

/*
 * The search, GOOD built: BAD first, then the untested commit nearest the
 * middle of the last good and the first slower; *good and *bad end at
 * them, *rc at a step's nonzero status. Returns why no single commit is
 * named, or NULL when one is.
 */
const char *bisection_search(struct bisection *b, int *good, int *bad,
    int *rc);

/* The commit named (or why none is), the counts, the store's record. */
void bisection_summary(struct bisection *b, int good, int bad,
    const char *why);

/* A step's two arms' results (path's -a.json, -b.json) into the store. */
void bisection_keep(struct bisection *b, const char *path);

#endif /* BENCH_BISECTION_H */
