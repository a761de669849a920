#!/bin/sh
# A real one-node Slurm cluster on this machine, for CI and for the tests
# that submit to it. Run as root, on a machine that is there to be
# reconfigured (a CI runner, a throwaway VM): "start" installs Debian's
# packages if slurmctld is missing, writes /etc/slurm/slurm.conf for this
# machine and brings up munged, slurmctld and slurmd until the node is idle;
# "stop" cancels every job and stops the three daemons.
#   sh tests/slurm/cluster.sh start|stop
# One line per phase and the elapsed seconds go to stderr. Exit 1 when the
# node does not come up idle, with the tail of both logs.
set -eu

conf=/etc/slurm/slurm.conf
state=/var/spool/slurmctld
spool=/var/spool/slurmd
logs=/var/log/slurm
run=/run/slurm
ctld_pid=$run/slurmctld.pid
slurmd_pid=$run/slurmd.pid
munge_pid=/run/munge/munged.pid
# The daemons and the jobs run as root: one machine, no users to keep
# apart.
slurm_user=root
partition=bench
timeout=60

# /proc/uptime has hundredths of a second; date +%s only whole ones.
now() { cut -d ' ' -f 1 /proc/uptime; }
t0=$(now)
say() { echo "cluster: $*" >&2; }
elapsed() { awk -v t0="$t0" -v t1="$(now)" 'BEGIN { printf "%.1f", t1 - t0 }'; }

# A process that exited is gone for us, even while it waits as a zombie
# for an init that reaps slowly (a container's may take a second or two).
alive() {
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	[ "${st%% *}" != Z ]
}

# A pid file alone proves nothing: the daemon may have died, and the pid
# been reused, since it was written.
running() {
	[ -s "$1" ] || return 1
	pid=$(cat "$1")
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && alive "$pid"
}

# sinfo waits out MessageTimeout (10 s) when slurmctld does not answer;
# the poll below wants the next try instead.
node_state() {
	timeout 5 sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1 || true
}

fail() {
	say "$*"
	for f in "$logs/slurmctld.log" "$logs/slurmd.log"; do
		[ -f "$f" ] || continue
		echo "--- tail $f" >&2
		tail -n 20 "$f" >&2
	done
	exit 1
}

install_packages() {
	say "installing munge and slurm"
	log=$(mktemp)
	# The package lists of a fresh image may be missing or stale: update
	# them only when the install needs it, which most runs do not.
	if ! apt_install >"$log" 2>&1; then
		if ! { apt-get update -q && apt_install; } >>"$log" 2>&1; then
			tail -n 20 "$log" >&2
			rm -f "$log"
			say "apt-get install failed"
			exit 1
		fi
	fi
	rm -f "$log"
}

apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends munge slurmctld slurmd slurm-client
}

# The configuration for this machine, on stdout.
slurm_conf() {
	# slurmd -C describes the machine as slurmd will report it when it
	# registers. A RealMemory 2 % below what it found keeps the node from
	# draining as "Low RealMemory" when the next boot reserves a few
	# megabytes more.
	hw=$(slurmd -C | head -n 1)
	mem=$(echo "$hw" | sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p')
	if [ -n "$mem" ]; then
		hw=$(echo "$hw" | sed "s/ RealMemory=[0-9]*/ RealMemory=$((mem - mem / 50))/")
	fi
	cat <<EOF
# Written by tests/slurm/cluster.sh: a one-node cluster for CI.
ClusterName=ci
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$slurm_user
AuthType=auth/munge
StateSaveLocation=$state
SlurmdSpoolDir=$spool
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
# Neither plugin needs cgroups, which a container may not have.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# A node that was down comes back by registering, after any restart.
ReturnToService=2
# No database: the finished jobs are lines of a text file.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$logs/jobcomp.txt
SchedulerParameters=batch_sched_delay=0
# A job over a partition limit fails at sbatch rather than pend for ever.
EnforcePartLimits=ALL
MailProg=/bin/true
# A finished job stays visible to scontrol for ten minutes, long enough
# for a test to read its state and exit code.
MinJobAge=600
KillWait=2
# The loopback address: the host name need not resolve to this machine.
$hw NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$partition Nodes=ALL Default=YES OverSubscribe=EXCLUSIVE MaxTime=60 State=UP
EOF
}

# Stops the daemons named by pairs of pid file and command name: TERM to
# all at once, since each takes a second or two to wind down, then KILL to
# those still there after 10 s.
stop_daemons() {
	pids=""
	while [ $# -ge 2 ]; do
		if running "$1" "$2"; then
			say "stopping $2"
			kill "$pid"
			pids="$pids $pid"
		fi
		shift 2
	done
	i=0
	for p in $pids; do
		while alive "$p" && [ "$i" -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		if alive "$p"; then
			say "$(cat "/proc/$p/comm") ignored TERM; killing it"
			kill -9 "$p" 2>/dev/null || true
		fi
	done
}

start() {
	if ! dpkg-query -W -f='${Status}' slurmctld 2>/dev/null |
		grep -q 'ok installed'; then
		install_packages
	fi
	node=$(hostname -s)
	new=$(mktemp)
	trap 'rm -f "$new"' EXIT
	slurm_conf >"$new"
	if ! cmp -s "$new" "$conf"; then
		# A daemon reads its configuration as it starts; rather than
		# reason about which change a reconfigure would take, start over.
		if running "$ctld_pid" slurmctld || running "$slurmd_pid" slurmd; then
			say "configuration changed: restarting slurmctld and slurmd"
			stop_daemons "$slurmd_pid" slurmd "$ctld_pid" slurmctld
		fi
	elif running "$munge_pid" munged && running "$ctld_pid" slurmctld &&
		running "$slurmd_pid" slurmd; then
		# Up already, perhaps running a test's jobs: leave it be.
		s=$(node_state)
		case $s in
		idle | allocated | mixed | completing)
			say "already up: $node $s ($(elapsed) s)"
			return 0
			;;
		esac
	fi

	# The package makes the key; an image may have dropped it. munged
	# wants it the munge user's, with no access for group or others
	# (0600 or 0400), and refuses to start otherwise.
	if [ ! -e /etc/munge/munge.key ]; then
		runuser -u munge -- mungekey --create
	fi
	chown munge:munge /etc/munge/munge.key
	chmod go-rwx /etc/munge/munge.key
	# /run is a tmpfs, emptied by a reboot; munged refuses a socket folder
	# others may write.
	mkdir -p /run/munge
	chown munge:munge /run/munge
	chmod 0755 /run/munge
	if ! running "$munge_pid" munged; then
		say "starting munged"
		runuser -u munge -- /usr/sbin/munged
	fi
	munge -n | unmunge >/dev/null || fail "munge cannot decode its own credential"

	say "writing $conf"
	mv "$new" "$conf"
	chmod 0644 "$conf"
	# A daemon that cannot write its state, log or pid file exits after it
	# forked, with status 0, and every client then waits out its timeout.
	mkdir -p "$state" "$spool" "$logs" "$run"
	chown "$slurm_user:" "$state" "$spool" "$logs" "$run"

	say "starting slurmctld and slurmd"
	running "$ctld_pid" slurmctld || slurmctld || fail "slurmctld failed"
	running "$slurmd_pid" slurmd || slurmd || fail "slurmd failed"

	say "waiting for $node to be idle"
	resumed=""
	t1=$(now)
	while :; do
		s=$(node_state)
		case $s in
		idle | allocated | mixed | completing) break ;;
		# A drain outlives a restart in the saved state; a fresh node is
		# what the tests want.
		drained | draining)
			if [ -z "$resumed" ]; then
				scontrol update nodename="$node" state=resume || true
				resumed=1
			fi
			;;
		esac
		t=$(awk -v t1="$t1" -v t="$(now)" 'BEGIN { printf "%d", t - t1 }')
		if [ "$t" -ge "$timeout" ]; then
			fail "$node is '${s:-unreachable}' after $timeout s"
		fi
		# A daemon that died gets no more chances, once it has had the
		# time to write its pid file.
		if [ "$t" -ge 3 ]; then
			running "$ctld_pid" slurmctld || fail "slurmctld is not running"
			running "$slurmd_pid" slurmd || fail "slurmd is not running"
		fi
		sleep 0.5
	done
	say "up: $node $s, partition $partition ($(elapsed) s)"
}

stop() {
	if running "$ctld_pid" slurmctld; then
		# Jobs first: slurmd leaves the steps it started running when it
		# stops, and slurmctld should see them end.
		ids=$(timeout 15 squeue -h -o %A 2>/dev/null || true)
		if [ -n "$ids" ]; then
			say "cancelling $(echo "$ids" | wc -l) jobs"
			# shellcheck disable=SC2086
			scancel $ids || true
			i=0
			while [ -n "$(timeout 15 squeue -h -o %A 2>/dev/null || true)" ] &&
				[ "$i" -lt 30 ]; do
				sleep 1
				i=$((i + 1))
			done
		fi
	fi
	# slurmctld saves its state as it stops, which needs no credential.
	stop_daemons "$slurmd_pid" slurmd "$ctld_pid" slurmctld \
		"$munge_pid" munged
	say "stopped ($(elapsed) s)"
}

case ${1:-} in
start) start ;;
stop) stop ;;
*)
	echo "usage: sh tests/slurm/cluster.sh start|stop" >&2
	exit 2
	;;
esac
