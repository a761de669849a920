#include <benchmark/benchmark.h>
static void BM_x(benchmark::State& s) { for (auto _ : s) benchmark::DoNotOptimize(s.iterations()); s.counters["ops_per_s"] = benchmark::Counter(1, benchmark::Counter::kIsRate); }
BENCHMARK(BM_x)->Arg(8)->Repetitions(3);
BENCHMARK_MAIN();
