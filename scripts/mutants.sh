#!/bin/sh
# Plants each defect below in turn, builds the test that should catch it,
# runs that test and puts the source back: a table of which tests catch
# what, so a later change to the tests can be audited the same way.
#
#   scripts/mutants.sh [BUILD_DIR] [NAME...]     (BUILD_DIR: build-mutants)
#
# A mutant is Perl substitutions on one file, which must change it (one
# that no longer matches is reported, not skipped in silence), and the
# test binary, with its Criterion filter, that must fail with it in place. Exit 1 if a mutant survived or no longer applies.
# Runs from the repository's top; touches nothing but the planted file,
# restored from a copy even when interrupted.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-mutants}
[ $# -gt 0 ] && shift
cd "$top" || exit 2

# name | file | substitution (no '|' in it) | test binary | filter
mutants() {
	cat <<'EOF'
holm-removed | bench/analyse/compare.c | s/stats_holm\(p, m, adj\);/memcpy(adj, p, m * sizeof(*p));/ | test_compare | compare/holm_holds_back_six_cells_each_significant_alone
hung-crashed-not-broken | bench/analyse/compare.c | s/return arm->failed \+ arm->hung \+ arm->crashed;/return arm->failed;/ | test_compare | compare/hung_or_crashed
pair-period-left-in | bench/commands/pair.c | s/t->delta\[t->n\+\+\] = paired_crossover\(g_ab, nab, g_ba, nba\);/t->delta[t->n++] = g_ab[nab \/ 2];/ | test_pair | pair/a_penalty_for_going_second_is_no_change
crossover-ab-only | bench/analyse/paired.c | s/rank_compare\(g_ba, nba, g_ab, nab, NAN, 0.05, &t\);\n\treturn t.shift \/ 2;/(void)g_ba; (void)nba; (void)t;\n\treturn g_ab[nab \/ 2];/ | test_pair | pair/crossover
no-system-time | bench/measure/measure.c | s/s->cpu_s = tv_s\(&ru.ru_utime\) \+ tv_s\(&ru.ru_stime\);/s->cpu_s = tv_s(&ru.ru_utime);/ | test_workload | workload/cpu_time_counts_system_time
bound-one-off-plan | bench/measure/placement.c | s/\? index : 0\) % p->nsets\]/? index + 1 : 1) % p->nsets]/ | test_placement | */*
placed-by-start-order | bench/measure/placement.c | s/want = place_want\(pl->plan, role, index\);/want = place_want(pl->plan, role, pl->n);/ | test_placement | */*
older-abi-loaded | bench/measure/plugin.c | s/if \(abi != want_abi\)/if (abi > want_abi)/ | test_dispatcher | dispatcher/an_older_abi_plugin_is_refused
mutex-grow-reorders | queues/mutex.c | s/slots\[i\] = q->slots\[\(q->head \+ i\) & q->mask\];/slots[i] = q->slots[(q->head + n - 1 - i) \& q->mask];/ | test_queue | queue/fifo_holds_through_growth
eventloop-outside-ignored | dispatchers/eventloop.c | s/if \(home == el_current && e->cfg.from == DISP_FROM_HOME\)/if (home == el_current)/ | test_workload | workload/loop_paths_show_in_counters
glib-invoke-outside-ignored | runtimes/glib_invoke.c | s/if \(g->cfg.from == DISP_FROM_OUTSIDE\) \{/if (0) {/ | test_workload | workload/loop_paths_show_in_counters
uv-outside-ignored | runtimes/uv.c | s/if \(home == uvd_self && u->cfg.from == DISP_FROM_HOME\)/if (home == uvd_self)/ | test_workload | workload/loop_paths_show_in_counters
stealing-yield-ignored | dispatchers/stealing.c | s/\tw->next = t;\n\tif \(s->cfg.yield_path == DISP_YIELD_SELF_WAKE\)/\tstealing_dispatch(d, t);\n\treturn;\n\tif (s->cfg.yield_path == DISP_YIELD_SELF_WAKE)/ | test_workload | workload/stealing_paths_show_in_counters
payload-not-run | bench/measure/workload.c | s/workload_burn\(w->payload_iters\);\n\tif \(workload_blocks_some/(void)0;\n\tif (workload_blocks_some/ | test_workload | workload/a_known_payload_costs_its_cpu
lost-not-counted | bench/measure/workload.c | s/c->lost \+= issued - runs;/(void)0;/ | test_workload | */*
limited-above-k | dispatchers/limited.c | s/< l->parallelism;/< l->parallelism + 1;/; s/>= l->parallelism\)/>= l->parallelism + 1)/ | test_dispatcher | dispatcher/limited_never_exceeds_k
floor-from-a-constant | bench/measure/floor.c | s/v\[i\] = floor_slice\(tasks, fn, seconds \/ FLOOR_SLICES\);/v[i] = 0.002;/ | test_floor | */*
no-bare-loop-in-run | bench/measure/cell.c | s/cJSON_AddNumberToObject\(x.run, "bare_loop_us_per_dispatch",\n\s*floor_bare_us\(CELL_FLOOR_S\)\);// | test_floor | */*
within-regime-ignored | bench/analyse/compare.c | s/if \(r->t.p_strat <= fmin\(r->t.p_shift, r->t.p_share\) &&/if (0 \&\&/ | test_compare | compare/a_shift_inside_both_regimes_regresses
slow-minority-equivalent | bench/analyse/compare.c | s/if \(up != hb && excess > band\) \{/if (0) {/ | test_compare | compare/a_slow_minority_is_never_equivalent
undecided-passes | bench/analyse/compare.c | s/\t\t\trc = COMPARE_UNDECIDED;/\t\t\t(void)0;/ | test_compare | compare/undecided_exits_3_unless_accepted
advise-from-defaults | bench/commands/advise.c | s/bool from = c->args.a.from != NULL;/bool from = false;/ | test_cli | cli/advise_from_names_what_the_file_measured
advise-aside-denied | bench/analyse/advise.c | s/if \(p->aside_meets < 0 && advise_meets\(&rows\[i\], t\)\)/if (0)/ | test_advise | advise/a_width_set_aside_that_meets_is_named_not_denied
split-dearer-recommended | bench/analyse/advise.c | s/return sp->cpu_us < one->cpu_us &&\n\t    !\(sp->load_cpu_us_op > one->load_cpu_us_op\);/return sp->cpu_us < one->cpu_us;/ | test_advise | advise/a_split_that_meets_it_for_less_is_recommended
split-by-resumptions | bench/measure/workload.c | s/c->phase \+ runs - 2 \* hops/c->phase + runs/ | test_workload | workload/a_split_hops_its_blocking_steps_to_a_view
split-hops-not-awaited | bench/measure/workload.c | s/back &= workload_wait\(&w->hopping, 0, true, deadline\);// | test_workload | workload/a_split_stops_once_its_hops_have_left
stalled-counted-ok | bench/measure/cell.c | s/\t\tcell_stalled\(run, win->time_s\);/\t\t(void)0;/ | test_workload | workload/a_window_with_no_dispatch_is_stalled
host-never-busy | bench/measure/measure.h | s/#define MEASURE_HOST_BUSY\t0.05/#define MEASURE_HOST_BUSY\t1.0/ | test_workload | workload/a_window_beside_other_load_is_marked
busy-apart-judged | bench/analyse/compare.c | s/\t    COMPARE_BUSY_APART;/\t    1;/ | test_compare | compare/sides_run_apart_on_a_busy_machine_are_undecided
summary-busy-uncounted | bench/analyse/results.c | s/busy \+= cJSON_IsTrue/busy -= 0 * cJSON_IsTrue/ | test_workload | workload/a_window_beside_other_load_is_marked
summary-stalls-uncounted | bench/analyse/results.c | s/stalled \+= cJSON_IsString/stalled -= 0 * cJSON_IsString/ | test_workload | workload/a_window_with_no_dispatch_is_stalled
stall-fails-sweep | bench/runner.c | s/\t    strcmp\(results_str\(run, "status", "\?"\), "stalled"\) != 0;/\t    1;/ | test_cli | cli/a_stalled_window_is_said_not_failed
export-no-reference | bench/analyse/export.c | s/\tif \(table_for_people\(f\)\)\n\t\texport_reference\(rows, doc\);\n// | test_cli | cli/export_states_the_harness_cost_beside_the_designs
words-unbounded | bench/cli.c | s/ && out->nwords < out->maxwords\)/)/ | test_cli | cli/every_command_refuses_a_word_more_than_a_call_holds
summary-unchecked | bench/analyse/results.c | s/\t\treturn 0;\n\tfor \(i = 0; names\[i\].type != want; i\+\+\)/\t\treturn 0;\n\treturn 0;\n\tfor (i = 0; names[i].type != want; i++)/ | test_cli | cli/a_summary_without_its_median_is_named_by_every_reader
cost-sweep-vetoes | bench/analyse/advise.c | s/return r->starving == 0 && r->failed == 0;/return r->starving + r->cost_starving == 0 \&\& r->failed == 0;/ | test_advise | advise/starving_in_the_cost_sweep_is_a_caution_not_a_veto
advise-from-any-load | bench/analyse/advise.c | s/\tif \(load == NULL && held\[0\] != '\\0'\)/\tif (0)/ | test_cli | cli/advise_from_refuses_a_load_the_file_does_not_hold
EOF
}

trim() {
	printf '%s' "$1" | sed 's/^ *//; s/ *$//'
}

# Plants one mutant in place; 1 when its substitutions change nothing.
plant() {
	MUT_SUBST=$2 perl -0pi -e 'eval $ENV{MUT_SUBST}; die $@ if $@' "$1" ||
	    return 1
	! cmp -s "$1" "$1.orig"
}

# Puts the source back, newer than the mutant's objects so they rebuild.
restore() {
	if [ -n "${planted:-}" ] && [ -f "$planted.orig" ]; then
		mv "$planted.orig" "$planted" && touch "$planted"
	fi
	planted=
}
trap 'restore; exit 130' INT TERM
trap restore EXIT

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
list=$build/mutants.list
mutants >"$list"
printf '%-28s %-16s %s\n' mutant test result
status=0
while IFS='|' read -r name file subst test filter; do
	name=$(trim "$name"); file=$(trim "$file"); test=$(trim "$test")
	filter=$(trim "$filter"); subst=$(trim "$subst")
	if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then
		continue
	fi
	cp "$file" "$file.orig" && planted=$file
	if ! plant "$file" "$subst"; then
		result="does not apply: update its substitution"
	elif ! cmake --build "$build" -j2 --target dispatchbench "$test" \
	    >"$build/mutant-$name.log" 2>&1; then
		result="caught: does not build"
	elif timeout 900 "$build/tests/$test" --jobs 1 --filter "$filter" \
	    >>"$build/mutant-$name.log" 2>&1; then
		result="SURVIVED"
		grep -q 'Tested: 0 ' "$build/mutant-$name.log" &&
		    result="no test matches $filter"
	else
		result="caught"
	fi
	restore
	printf '%-28s %-16s %s\n' "$name" "$test" "$result"
	case $result in caught*) ;; *) status=1 ;; esac
done <"$list"
exit $status
