/*
 * RF() of a key the list names compiles; of one it does not (a letter
 * swapped) it must not: tests/CMakeLists.txt compiles this file and
 * wants the compiler's error naming the misspelt key.
 */
#include "runfields.h"

const char *const spelt = RF(cpu_us_per_dispatch);
const char *const misspelt = RF(cpu_us_per_dipsatch);
