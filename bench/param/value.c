/*
 * value.c - a parameter's value, by its kind (see value.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "designs.h"
#include "plugin.h"
#include "table.h"
#include "value.h"

typedef int value_parse_fn(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen);
typedef const char *value_format_fn(const struct param *p,
    const union param_value *v, char *buf, size_t len);

enum value_record {
	VALUE_TEXT,			/* as value_format writes it */
	VALUE_UNSIGNED,			/* a number: v->u */
	VALUE_INT,			/* a number: v->i */
	VALUE_REAL			/* a number: v->d */
};

struct value_kind {
	size_t size;			/* the bytes of union param_value it uses */
	value_parse_fn *parse;
	value_format_fn *format;
	enum value_record record;	/* in a results file */
};

static bool
value_real(const struct param *p)
{

	return p->kind == PARAM_SECONDS || p->kind == PARAM_NUMBER ||
	    p->kind == PARAM_DURATION;
}

/* A number, with its unit for a duration, checked against p's range. */
static int
value_number(const struct param *p, const char *text, bool check, double *x,
    char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*x = strtod(text, &end);
	if (p->kind == PARAM_DURATION && end != text && *end != '\0' &&
	    end[1] == '\0' && strchr("smh", *end) != NULL)
		*x *= *end == 'h' ? 3600 : *end == 'm' ? 60 : 1, end++;
	if ((p->flags & P_POSITIVE) && !(end != text && *end == '\0' &&
	    *x > 0 && isfinite(*x)))
		return param_error(err, errlen, "%s: '%s' is not a positive "
		    "number", p->flag, text);
	if (end == text || *end != '\0' || errno != 0 || !isfinite(*x) ||
	    (!value_real(p) && (*text == '-' ? check : false)) ||
	    (!value_real(p) && *x != floor(*x)))
		return param_error(err, errlen, "%s: '%s' is not a %s", p->flag,
		    text, p->kind == PARAM_SECONDS ? "number of seconds" :
		    p->kind == PARAM_DURATION ? "duration (90s, 2m, 1h)" :
		    "number");
	if (check && (*x < p->lo || *x > p->hi))
		return param_error(err, errlen, value_real(p) ? "%s: %s is out of "
		    "range %g..%g" : "%s: %s is out of range %.0f..%.0f", p->flag,
		    text, p->lo, p->hi);
	if (check && (p->flags & P_POW2) && *x != 0 &&
	    ((unsigned long)*x & ((unsigned long)*x - 1)) != 0)
		return param_error(err, errlen, "%s: %s is not 0 or a power of "
		    "two", p->flag, text);
	return 0;
}

static int
value_parse_number(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{
	double x;

	if ((p->flags & P_AUTO) && strcmp(text, "auto") == 0)
		return v->u = VALUE_AUTO, 0;
	if (value_number(p, text, check, &x, err, errlen) != 0)
		return -1;
	if (value_real(p))
		v->d = x;
	else if (p->kind == PARAM_INT)
		v->i = (int)x;
	else
		v->u = (unsigned int)x;
	return 0;
}

static int
value_parse_width(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{

	if (strcmp(text, "inf") == 0)
		return v->u = 0, 0;
	return value_parse_number(p, text, v, check, err, errlen);
}

static int
value_parse_design(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{
	char why[PATH_MAX + 128];

	if (plugin_is_program(text) && (v->p = plugin_program(text, why,
	    sizeof(why))) == NULL)
		return param_error(err, errlen, "%s: %s", p->flag, why);
	if (v->p == NULL && plugin_is_spec(text) &&
	    (v->p = plugin_design(text, why, sizeof(why))) == NULL)
		return param_error(err, errlen, "%s: %s", p->flag, why);
	if (v->p == NULL && (v->p = disp_find(text)) == NULL)
		return param_error(err, errlen, "%s: unknown dispatcher '%s' "
		    "(see `dispatchbench list`)", p->flag, text);
	return 0;
}

static int
value_parse_queue(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{
	char why[PATH_MAX + 128];

	if (plugin_is_spec(text) && (v->p = plugin_queue(text, why,
	    sizeof(why))) == NULL)
		return param_error(err, errlen, "%s: %s", p->flag, why);
	if (v->p == NULL)
		v->p = strcmp(text, "first") == 0 ? queue_at(0) :
		    queue_find(text);
	if (v->p == NULL)
		return param_error(err, errlen, "%s: unknown queue '%s' (see "
		    "`dispatchbench list`)", p->flag, text);
	if (((const struct db_queue_ops *)v->p)->flags & DB_Q_ONE_CONSUMER)
		return param_error(err, errlen, "%s: queue '%s' has one "
		    "consumer; shared and limited poll theirs from every worker",
		    p->flag, text);
	return 0;
}

/* "on or off", "every or lazy". */
static const char *
value_choices(const struct param *p, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; p->names[i] != NULL && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    i == 0 ? "" : p->names[i + 1] == NULL ? " or " : ", ",
		    p->names[i]);
	return buf;
}

static int
value_parse_choice(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{
	char names[256];
	int k;

	for (k = 0; p->names[k] != NULL; k++)
		if (strcmp(text, p->names[k]) == 0)
			return v->i = k, 0;
	return param_error(err, errlen, "%s: '%s' is not %s", p->flag, text,
	    value_choices(p, names, sizeof(names)));
}

static int
value_parse_text(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{

	if (*text == '\0')
		return param_error(err, errlen, "%s: empty%s", p->flag,
		    p->kind == PARAM_PATH ? " file name" : "");
	v->p = text;
	return 0;
}

static int
value_parse_profile(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{

	return workload_profile_parse(&v->profile, text, err, errlen);
}

static int
value_parse_format(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{

	if ((v->i = table_format_parse(text)) < 0)
		return param_error(err, errlen, "%s: '%s' is not %s", p->flag,
		    text, table_format_list());
	return 0;
}

static int
value_parse_switch(const struct param *p, const char *text,
    union param_value *v, bool check, char *err, size_t errlen)
{

	return v->i = 1, 0;
}

static const char *
value_format_design(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	return ((const struct db_disp_ops *)v->p)->name;
}

/* "-": the queue of a design that takes none. */
static const char *
value_format_queue(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	return v->p != NULL ? ((const struct db_queue_ops *)v->p)->name : "-";
}

static const char *
value_format_unsigned(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	snprintf(buf, len, "%u", v->u);
	return buf;
}

static const char *
value_format_width(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	return v->u == 0 ? "inf" : value_format_unsigned(p, v, buf, len);
}

static const char *
value_format_int(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	snprintf(buf, len, "%d", v->i);
	return buf;
}

/* Every digit a double needs to come back the same from the text. */
static const char *
value_format_real(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	snprintf(buf, len, "%.17g", v->d);
	return buf;
}

static const char *
value_format_choice(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	return p->names[v->i];
}

static const char *
value_format_text(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	return v->p;
}

static const char *
value_format_profile(const struct param *p, const union param_value *v,
    char *buf, size_t len)
{

	workload_profile_format(&v->profile, buf, len);
	return buf;
}

/*
 * Every member of union param_value starts at its beginning, so a value
 * is stored and loaded as its first size bytes.
 */
#define VALUE_SIZE(m)	sizeof(((union param_value *)0)->m)

static const struct value_kind value_kinds[] = {
	[PARAM_DESIGN] = { .size = VALUE_SIZE(p), .parse = value_parse_design,
	    .format = value_format_design, .record = VALUE_TEXT },
	[PARAM_QUEUE] = { .size = VALUE_SIZE(p), .parse = value_parse_queue,
	    .format = value_format_queue, .record = VALUE_TEXT },
	[PARAM_WIDTH] = { .size = VALUE_SIZE(u), .parse = value_parse_width,
	    .format = value_format_width, .record = VALUE_UNSIGNED },
	[PARAM_COUNT] = { .size = VALUE_SIZE(u), .parse = value_parse_number,
	    .format = value_format_unsigned, .record = VALUE_UNSIGNED },
	[PARAM_INT] = { .size = VALUE_SIZE(i), .parse = value_parse_number,
	    .format = value_format_int, .record = VALUE_INT },
	[PARAM_SECONDS] = { .size = VALUE_SIZE(d), .parse = value_parse_number,
	    .format = value_format_real, .record = VALUE_REAL },
	[PARAM_NUMBER] = { .size = VALUE_SIZE(d), .parse = value_parse_number,
	    .format = value_format_real, .record = VALUE_TEXT },
	[PARAM_DURATION] = { .size = VALUE_SIZE(d), .parse = value_parse_number,
	    .format = value_format_real, .record = VALUE_TEXT },
	[PARAM_CHOICE] = { .size = VALUE_SIZE(i), .parse = value_parse_choice,
	    .format = value_format_choice, .record = VALUE_TEXT },
	[PARAM_TEXT] = { .size = VALUE_SIZE(p), .parse = value_parse_text,
	    .format = value_format_text, .record = VALUE_TEXT },
	[PARAM_PATH] = { .size = VALUE_SIZE(p), .parse = value_parse_text,
	    .format = value_format_text, .record = VALUE_TEXT },
	[PARAM_PROFILE] = { .size = VALUE_SIZE(profile),
	    .parse = value_parse_profile, .format = value_format_profile,
	    .record = VALUE_TEXT },
	[PARAM_FORMAT] = { .size = VALUE_SIZE(i), .parse = value_parse_format,
	    .format = value_format_int, .record = VALUE_TEXT },
	[PARAM_SWITCH] = { .size = VALUE_SIZE(i), .parse = value_parse_switch,
	    .format = value_format_int, .record = VALUE_TEXT },
};
_Static_assert(sizeof(value_kinds) / sizeof(value_kinds[0]) ==
    PARAM_SWITCH + 1, "every kind in the table");

int
value_parse(const struct param *p, const char *text, union param_value *v,
    bool check, char *err, size_t errlen)
{

	memset(v, 0, sizeof(*v));
	return value_kinds[p->kind].parse(p, text, v, check, err, errlen);
}

void
value_store(const struct param *p, void *at, const union param_value *v)
{

	memcpy(at, v, value_kinds[p->kind].size);
	return;
}

void
value_load(const struct param *p, const void *at, union param_value *v)
{

	memset(v, 0, sizeof(*v));
	memcpy(v, at, value_kinds[p->kind].size);
	return;
}

const char *
value_format(const struct param *p, const union param_value *v, char *buf,
    size_t len)
{

	return value_kinds[p->kind].format(p, v, buf, len);
}

bool
value_same(const struct param *p, const union param_value *a,
    const union param_value *b)
{

	return memcmp(a, b, value_kinds[p->kind].size) == 0;
}

void
value_json(cJSON *o, const struct param *p, const union param_value *v)
{
	char buf[64];

	switch (value_kinds[p->kind].record) {
	case VALUE_UNSIGNED:
		cJSON_AddNumberToObject(o, p->key, v->u);
		break;
	case VALUE_INT:
		cJSON_AddNumberToObject(o, p->key, v->i);
		break;
	case VALUE_REAL:
		cJSON_AddNumberToObject(o, p->key, v->d);
		break;
	default:
		cJSON_AddStringToObject(o, p->key, value_format(p, v, buf,
		    sizeof(buf)));
		break;
	}
	return;
}
