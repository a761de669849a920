/*
 * disp_list.h - every design of this build, for the registry and the tests that
 * name one.
 */
#ifndef DISPATCHERS_DISP_LIST_H
#define DISPATCHERS_DISP_LIST_H

#include "designs.h"
#include "runtimes.h"

/*
 * Every design, in the order `list` shows them: X(name) for the design
 * disp_<name> defined in <name>.c. A new design is its file, a line here
 * and a line in CMakeLists.txt: only the registry and the tests include
 * this list, so nothing else is compiled again. The real runtimes this
 * build found follow the models (runtimes/), and the programs of other
 * languages' runtimes follow those (DISP_PROGRAMS).
 */
#define DISP_DESIGNS(X)							\
	X(inline)							\
	X(shared)							\
	X(limited)							\
	X(rendezvous)							\
	X(eventloop)							\
	X(stealing)							\
	X(default)							\
	DISP_RUNTIMES(X)

#define DISP_EXTERN(n)	extern const struct db_disp_ops disp_##n;
DISP_DESIGNS(DISP_EXTERN)
#undef DISP_EXTERN
#define PROGRAM_EXTERN(n, ...)	extern const struct program program_##n;
DISP_PROGRAMS(PROGRAM_EXTERN)
#undef PROGRAM_EXTERN

#endif /* DISPATCHERS_DISP_LIST_H */
