/*
 * identity.h - which machine measured a result: the fields of a results
 * file's context that move a figure when they change (the host, the CPU's
 * vendor, family, model, stepping and microcode, its caches and the flags
 * that change code paths, SMT, the hypervisor, the online CPUs, cpuset and
 * topology, the kernel, the governor, boost and transparent huge pages, the
 * build type, the compiler and its flags). Two contexts that differ in any
 * of them are two machines: a new CPU under the same model string measured
 * every handoff 1.3 to 4.7 times dearer with the same code.
 *
 * The identity_* namespace reads a context (results_context's object) and
 * keeps nothing. A field a file does not record is "unrecorded": two files
 * that both lack it agree on it, one that has it and one that lacks it do
 * not, since nothing says they were one machine.
 */
#ifndef BENCH_IDENTITY_H
#define BENCH_IDENTITY_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * Every field as "name=value" joined by ';' in a fixed order: one string
 * per machine, what a store keys its machines by.
 */
void identity_key(const cJSON *ctx, char *buf, size_t len);

/*
 * The number of fields in which a and b differ (0: one machine), and buf
 * says which, on one line: the values where both record the field, then
 * the fields only one records, by name: "family '25' against '26', L1d
 * '32 KB' against '48 KB'; unrecorded against recorded: vendor, SMT".
 */
int identity_diff(const cJSON *a, const cJSON *b, char *buf, size_t len);

#endif /* BENCH_IDENTITY_H */
