#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for the table's Slurm test (cli/table/slurm.test.ts),
# from Debian's slurmctld, slurmd and munge, run as root. Its configuration, state and logs live
# in $SLURM_TEST_DIR (default /tmp/mentor-slurm), so a system's own /etc/slurm is left alone;
# clients find it by SLURM_CONF=$SLURM_TEST_DIR/slurm.conf.
#
#   scripts/slurm-test-cluster.sh start   # starts munged, slurmctld and slurmd; waits for the node
#   scripts/slurm-test-cluster.sh stop    # stops the daemons it started (by their pid files)
#
# Plain process tracking and no task plugin (no cgroup.conf), so it runs in a container too.
set -euo pipefail

dir=${SLURM_TEST_DIR:-/tmp/mentor-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf

running() {
  [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    if running "$pidfile"; then
      local pid
      pid=$(cat "$pidfile")
      kill "$pid"
      # Gone before the next one is stopped (and before a later start binds its ports).
      for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
    fi
    rm -f "$pidfile"
  done
}

start() {
  if [ "$(id -u)" != 0 ]; then
    echo "slurm-test-cluster: must run as root" >&2
    exit 1
  fi
  for bin in munged slurmctld slurmd sbatch squeue; do
    if ! command -v "$bin" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$bin" ]; then
      echo "slurm-test-cluster: $bin is not installed (apt-get install slurmctld slurmd munge slurm-client)" >&2
      exit 1
    fi
  done
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512))

  if [ ! -s /etc/munge/munge.key ]; then
    /usr/sbin/mungekey --create --keyfile=/etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  # The daemons' output goes to their logs: none holds the caller's stdout or stderr open.
  if ! running "$dir/munged.pid"; then
    # Its own socket, so a munged the system already runs is not disturbed.
    /usr/sbin/munged --force --socket="$dir/munge/munge.socket" --pid-file="$dir/munged.pid" \
      --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" </dev/null >/dev/null 2>&1
  fi

  cat >"$conf" <<EOF
ClusterName=mentor-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
KillWait=5
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

  if ! running "$dir/slurmctld.pid"; then
    /usr/sbin/slurmctld -f "$conf" </dev/null >/dev/null 2>&1
  fi
  if ! running "$dir/slurmd.pid"; then
    /usr/sbin/slurmd -f "$conf" -N "$host" </dev/null >/dev/null 2>&1
  fi
  for _ in $(seq 60); do
    if sinfo -h -N -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      echo "slurm-test-cluster: up ($host, $cpus CPUs); export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.5
  done
  echo "slurm-test-cluster: the node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
  exit 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
