//! main.rs - dispatchbench's external program for Tokio's schedulers
//! (Tokio 1.24, Debian's librust-tokio-dev), speaking the suite's
//! external-program protocol, version 1, on stdin and stdout.
//!
//!     dbtokio multi_thread --workers N --coroutines C
//!     dbtokio current_thread --workers 1 --coroutines C
//!
//! C tasks, each yielding with `tokio::task::yield_now` after every
//! resumption: Tokio's yield path, the one the model `stealing --yield
//! tokio` imitates. multi_thread is Tokio's work-stealing pool of N
//! workers; current_thread is its single-threaded scheduler, run by
//! block_on on a thread of its own so that the main thread stays the
//! control thread. Neither runtime has an I/O or a time driver.
//!
//! Built with `--cfg tokio_unstable` for Tokio's RuntimeMetrics, printed
//! as `counter` lines at stop.

use std::io::{self, BufRead, Write};
use std::process::exit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread;

use tokio::runtime::{Builder, Runtime, RuntimeMetrics};
use tokio::task::JoinHandle;

/// The tokio crate's version, passed in by the build: the crate does not
/// export it.
const TOKIO_VERSION: &str = match option_env!("DB_TOKIO_VERSION") {
    Some(v) => v,
    None => "unknown",
};

const USAGE: &str = "usage: dbtokio multi_thread|current_thread --workers N --coroutines C";

/// One coroutine's counters, each written only by its task, on a cache
/// line of its own so that no two tasks share one on the hot path.
#[repr(align(64))]
#[derive(Default)]
struct Counters {
    dispatched: AtomicU64, // handoffs to the runtime, the first included
    resumed: AtomicU64,    // resumptions the runtime ran, the last included
}

struct Bench {
    cos: Box<[Counters]>,
    stop: AtomicBool,
}

#[derive(Clone, Copy, PartialEq)]
enum Flavor {
    MultiThread,
    CurrentThread,
}

struct Args {
    flavor: Flavor,
    workers: usize,
    coroutines: usize,
}

/// The runtime while it runs: how to wait for every task to end and for
/// the runtime to be gone.
enum Running {
    Multi(Runtime, Vec<JoinHandle<()>>),
    Current(thread::JoinHandle<()>),
}

fn main() {
    let args = parse_args(std::env::args().skip(1).collect()).unwrap_or_else(|e| {
        eprintln!("dbtokio: {}", e);
        exit(2)
    });
    let bench = Arc::new(Bench {
        cos: (0..args.coroutines).map(|_| Counters::default()).collect(),
        stop: AtomicBool::new(false),
    });
    let rt = build(&args);
    // The metrics hold the runtime's handle, so they can be read after the
    // runtime is dropped: only then has every worker submitted its last
    // batch (Tokio 1.24 copies a worker's counts out at maintenance, at a
    // park and at shutdown).
    let metrics = rt.metrics();
    let tasks = spawn_all(&rt, &bench);
    let running = start(rt, tasks, args.flavor);
    let what = match args.flavor {
        Flavor::MultiThread => "multi_thread",
        Flavor::CurrentThread => "current_thread",
    };
    answer(&format!("ready Tokio {} {}", TOKIO_VERSION, what));
    control(&bench, running, &metrics);
}

/// Takes MODE --workers N --coroutines C, the options last and in that
/// order, as the protocol passes them.
fn parse_args(args: Vec<String>) -> Result<Args, String> {
    if args.len() != 5 || args[1] != "--workers" || args[3] != "--coroutines" {
        return Err(USAGE.to_string());
    }
    let flavor = match args[0].as_str() {
        "multi_thread" => Flavor::MultiThread,
        "current_thread" => Flavor::CurrentThread,
        m => return Err(format!("unknown mode {:?}; {}", m, USAGE)),
    };
    let workers = positive("--workers", &args[2])?;
    let coroutines = positive("--coroutines", &args[4])?;
    if flavor == Flavor::CurrentThread && workers != 1 {
        return Err(format!("current_thread runs one worker, not {}", workers));
    }
    Ok(Args {
        flavor,
        workers,
        coroutines,
    })
}

fn positive(name: &str, s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{} wants a positive integer, not {:?}", name, s)),
    }
}

/// No enable_io or enable_time: without drivers a worker parks on a
/// condvar and its zero-timeout polls of the driver are no-ops.
fn build(args: &Args) -> Runtime {
    let mut builder = match args.flavor {
        Flavor::MultiThread => {
            let mut b = Builder::new_multi_thread();
            b.worker_threads(args.workers);
            b
        }
        Flavor::CurrentThread => Builder::new_current_thread(),
    };
    builder.build().unwrap_or_else(|e| {
        eprintln!("dbtokio: cannot start the runtime: {}", e);
        exit(1)
    })
}

/// Spawns every task from the control thread, each spawn counted as its
/// task's first handoff before the task exists, so that only the task
/// writes the counter after.
fn spawn_all(rt: &Runtime, bench: &Arc<Bench>) -> Vec<JoinHandle<()>> {
    (0..bench.cos.len())
        .map(|i| {
            bump(&bench.cos[i].dispatched);
            rt.spawn(coroutine(Arc::clone(bench), i))
        })
        .collect()
}

async fn coroutine(bench: Arc<Bench>, i: usize) {
    let c = &bench.cos[i];
    loop {
        bump(&c.resumed);
        if bench.stop.load(Relaxed) {
            break;
        }
        bump(&c.dispatched);
        tokio::task::yield_now().await;
    }
}

/// One writer per counter: a load and a store, no locked add, as the
/// suite's own coroutines count.
fn bump(counter: &AtomicU64) {
    counter.store(counter.load(Relaxed) + 1, Relaxed);
}

/// The multi-thread runtime's workers already run; the current-thread
/// scheduler runs only inside block_on, so it gets a thread of its own,
/// which drops the runtime when every task has ended.
fn start(rt: Runtime, tasks: Vec<JoinHandle<()>>, flavor: Flavor) -> Running {
    match flavor {
        Flavor::MultiThread => Running::Multi(rt, tasks),
        Flavor::CurrentThread => Running::Current(thread::spawn(move || {
            rt.block_on(join_all(tasks));
        })),
    }
}

async fn join_all(tasks: Vec<JoinHandle<()>>) {
    for t in tasks {
        t.await.expect("a coroutine panicked");
    }
}

/// Waits for every task to end, then for the runtime to shut down.
fn finish(running: Running) {
    match running {
        Running::Multi(rt, tasks) => rt.block_on(join_all(tasks)),
        Running::Current(runner) => runner.join().expect("the runtime thread panicked"),
    }
}

/// Answers the suite's requests until stop or EOF; EOF exits at once,
/// leaving the runtime running.
fn control(bench: &Bench, running: Running, metrics: &RuntimeMetrics) {
    for line in io::stdin().lock().lines() {
        let line = line.unwrap_or_else(|_| exit(0));
        match line.as_str() {
            "count" => answer(&counts("count", bench)),
            "stop" => {
                bench.stop.store(true, Relaxed);
                finish(running);
                for (name, value) in counters(metrics) {
                    answer(&format!("counter {} {}", name, value));
                }
                answer(&counts("stopped", bench));
                return;
            }
            _ => eprintln!("dbtokio: unknown request {:?}", line),
        }
    }
    exit(0);
}

/// `WORD D R_0 ... R_{C-1}` from one pass of atomic loads, so nothing
/// pauses; D is summed in the same pass.
fn counts(word: &str, bench: &Bench) -> String {
    let mut d = 0u64;
    let mut rs = String::with_capacity(21 * bench.cos.len());
    for c in bench.cos.iter() {
        d += c.dispatched.load(Relaxed);
        rs.push(' ');
        rs.push_str(&c.resumed.load(Relaxed).to_string());
    }
    format!("{} {}{}", word, d, rs)
}

/// Tokio's own scheduler counters over the run, summed over workers. Each
/// comment says what Tokio 1.24.2 counts, read in its source
/// (src/runtime/metrics/batch.rs and the schedulers), not in its docs.
fn counters(m: &RuntimeMetrics) -> Vec<(&'static str, u64)> {
    let sum =
        |f: fn(&RuntimeMetrics, usize) -> u64| (0..m.num_workers()).map(|w| f(m, w)).sum::<u64>();
    vec![
        // Tasks moved by successful steals (steal_into adds the number of
        // tasks taken, not 1 per steal as the docs say); 0 on current_thread.
        ("stolen", sum(RuntimeMetrics::worker_steal_count)),
        // Real parks (park with no timeout); the zero-timeout driver polls
        // of maintenance and of deferred wake-ups are not counted.
        ("parks", sum(RuntimeMetrics::worker_park_count)),
        // Parks with no task polled since the previous park (or since the
        // start): wake-ups that found no work.
        ("noop_unparks", sum(RuntimeMetrics::worker_noop_count)),
        // Task polls, LIFO-slot polls included; block_on's own future is
        // not a task and is not counted.
        ("polls", sum(RuntimeMetrics::worker_poll_count)),
        // Schedules of a task from a worker thread holding its core: a
        // yield_now's deferred wake-up, or a spawn or wake from a task.
        (
            "local_schedules",
            sum(RuntimeMetrics::worker_local_schedule_count),
        ),
        // Times a worker's local run queue was full and it moved half of
        // it to the injection queue; 0 on current_thread.
        ("overflows", sum(RuntimeMetrics::worker_overflow_count)),
        // Tasks pushed to the injection queue from outside a worker: here
        // the C spawns from the control thread.
        ("remote_schedules", m.remote_schedule_count()),
    ]
}

/// One answer line, flushed at once; a closed stdout ends the program.
fn answer(line: &str) {
    let mut out = io::stdout().lock();
    if writeln!(out, "{}", line).and_then(|_| out.flush()).is_err() {
        exit(0);
    }
}
