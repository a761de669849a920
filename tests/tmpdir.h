/*
 * tmpdir.h - a path in this test process's own fresh folder, removed at
 * its exit: Criterion runs tests in parallel, and none may read what
 * another writes.
 */
#ifndef TESTS_TMPDIR_H
#define TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

static char tmp_dir[64];

static void
tmp_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp_dir);
	return;
}

/* name in the folder; the last 8 paths it returned stay valid. */
static const char *
tmp(const char *name)
{
	static char ring[8][160];
	static int next;
	char *p = ring[next++ % 8];

	if (tmp_dir[0] == '\0') {
		snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/dbtest.XXXXXX");
		cr_assert_not_null(mkdtemp(tmp_dir));
		atexit(tmp_remove);
	}
	snprintf(p, sizeof(ring[0]), "%s/%s", tmp_dir, name);
	return p;
}

/* A copy of a tmp() path that outlives its ring: the last 16 stay valid. */
static inline const char *
kept(const char *path)
{
	static char keep[16][160];
	static int next;
	char *p = keep[next++ % 16];

	snprintf(p, sizeof(keep[0]), "%s", path);
	return p;
}

#endif /* TESTS_TMPDIR_H */
