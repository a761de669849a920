// main.go - dispatchbench's external program for Go's scheduler (Go 1.19,
// Debian's golang-go), speaking the suite's external-program protocol,
// version 1, on stdin and stdout.
//
//	dbgo gosched --workers N --coroutines C
//	dbgo chan --workers N --coroutines C
//
// gosched: GOMAXPROCS N and C goroutines that each yield with
// runtime.Gosched after every resumption: Go's yield path, the one the
// model `stealing --yield go` imitates (Go 1.19's goschedImpl puts the
// goroutine on the global run queue under sched.lock).
// chan: GOMAXPROCS N and N worker goroutines ranging over one shared
// buffered channel of capacity C: a fixed pool polling one shared queue,
// with Go's channel as the queue; a coroutine re-dispatches itself by
// sending itself back into the channel.
//
// No counter lines: Go keeps no scheduler counters that the program itself
// can read (steals, parks and the like live only in the runtime's private
// state and its execution tracer).
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// coroutine holds one coroutine's counters, each written only by the
// coroutine itself, padded to a cache line of its own so that no two
// coroutines share one on the hot path.
type coroutine struct {
	dispatched uint64 // handoffs to the runtime, the first included
	resumed    uint64 // resumptions the runtime ran, the last included
	_          [48]byte
}

type bench struct {
	cos   []coroutine
	stop  atomic.Bool
	ended sync.WaitGroup
	ch    chan *coroutine // chan mode's shared queue
}

func main() {
	mode, workers, coroutines, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "dbgo:", err)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(workers)
	b := &bench{cos: make([]coroutine, coroutines)}
	b.ended.Add(coroutines)
	what := "Gosched"
	if mode == "chan" {
		what = "chan"
		b.startChan(workers)
	} else {
		b.startGosched()
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "ready Go", runtime.Version(), what)
	out.Flush()
	b.control(bufio.NewScanner(os.Stdin), out)
}

// parseArgs takes MODE --workers N --coroutines C, the options last and in
// that order, as the protocol passes them.
func parseArgs(args []string) (string, int, int, error) {
	const usage = "usage: dbgo gosched|chan --workers N --coroutines C"
	if len(args) != 5 || args[1] != "--workers" || args[3] != "--coroutines" {
		return "", 0, 0, fmt.Errorf("%s", usage)
	}
	if args[0] != "gosched" && args[0] != "chan" {
		return "", 0, 0, fmt.Errorf("unknown mode %q; %s", args[0], usage)
	}
	workers, err := positive("--workers", args[2])
	if err != nil {
		return "", 0, 0, err
	}
	coroutines, err := positive("--coroutines", args[4])
	if err != nil {
		return "", 0, 0, err
	}
	return args[0], workers, coroutines, nil
}

func positive(name, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s wants a positive integer, not %q", name, s)
	}
	return n, nil
}

// startGosched counts each go statement as the coroutine's first handoff,
// made before the goroutine exists so that only it writes the counter after.
func (b *bench) startGosched() {
	for i := range b.cos {
		co := &b.cos[i]
		co.dispatched = 1
		go b.gosched(co)
	}
}

func (b *bench) gosched(co *coroutine) {
	defer b.ended.Done()
	for {
		atomic.AddUint64(&co.resumed, 1)
		if b.stop.Load() {
			return
		}
		atomic.AddUint64(&co.dispatched, 1)
		runtime.Gosched()
	}
}

// startChan starts the pool, then queues every coroutine once. The channel
// holds all C, so a send never blocks: a coroutine being resumed is not in
// it.
func (b *bench) startChan(workers int) {
	b.ch = make(chan *coroutine, len(b.cos))
	for w := 0; w < workers; w++ {
		go b.worker()
	}
	for i := range b.cos {
		co := &b.cos[i]
		co.dispatched = 1
		b.ch <- co
	}
}

func (b *bench) worker() {
	for co := range b.ch {
		b.resume(co)
	}
}

func (b *bench) resume(co *coroutine) {
	atomic.AddUint64(&co.resumed, 1)
	if b.stop.Load() {
		b.ended.Done()
		return
	}
	atomic.AddUint64(&co.dispatched, 1)
	b.ch <- co
}

// control answers the suite's requests until stop or EOF; returning from
// main ends the process with the goroutines still running, as EOF asks.
func (b *bench) control(in *bufio.Scanner, out *bufio.Writer) {
	for in.Scan() {
		switch in.Text() {
		case "count":
			b.report(out, "count")
		case "stop":
			b.stop.Store(true)
			b.ended.Wait()
			b.report(out, "stopped")
			return
		default:
			fmt.Fprintf(os.Stderr, "dbgo: unknown request %q\n", in.Text())
		}
	}
}

// report writes `WORD D R_0 ... R_{C-1}` from one pass of atomic loads, so
// nothing pauses; D is summed in the same pass.
func (b *bench) report(out *bufio.Writer, word string) {
	line := make([]byte, 0, 16+21*len(b.cos))
	var d uint64
	for i := range b.cos {
		d += atomic.LoadUint64(&b.cos[i].dispatched)
		line = append(line, ' ')
		line = strconv.AppendUint(line, atomic.LoadUint64(&b.cos[i].resumed), 10)
	}
	out.WriteString(word)
	out.WriteByte(' ')
	out.WriteString(strconv.FormatUint(d, 10))
	out.Write(line)
	out.WriteByte('\n')
	out.Flush()
}
