# Writes OUT with the revision the build is made from, at build time, and
# only when it changed: a results file must not name a stale commit.
# REV, when given (scripts/build-rev.sh builds from an archive), wins.
if(NOT REV)
	execute_process(COMMAND git rev-parse --short HEAD
		WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE REV
		OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
	execute_process(COMMAND git status --porcelain --untracked-files=no
		WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE DIRTY ERROR_QUIET)
	if(REV AND DIRTY)
		string(APPEND REV "-dirty")
	endif()
endif()
if(NOT REV)
	set(REV "unknown")
endif()
set(TEXT "#define DB_GIT_REV \"${REV}\"\n")
if(EXISTS ${OUT})
	file(READ ${OUT} OLD)
endif()
if(NOT "${OLD}" STREQUAL "${TEXT}")
	file(WRITE ${OUT} "${TEXT}")
endif()
