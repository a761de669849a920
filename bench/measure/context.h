/*
 * context.h - what could skew a number, read where the runs are made: the
 * date, the host, the CPU model, its clock and governor where the kernel
 * has them, the online CPUs, the topology, caches and cpuset (hwloc), the
 * CPU itself (cpu: its vendor, family, model, stepping and microcode, the
 * flags that change code paths and a digest of all, SMT, the hypervisor,
 * boost, transparent huge pages), the kernel, the compiler, the build type
 * and flags, the revision and the binary's checksum, and the command line.
 */
#ifndef BENCH_CONTEXT_H
#define BENCH_CONTEXT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* The context of this process as a JSON object (the results' "context"). */
cJSON *context_read(int argc, char **argv);

/* sha256 of a file, by coreutils' sha256sum; "unknown" if unread. */
void context_sha256(const char *path, char *buf, size_t len);

/*
 * Another build's own revision and build type, as its --version says
 * them, over ctx's (which were this process's): an ab arm's results name
 * the build that ran them. Flags that build does not tell become
 * "unknown"; a binary that says nothing leaves "unknown" for all. Its
 * commit's time and depth (git_time, git_depth) are not recorded.
 */
void context_of_binary(cJSON *ctx, const char *path);

#endif /* BENCH_CONTEXT_H */
