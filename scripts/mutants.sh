#!/bin/sh
# Plants each defect below in turn, builds the test that should catch it,
# runs that test and puts the source back: a table of which tests catch
# what, so a later change to the tests can be audited the same way.
#
#   scripts/mutants.sh [BUILD_DIR] [NAME...]     (BUILD_DIR: build-mutants)
#
# A mutant is Perl substitutions on one file, which must change it (one
# that no longer matches is reported, not skipped in silence), and the
# test binary, with its Criterion filter, that must fail with it in place.
# Ends with a tally by area (the planted file's, see area()): caught of
# those run. Exit 1 if a mutant survived or no longer applies.
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
hung-crashed-not-broken | bench/analyse/judge.c | s/return arm->failed \+ arm->hung \+ arm->crashed;/return arm->failed;/ | test_compare | compare/hung_or_crashed
pair-period-left-in | bench/analyse/tally.c | s/t->delta\[t->n\+\+\] = paired_crossover\(g_ab, nab, g_ba, nba\);/t->delta[t->n++] = g_ab[nab \/ 2];/ | test_pair | pair/a_penalty_for_going_second_is_no_change
crossover-ab-only | bench/analyse/paired.c | s/rank_compare\(g_ba, nba, g_ab, nab, NAN, 0.05, &t\);\n\treturn t.shift \/ 2;/(void)g_ba; (void)nba; (void)t;\n\treturn g_ab[nab \/ 2];/ | test_pair | pair/crossover
no-system-time | bench/measure/measure.c | s/s->cpu_s = tv_s\(&ru.ru_utime\) \+ tv_s\(&ru.ru_stime\);/s->cpu_s = tv_s(&ru.ru_utime);/ | test_workload | workload/cpu_time_counts_system_time
bound-one-off-plan | bench/measure/placement.c | s/\? index :\n\t    0\) % p->nsets\]/? index + 1 :\n\t    1) % p->nsets]/ | test_placement | */*
placed-by-start-order | bench/measure/placement.c | s/want = place_want\(pl->plan, role, index\);/want = place_want(pl->plan, role, pl->n);/ | test_placement | */*
older-abi-loaded | bench/measure/plugin.c | s/if \(abi < oldest .. abi > want_abi\) \{/if (abi > want_abi) {/ | test_dispatcher | dispatcher/an_older_abi_plugin_is_refused
header-declares-a-symbol | include/dispatchbench/dispatcher.h | s/(#define DB_DISP_COUNTER_MAX\t32\n)/$1extern const char *const db_disp_counter_names[];\n/ | test_dispatcher | dispatcher/the_installed_headers_need_no_symbol_of_the_suite
mutex-grow-reorders | queues/mutex.c | s/slots\[i\] = q->slots\[\(q->head \+ i\) & q->mask\];/slots[i] = q->slots[(q->head + n - 1 - i) \& q->mask];/ | test_queue | queue/fifo_holds_through_growth
lfseg-stall-wall-clock | queues/lfseg.c | s/CLOCK_THREAD_CPUTIME_ID/CLOCK_MONOTONIC/g | test_queue | queue/lfseg_counts_the_cpu_of_a_stalled_spin
lfseg-stall-uncounted | queues/lfseg.c | s/atomic_fetch_add_explicit\(&c->stall_ns,/(void)(&c->stall_ns,/ | test_queue | queue/lfseg_counts_the_cpu_of_a_stalled_spin
lfseg-stall-never-reached | queues/lfseg.c | s/LFSEG_STALL_POLLS\t4096/LFSEG_STALL_POLLS\t4294967295u/ | test_queue | queue/lfseg_counts_the_cpu_of_a_stalled_spin
portrait-stalls-unsaid | bench/analyse/portrait.c | s/\tportrait_stalls\(out, s, &k\);\n// | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
portrait-stalls-ends-swapped | bench/analyse/portrait.c | s/a = results_stat\(s->cell\[0\]/a = results_stat(s->cell[s->n - 1]/ | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
run-probe-binding-left | bench/measure/probe.c | s/\tif \(p->planned\) \{\n\t\thwloc_set_cpubind\(p->plan.topo, p->home, HWLOC_CPUBIND_THREAD\);/\tif (p->planned) {/ | test_placement | placement/a_run_says_how_far_apart_the_cpus_were_at_each_end
run-probe-after-unrecorded | bench/measure/cell.c | s/"line_round_trip_ns_after",/"line_round_trip_ns_later",/ | test_placement | placement/a_run_says_how_far_apart_the_cpus_were_at_each_end
placement-moved-taken-by-start | bench/analyse/results.c | s/if \(\(a > boundary\) != \(b > boundary\)\)\n\t\treturn RESULTS_MOVED;// | test_report | report/starved_split_busy_and_stalled_cells_are_named
placement-unsaid | bench/analyse/findings.c | s/pl = findings_placed\(cell\);/pl = NULL;/ | test_report | report/starved_split_busy_and_stalled_cells_are_named
placement-unchecked | bench/analyse/results.c | s/if \(pl != NULL && results_check_placement\(&inp, pl\) != 0\)/if (0)/ | test_cli | cli/bad_input
export-placement-unnoted | bench/analyse/export.c | s/if \(pl != NULL\)\n\t\tsnprintf\(buf, sizeof\(buf\), "two placements/if (0)\n\t\tsnprintf(buf, sizeof(buf), "two placements/ | test_report | report/the_page_speaks_of_groups_not_regimes
groups-swapped | bench/analyse/results.c | s/if \(\(v\[i\] > boundary\) == side\)/if ((v[i] <= boundary) == side)/ | test_report | report/export_gives_each_group_its_figure
groups-old-files-none | bench/analyse/results.c | s/\tn = results_values\(results_arr\(cell, "runs"\), field, &v\);\n\tresults_split\(v, n, results_num\(bi, "boundary"\), g\);\n\tfree\(v\);\n\treturn true;/\t(void)v; (void)n;\n\treturn false;/ | test_report | report/export_gives_each_group_its_figure
advise-groups-untold | bench/analyse/advise.c | s/if \(pl == NULL && results_groups\(cell, RF\(cpu_us_per_dispatch\), &g\)\) \{/if (0 \&\& results_groups(cell, RF(cpu_us_per_dispatch), \&g)) {/ | test_advise | advise/a_cost_in_two_groups_is_told_by_each
advise-groups-over-placement | bench/analyse/advise.c | s/if \(pl == NULL && results_groups/if (results_groups/ | test_advise | advise/a_cost_in_two_groups_is_told_by_each
core-speed-unchecked | bench/analyse/compare.c | s/\t    probes_core_moved\(base, new, o->threshold,/\t    0 * probes_core_moved(base, new, o->threshold,/ | test_compare | compare/a_core_at_another_speed_is_another_machine
core-speed-any-move | bench/analyse/probes.c | s/return t->p < alpha && fabs\(expm1\(t->shift\)\) > threshold;/return t->p < alpha;/ | test_compare | compare/a_core_at_another_speed_is_another_machine
history-runs-bare-unread | bench/history/sittings.c | s/\treturn sittings_runs_moved\(si, before, nb, after, na, slower, step,\n\t    why, len\);/\treturn false;/ | test_history | history/a_step_the_runs_bare_loop_moved_with_is_the_machine
history-runs-bare-either-way | bench/history/sittings.c | s/\(t.shift > 0\) == slower && //; | test_history | history/a_step_the_runs_bare_loop_moved_with_is_the_machine
advise-memory-every-design | bench/analyse/advise.c | s/\t\tif \(!advise_of\(cell, s\)\)\n\t\t\tcJSON_Delete/\t\tif (0)\n\t\t\tcJSON_Delete/ | test_advise | advise/memory_is_the_advised_designs_alone
history-runs-bare-any-size | bench/history/sittings.c | s/ && fabs\(t.shift\) >= fabs\(log\(step\)\) \/ 2;/;/ | test_history | history/a_step_the_runs_bare_loop_moved_with_is_the_machine
core-speed-failed-runs-read | bench/analyse/probes.c | s/if \(results_ok\(run\) && cJSON_IsNumber\(f\) &&/if (cJSON_IsNumber(f) \&\&/ | test_compare | compare/a_core_at_another_speed_is_another_machine
placement-apart-ignored | bench/analyse/results.c | s/return near > 0 && far > 0 && fmax\(near, far\) >= RESULTS_PLACED_APART \*\n\t    fmin\(near, far\) \? pl : NULL;/return near > 0 \&\& far > 0 ? pl : NULL;/ | test_report | report/starved_split_busy_and_stalled_cells_are_named
beside-placement-ignored | bench/analyse/compare.c | s/if \(both & \(1u << place.side\)\)/if (0)/ | test_compare | compare/beside_compares_each_placement_of_the_cpus_on_its_own
judge-place-unfiltered | bench/analyse/judge.c | s/if \(place != NULL && strcmp\(st, "ok"\) == 0 &&/if (0 \&\&/ | test_compare | compare/beside_compares_each_placement_of_the_cpus_on_its_own
export-placement-figures-dropped | bench/analyse/export.c | s/if \(strcmp\(stat, "near"\) != 0 && strcmp\(stat, "far"\) != 0\)/if (1)/ | test_report | report/export_gives_each_placement_its_figure
strata-pooled | bench/analyse/rank_strata.c | s/s->a\[sa\[i\]\]\[s->na\[sa\[i\]\]\+\+\] = a\[i\];/s->a[0][s->na[0]++] = a[i];/ | test_stats | stats/the_test_within_strata_counts_every_assignment
strata-interval-one-block | bench/analyse/rank_shift.c | s/for \(\*top = 0, k = 0; k < nbl; k\+\+\) \{/for (*top = 0, k = 0; k < 1; k++) {/ | test_stats | stats/the_test_within_strata_counts_every_assignment
judge-placed-never | bench/analyse/judge.c | s/if \(!r->exact && !r->difference && judge_placed\(r, l, side\)\)/if (0)/ | test_compare | compare/a_placement_the_host_dealt_is_not_the_builds
judge-placed-apart-ignored | bench/analyse/judge.c | s/>= log\(RESULTS_PLACED_APART\);/>= 0;/ | test_compare | compare/placements_that_moved_nothing_are_pooled
judge-placed-tail-unaligned | bench/analyse/judge.c | s/\tjudge_align\(l, side, n\);\n// | test_compare | compare/a_placement_the_host_dealt_is_not_the_builds
outcome-placed-unsaid | bench/analyse/outcome.c | s/snprintf\(buf \+ used, len - used, " within placements"\);/;/ | test_compare | compare/a_change_within_each_placement_is_the_verdict
advise-placement-unread | bench/analyse/advise.c | s/\t\tadvise_placed\(r, cell\);\n// | test_advise | advise/a_cost_two_placements_moved_is_told_on_each
run-field-unlisted | bench/measure/cell.c | s/RF\(cpus_busy\)/"cpus_busy_now"/ | test_cli | cli/a_run_writes_only_the_fields_the_list_names
run-field-type-unchecked | bench/analyse/results.c | s/results_rf_type\(rf->type\)\) != 0/0xff) != 0/ | test_cli | cli/bad_input
schema-field-unnamed | results/README.md | s/, .errors_after. \x7c/ \x7c/ | test_docs | docs/the_schema_lists_every_run_field_and_no_other
format-row-stale | docs/options.md | s/the plan's format: table, csv, markdown, json, html or gbench/the plan's format: table, csv, markdown, json or html/ | test_docs | docs/every_format_option_lists_every_format
beside-plot-pooled | bench/analyse/figure.c | s/if \(\(both & \(1u << side\)\) && /if (0 \&\& / | test_pictures | pictures/beside_draws_each_placement_of_the_cpus_apart
ab-builds-unsaid | bench/analyse/compare.c | s/\t\tcompare_builds\(base, new, w.machines, sizeof\(w.machines\)\);/\t\tw.machines[0] = 0;/ | test_identity | identity/ab_compares_two_builds_of_one_machine
eventloop-outside-ignored | dispatchers/eventloop.c | s/if \(home == el_current && e->k.from == DISP_FROM_HOME\)/if (home == el_current)/ | test_workload | workload/loop_paths_show_in_counters
glib-invoke-outside-ignored | runtimes/glib_invoke.c | s/if \(g->k.from == DISP_FROM_OUTSIDE\) \{/if (0) {/ | test_workload | workload/loop_paths_show_in_counters
uv-outside-ignored | runtimes/uv.c | s/if \(home == uvd_self && u->k.from == DISP_FROM_HOME\)/if (home == uvd_self)/ | test_workload | workload/loop_paths_show_in_counters
stealing-yield-ignored | dispatchers/stealing.c | s/\tw->next = t;\n\tif \(s->k.yield_path == DISP_YIELD_SELF_WAKE\)/\tstealing_dispatch(d, t);\n\treturn;\n\tif (s->k.yield_path == DISP_YIELD_SELF_WAKE)/ | test_workload | workload/stealing_paths_show_in_counters
go-g-stack-skipped | dispatchers/stealing.c | s/\tgstack_gogo\(gp\);/\tt->fn(t);/ | test_dispatcher | dispatcher/stealing_go_runs_each_task_on_a_stack_of_its_own
go-running-g-taken | dispatchers/stealing.c | s/if \(cur == ST_G_RUNNING\) \{/if (0) {/ | test_dispatcher | dispatcher/stealing_go_never_runs_a_g_on_two_workers
tokio-no-budget | dispatchers/stealing.c | s/\tif \(ctx\) \{\n\t\tbudget = st_ctx.budget;/\tif (0) {\n\t\tbudget = st_ctx.budget;/ | test_dispatcher | dispatcher/stealing_tokio_gives_a_budget_to_each_run_task
tokio-budget-per-poll | dispatchers/stealing.c | s/\t\tw->count\[DB_DISP_C_budgets\]\+\+;\n//; s/(\tw->running = t;\n\tw->ran\+\+;\n)/$1\tif (s->ctx)\n\t\tw->count[DB_DISP_C_budgets]++;\n/ | test_dispatcher | dispatcher/stealing_tokio_gives_a_budget_to_each_run_task
payload-not-run | bench/measure/workload.c | s/workload_burn\(w->payload_iters\);\n\tif \(workload_blocks_some/(void)0;\n\tif (workload_blocks_some/ | test_workload | workload/a_known_payload_costs_its_cpu
lost-not-counted | bench/measure/workload.c | s/c->lost \+= issued - runs;/(void)0;/ | test_workload | */*
limited-above-k | dispatchers/limited.c | s/< l->parallelism;/< l->parallelism + 1;/; s/>= l->parallelism\)/>= l->parallelism + 1)/ | test_dispatcher | dispatcher/limited_never_exceeds_k
limited-retake-uncounted | dispatchers/limited.c | s/\t\tif \(!empty\)\n\t\t\tatomic_fetch_add\(&l->running, 1\);\n// | test_interleave | interleave/limited_counts_a_worker_that_takes_its_slot_back
limited-retake-late | dispatchers/limited.c | s/bool empty;/bool empty = true;/; s/\t\tif \(!empty\)\n\t\t\tatomic_fetch_add\(&l->running, 1\);\n//; s/\t\tif \(t != NULL\)\n\t\t\treturn t;/\t\tif (t != NULL) {\n\t\t\tif (!empty)\n\t\t\t\tatomic_fetch_add(\&l->running, 1);\n\t\t\treturn t;\n\t\t}/ | test_interleave | interleave/limited_counts_a_worker_that_takes_its_slot_back
limited-taken-released-twice | dispatchers/limited.c | s/\tt = lim_obtain_or_deallocate\(l\);\n\tif \(t == NULL\)\n\t\treturn;/\tt = lim_obtain_or_deallocate(l);\n\tif (t == NULL) {\n\t\tatomic_fetch_sub(\&l->running, 1);\n\t\treturn;\n\t}/ | test_interleave | interleave/limited_gives_back_one_slot_when_its_task_was_taken
limited-redispatch-released | dispatchers/limited.c | s/(\t\tif \(\+\+fairness >= LIM_FAIRNESS\) \{\n)/$1\t\t\tatomic_fetch_sub(\&l->running, 1);\n/ | test_interleave | interleave/limited_keeps_a_redispatched_worker_counted
rendezvous-retire-leaves-overflow | dispatchers/rendezvous.c | s/ == 1 && timed_out &&\n\t    atomic_load\(&r->overflowing\) > 0\)/ == 1 \&\& timed_out \&\& 0)/ | test_interleave | interleave/rendezvous_a_retiring_worker_leaves_no_task_queued
rendezvous-no-recheck | dispatchers/rendezvous.c | s/\tif \(atomic_load\(&r->ctl\) == 0\)\n\t\t\(void\)rv_add_worker\(r, RV_DRAIN\);\n\treturn;/\treturn;/ | test_interleave | interleave/rendezvous_a_dispatch_at_the_bound_counts_again
rendezvous-bound-hands-nothing | dispatchers/rendezvous.c | s/\t\/\* A worker may have gone idle since the offer: one of us sees it. \*\/\n\trv_hand\(r, RV_DRAIN\);\n// | test_interleave | interleave/rendezvous_hands_the_overflow_to_a_worker_gone_idle
rendezvous-idle-skips-overflow | dispatchers/rendezvous.c | s/\telse if \(atomic_load\(&r->overflowing\) > 0\)\n\t\trv_hand\(r, RV_DRAIN\);\n// | test_interleave | interleave/rendezvous_worker_gone_idle_looks_at_the_overflow_again
rendezvous-idle-overflow-past-one | dispatchers/rendezvous.c | s/atomic_load\(&r->overflowing\) > 0\)/atomic_load(\&r->overflowing) > 1)/ | test_interleave | interleave/rendezvous_worker_gone_idle_looks_at_the_overflow_again
eventloop-sleeps-unchecked | dispatchers/eventloop.c | s/if \(!el_has_work\(l\) && !atomic_load\(&l->group->stop\)\)/if (!atomic_load(\&l->group->stop))/ | test_interleave | interleave/eventloop_rechecks_for_work_after_announcing_sleep
eventloop-rechecks-local-only | dispatchers/eventloop.c | s/if \(!el_has_work\(l\) && !atomic_load\(&l->group->stop\)\)/if (l->local.head == NULL \&\& !atomic_load(\&l->group->stop))/ | test_interleave | interleave/eventloop_rechecks_for_work_after_announcing_sleep
eventloop-sleep-unannounced | dispatchers/eventloop.c | s/\tatomic_store\(&l->wakeup, EL_SLEEPING\);\n// | test_interleave | interleave/eventloop_wakes_a_loop_that_announced_sleep
eventloop-wakes-the-awake | dispatchers/eventloop.c | s/atomic_exchange\(&l->wakeup, EL_AWAKE\) != EL_AWAKE/atomic_exchange(\&l->wakeup, EL_AWAKE) == EL_AWAKE/ | test_interleave | interleave/eventloop_wakes_a_loop_that_announced_sleep
floor-from-a-constant | bench/measure/floor.c | s/v\[i\] = floor_slice\(tasks, fn, seconds \/ FLOOR_SLICES\);/v[i] = 0.002;/ | test_floor | */*
no-bare-loop-in-run | bench/measure/cell.c | s/cJSON_AddNumberToObject\(x.run, "bare_loop_us_per_dispatch",\n\s*floor_bare_us\(CELL_FLOOR_S\)\);// | test_floor | */*
within-regime-ignored | bench/analyse/judge.c | s/if \(r->t.p_strat <= fmin\(r->t.p_shift, r->t.p_share\) &&/if (0 \&\&/ | test_compare | compare/a_shift_inside_both_regimes_regresses
slow-minority-equivalent | bench/analyse/judge.c | s/if \(up != hb && excess > band\) \{/if (0) {/ | test_compare | compare/a_slow_minority_is_never_equivalent
undecided-passes | bench/analyse/compare.c | s/\t\t\trc = COMPARE_UNDECIDED;/\t\t\t(void)0;/ | test_compare | compare/undecided_exits_3_unless_accepted
advise-from-defaults | bench/commands/advise.c | s/c->nrest, c->args.a.from != NULL, s\);/c->nrest, false, s);/ | test_cli | cli/advise_from_names_what_the_file_measured
advise-aside-denied | bench/analyse/advise.c | s/if \(p->aside_meets < 0 && advise_meets\(&rows\[i\], t\)\)/if (0)/ | test_advise | advise/a_width_set_aside_that_meets_is_named_not_denied
split-dearer-recommended | bench/analyse/advise.c | s/return sp->target_cpu_us_op < one->target_cpu_us_op;/return sp->cpu_us < one->cpu_us;/ | test_advise | advise/a_split_dearer_at_the_target_says_which_rate_needs_it
split-by-resumptions | bench/measure/workload.c | s/c->phase \+ runs - 2 \* hops/c->phase + runs/ | test_workload | workload/a_split_hops_its_blocking_steps_to_a_view
split-hops-not-awaited | bench/measure/workload.c | s/back &= workload_wait\(&w->hopping, 0, true, deadline\);// | test_workload | workload/a_split_stops_once_its_hops_have_left
stalled-counted-ok | bench/measure/cell.c | s/\t\tcell_stalled\(run, win->time_s\);/\t\t(void)0;/ | test_workload | workload/a_window_with_no_dispatch_is_stalled
host-never-busy | bench/measure/measure.h | s/#define MEASURE_HOST_BUSY\t0.05/#define MEASURE_HOST_BUSY\t1.0/ | test_workload | workload/a_window_beside_other_load_is_marked
busy-apart-judged | bench/analyse/judge.c | s/\t    COMPARE_BUSY_APART;/\t    1;/ | test_compare | compare/sides_run_apart_on_a_busy_machine_are_undecided
summary-busy-uncounted | bench/analyse/results.c | s/busy \+= cJSON_IsTrue/busy -= 0 * cJSON_IsTrue/ | test_workload | workload/a_window_beside_other_load_is_marked
summary-stalls-uncounted | bench/analyse/results.c | s/stalled \+= cJSON_IsString/stalled -= 0 * cJSON_IsString/ | test_workload | workload/a_window_with_no_dispatch_is_stalled
stall-fails-sweep | bench/runner.c | s/\t    strcmp\(results_str\(run, "status", "\?"\), "stalled"\) != 0;/\t    1;/ | test_cli | cli/a_stalled_window_is_said_not_failed
export-no-reference | bench/analyse/export.c | s/\tif \(table_for_people\(f\)\)\n\t\texport_each_machine\(doc, export_reference, rows\);\n// | test_cli | cli/export_states_the_harness_cost_beside_the_designs
words-unbounded | bench/param/cli.c | s/ && out->nwords < out->maxwords\)/)/ | test_cli | cli/every_command_refuses_a_word_more_than_a_call_holds
summary-unchecked | bench/analyse/results.c | s/\t\treturn 0;\n\tfor \(i = 0; names\[i\].type != want; i\+\+\)/\t\treturn 0;\n\treturn 0;\n\tfor (i = 0; names[i].type != want; i++)/ | test_cli | cli/a_summary_without_its_median_is_named_by_every_reader
cost-sweep-vetoes | bench/analyse/advise.c | s/return r->starving == 0 && r->failed == 0;/return r->starving + r->cost_starving == 0 \&\& r->failed == 0;/ | test_advise | advise/starving_in_the_cost_sweep_is_a_caution_not_a_veto
advise-from-any-load | bench/analyse/advise.c | s/\tif \(load == NULL && held\[0\] != '\\0'\)/\tif (0)/ | test_cli | cli/advise_from_refuses_a_load_the_file_does_not_hold
docs-option-undocumented | docs/options.md | s/^\x7c `--budget DURATION` \x7c the `--reps` alone[^\n]*\n//m | test_docs | docs/every_option_in_help_is_documented
docs-option-stale | docs/options.md | s/^(\x7c `--pairs N`)/\x7c `--windows N` \x7c 10 \x7c windows of a process \x7c\n$1/m | test_docs | docs/every_documented_option_is_in_help
docs-run-options-dropped | docs/options.md | s/it takes the options of a sweep, here by default `--workers 1,4,64/it takes, here by default `--workers 1,4,64/ | test_docs | docs/every_option_in_help_is_documented
docs-section-missing | docs/options.md | s/^## `matrix`$/## matrix/m | test_docs | docs/every_command_has_a_section_and_every_section_a_command
recipe-command-misspelt | README.md | s/dispatchbench advise /dispatchbench advice / | test_docs | docs/every_recipe_command_exists_and_takes_its_options
recipe-option-stale | README.md | s/--rate 5000/--rate-ops 5000/ | test_docs | docs/every_recipe_command_exists_and_takes_its_options
recipe-script-missing | README.md | s/sh scripts\/build-rev.sh main/sh scripts\/build-revision.sh main/ | test_docs | docs/every_script_target_and_built_file_a_recipe_names_exists
recipe-target-missing | README.md | s/--target sweep/--target sweeps/ | test_docs | docs/every_script_target_and_built_file_a_recipe_names_exists
recipe-plugin-path-stale | README.md | s/\.\/build\/examples\/libtwolock\.so/.\/build\/libtwolock.so/g | test_docs | docs/every_script_target_and_built_file_a_recipe_names_exists
report-advice-left-out | bench/commands/files.c | s/if \(cJSON_IsObject\(cJSON_GetObjectItem\(doc, "advise"\)\)\) \{/if (0) {/ | test_cli | cli/report_of_an_advise_file_opens_with_its_advice
report-advice-after-cells | bench/analyse/report.c | s/\tif \(advice != NULL\) \{\n\t\treport_advice\(out, advice\);\n\t\trc = report_figures\(out, doc, err, errlen\);\n\t\}\n//; s/\treport_grid\(out, &d\);\n/\treport_grid(out, \&d);\n\tif (advice != NULL)\n\t\treport_advice(out, advice);\n/ | test_cli | cli/report_of_an_advise_file_opens_with_its_advice
report-never-flat | bench/analyse/portrait.c | s/#define PORTRAIT_FLAT\t1.2/#define PORTRAIT_FLAT\t1.0/ | test_report | report/each_design_says_its_cost_at_1_the_cpus_and_the_widest
report-rise-unsaid | bench/analyse/portrait.c | s/if \(last >= PORTRAIT_FLAT \* first\)/if (0)/ | test_report | report/each_design_says_its_cost_at_1_the_cpus_and_the_widest
report-one-workers | bench/analyse/series.c | s/workers == 1 \?/workers == 0 ?/ | test_report | report/each_design_says_its_cost_at_1_the_cpus_and_the_widest
report-cpus-ignored | bench/analyse/portrait.c | s/series_cell_at\(s, s->cpus\)/series_cell_at(s, -1)/ | test_report | report/each_design_says_its_cost_at_1_the_cpus_and_the_widest
report-loops-cross | bench/analyse/series.c | s/return strcmp\(results_str\(cell, "from", ""\), "home"\) == 0 \&\&/return 0 \&\&/ | test_report | report/event_loops_resuming_at_home_never_cross_a_thread
report-outside-stays-home | bench/analyse/series.c | s/"from", ""\), "home"\) == 0/"from", ""), "") != 0/ | test_report | report/event_loops_resuming_at_home_never_cross_a_thread
report-floor-ranked | bench/analyse/findings.c | s/if \(!d->s\[k\]\.floor \&\& !d->s\[k\]\.local \&\&/if (/ | test_report | report/the_floor_is_named_and_never_ranked
report-starved-unseen | bench/analyse/findings.c | s/return results_runs_above_zero\(cell, "starved"\);/return 0;/ | test_report | report/starved_split_busy_and_stalled_cells_are_named
report-groups-merged | bench/analyse/findings.c | s/g = x > boundary;/g = 0;/ | test_report | report/starved_split_busy_and_stalled_cells_are_named
report-busy-as-stalled | bench/analyse/findings.c | s/findings_cells\(out, cells, findings_busy, "runs"/findings_cells(out, cells, findings_stalled, "runs"/ | test_report | report/starved_split_busy_and_stalled_cells_are_named
report-grid-last | bench/analyse/report.c | s/\treport_grid\(out, \&d\);\n//; s/\treport_summary\(out, doc\);\n/\treport_summary(out, doc);\n\treport_grid(out, \&d);\n/ | test_report | report/the_grid_comes_before_the_long_table
report-headline-by-name | bench/analyse/report.c | s/return ha != hb \? hb - ha : alphasort\(a, b\);/return alphasort(a, b);/ | test_report | report/the_headline_figure_comes_first
report-context-blank | bench/analyse/report.c | s/\t\tfputs\("none", out\);/\t\t(void)0;/ | test_report | report/no_context_field_renders_empty
scaled-in-us | bench/table/table.c | s/double a = fabs\(v\) \* \(time \? 1000 : 1\);/double a = fabs(v);/ | test_report | report/figures_are_scaled_for_reading
scaled-no-prefix | bench/table/table.c | s/for \(; i < top \&\& a >= 999.5; i\+\+\)/for (; 0; i++)/ | test_report | report/figures_are_scaled_for_reading
export-regimes | bench/analyse/export.c | s/"runs in two groups: /"two regimes: / | test_report | report/the_page_speaks_of_groups_not_regimes
report-old-file-quiet | bench/analyse/findings.c | s/if \(!findings_any\(cells, findings_watched\)\) \{/if (0) {/ | test_report | report/a_file_before_the_busy_mark_does_not_call_the_machine_quiet
labels-whole-key | bench/analyse/compare.c | s/\t\tif \(i == n\)\n\t\t\tcompare_cat\(shared,/\t\tif (0)\n\t\t\tcompare_cat(shared,/ | test_compare | compare/rows_name_only_what_varies
plugins-unnamed | bench/analyse/compare.c | s/\t\tcompare_plugins\(\&rows\[i\], base, new\);/\t\t(void)0;/ | test_compare | compare/two_plugins_of_one_name_are_named_by_file
words-reversed | bench/analyse/metric.c | s/change > 0 \? m\.more : m\.less/change < 0 ? m.more : m.less/g | test_compare | compare/a_verdict_names_its_metric_unit_and_direction
p-kind-always-holm | bench/analyse/outcome.c | s/\telse if \(o->levels != NULL\)\n\t\tsnprintf\(buf, len, "unadjusted,/\telse if (0)\n\t\tsnprintf(buf, len, "unadjusted,/ | test_compare | compare/a_p_says_whether_holm_or_a_look_made_it
ab-arms-unnamed | bench/commands/verdict.c | s/\tco\.sides\[0\] = ab_side\(\&arms\[0\], sides\[0\], sizeof\(sides\[0\]\)\);\n// | test_compare | compare/ab_names_each_arm_and_its_plugin_file
pair-cell-keeps-a-plugin | bench/analyse/tally.c | s/\t\t\tcJSON_Delete\(cJSON_DetachItemViaPointer\(shared, f\)\);/\t\t\t(void)0;/ | test_pair | pair/the_line_names_metric_cell_and_both_arms
pair-line-without-arms | bench/analyse/tally.c | s/t->brief, t->side\[1\],\n\t    t->side\[0\], change/t->brief, "", "", change/ | test_pair | pair/the_line_names_metric_cell_and_both_arms
key-beside | bench/analyse/plot.c | s/"set key bmargin center horizontal Left reverse "/"set key outside right vertical Left reverse "/ | test_pictures | pictures/the_key_leaves_the_plot_most_of_the_width
key-beside-in-report | bench/analyse/plot.c | s/"set key bmargin center horizontal Left reverse "/"set key outside right vertical Left reverse "/ | test_pictures | pictures/report_figures_render_inside_their_boxes
title-on-one-line | bench/analyse/figure.c | s/bars min to max\\\\n"/bars min to max; "/ | test_pictures | pictures/plot_text_stays_inside_the_canvas_and_apart
colours-recycled-at-8 | bench/analyse/plot.c | s/s->colour = plot_colours\[next % PLOT_NCOLOURS\];/s->colour = plot_colours[next % 8];/ | test_pictures | pictures/each_series_its_own_colour_a_runtime_dashed_in_its_models
runtime-in-its-own-colour | bench/analyse/plot.c | s/plot_style_find\(st, s->model\) < 0\) \{/1) {/ | test_pictures | pictures/each_series_its_own_colour_a_runtime_dashed_in_its_models
runtime-in-last-models | bench/analyse/beside.c | s/\tif \(\*first == NULL\)\n\t\t\*first = model;/\t*first = model;/ | test_pictures | pictures/each_series_its_own_colour_a_runtime_dashed_in_its_models
tics-fixed-decimals | bench/analyse/plot.c | s/snprintf\(buf, len, "%.6g", v\);/snprintf(buf, len, "%.7f", v);/ | test_pictures | pictures/axes_read_1_2_5_or_powers_of_ten
log-axis-decades-only | bench/analyse/plot.c | s/\tk = n > 10 \? 0 :/\tk = 1 ? 0 :/ | test_pictures | pictures/axes_read_1_2_5_or_powers_of_ten
beside-axis-log10 | bench/analyse/figure.c | s/plot_workers\(sp.xmax, xaxis, sizeof\(xaxis\)\);\n\tplot_ratio_axis/snprintf(xaxis, sizeof(xaxis), "set logscale x\\n");\n\tplot_ratio_axis/ | test_pictures | pictures/one_worker_axis_in_every_picture
ratio-labels-slanted | bench/analyse/ratio.c | s/rotate by 90 right/rotate by -30/ | test_pictures | pictures/compare_ratio_text_stays_inside_the_canvas_and_apart
design-change-misread | bench/analyse/label.c | s/\tif \(qa < na && qb < nb && na - qa == nb - qb/\tif (0 \&\& qa < na \&\& qb < nb \&\& na - qa == nb - qb/ | test_compare | compare/two_cells_say_what_differs_once
log-axis-foot-unlabelled | bench/analyse/plot.c | s/t\[0\] \* \(1 - 1e-6\), t\[n - 1\] \*\n\t    \(1 \+ 1e-6\)/t[0], t[n - 1]/ | test_pictures | pictures/axes_read_1_2_5_or_powers_of_ten
precision-never-met | bench/runner.c | s/sp->lo \* f >= sp->median &&\n\t    sp->hi <= sp->median \* f;/0;/ | test_sweep | sweep/a_cell_stops_once_its_runs_agree
precision-as-plus-minus | bench/runner.c | s/sp->lo \* f >= sp->median &&/sp->lo >= sp->median * (2 - f) \&\&/ | test_sweep | sweep/a_cell_stops_once_its_runs_agree
starved-cell-stops | bench/runner.c | s/sp->ok == sp->runs && sp->starved == 0 &&/sp->ok == sp->runs \&\&/ | test_sweep | sweep/a_cell_stops_once_its_runs_agree
reps-given-ignored | bench/param/cli.c | s/\(cli_given\(s, "--reps"\) &&/(0 \&\&/ | test_sweep | sweep/a_cell_stops_once_its_runs_agree
stopped-cell-runs-on | bench/runner.c | s/\t\t\tif \(adapts && cJSON_GetObjectItem\(runner_cell\(&arms\[0\],\n\t\t\t    ci\), "stop"\) != NULL\)\n\t\t\t\tcontinue;\n// | test_cli | cli/a_cell_stops_once_its_median_is_known_within_the_precision
interval-always-range | bench/analyse/stats.c | s/\twhile \(k < \(n \+ 1\) \/ 2\) \{/\twhile (0) {/ | test_cli | cli/a_cell_stops_once_its_median_is_known_within_the_precision
ab-arms-stop-early | bench/runner.c | s/return narms == 1 && cli_reps_min\(o\) < o->reps;/return cli_reps_min(o) < o->reps;/ | test_cli | cli/default_outputs_land_in_the_current_folder
default-out-in-source | bench/param/cli.c | s/\tif \(!cli_in_source\(\)\)\n\t\treturn rel;\n/\treturn rel;\n/ | test_sweep | sweep/a_default_output_never_lands_in_the_source_tree
default-out-everywhere | bench/param/cli.c | s/\tif \(!cli_in_source\(\)\)\n/\tif (0)\n/ | test_sweep | sweep/a_default_output_never_lands_in_the_source_tree
advise-out-under-build | bench/commands/advise.c | s/c->sweep.out = cli_out_default\(c->sweep.out, out, sizeof\(out\)\);/c->sweep.out = "build\/results\/advise.json";/ | test_cli | cli/default_outputs_land_in_the_current_folder
mkdir-one-level | bench/runner.c | s/\tfor \(slash = strchr\(dir \+ 1, '\/'\); slash != NULL;\n\t    slash = strchr\(slash \+ 1, '\/'\)\) \{/\tfor (slash = strrchr(dir, '\/'); slash != NULL; slash = NULL) {/ | test_cli | cli/a_results_file_gets_every_folder_it_needs
pair-writes-default | bench/commands/pair.c | s/if \(cli_given\(&c->sweep, "--out"\) &&/if (1 &&/ | test_cli | cli/pair_and_ab_keep_to_their_own_files
ab-precision-taken | bench/commands/verdict.c | s/if \(cli_given\(&c->sweep, "--precision"\)\) \{/if (0) {/ | test_cli | cli/pair_and_ab_keep_to_their_own_files
report-kept-ranked | bench/analyse/series.c | s/\t\ts->kept &= series_keeps_local\(cell\);/\t\ts->kept = false;/ | test_report | report/a_design_that_keeps_its_work_local_is_said_to
report-steepest-by-step | bench/analyse/portrait.c | s/step = portrait_per_doubling\(s->cell\[i - 1\], s->cell\[i\]\);/step = series_cost(s->cell[i]) \/ series_cost(s->cell[i - 1]);/ | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
report-doubling-as-step | bench/analyse/portrait.c | s/pow\(series_cost\(b\) \/ series_cost\(a\), 1 \/ d\)/pow(series_cost(b) \/ series_cost(a), 1)/ | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
report-kept-despite-unparks | bench/analyse/series.c | s/"injected_per_dispatch", "unparks_per_dispatch" \}/"injected_per_dispatch" }/ | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
report-switches-uncompared | bench/analyse/portrait.c | s/r = mine \/ theirs;/r = 1;/ | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
report-counters-unsaid | bench/analyse/portrait.c | s/\tportrait_counters\(out, s, &k\);\n// | test_report | report/a_design_that_hands_over_says_so_per_doubling_and_why
report-dearest-anywhere | bench/analyse/portrait.c | s/if \(!\(series_cost\(c\) < series_cost\(s->cell\[i\]\)\)\)/if (0)/ | test_report | report/each_design_says_its_cost_at_1_the_cpus_and_the_widest
report-rare-counted | bench/analyse/portrait.c | s/if \(hi < PORTRAIT_RARE\) \{/if (0) {/ | test_report | report/a_design_that_keeps_its_work_local_is_said_to
report-group-unsaid | bench/analyse/findings.c | s/\t\tif \(in\(&d->s\[i\]\)\)\n\t\t\tportrait_write/\t\tif (0)\n\t\t\tportrait_write/ | test_report | report/event_loops_resuming_at_home_never_cross_a_thread
advise-widths-unlabelled | bench/analyse/sizing.c | s/\tsizing_widths\(r, x->widths, sizeof\(x->widths\)\);\n// | test_pictures | pictures/advise_labels_every_width_and_marks_the_recommended
advise-pick-unmarked | bench/analyse/sizing.c | s/\tif \(at > 0\)\n/\tif (0)\n/ | test_pictures | pictures/advise_labels_every_width_and_marks_the_recommended
advise-split-unmarked | bench/analyse/sizing.c | s/\tif \(p\.split_better\) \{/\tif (0) {/ | test_pictures | pictures/advise_labels_every_width_and_marks_the_recommended
advise-pick-above-only | bench/analyse/sizing.c | s/"unset label 1\\nunset y2label/"unset label 1\\nunset arrow 1\\nunset y2label/ | test_pictures | pictures/advise_labels_every_width_and_marks_the_recommended
merge-no-machine-in-series | bench/analyse/params.c | s/\tif \(m != NULL && used < len\)/\tif (0)/ | test_fleet | merge/plot_report_and_export_give_a_series_per_machine
merge-one-name-per-node | bench/analyse/merge.c | s/if \(merge_named\(g->in, g->n, want\) > 1\)/if (0)/ | test_fleet | merge/tells_two_tasks_on_one_node_apart_and_refuses_a_file_twice
compare-fleet-against-one | bench/analyse/compare.c | s/\tif \(na > 0 \W\W nb > 0\)/\tif (0)/ | test_fleet | merge/compare_and_advise_never_mix_machines
store-merged-whole | bench/history/store.c | s/store_end\(s, results_machines\(doc\) > 0 \? store_machines/store_end(s, 0 ? store_machines/ | test_fleet | merge/the_store_takes_each_machine_as_its_own_file
fleet-failure-passes | bench/fleet/fleet.c | s/n \+= strcmp\(f->t\[i\].state, "COMPLETED"\) != 0 \W\W/n += 0 \&\&/ | test_fleet | fleet/a_cancelled_task_is_named_and_the_other_survives
fleet-no-record-passes | bench/fleet/fleet.c | s/"NO RECORD"/"COMPLETED"/ | test_fleet | fleet/a_task_slurm_kept_no_record_of_is_never_a_pass
fleet-not-exclusive | bench/fleet/slurm.c | s/#SBATCH --exclusive\\n//  | test_fleet | fleet/submit_writes_an_exclusive_array_and_its_size
slurm-list-first-range | bench/fleet/slurm.c | s/if \(\*end != ','\)/if (1)/ | test_fleet | fleet/collect_waits_for_the_array_and_stops_at_its_timeout
probe-max-is-min | bench/measure/probe.c | s/probe_add\(o, "max", t->ns\[t->n - 1\]\);/probe_add(o, "max", t->ns[0]);/ | test_floor | probe/every_probe_is_timed_on_two_pus
probe-one-pu-timed | bench/measure/probe.c | s/\t\tsnprintf\(t\[3\].why, sizeof\(t\[3\].why\), "%s", why\);/\t\tt[3].n = PROBE_REPS;/ | test_floor | probe/one_pu_leaves_the_two_thread_probes_out_and_says_why
probe-binding-left | bench/measure/probe.c | s/\tif \(p->planned\) \{\n\t\thwloc_set_cpubind\(p->plan.topo, p->home, HWLOC_CPUBIND_THREAD\);/\tif (p->planned) {/ | test_floor | probe/every_probe_is_timed_on_two_pus
probes-moved-by-median | bench/analyse/probes.c | s/\(results_num\(a, "max"\) < results_num\(b, "min"\) \x7c\x7c\n\t    results_num\(b, "max"\) < results_num\(a, "min"\)\)/fabs(results_num(a, "median") \/ results_num(b, "median") - 1) > 0.2/ | test_compare | compare/a_probe_moved_only_past_both_ranges
probes-not-in-compare | bench/analyse/outcome.c | s/if \(o->format == TABLE_TEXT\)\n\t\tprobes_side_by_side/if (0)\n\t\tprobes_side_by_side/ | test_compare | compare/compare_prints_the_probes_of_two_files
probes-not-in-sweep | bench/runner.c | s/"context"\), "probes", cJSON_Duplicate/"context"), "probes_", cJSON_Duplicate/ | test_cli | cli/tiny_sweep_writes_results_and_plots
identity-no-l1d | bench/analyse/identity.c | s/\t\{ \.label = "L1d", \.path = "cache:L1d" \},\n// | test_identity | identity/another_machine_is_refused
identity-lacking-agrees | bench/analyse/identity.c | s/\tn \+= identity_part\(a, b, 2, [^;]*;\n\tn \+= identity_part\(a, b, 1, [^;]*;\n// | test_identity | identity/a_field_only_base_lacks_is_said_so
compare-ignores-identity | bench/analyse/compare.c | s/if \(identity_diff\(ca, cb, why \+ at, len - at - 1\) == 0\)/if (identity_diff(ca, cb, why + at, len - at - 1) >= 0)/ | test_identity | identity/another_machine_is_refused
compare-fleet-by-name-alone | bench/analyse/compare.c | s/\t\tif \(compare_contexts\(results_obj\(ma, "context"\), results_obj\(mb,\n\t\t    "context"\), which, why, len\) != 0\)\n\t\t\treturn -1;\n// | test_identity | identity/a_merged_machine_of_the_same_name_is_judged_by_identity
compare-allowed-unsaid | bench/analyse/compare.c | s/\t\t    COMPARE_BAD_INPUT;\n\tif \(\(rows = compare_rows/\t\t    COMPARE_BAD_INPUT;\n\telse\n\t\tw.machines[0] = 0;\n\tif ((rows = compare_rows/ | test_identity | identity/another_machine_is_compared_when_allowed
ab-arms-as-machines | bench/commands/verdict.c | s/\tco\.one_machine = true;\n// | test_identity | identity/ab_compares_two_builds_of_one_machine
context-no-family | bench/measure/context.c | s/\t\{ \.name = "cpu family", \.member = "family", \.number = true \},\n// | test_identity | identity/this_machine_records_its_cpu_and_is_one_machine
context-no-icache | bench/measure/context.c | s/hwloc_topology_set_icache_types_filter\(topo,\n\t    HWLOC_TYPE_FILTER_KEEP_ALL\) != 0 \W\W // | test_identity | identity/this_machine_records_its_cpu_and_is_one_machine
context-cpu-any-type | bench/analyse/results.c | s/\t    results_has\(ck, ctx, "cpu", cJSON_Object, false\) != 0 \W\W\n// | test_cli | cli/bad_input
history-sittings-pooled | bench/analyse/changepoint.c | s/\tif \(!isfinite\(\*se\)\)\n\t\treturn 1;/\tif (1)\n\t\treturn 0;/ | test_changepoint | changepoint/sitting_offsets_are_not_steps
history-fails-the-merge-after | bench/history/trend.c | s/for \(n = st->at \+ 1; n < s->n; n\+\+\)/for (n = s->n - 1; n < s->n; n++)/ | test_history | history/fails_the_merge_that_makes_the_step_and_no_other
history-newest-at-a-tenth | bench/analyse/changepoint.c | s/cp_passes\(&best, o->alpha \/\n/cp_passes(\&best, o->alpha \/ 10 \/\n/ | test_history | history/fails_the_merge_that_makes_the_step_and_no_other
history-machine-never-moves | bench/history/sittings.c | s/\tmoved = b\.n > 0/\tmoved = 0 \&\& b.n > 0/ | test_history | history/a_step_the_probes_moved_with_is_the_machine
count-release-skips-one | bench/measure/workload.c | s/for \(i = 0; i < w->n; i\+\+\) \{\n\t\tc = &w->coros\[i\];\n\t\tif \(!atomic_exchange/for (i = 1; i < w->n; i++) {\n\t\tc = \&w->coros[i];\n\t\tif (!atomic_exchange/ | test_count | count/every_coroutine_holds_at_each_multiple
count-hold-off-by-one | bench/measure/workload.c | s/\(k & \(w->hold_every - 1\)\) == 0\) \{/(k \& (w->hold_every - 1)) == 1) {/ | test_count | count/every_coroutine_holds_at_each_multiple
count-calls-as-own | bench/measure/count.c | s/if \(!call && count_cost\(line, &cost\)\)/if (count_cost(line, \&cost))/ | test_count | count/a_cell_counted_twice_gives_the_same_instructions
count-payload-counted | bench/measure/count.c | s/else if \(c->payload_ns > 0\)/else if (0)/ | test_count | count/what_cannot_be_counted_is_refused_in_one_line
count-release-claimed-twice | bench/measure/workload.c | s/if \(!atomic_compare_exchange_strong\(&w->holding, &all, 0\)\)\n\t\treturn false;/atomic_store(\&w->holding, 0);/ | test_count | count/every_coroutine_holds_at_each_multiple
count-dispatches-from-start | bench/measure/count.c | s/uint64_t dispatches = workload_count\(w, NULL\) - k->start, total = 0;/uint64_t dispatches = workload_count(w, NULL), total = 0;/ | test_count | count/a_cell_counted_twice_gives_the_same_instructions
exact-never | bench/analyse/counted.c | s/\treturn n >= 2;/\treturn false;/ | test_compare | compare/exact_counts_alike_are_equivalent
exact-threshold-always | bench/analyse/judge.c | s/o->threshold_given \? o->threshold : 0, r->why,/o->threshold, r->why,/ | test_compare | compare/one_instruction_more_is_a_regression_unless_a_threshold_is_given
compare-threshold-unseen | bench/commands/verdict.c | s/\to\.threshold_given = cli_named\(c->argv, c->argc, "--threshold"\);\n// | test_compare | compare/one_instruction_more_is_a_regression_unless_a_threshold_is_given
exact-before-failures | bench/analyse/judge.c | s/(\tif \(\(v = judge_unusable\(r, o\)\) != NULL\)\n\t\treturn v;\n)(\tif \(r->exact\)\n[^;]*;\n)/$2$1/ | test_compare | compare/a_failed_run_beside_exact_counts_is_broken
counts-vary-unsaid | bench/analyse/judge.c | s/\tif \(counted_metric\(o->metric\)\)\n\t\tcounted_as_timed/\tif (0)\n\t\tcounted_as_timed/ | test_compare | compare/counts_that_vary_are_judged_as_a_timed_figure
counters-mixed | bench/analyse/compare.c | s/if \(counted_metric\(o->metric\) \&\& counted_same_counter\(/if (0 \&\& counted_same_counter(/ | test_compare | compare/counts_of_two_machines_yes_of_two_counters_no
counted-machines-refused | bench/analyse/compare.c | s/ \&\& !counted_metric\(o->metric\)\)/)/ | test_compare | compare/counts_of_two_machines_yes_of_two_counters_no
functions-backwards | bench/analyse/counted.c | s/fns\[i\]\.d = \(isnan\(fns\[i\]\.b\) \? 0 : fns\[i\]\.b\) -\n\t\t    \(isnan\(fns\[i\]\.a\) \? 0 : fns\[i\]\.a\);/fns[i].d = (isnan(fns[i].a) ? 0 : fns[i].a) - (isnan(fns[i].b) ? 0 : fns[i].b);/ | test_compare | compare/a_count_that_moved_names_the_function
pair-exact-never | bench/analyse/tally.c | s/\tt->exact = counted_exact/\tt->exact = 0 \&\& counted_exact/ | test_pair | pair/exact_counts_need_no_test
pair-window-drops-functions | bench/analyse/tally.c | s/\tif \(fns != NULL\)\n\t\tcJSON_AddItemToObject\(line/\tif (0)\n\t\tcJSON_AddItemToObject(line/ | test_pair | pair/exact_counts_need_no_test
history-exact-as-noise | bench/analyse/changepoint.c | s/\tif \(o->counted \&\& cp_exact\(pts, n\)\)/\tif (0)/ | test_history | history/an_exact_count_steps_at_the_revision_it_moved
history-exact-one-run | bench/analyse/changepoint.c | s/\&alike\)\) == 1 \x7c\x7c !alike\)/\&alike)) == 0 \x7c\x7c !alike)/ | test_changepoint | changepoint/one_count_a_revision_goes_to_the_statistics
history-exact-consecutive | bench/analyse/changepoint.c | s/\t\t    o->threshold\)\)\n\t\t\tcontinue;/\t\t    o->threshold)) {\n\t\t\tlevel = v;\n\t\t\tcontinue;\n\t\t}/ | test_changepoint | changepoint/an_exact_count_that_creeps_steps_past_the_threshold
history-exact-the-machines | bench/history/trend.c | s/if \(!st->exact \&\& trend_machine/if (trend_machine/ | test_history | history/an_exact_count_steps_at_the_revision_it_moved
history-threshold-unseen | bench/commands/history.c | s/\to\.cp\.threshold_given = cli_named[^\n]*\n// | test_history | history/an_exact_count_steps_at_the_revision_it_moved
bisect-threshold-forced | bench/commands/bisect.c | s/return b->threshold_given \? n : n - 2;/return n;/ | test_history | bisect/names_the_first_commit_whose_exact_count_moved
moses-index-off-by-one | bench/analyse/rank_shift.c | s/rank_select\(d, 1, k == 0 \? 0 : k - 1\)/rank_select(d, 1, k)/ | test_stats | stats/estimates_are_order_statistics_of_every_difference
within-shift-over-all-pairs | bench/analyse/rank_shift.c | s/return rank_median_blocks\(bl, 2\);/return rank_median_blocks(d, 1);/ | test_stats | stats/estimates_are_order_statistics_of_every_difference
difference-count-strict | bench/analyse/rank_shift.c | s/bl\[k\]\.a\[i\] <= x\)/bl[k].a[i] < x)/ | test_stats | stats/estimates_are_order_statistics_of_every_difference
differences-rescanned | bench/analyse/rank_shift.c | s/i < bl\[k\]\.na; i\+\+, n \+= j\)/i < bl[k].na; i++, n += j, j = 0)/ | test_stats | stats/ten_thousand_runs_a_side_answer_in_seconds
wide-min-p-drawn | bench/analyse/rank.c | s/if \(p->n > RANK_DRAWN_MAX\) \{/if (0) {/ | test_stats | stats/ten_thousand_runs_a_side_answer_in_seconds
wide-min-p-no-rank-sum | bench/analyse/rank.c | s/w->h1 = sigma > 0 \? 1 \+ 2 \* sigma \* w->q : INFINITY;/w->h1 = INFINITY;/ | test_stats | stats/a_wide_pools_min_p_is_its_permutations
wide-min-p-no-within | bench/analyse/rank.c | s/h2 = v > 0 \? 1 \+ sqrt\(v\) \* w->q : INFINITY;/h2 = INFINITY;/ | test_stats | stats/a_wide_pools_min_p_is_its_permutations
wide-min-p-no-share | bench/analyse/rank.c | s/\(l\.p\[i\] <= t \? 1 :/(0 ? 1 :/ | test_stats | stats/a_wide_pools_min_p_is_its_permutations
duplicate-cell-matched | bench/analyse/compare.c | s/if \(!o->by_position && \(compare_unique\(base,/if (0 \&\& (compare_unique(base,/ | test_compare | compare/a_cell_twice_in_a_file_is_refused
only-in-new-dropped | bench/analyse/compare.c | s/\t\tcompare_pairs_alone\(new, base, true, o, &pp\);\n// | test_compare | compare/a_cell_only_in_new_is_listed
only-in-new-judged | bench/analyse/compare.c | s/\tr->verdict = "new";\n/\treturn;\n/ | test_compare | compare/a_cell_only_in_new_is_listed
pair-runs-after-b-broke | bench/commands/pair.c | s/\t\tif \(\(stop = k \+ 1 < n && tally_settled\(/\t\tif ((stop = 0 \&\& k + 1 < n \&\& tally_settled(/ | test_pair | pair/a_window_of_b_that_fails_ends_the_campaign
pair-unit-past-b-broke | bench/commands/pair.c | s/\t\t\tsettled = paired_settled\(&e, why, sizeof\(why\)\);/\t\t\tsettled = 0;/ | test_pair | pair/a_window_of_b_that_fails_ends_the_campaign
pair-file-unnamed | bench/analyse/results.c | s/\tif \(results_pair_file\(doc, err, errlen\)\)\n\t\treturn -1;\n// | test_cli | cli/bad_input
plugin-reason-of-the-design | bench/measure/plugin.c | s/return plugin_error\(err, errlen, "%s", why\[at\[1\] > at\[0\]\]\);/return plugin_error(err, errlen, "%s is neither a queue nor a dispatcher plugin: %s", spec, why[1]);/ | test_dispatcher | dispatcher/pair_gives_the_loaders_own_reason
plugin-symbol-one-kind | bench/measure/plugin.c | s/\tif \(at\[0\] == PLUGIN_HEAD \&\& at\[1\] == PLUGIN_HEAD \&\&/\tif (0 \&\& at[0] == PLUGIN_HEAD \&\& at[1] == PLUGIN_HEAD \&\&/ | test_dispatcher | dispatcher/pair_gives_the_loaders_own_reason
matrix-queue-unprefixed | bench/commands/machine.c | s/snprintf\(err, errlen, "--queue: %s", why\);/snprintf(err, errlen, "%s", why);/ | test_dispatcher | dispatcher/an_older_abi_plugin_is_refused
step-interval-alone | bench/analyse/step.c | s/\treturn seen\[0\] == .\\0.;/\treturn strcmp(verdict, "improved") == 0 ? 1 : results_num(row, "ratio_hi") - 1 < threshold;/ | test_history | bisect/a_step_is_slower_by_the_whole_verdict
step-tail-unseen | bench/analyse/step.c | s/\telse if \(tail > threshold\)/\telse if (0)/ | test_history | bisect/a_step_is_slower_by_the_whole_verdict
step-share-unseen | bench/analyse/step.c | s/\telse if \(share > results_num\(row, "slow_share_margin"\)\)/\telse if (0)/ | test_history | bisect/a_step_is_slower_by_the_whole_verdict
step-within-unseen | bench/analyse/step.c | s/\telse if \(within > threshold\)/\telse if (0)/ | test_history | bisect/a_step_is_slower_by_the_whole_verdict
step-rate-as-cost | bench/analyse/step.c | s/"higher"\) ==\n\t    0 \? -1 : 1;/"higher") ==\n\t    2 ? -1 : 1;/ | test_history | bisect/a_step_is_slower_by_the_whole_verdict
step-pair-better-unsaid | bench/analyse/step.c | s/\tcJSON_AddStringToObject\(row, "better", results_str\(res, "better",\n\t    "lower"\)\);\n// | test_history | bisect/a_pair_step_of_a_rate_is_judged_on_its_worse_side
history-ordered-by-name | bench/history/store.c | s/r\.ord, r\.at, r\.id, i\.id"/r.ord, r.name, r.id, i.id"/ | test_history | history/orders_by_date_not_by_name_or_import
history-ordered-by-import | bench/history/store.c | s/r\.ord, r\.at, r\.id, i\.id"/r.ord, r.id, i.id"/ | test_history | history/orders_by_date_not_by_name_or_import
store-value-error-unchecked | bench/history/store.c | s/\t\tif \(store_step_id\(im->value\) < 0\)\n\t\t\treturn store_fail\(s, "cannot write", err, errlen\);/\t\t(void)store_step_id(im->value);/ | test_history | store/an_insert_that_fails_deep_in_a_file_keeps_none_of_it
store-failed-import-committed | bench/history/store.c | s/if \(rc == 0 && store_exec\(s, "COMMIT"/if (store_exec(s, "COMMIT"/ | test_history | store/an_insert_that_fails_deep_in_a_file_keeps_none_of_it
store-merged-machine-skipped | bench/history/store.c | s/\t\tif \(rc != 0\)\n\t\t\treturn -1;\n\t\}\n\treturn 0;/\t\tif (rc != 0)\n\t\t\tbreak;\n\t}\n\treturn 0;/ | test_history | store/a_merged_file_with_one_machine_in_is_refused_whole
bisect-middle-rounds-up | bench/history/bisection.c | s/int mid = good \+ \(bad - good\) \/ 2, d, i;/int mid = good + (bad - good + 1) \/ 2, d, i;/ | test_history | bisect/each_step_halves_what_is_left_and_says_where_it_ended
bisect-skipped-taken-good | bench/history/bisection.c | s/if \(b->said\[i\]\.mark == STEP_GOOD\)\n\t\t\t\*good = i;/if (b->said[i].mark != STEP_SLOWER \&\& b->said[i].mark != STEP_OPEN)\n\t\t\t*good = i;/ | test_history | bisect/each_step_halves_what_is_left_and_says_where_it_ended
bisect-open-walks-on | bench/history/bisection.c | s/else if \(b->said\[i\]\.mark == STEP_OPEN\)\n\t\t\treturn/else if (0)\n\t\t\treturn/ | test_history | bisect/each_step_halves_what_is_left_and_says_where_it_ended
bisect-skipped-range-unsaid | bench/history/bisection.c | s/return \*bad - \*good > 1 \? "the commits/return *bad - *good > 2 ? "the commits/ | test_history | bisect/each_step_halves_what_is_left_and_says_where_it_ended
bisect-open-bad-bisected | bench/history/bisection.c | s/if \(b->said\[b->n - 1\]\.mark != STEP_SLOWER\)/if (b->said[b->n - 1].mark == STEP_GOOD)/ | test_history | bisect/each_step_halves_what_is_left_and_says_where_it_ended
cp-levels-from-the-start | bench/analyse/changepoint.c | s/\t\*s = i > 0 \? c->at\[i - 1\] : 0;/\t*s = 0;/ | test_changepoint | changepoint/a_step_kept_is_judged_between_its_neighbours
cp-after-to-the-end | bench/analyse/changepoint.c | s/\tst->after = cp_median\(ser, t, e\);/\tst->after = cp_median(ser, t, ser->n);/ | test_changepoint | changepoint/a_step_kept_is_judged_between_its_neighbours
cp-sittings-after-from-s | bench/analyse/changepoint.c | s/\tst->s_after = ser->soff\[e\] - ser->soff\[t\];/\tst->s_after = ser->soff[e] - ser->soff[s];/ | test_changepoint | changepoint/a_step_kept_is_judged_between_its_neighbours
rank-untied-offset | bench/analyse/rank.c | s/joint\[2 \* u \+ m \* \(m \+ 1\)\]/joint[2 * u + m * (m - 1)]/ | test_stats | stats/rank_test_p_counts_every_subset
rank-untied-with-ties | bench/analyse/rank.c | s/if \(\*cmax == 0 && p->ties == 0\)/if (*cmax == 0)/ | test_stats | stats/rank_test_p_counts_every_subset
cp-drop-rejudges-none | bench/analyse/changepoint.c | s/\t\tfor \(i = w > 0 \? w - 1 : 0; i <= w && i < c->n; i\+\+\)\n\t\t\tcp_rejudge\(ser, c, i, false, o->alpha, st, full\);\n// | test_changepoint | changepoint/a_drop_judges_the_step_before_it_again
cp-drop-left-stale | bench/analyse/changepoint.c | s/for \(i = w > 0 \? w - 1 : 0;/for (i = w;/ | test_changepoint | changepoint/a_drop_judges_the_step_before_it_again
cp-persists-right-only | bench/analyse/changepoint.c | s/for \(r = t - m; m > 1/for (r = t; m > 1/ | test_changepoint | changepoint/a_step_that_one_revision_before_it_carries_is_no_step
base-interrupted-ignored | bench/analyse/judge.c | s/else if \(r->a.interrupted \x7c\x7c r->b.interrupted\)/else if (r->b.interrupted)/ | test_compare | compare/base_interrupted_is_undecided_as_new_is
interrupted-as-failed | bench/analyse/judge.c | s/\t    strcmp\(st, "stalled"\) != 0 && strcmp\(st, "interrupted"\) != 0;/\t    strcmp(st, "stalled") != 0;/ | test_compare | compare/base_interrupted_is_undecided_as_new_is
base-incomplete-passes | bench/analyse/compare.c | s/compare_incomplete\(base\) \? "BASE" : NULL;/NULL;/ | test_compare | compare/base_interrupted_is_undecided_as_new_is
others-system-time-unseen | bench/measure/measure.c | s/\(v\[0\] \+ v\[1\] \+ v\[2\] \+ v\[5\]/(v[0] + v[1] + v[5]/ | test_workload | workload/the_machines_busy_time_is_every_kind_but_idle_and_steal
host-iowait-as-busy | bench/measure/measure.c | s/\+ v\[5\] \+ v\[6\]\) \/ tick;/+ v[4] + v[5] + v[6]) \/ tick;/ | test_workload | workload/the_machines_busy_time_is_every_kind_but_idle_and_steal
steal-never-busy | bench/measure/measure.c | s/ \x7c\x7c h->steal_share > least;/;/ | test_workload | workload/steal_and_other_load_are_shares_of_the_machine
steal-of-one-cpu | bench/measure/measure.c | s/a->host_steal_s\) \/ \(wall \* cpus\);/a->host_steal_s) \/ wall;/ | test_workload | workload/steal_and_other_load_are_shares_of_the_machine
own-cpu-as-other-load | bench/measure/measure.c | s/- a->host_busy_s\) - \(b->cpu_s - a->cpu_s\);/- a->host_busy_s);/ | test_workload | workload/steal_and_other_load_are_shares_of_the_machine
placement-stops-at-first | bench/measure/placement.c | s/ok = place_check_one\(pl, &pl->threads\[i\], cpus, arr, why,\n\t\t    ok \? len : 0\) && ok;/ok = ok \&\& place_check_one(pl, \&pl->threads[i], cpus, arr, why,\n\t\t    len);/ | test_placement | placement/every_thread_off_its_plan_is_listed
placement-last-is-the-reason | bench/measure/placement.c | s/why,\n\t\t    ok \? len : 0\) && ok;/why,\n\t\t    len) \&\& ok;/ | test_placement | placement/every_thread_off_its_plan_is_listed
placement-plan-as-usable | bench/measure/placement.c | s/\tif \(want == NULL\)\n\t\twant = pl->plan->usable;/\twant = pl->plan->usable;/ | test_placement | placement/every_thread_off_its_plan_is_listed
gbench-mean-as-median | bench/analyse/export.c | s/\tcase 0:\n\t\treturn st.mean;/\tcase 0:\n\t\treturn st.median;/ | test_cli | cli/export_gbench_aggregates_are_the_ok_runs
gbench-cv-as-stddev | bench/analyse/export.c | s/\tdefault:\n\t\treturn st.cv;/\tdefault:\n\t\treturn st.cv * st.mean;/ | test_cli | cli/export_gbench_aggregates_are_the_ok_runs
gbench-unit-all-time | bench/analyse/export.c | s/a == 3 \?\n\t\t    "percentage"/a == 2 ?\n\t\t    "percentage"/ | test_cli | cli/export_gbench_aggregates_are_the_ok_runs
gbench-iterations-of-a-run | bench/analyse/export.c | s/export_gbench_times\(b, \(double\)s->n,/export_gbench_times(b, s->iters[0],/ | test_cli | cli/export_gbench_aggregates_are_the_ok_runs
gbench-counters-median | bench/analyse/export.c | s/export_aggregate\(s->counter\[k\], s->n, a\)/export_aggregate(s->counter[k], s->n, 1)/ | test_cli | cli/export_gbench_aggregates_are_the_ok_runs
gbench-failed-runs-in | bench/analyse/export.c | s/if \(strcmp\(results_str\(run, "status", ""\), "ok"\) != 0 \x7c\x7c\n/if (/ | test_cli | cli/export_gbench_aggregates_are_the_ok_runs
plugin-larger-taken | bench/measure/plugin.c | s/if \(size != want_size\)/if (size < want_size)/ | test_dispatcher | dispatcher/a_table_of_another_size_is_refused
plugin-smaller-taken | bench/measure/plugin.c | s/if \(size != want_size\)/if (size > want_size)/ | test_dispatcher | dispatcher/a_table_of_another_size_is_refused
plugin-design-size-self | bench/measure/plugin.c | s/DB_DISP_ABI_VERSION,\n\t    d->size, sizeof\(\*d\),/DB_DISP_ABI_VERSION,\n\t    d->size, d->size,/ | test_dispatcher | dispatcher/a_table_of_another_size_is_refused
fleet-partial-passes | bench/fleet/fleet.c | s/ \x7c\x7c strncmp\(f->t\[i\]\.note, "partial", 7\) == 0;/;/ | test_fleet | fleet/a_partial_task_is_merged_as_such_and_fails
fleet-partial-unsaid | bench/fleet/fleet.c | s/\tif \(!results_true\(doc, "complete"\)\)\n\t\tsnprintf/\tif (0)\n\t\tsnprintf/ | test_fleet | fleet/a_partial_task_is_merged_as_such_and_fails
fleet-ours-any-task | bench/fleet/fleet.c | s/job\) == 0 && strtoul\(results_str\(sl, "array_task_id", ""\), NULL,\n\t    10\) == k\);/job) == 0);/ | test_fleet | fleet/a_file_of_another_task_of_the_job_is_not_merged
merge-complete-last-wins | bench/analyse/merge.c | s/complete &= results_true/complete = results_true/ | test_fleet | merge/a_merged_file_is_complete_only_when_each_input_is
merge-machine-complete-set | bench/analyse/merge.c | s/cJSON_AddBoolToObject\(entry, "complete", results_true\(in->doc,\n\t    "complete"\)\);/cJSON_AddBoolToObject(entry, "complete", 1);/ | test_fleet | merge/a_merged_file_is_complete_only_when_each_input_is
merge-unknown-sha-twin | bench/analyse/merge.c | s/ && strcmp\(sha, "unknown"\) != 0 \?/ ?/ | test_fleet | merge/a_checksum_not_taken_is_no_twin
merge-empty-sha-twin | bench/analyse/merge.c | s/\*sha != '\\0' && // | test_fleet | merge/a_checksum_not_taken_is_no_twin
cheapest-cost-starved | bench/analyse/advise.c | s/if \(advise_clean\(&rows\[i\]\) && rows\[i\]\.cost_starving == 0 &&/if (advise_clean(\&rows[i]) \&\&/ | test_advise | advise/the_cheapest_width_is_one_whose_cost_sweep_ran_clean
split-view-by-pool | bench/analyse/advise.c | s/p->row >= 0 && s->view == r->single\[p->row\]\.workers\)/p->row >= 0 \&\& s->workers == r->single[p->row].workers)/ | test_advise | advise/the_split_beside_the_knee_has_the_knees_width_for_a_view
split-view-at-most | bench/analyse/advise.c | s/p->row >= 0 && s->view == r->single/p->row >= 0 \&\& s->view <= r->single/ | test_advise | advise/the_split_beside_the_knee_has_the_knees_width_for_a_view
pick-the-smallest | bench/analyse/advise.c | s/p->row = advise_least_at_target\(rows, n, t\);/p->row = p->smallest;/ | test_advise | advise/the_pick_burns_the_least_at_the_target
pick-by-flat-out | bench/analyse/advise.c | s/rows\[i\]\.target_cpu_us_op <\n\t\t    rows\[best\]\.target_cpu_us_op\)/rows[i].load_cpu_us_op <\n\t\t    rows[best].load_cpu_us_op)/ | test_advise | advise/the_pick_burns_the_least_at_the_target
price-flat-out-at-target | bench/analyse/advise.c | s/\tif \(!isfinite\(r->target_cpu_us_op\)\) \{/\tif (1) {/ | test_advise | advise/the_price_states_both_costs
price-handoffs-a-dispatch | bench/analyse/advise.c | s/table_sig3\(advise_cores\(r->cpu_us \* ADVISE_RESUMES_PER_OP, rate\)/table_sig3(advise_cores(r->cpu_us, rate)/ | test_advise | advise/the_price_states_both_costs
growth-turn-unsaid | bench/analyse/advise.c | s/\tif \(lo != sp->first && lo != sp->last\)\n\t\tsp->turn = lo;/\tif (0)\n\t\tsp->turn = lo;/ | test_advise | advise/growth_says_which_cost_grows_and_why
growth-switches-unsaid | bench/analyse/advise.c | s/\t    x->target_ctxsw != f->target_ctxsw\)/\t    0)/ | test_advise | advise/growth_says_which_cost_grows_and_why
at-target-cells-ignored | bench/analyse/advise.c | s/\t\tif \(advise_at_target\(cell, s, load\)\) \{/\t\tif (0) {/ | test_advise | advise/rows_join_both_profiles_by_width
split-hops-flat-out | bench/analyse/advise.c | s/double calls = sp->hops_per_s \/ sp->capacity \* rate;/double calls = sp->hops_per_s;/ | test_advise | advise/a_split_cheaper_at_the_target_is_recommended
split-never-needed | bench/analyse/advise.c | s/else if \(r->split\[v\]\.capacity <= r->single\[s\]\.capacity\)/else if (1)/ | test_advise | advise/a_split_dearer_at_the_target_says_which_rate_needs_it
from-alone-refused | bench/commands/advise.c | s/\tif \(g->blocking == NULL\)\n\t\tg->blocking = g->recorded;\n// | test_cli | cli/advise_live_and_from_its_file_agree
override-unsaid | bench/commands/advise.c | s/if \(given > 0 && given != recorded\)/if (0)/ | test_cli | cli/advise_live_and_from_its_file_agree
override-ignored | bench/commands/advise.c | s/g->target.rate = g->target.rate > 0 \? g->target.rate : rec.rate;/g->target.rate = rec.rate;/ | test_cli | cli/advise_live_and_from_its_file_agree
new-rate-old-cells | bench/commands/advise.c | s/g->at_target != advise_in_flight\(/0 \&\& g->at_target != advise_in_flight(/ | test_cli | cli/advise_live_and_from_its_file_agree
share-range-unsaid | bench/commands/advise.c | s/workload_block_range\(ms, share, why, sizeof\(why\)\) != 0\)/0)/ | test_cli | cli/bad_input
range-as-real | bench/param/value.c | s/value_real\(p\) \? "%s: %s is out of "/1 ? "%s: %s is out of "/ | test_cli | cli/bad_input
at-target-unmeasured | bench/pool.c | s/if \(at_target > 0 && pool_load/if (0 \&\& pool_load/ | test_cli | cli/advise_live_and_from_its_file_agree
at-target-unrecorded | bench/analyse/advise.c | s/\tif \(at_target > 0\)\n\t\tcJSON_AddNumberToObject\(a, "at_target_coroutines", at_target\);\n// | test_cli | cli/advise_live_and_from_its_file_agree
at-target-flat-out-unused | bench/analyse/advise.c | s/\t\t    s->at_target == s->coroutines\)/\t\t    0)/ | test_advise | advise/a_target_that_keeps_every_coroutine_busy_is_the_load_itself
prog-doubled-passes | bench/measure/program.c | s/bool ok = e->dispatched == e->sum;/bool ok = e->dispatched <= e->sum;/ | test_program | program/a_program_that_double_counts_fails_the_count_check
prog-doubled-unsaid | bench/measure/program.c | s/"doubled", e->sum > e->dispatched \?/"doubled", 0 ?/ | test_program | program/a_program_that_double_counts_fails_the_count_check
prog-counter-twice-taken | bench/measure/program.c | s/if \(cJSON_GetObjectItemCaseSensitive\(counters, name\) != NULL\) \{/if (0) {/ | test_program | program/a_program_that_says_a_counter_twice_fails
prog-stall-unseen | bench/measure/program.c | s/\tif \(b->sum == a->sum\)\n\t\tcell_stalled\(run, win->time_s\);\n// | test_program | program/a_program_that_stalls_is_stalled
EOF
}

# The area a planted file belongs to, for the tally: its own name where a
# folder holds several areas, else its folder's.
area() {
	case $1 in
	bench/history/*) echo history ;;
	bench/analyse/changepoint.c) echo "change points" ;;
	bench/analyse/step.c | bench/commands/bisect.c) echo bisect ;;
	bench/analyse/merge.c | bench/analyse/params.c | bench/fleet/*)
		echo "fleet and merge" ;;
	bench/analyse/advise.c | bench/commands/advise.c | bench/pool.c)
		echo "advise and pool" ;;
	bench/measure/program.c) echo programs ;;
	bench/measure/placement.c) echo placement ;;
	bench/measure/measure.*) echo "host marks" ;;
	bench/analyse/export.c) echo export ;;
	bench/measure/plugin.c) echo plugins ;;
	bench/measure/probe.c | bench/analyse/probes.c) echo probes ;;
	bench/analyse/identity.c | bench/measure/context.c) echo identity ;;
	bench/measure/count.c | bench/analyse/counted.c) echo counting ;;
	bench/analyse/paired.c | bench/analyse/tally.c | bench/commands/pair.c)
		echo pair ;;
	bench/analyse/rank*.c | bench/analyse/stats.c) echo statistics ;;
	bench/analyse/judge.c | bench/analyse/compare.c | bench/analyse/outcome.c | \
	    bench/analyse/metric.c | bench/analyse/label.c | \
	    bench/commands/verdict.c) echo verdicts ;;
	bench/analyse/report.c | bench/analyse/findings.c | \
	    bench/analyse/portrait.c | bench/analyse/series.c | \
	    bench/table/table.c) echo report ;;
	bench/analyse/plot.c | bench/analyse/figure.c | bench/analyse/beside.c | \
	    bench/analyse/ratio.c | bench/analyse/sizing.c) echo pictures ;;
	bench/runner.c | bench/param/cli.c) echo sweep ;;
	bench/analyse/results.c) echo "results files" ;;
	queues/* | dispatchers/* | runtimes/*) echo designs ;;
	docs/* | README.md) echo docs ;;
	bench/measure/*) echo measure ;;
	*) echo other ;;
	esac
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
tally=$build/mutants.tally
: >"$tally"
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
	case $result in
	caught*) printf '%s\t1\n' "$(area "$file")" >>"$tally" ;;
	*) printf '%s\t0\n' "$(area "$file")" >>"$tally"; status=1 ;;
	esac
done <"$list"
# Caught of those run, by area.
printf '\n%-20s %s\n' area caught
sort "$tally" | awk -F '\t' '
	{ all[$1]++; caught[$1] += $2; n++; c += $2 }
	END {
		for (a in all)
			printf "%-20s %d/%d\n", a, caught[a], all[a] | "sort"
		close("sort")
		printf "%-20s %d/%d\n", "all", c, n
	}'
exit $status
