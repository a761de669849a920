/*
 * programs.c - the real runtimes in other languages this build found
 * (runtimes/programs/: one folder per toolchain), each a design run as a
 * program of its own (program.h). runtimes.h lists them; this file is
 * built only when it lists one.
 */
#include "disp_list.h"

#define PROGRAM_DEFINE(n, name_, real_, beside_, flags_, what, ...)	\
	static const char *const program_argv_##n[] = { __VA_ARGS__, NULL }; \
	const struct program program_##n = {				\
		.ops = {						\
			DB_DISP_OPS_HEAD,				\
			.name = name_,					\
			.model = what " (a program of its own)",	\
			.real = real_,					\
			.beside = beside_,				\
			.flags = DB_DISP_PROGRAM | (flags_),		\
		},							\
		.argv = program_argv_##n,				\
	};
DISP_PROGRAMS(PROGRAM_DEFINE)
#undef PROGRAM_DEFINE
