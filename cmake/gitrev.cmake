# Writes OUT with the revision the build is made from, its commit time in
# UTC and its first-parent depth, at build time, and only when they
# changed: a results file must not name a stale commit, and a history
# store outside this clone orders revisions by the time and depth.
# REV, TIME and DEPTH, when given (scripts/build-rev.sh builds from an
# archive), win.
if(NOT REV)
	execute_process(COMMAND git rev-parse --short HEAD
		WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE REV
		OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
	execute_process(COMMAND git status --porcelain --untracked-files=no
		WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE DIRTY ERROR_QUIET)
	execute_process(COMMAND ${CMAKE_COMMAND} -E env TZ=UTC
		git show -s --date=format-local:%Y-%m-%dT%H:%M:%SZ
		--format=%cd HEAD
		WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE TIME
		OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
	execute_process(COMMAND git rev-list --first-parent --count HEAD
		WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE DEPTH
		OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
	if(REV AND DIRTY)
		string(APPEND REV "-dirty")
	endif()
endif()
if(NOT REV)
	set(REV "unknown")
endif()
if(NOT DEPTH MATCHES "^[0-9]+$")
	set(DEPTH -1)
endif()
set(TEXT "#define DB_GIT_REV \"${REV}\"\n#define DB_GIT_TIME \"${TIME}\"\n#define DB_GIT_DEPTH ${DEPTH}\n")
if(EXISTS ${OUT})
	file(READ ${OUT} OLD)
endif()
if(NOT "${OLD}" STREQUAL "${TEXT}")
	file(WRITE ${OUT} "${TEXT}")
endif()
