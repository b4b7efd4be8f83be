#!/bin/sh
# Make sure Slurm and MUNGE exist before `make test` runs anything: the
# cluster tests (test/cluster/) start a one-node Slurm cluster of their own
# from Debian's packages (slurmctld, slurmd, the client commands such as
# sbatch, and munged), in a temp folder on loopback ports.
#
# Present: exit 0 silently. Missing, as root with apt-get on PATH: install
# the `slurm-wlm` and `munge` packages. Otherwise print one line saying what
# to install and exit 1, so the test run stops before it starts rather than
# failing in its last suite. POSIX sh, run as `sh scripts/ensure_slurm.sh`;
# it looks the programs up on PATH, as the tests start them (Debian puts the
# daemons in /usr/sbin, on root's PATH), and uses no other program than `id`
# and `apt-get` from PATH, which is what lets a test fake a machine without them.
set -eu

# The programs of slurmctld slurmd sbatch munged not on PATH, space-separated.
missing() {
  out=""
  for program in slurmctld slurmd sbatch munged; do
    command -v "$program" >/dev/null 2>&1 || out="$out${out:+ }$program"
  done
  echo "$out"
}

absent="$(missing)"
[ -z "$absent" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Slurm missing ($absent): installing Debian's slurm-wlm and munge packages (apt-get)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
  still="$(missing)"
  [ -z "$still" ] && exit 0
  echo "make test: apt-get installed slurm-wlm and munge but $still is still not on PATH" >&2
  exit 1
fi

echo "make test needs Slurm and MUNGE for the cluster tests (missing: $absent): install the slurm-wlm and munge packages (e.g. sudo apt-get install slurm-wlm munge)" >&2
exit 1
