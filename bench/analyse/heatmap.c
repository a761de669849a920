/*
 * heatmap.c - matrix's pictures: a handoff's cost between every pair of
 * PUs as a heatmap, each cell's value written in (see heatmap.h).
 */
#include <math.h>
#include <stdio.h>

#include "heatmap.h"
#include "plot.h"
#include "results.h"

/* One heatmap of field over the rows (from, to), its values written in. */
static int
heatmap_draw(const cJSON *rows, const char *field, const char *title,
    const char *dir, char *err, size_t errlen)
{
	char datpath[4096], name[64];
	const cJSON *row;
	FILE *data;
	double from, last = -1, most = 0;

	snprintf(name, sizeof(name), "matrix_%s", field);
	if ((data = plot_data_open(dir, name, datpath, sizeof(datpath), err,
	    errlen)) == NULL)
		return -1;
	cJSON_ArrayForEach(row, rows) {
		from = results_num(row, "from");
		if (last >= 0 && from != last)
			fprintf(data, "\n");
		last = from;
		most = from > most ? from : most;
		fprintf(data, "%g %g %g \"%s\"\n", results_num(row, "to"), from,
		    results_num(row, field), results_str(row, "shares", "?"));
	}
	fclose(data);
	return plot_draw(dir, name, "900,800", err, errlen,
	    "set title \"%s\" noenhanced\nset xlabel 'to PU'\n"
	    "set ylabel 'from PU'\nset cblabel 'ns, one way'\n"
	    "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\n"
	    "set palette defined (0 'white', 1 'orange', 2 'red')\n"
	    "set xtics 1\nset ytics 1\n"
	    "plot '%s' using 1:2:3 with image notitle, '' using 1:2:"
	    "(sprintf('%%.0f\\n%%s', $3, strcol(4))) with labels "
	    "font ',9' notitle\n", title, most + 0.5, most + 0.5, datpath);
}

int
heatmap_matrix(const cJSON *rows, const char *queue, const char *dir,
    char *err, size_t errlen)
{
	char title[256];

	if (heatmap_draw(rows, "line_ns", "a cache line's handoff between two "
	    "PUs, one way (half a round trip); each cell: ns and what the "
	    "two share", dir, err, errlen) != 0)
		return -1;
	if (isnan(results_num(cJSON_GetArrayItem(rows, 0), "queue_ns")))
		return 0;
	snprintf(title, sizeof(title), "an item's handoff through %s between "
	    "two PUs, one way (half a round trip); each cell: ns and what "
	    "the two share", queue);
	return heatmap_draw(rows, "queue_ns", title, dir, err, errlen);
}
