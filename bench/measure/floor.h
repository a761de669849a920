/*
 * floor.h - the least a dispatch can cost on this machine, measured in
 * the run's own process: the reference every design's figure is read
 * against.
 *
 * The bare loop is a dispatch with nothing of the harness in it: 64
 * tasks in an array FIFO, each popped and called through its function
 * pointer, each pushing itself back. No count check, no coroutine, no
 * design: what is left is a load, an indirect call and a store. `inline`
 * is the same loop with the harness around it (the workload's counts and
 * turn, the dispatcher's table, the trampoline), so inline over the bare
 * loop is the harness's own cost, and every design pays it.
 */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

/*
 * Runs the bare loop on the calling thread for about seconds of its CPU
 * time, in slices after a warm-up one; returns the median slice's CPU
 * microseconds per dispatch.
 */
double floor_bare_us(double seconds);

#endif /* BENCH_FLOOR_H */
