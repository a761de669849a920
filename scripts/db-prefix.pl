#!/usr/bin/perl -pi
# db-prefix.pl - moves the source of a plugin written for the dispatcher
# ABI 4 or the queue ABI 2 to their next versions, which prefix every
# installed name with db_ (struct queue_ops: struct db_queue_ops, Q_FIFO:
# DB_Q_FIFO, struct disp_task: struct db_task, DISP_GROWS: DB_DISP_GROWS,
# disp_dispatch(): db_dispatch() ...). It rewrites the files it is given:
#   perl -pi scripts/db-prefix.pl yours.c
# A design of your own that read the knobs of the suite's own designs
# (cfg->spins, cfg->lifo ...) keeps its own: they are no longer in
# struct db_disp_config.
s/\bstruct queue_ops\b/struct db_queue_ops/g;
s/\bstruct queue_counts\b/struct db_queue_counts/g;
s/\bstruct queue\b(?!_)/struct db_queue/g;
s/\bqueue_(push|pop|empty|destroy)\(/db_queue_$1(/g;
s/\bQ_(BOUNDED|FIFO|SC_PUSH|PUSH_IN_TURN|ONE_CONSUMER)\b/DB_Q_$1/g;
s/\bdisp_task_fn\b/db_task_fn/g;
s/\bstruct disp_task\b/struct db_task/g;
s/\bDISP_TASK_INIT\b/DB_TASK_INIT/g;
s/\bstruct disp_config\b/struct db_disp_config/g;
s/\bDISP_COUNTERS\b/DB_DISP_COUNTERS/g;
s/\bDISP_COUNTER_ENUM\b/DB_DISP_COUNTER_ENUM/g;
s/\benum disp_counter\b/enum db_disp_counter/g;
s/\bDISP_C_/DB_DISP_C_/g;
s/\bDISP_NCOUNTERS\b/DB_DISP_NCOUNTERS/g;
s/\bDISP_COUNT\(/DB_DISP_COUNT(/g;
s/\bdisp_counter_(names|about)\b/db_disp_counter_$1/g;
s/\bstruct disp_stats\b/struct db_disp_stats/g;
s/\bstruct dispatcher\b/struct db_dispatcher/g;
s/\bDISP_(USES_QUEUE|GROWS|LOOPS|NO_WIDTH|PROGRAM|STEALS|SCHEDULER)\b/DB_DISP_$1/g;
s/\bstruct disp_ops\b/struct db_disp_ops/g;
s/\bdisp_(dispatch|yield|shutdown)\(/db_$1(/g;
