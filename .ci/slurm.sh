#!/usr/bin/env bash
# Single-node Slurm for arbiter's integration test (cmd/arbiter TestSlurm):
# Debian 12 / Ubuntu 22.04+, run as root, no systemd needed. Adapted from
# the verified recipe in ../shared/reference/slurm/slurm-ci.sh.
#   .ci/slurm.sh up     install slurm-wlm and munge (apt-get) if needed, configure,
#                       start munged+slurmctld+slurmd, wait until the node is idle;
#                       does nothing when a Slurm controller already answers
#   .ci/slurm.sh down   cancel jobs, stop slurmctld/slurmd/munged by PID
set -euo pipefail

CONF=/etc/slurm/slurm.conf
STATE=/var/lib/slurm
LOGS=/var/log/slurm

up() {
  if command -v sinfo >/dev/null && [ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ]; then
    sinfo; return 0
  fi
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      slurm-wlm munge >/dev/null   # postinst cannot start services without systemd: fine
  fi

  # munge: the key must belong to munge (0400); /run/munge is normally made by systemd
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
  install -d -o munge -g munge -m 0755 /run/munge
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged     # daemonizes; pid in /run/munge/munged.pid
  fi
  munge -n | unmunge >/dev/null

  # slurm.conf: one node called "localhost" (slurmd -N localhost), independent of $(hostname)
  local cpus mem
  cpus=$(nproc)
  mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
  mem=$(( mem * 9 / 10 ))
  install -d "$STATE/slurmctld" "$STATE/slurmd" "$LOGS" /etc/slurm
  cat >"$CONF" <<EOF
ClusterName=ci
SlurmctldHost=localhost
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$STATE/slurmctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MaxArraySize=10001
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

  stop_pidfile /run/slurmd.pid
  stop_pidfile /run/slurmctld.pid
  /usr/sbin/slurmctld          # daemonizes
  /usr/sbin/slurmd -N localhost
  for _ in $(seq 1 60); do
    [ "$(sinfo -h -n localhost -o %T 2>/dev/null)" = idle ] && { sinfo; return 0; }
    sleep 0.5
  done
  echo "slurm did not become idle" >&2
  sinfo -R >&2 || true; tail -n 20 "$LOGS/slurmctld.log" "$LOGS/slurmd.log" >&2 || true
  return 1
}

stop_pidfile() {  # stop_pidfile FILE: SIGTERM the PID in FILE, wait up to 15 s
  local f=$1 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  echo "pid $pid from $f still running" >&2; return 1
}

down() {
  scancel --user=root 2>/dev/null || true
  stop_pidfile /run/slurmd.pid
  stop_pidfile /run/slurmctld.pid
  stop_pidfile /run/munge/munged.pid
}

"${1:?usage: $0 up|down}"
