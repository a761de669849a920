/*
 * compare.c - the verdict of NEW against BASE, file against file (see
 * compare.h): each cell of NEW matched with its cell of BASE (by key, by
 * position, or a real runtime's beside each model of its design), each
 * pair judged (judge.h), Holm's correction over the cells tested (the
 * chance that any cell that did not change is flagged stays alpha), each
 * row named by what tells it from the others (the words of its key that
 * vary, its plugin files), and the rows written (outcome.h).
 * results/README.md ("How a verdict is reached") works through why.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "beside.h"
#include "compare.h"
#include "counted.h"
#include "identity.h"
#include "judge.h"
#include "label.h"
#include "metric.h"
#include "outcome.h"
#include "params.h"
#include "probes.h"
#include "rank.h"
#include "ratio.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"

void
compare_defaults(struct compare_opts *o)
{

	o->threshold = 0.05;
	o->threshold_given = false;
	o->alpha = 0.05;
	o->format = TABLE_TEXT;
	o->allow_other_machine = false;
	o->one_machine = false;
	o->by_position = false;
	o->beside = false;
	o->metric = RF(cpu_us_per_dispatch);
	o->plot_dir = NULL;
	o->levels = NULL;
	o->sides[0] = o->sides[1] = NULL;
	return;
}

static const cJSON *
compare_find(const cJSON *doc, const char *key)
{
	const cJSON *cell;
	char k[640];

	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		params_key(cell, true, k, sizeof(k));
		if (strcmp(k, key) == 0)
			return cell;
	}
	return NULL;
}

/* A cell's key, and where it is in its file. */
struct compare_key {
	char key[640];
	int at;
};

static int
compare_key_cmp(const void *x, const void *y)
{
	const struct compare_key *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	return c != 0 ? c : (a->at > b->at) - (a->at < b->at);
}

/*
 * Cells matched by key need each key once in a file: of two, the first
 * was judged and the other never seen (a slow copy first in BASE made
 * NEW 30 % slower than the fast one `equivalent`). -1, and why naming
 * the key and the file, for the first key there twice.
 */
static int
compare_unique(const cJSON *doc, const char *side, const char *file,
    char *err, size_t errlen)
{
	int n = cJSON_GetArraySize(results_arr(doc, "cells")), i = 0;
	struct compare_key *k = calloc(n > 0 ? (size_t)n : 1, sizeof(*k));
	int twice = -1;
	const cJSON *cell;

	if (k == NULL)
		abort();
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		params_key(cell, true, k[i].key, sizeof(k[i].key));
		k[i].at = i;
		i++;
	}
	qsort(k, (size_t)n, sizeof(*k), compare_key_cmp);
	/* Of the pairs alike, the one whose second comes first. */
	for (i = 1; i < n; i++)
		if (strcmp(k[i].key, k[i - 1].key) == 0 && (twice < 0 ||
		    k[i].at < k[twice].at))
			twice = i;
	if (twice >= 0)
		snprintf(err, errlen, "%s%s%s: the cell %s is there twice "
		    "(cells %d and %d): compare matches cells by key and cannot "
		    "tell which to judge", side, file != NULL ? " " : "",
		    file != NULL ? file : "", k[twice].key, k[twice - 1].at + 1,
		    k[twice].at + 1);
	free(k);
	return twice >= 0 ? -1 : 0;
}

size_t
compare_min_runs(double level)
{
	size_t n = 2;

	while (n < 1000 && !(rank_p_min(n, n) < level))
		n++;
	return n;
}

/* Cell i of new against its match in base: by key, or by position. */
static const cJSON *
compare_match(const cJSON *base, const cJSON *cb, int i,
    const struct compare_opts *o, char *label, size_t len)
{
	char kb[640], ka[640];
	const cJSON *ca;

	params_key(cb, true, kb, sizeof(kb));
	if (!o->by_position) {
		snprintf(label, len, "%s", kb);
		return compare_find(base, kb);
	}
	ca = cJSON_GetArrayItem(results_arr(base, "cells"), i);
	if (ca == NULL)
		return NULL;
	params_key(ca, true, ka, sizeof(ka));
	label_keys(ka, kb, label, len);
	return ca;
}

#define COMPARE_MACHINES	"the files come from different machines"
#define COMPARE_BUILDS		"the arms were built apart"

/*
 * One machine: every field of identity.h alike. Else -1, and why names
 * each field that differs after lead (which: the merged machine, or "").
 */
static int
compare_contexts(const cJSON *ca, const cJSON *cb, const char *lead,
    const char *which, char *why, size_t len)
{
	size_t at;

	snprintf(why, len, "%s (%.300s", lead, which);
	at = strlen(why);
	/* Room kept for the parenthesis that closes it. */
	if (identity_diff(ca, cb, why + at, len - at - 1) == 0)
		return 0;
	strcat(why, ")");
	return -1;
}

/*
 * Two merged files: each machine of new in base, found by its name (its
 * cells are matched by it) and the same machine there by identity.
 */
static int
compare_fleets(const cJSON *a, const cJSON *b, char *why, size_t len)
{
	const cJSON *mb, *ma;
	const char *name;
	char which[600];

	cJSON_ArrayForEach(mb, results_arr(b, "machines")) {
		name = results_str(mb, "name", "");
		cJSON_ArrayForEach(ma, results_arr(a, "machines"))
			if (strcmp(results_str(ma, "name", ""), name) == 0)
				break;
		if (ma == NULL)
			return snprintf(why, len, "the files come from "
			    "different machines (NEW's '%s' is not in BASE)",
			    name), -1;
		snprintf(which, sizeof(which), "%s: ", name);
		if (compare_contexts(results_obj(ma, "context"), results_obj(mb,
		    "context"), COMPARE_MACHINES, which, why, len) != 0)
			return -1;
	}
	return 0;
}

/* Whether base and new come from one machine; why says how not. */
static int
compare_machine(const cJSON *a, const cJSON *b, char *why, size_t len)
{
	const cJSON *ca = results_obj(a, "context");
	const cJSON *cb = results_obj(b, "context");
	int na = results_machines(a), nb = results_machines(b);

	if (na > 0 && nb > 0)
		return compare_fleets(a, b, why, len);
	if (na > 0 || nb > 0)
		return snprintf(why, len, "the files come from different "
		    "machines (BASE holds %d, NEW %d)", na > 0 ? na : 1,
		    nb > 0 ? nb : 1), -1;
	if (results_num(ca, "schema") != results_num(cb, "schema")) {
		snprintf(why, len, "the two files have different schemas "
		    "(%.0f, %.0f)", results_num(ca, "schema"),
		    results_num(cb, "schema"));
		return -1;
	}
	return compare_contexts(ca, cb, COMPARE_MACHINES, "", why, len);
}

/*
 * ab's arms: one machine, two binaries, which may have been built apart
 * (a build type, a compiler, its flags): why says how, "" when alike.
 */
static void
compare_builds(const cJSON *a, const cJSON *b, char *why, size_t len)
{

	if (compare_contexts(results_obj(a, "context"), results_obj(b,
	    "context"), COMPARE_BUILDS, "", why, len) == 0)
		why[0] = '\0';
	return;
}

/*
 * A cell of base and the cell of new it is compared with (NULL: none),
 * their runs on one placement of the CPUs where placed.
 */
struct compare_pair {
	const cJSON *a, *b;
	double level;
	char cell[800];
	size_t keylen;			/* of cell, before " against M" */
	bool placed;
	struct judge_place place;
};

struct compare_pairs {
	struct compare_pair *p;
	size_t n, max;
	size_t matched;			/* pairs with a cell of each */
	double level;
};

/* Each cell of new and its match in base, by key or by position. */
static void
compare_pairs_matched(const cJSON *base, const cJSON *new,
    const struct compare_opts *o, struct compare_pairs *pp)
{
	struct compare_pair *p;
	const cJSON *cb;
	int i = 0;

	cJSON_ArrayForEach(cb, results_arr(new, "cells")) {
		p = &pp->p[pp->n];
		p->b = cb;
		p->level = o->levels != NULL ? o->levels[i] : o->alpha;
		p->a = compare_match(base, cb, i++, o, p->cell,
		    sizeof(p->cell));
		p->keylen = strlen(p->cell);
		pp->n += p->a != NULL;
	}
	pp->matched = pp->n;
	return;
}

/*
 * Each cell of one file the other lacks (by key, or past its last cell):
 * base's, since a cell that was not measured is not a cell that did not
 * regress (undecided); new's, listed and never judged (compare_only_new).
 */
static void
compare_pairs_alone(const cJSON *from, const cJSON *other, bool in_new,
    const struct compare_opts *o, struct compare_pairs *pp)
{
	int i = 0, have = cJSON_GetArraySize(results_arr(other, "cells"));
	struct compare_pair *p;
	const cJSON *c;
	char key[640];

	cJSON_ArrayForEach(c, results_arr(from, "cells")) {
		params_key(c, true, key, sizeof(key));
		if (o->by_position ? i++ < have : compare_find(other, key) !=
		    NULL)
			continue;
		p = &pp->p[pp->n++];
		p->a = in_new ? NULL : c;
		p->b = in_new ? c : NULL;
		p->level = o->alpha;
		snprintf(p->cell, sizeof(p->cell), "%s", key);
		p->keylen = strlen(p->cell);
	}
	return;
}

/* One pair of --beside: real against model, on place unless NULL. */
static void
compare_pair_add(struct compare_pairs *pp, const cJSON *real,
    const cJSON *model, const char *name, const struct judge_place *place)
{
	struct compare_pair *p;
	size_t used;

	if (pp->n == pp->max)
		return;
	p = &pp->p[pp->n++];
	p->a = model;
	p->b = real;
	p->level = pp->level;
	p->placed = place != NULL;
	if (place != NULL)
		p->place = *place;
	pp->matched++;
	params_key(real, true, p->cell, sizeof(p->cell));
	used = p->keylen = strlen(p->cell);
	snprintf(p->cell + used, sizeof(p->cell) - used, " against %s%s",
	    name, place == NULL ? "" : place->side == RESULTS_NEAR ?
	    ", CPUs near" : ", CPUs far");
	return;
}

/*
 * --beside: a real runtime's cell of new, a model's of base. Where their
 * runs were probed on two placements of the CPUs, each placement both
 * ran on twice or more is a pair of its own: a model on one against its
 * runtime on the other compares the host's two placements, not the two.
 */
static void
compare_pair_beside(const cJSON *real, const cJSON *model, const char *name,
    void *arg)
{
	struct compare_pairs *pp = arg;
	struct judge_place place;
	unsigned int both = results_shared_placements(real, model,
	    &place.boundary);
	size_t before = pp->n;

	for (place.side = RESULTS_NEAR; place.side <= RESULTS_FAR; place.side++)
		if (both & (1u << place.side))
			compare_pair_add(pp, real, model, name, &place);
	if (pp->n == before)
		compare_pair_add(pp, real, model, name, NULL);
	return;
}

/* A side in a line: its word, and its file when there is one. */
static const char *
compare_side(const struct compare_opts *o, bool new, char *buf, size_t len)
{
	const char *file = o->sides[new];

	snprintf(buf, len, "%s%s%s", new ? "NEW" : "BASE", file != NULL ?
	    " " : "", file != NULL ? file : "");
	return buf;
}

/*
 * A figure no run can have: a cost of 0, or two runs of the row further
 * apart than JUDGE_SPAN (a cost of 1e-300 read `improved -100 %`, 1e308
 * "+inf %"), which names both, since either may be the damaged one. One
 * line naming it.
 */
static bool
compare_impossible(const struct judge_row *r, const struct compare_opts *o,
    char *err, size_t errlen)
{
	const struct judge_arm *arm = r->b.impossible >= 0 ? &r->b : &r->a;
	bool lo_new = r->b.lo < r->a.lo, hi_new = r->b.hi > r->a.hi;
	double lo = fmin(r->a.lo, r->b.lo), hi = fmax(r->a.hi, r->b.hi);
	char side[2][640];

	if (arm->impossible >= 0)
		return snprintf(err, errlen, "%s, %s: run %d's %s is %g, and it "
		    "cannot be 0 or below", compare_side(o, arm == &r->b,
		    side[0], sizeof(side[0])), r->cell, arm->impossible,
		    o->metric, arm->impossible_value), true;
	if (!metric_positive(o->metric) || !(hi / lo > JUDGE_SPAN))
		return false;
	snprintf(err, errlen, "%s: %s runs from %g (%s) to %g (%s), %.2g times "
	    "apart, and no two runs of one figure can be %g times apart: a "
	    "damaged file", r->cell, o->metric, lo, compare_side(o, lo_new,
	    side[0], sizeof(side[0])), hi, compare_side(o, hi_new, side[1],
	    sizeof(side[1])), hi / lo, JUDGE_SPAN);
	return true;
}

/* The rows of every pair, broken ones first. */
static struct judge_row *
compare_read(const struct compare_pairs *pp, const struct compare_opts *o,
    size_t *known, size_t *okruns)
{
	struct judge_row *rows = calloc(pp->n + 1, sizeof(*rows)), *r, tmp;
	size_t i, k;

	if (rows == NULL)
		abort();
	for (*known = *okruns = 0, i = 0; i < pp->n; i++) {
		r = &rows[i];
		snprintf(r->cell, sizeof(r->cell), "%s", pp->p[i].cell);
		r->keylen = pp->p[i].keylen;
		r->ca = pp->p[i].a;
		r->cb = pp->p[i].b;
		judge_arm_read(&r->a, pp->p[i].a, o->metric, pp->p[i].placed ?
		    &pp->p[i].place : NULL);
		judge_arm_read(&r->b, pp->p[i].b, o->metric, pp->p[i].placed ?
		    &pp->p[i].place : NULL);
		r->missing = pp->p[i].b == NULL;
		/* A cell only in NEW is not compared: its runs say nothing. */
		*known += r->ca == NULL ? 0 : r->a.n + r->b.n +
		    (r->a.impossible >= 0) + (r->b.impossible >= 0);
		*okruns += r->ca == NULL ? 0 : r->a.ok + r->b.ok;
		r->level = pp->p[i].level;
		judge_test(r, o, r->level);
		for (k = i; judge_is_broken(&rows[k]) && k > 0 &&
		    !judge_is_broken(&rows[k - 1]); k--) {
			tmp = rows[k];
			rows[k] = rows[k - 1];
			rows[k - 1] = tmp;
		}
	}
	return rows;
}

/*
 * The rows of every cell of base, broken ones first; NULL and err when
 * nothing matches, the metric is no run's, or a figure cannot be.
 */
static struct judge_row *
compare_rows(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    size_t *nrows, char *err, size_t errlen)
{
	size_t n = (size_t)cJSON_GetArraySize(results_arr(new,
	    "cells")) * 2 * COMPARE_BESIDE_MAX + (size_t)cJSON_GetArraySize(
	    results_arr(base, "cells")) + 1, k, known, okruns;
	struct compare_pairs pp = { calloc(n, sizeof(*pp.p)), 0, n, 0,
	    o->alpha };
	struct judge_row *rows;

	if (pp.p == NULL)
		abort();
	if (o->beside)
		beside_each(new, base, compare_pair_beside, &pp);
	else
		compare_pairs_matched(base, new, o, &pp);
	if (!o->beside && pp.matched > 0) {
		compare_pairs_alone(base, new, false, o, &pp);
		compare_pairs_alone(new, base, true, o, &pp);
	}
	rows = compare_read(&pp, o, &known, &okruns);
	*nrows = pp.n;
	free(pp.p);
	err[0] = '\0';
	for (k = 0; k < *nrows && err[0] == '\0'; k++)
		compare_impossible(&rows[k], o, err, errlen);
	if (err[0] == '\0' && pp.matched > 0 && (known > 0 || okruns == 0 ||
	    o->by_position))
		return rows;
	if (err[0] == '\0')
		snprintf(err, errlen, pp.matched == 0 && o->beside ? "--beside: "
		    "no real runtime of NEW has a cell of a model of its design "
		    "in BASE" : pp.matched == 0 ? "no cell of one file matches a "
		    "cell of the other" : "--metric %s: no matched cell has it in "
		    "an ok run of both files", o->metric);
	for (k = 0; k < *nrows; k++)
		judge_row_free(&rows[k]);
	free(rows);
	return NULL;
}

/*
 * A cell only in NEW: `new`, not judged, with nothing to judge it
 * against; a NEW run that failed keeps it `broken` all the same, since
 * that verdict asks nothing of BASE.
 */
static void
compare_only_new(struct judge_row *r)
{

	if (r->ca != NULL || strcmp(r->verdict, "broken") == 0)
		return;
	r->verdict = "new";
	snprintf(r->why, sizeof(r->why), "only in NEW");
	return;
}

/*
 * Holm over the cells tested, or each cell at its own level in a
 * sequential campaign; then every verdict. Returns the family's size.
 */
static size_t
compare_verdicts(struct judge_row *rows, size_t n,
    const struct compare_opts *o)
{
	double *p = calloc(n ? n : 1, sizeof(*p));
	double *adj = calloc(n ? n : 1, sizeof(*adj));
	size_t i, m = 0, family;

	if (p == NULL || adj == NULL)
		abort();
	for (i = 0; i < n; i++)
		if (judge_in_family(&rows[i]))
			p[m++] = rows[i].t.p;
	if (o->levels == NULL)
		stats_holm(p, m, adj);
	else
		memcpy(adj, p, m * sizeof(*p));
	family = m;
	for (i = 0, m = 0; i < n; i++) {
		rows[i].p_adj = NAN;
		if (judge_in_family(&rows[i]))
			rows[i].p_adj = adj[m++];
		rows[i].reach = o->levels != NULL ? rows[i].level : o->alpha /
		    (double)(family ? family : 1);
		judge_mde(&rows[i], o);
		rows[i].verdict = judge_decide(&rows[i], o, rows[i].level,
		    rows[i].p_adj);
		compare_only_new(&rows[i]);
	}
	free(p);
	free(adj);
	return family;
}

static void
compare_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return;
}

/*
 * A plugin of BASE's cell or NEW's, by its file: both by theirs when they
 * differ (two plugins of one name are told apart so), once when it is one,
 * with both checksums when that file changed between the two.
 */
static void
compare_plugin_text(const char *spec_a, const char *spec_b,
    const cJSON *ctx_a, const cJSON *ctx_b, char *buf, size_t len)
{
	const char *sa = spec_a == NULL ? NULL : results_str(
	    label_plugin_entry(ctx_a, spec_a), "sha256", "unknown");
	const char *sb = spec_b == NULL ? NULL : results_str(
	    label_plugin_entry(ctx_b, spec_b), "sha256", "unknown");

	if (buf[0] != '\0')
		compare_cat(buf, len, "; ");
	/* Two unknown checksums say nothing of whether the file changed. */
	if (sa != NULL && sb != NULL && strcmp(spec_a, spec_b) == 0)
		compare_cat(buf, len, strcmp(sa, "unknown") == 0 ? "%s (sha256 "
		    "unknown)" : strcmp(sa, sb) == 0 ? "%s" : "%s: BASE "
		    "sha256 %.12s, NEW %.12s", spec_a, sa, sb);
	else if (sa != NULL && sb != NULL)
		compare_cat(buf, len, "BASE %s, NEW %s", spec_a, spec_b);
	else
		compare_cat(buf, len, "%s %s", sa != NULL ? "BASE" : "NEW",
		    sa != NULL ? spec_a : spec_b);
	return;
}

/* Each plugin of the row's two cells, by its file, into r->plugins. */
static void
compare_plugins(struct judge_row *r, const cJSON *base, const cJSON *new)
{
	const cJSON *ca = results_context(base, r->ca);
	const cJSON *cb = results_context(new, r->cb);
	const cJSON *f, *g;
	char param[64];

	r->plugins[0] = '\0';
	cJSON_ArrayForEach(f, r->ca) {
		if (label_plugin_param(f, param, sizeof(param)) == NULL)
			continue;
		g = cJSON_GetObjectItemCaseSensitive(r->cb, f->string);
		compare_plugin_text(f->valuestring, cJSON_IsString(g) ?
		    g->valuestring : NULL, ca, cb, r->plugins,
		    sizeof(r->plugins));
	}
	cJSON_ArrayForEach(g, r->cb)
		if (label_plugin_param(g, param, sizeof(param)) != NULL &&
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r->ca,
		    g->string)))
			compare_plugin_text(NULL, g->valuestring, ca, cb,
			    r->plugins, sizeof(r->plugins));
	return;
}

/* Whether w, n bytes, is one of the words of s[0..len). */
static bool
compare_has_word(const char *s, size_t len, const char *w, size_t n)
{
	const char *end = s + len;
	size_t k;

	for (; s < end; s += k + 1) {
		k = strcspn(s, " ");
		k = k > (size_t)(end - s) ? (size_t)(end - s) : k;
		if (k == n && strncmp(s, w, n) == 0)
			return true;
	}
	return false;
}

/*
 * What tells row r from the others: the words of its key not in shared
 * (the whole key when none is), the model it stands against, its plugin
 * files.
 */
static void
compare_shown(struct judge_row *r, const char *shared)
{
	const char *w;
	size_t wl;

	r->shown[0] = '\0';
	for (w = r->cell; w < r->cell + r->keylen; w += wl + 1) {
		wl = strcspn(w, " ");
		if (!compare_has_word(shared, strlen(shared), w, wl))
			compare_cat(r->shown, sizeof(r->shown), "%s%.*s",
			    r->shown[0] ? " " : "", (int)wl, w);
	}
	if (r->shown[0] == '\0')
		compare_cat(r->shown, sizeof(r->shown), "%.*s", (int)r->keylen,
		    r->cell);
	compare_cat(r->shown, sizeof(r->shown), "%s", r->cell + r->keylen);
	if (r->plugins[0] != '\0')
		compare_cat(r->shown, sizeof(r->shown), " [%s]", r->plugins);
	return;
}

/*
 * The words of the key every row has, into shared (in the first row's
 * order; none for one row); then what each row shows.
 */
static void
compare_varies(struct judge_row *rows, size_t n, char *shared, size_t len)
{
	const char *w = n > 0 ? rows[0].cell : "";
	size_t i, wl;

	shared[0] = '\0';
	for (; n > 1 && w < rows[0].cell + rows[0].keylen; w += wl + 1) {
		wl = strcspn(w, " ");
		for (i = 1; i < n && compare_has_word(rows[i].cell,
		    rows[i].keylen, w, wl); i++)
			;
		if (i == n)
			compare_cat(shared, len, "%s%.*s", shared[0] ? " " : "",
			    (int)wl, w);
	}
	for (i = 0; i < n; i++)
		compare_shown(&rows[i], shared);
	return;
}

/* A file a sweep did not finish: its cells may lack runs, or be absent. */
static bool
compare_incomplete(const cJSON *doc)
{

	return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(doc,
	    "complete"));
}

/*
 * The exit's verdict: broken or regressed, else undecided (a cell with no
 * answer, or one that saw a rise it could not place), else none.
 */
static int
compare_status(const struct judge_row *rows, size_t n,
    const struct compare_opts *o, bool incomplete)
{
	int rc = incomplete ? COMPARE_UNDECIDED : COMPARE_NO_REGRESSION;
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(rows[i].verdict, "regressed") == 0 ||
		    strcmp(rows[i].verdict, "broken") == 0)
			return COMPARE_REGRESSED;
		if (strcmp(rows[i].verdict, "undecided") == 0 ||
		    judge_unplaced(&rows[i], o))
			rc = COMPARE_UNDECIDED;
	}
	return rc;
}

int
compare_docs(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    FILE *out, char *err, size_t errlen)
{
	const char *incomplete = compare_incomplete(new) ? "NEW" :
	    compare_incomplete(base) ? "BASE" : NULL;
	struct outcome_what w = { { base, new }, "", 0, "" };
	struct judge_row *rows;
	cJSON *json = cJSON_CreateArray();
	size_t n, i;
	int rc;

	/*
	 * Counted instructions do not move with a machine's speed: two
	 * machines are compared (and said to be two), two counters never.
	 */
	if (counted_metric(o->metric) && counted_same_counter(base, new, err,
	    errlen) != 0)
		return cJSON_Delete(json), COMPARE_BAD_INPUT;
	if (!o->by_position && (compare_unique(base, "BASE", o->sides[0], err,
	    errlen) != 0 || compare_unique(new, "NEW", o->sides[1], err,
	    errlen) != 0))
		return cJSON_Delete(json), COMPARE_BAD_INPUT;
	if (o->one_machine)
		compare_builds(base, new, w.machines, sizeof(w.machines));
	else if (compare_machine(base, new, w.machines,
	    sizeof(w.machines)) == 0 && (counted_metric(o->metric) ||
	    probes_core_moved(base, new, o->threshold, o->alpha, w.machines,
	    sizeof(w.machines)) == 0))
		w.machines[0] = '\0';
	else if (!o->allow_other_machine && !counted_metric(o->metric))
		return snprintf(err, errlen, "%s; pass --allow-other-machine to "
		    "compare anyway", w.machines), cJSON_Delete(json),
		    COMPARE_BAD_INPUT;
	if ((rows = compare_rows(base, new, o, &n, err, errlen)) == NULL) {
		cJSON_Delete(json);
		return COMPARE_BAD_INPUT;
	}
	w.family = compare_verdicts(rows, n, o);
	for (i = 0; i < n; i++)
		compare_plugins(&rows[i], base, new);
	compare_varies(rows, n, w.shared, sizeof(w.shared));
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(json, outcome_row_json(&rows[i], o, &w));
	rc = compare_status(rows, n, o, incomplete != NULL);
	outcome_write(out, rows, n, o, &w, json, incomplete);
	for (i = 0; i < n; i++)
		judge_row_free(&rows[i]);
	if (o->plot_dir != NULL && ratio_draw(json, results_obj(new,
	    "context"), o->metric, o->threshold, o->plot_dir, err,
	    errlen) != 0)
		rc = COMPARE_BAD_INPUT;
	cJSON_Delete(json);
	free(rows);
	return rc;
}

const char *
compare_look(const cJSON *base_cell, const cJSON *new_cell,
    const struct compare_opts *o, double level)
{
	struct judge_row *r = calloc(1, sizeof(*r));
	const char *v;

	if (r == NULL)
		abort();
	judge_arm_read(&r->a, base_cell, o->metric, NULL);
	judge_arm_read(&r->b, new_cell, o->metric, NULL);
	r->level = r->reach = level;
	r->mde = NAN;			/* no one reads it between looks */
	judge_test(r, o, level);
	v = judge_decide(r, o, level, r->tested ? r->t.p : NAN);
	judge_row_free(r);
	free(r);
	/* Undecided or inconclusive at this look: the next one may decide. */
	return strcmp(v, "inconclusive") == 0 || strcmp(v, "undecided") == 0 ?
	    NULL : v;
}

size_t
compare_look_open(const cJSON *base, const cJSON *new, const struct
    compare_opts *o, double level, bool *done, double *levels)
{
	const cJSON *ca, *cb;
	size_t ci, n = (size_t)cJSON_GetArraySize(results_arr(base, "cells")),
	    open = 0;

	for (ci = 0; ci < n; ci++) {
		if (done[ci])
			continue;
		ca = cJSON_GetArrayItem(results_arr(base, "cells"), (int)ci);
		cb = cJSON_GetArrayItem(results_arr(new, "cells"), (int)ci);
		levels[ci] = level;
		done[ci] = compare_look(ca, cb, o, level) != NULL;
		open += !done[ci];
	}
	return open;
}
