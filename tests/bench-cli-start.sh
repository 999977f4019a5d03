#!/usr/bin/env bash
# How long a quick CLI call takes beside a bare JVM, measured side by side.
#
#   tests/bench-cli-start.sh [-n RUNS] [--json] [--no-archive] [--before DIR]
#
# Each round runs, in turn: the baseline, a bare JVM printing one line (`java -cp DIR Hello`, a class
# compiled here; the JVM's default options and its own class-data archive), then through ./kcscale:
#   predict tasks --target-rate 1000 --per-task-rate 300
#   status stocks-es-sink        against a stand-in scaler on a loopback port (CliTraining --stand-in):
#   check stocks-es-sink         it answers each with a full canned answer, so the verbs parse and print
#   scale stocks-es-sink --tasks 3 --dry-run   what a scaler observing a pipeline would send.
# Wall-clock time of the whole command, script included; medians over RUNS rounds (default 20), and each
# median as a ratio of the baseline's. --no-archive times the verbs without the CLI's class-data archive
# (moved aside for the run, put back after). --before DIR also times the same verbs through DIR/kcscale
# (another checkout, built, e.g. `git worktree add DIR <commit>`) in the same rounds. Nothing is asserted: the figures depend on the machine's load.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=20 json=false archive=true before=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    --json) json=true; shift ;;
    --no-archive) archive=false; shift ;;
    --before) before="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: $0 [-n RUNS] [--json] [--no-archive] [--before DIR]" >&2; exit 2 ;;
  esac
done

kcscale="$home/kcscale"
"$kcscale" --version >/dev/null   # builds what is missing (and the archive) before anything is timed
work="$(mktemp -d)"
standin_pid=""
archive_file="$home/scaler/cli/target/kcscale-cli.jsa"
cleanup() {
  [ -n "$standin_pid" ] && kill "$standin_pid" 2>/dev/null || true
  [ -e "$work/kcscale-cli.jsa" ] && mv "$work/kcscale-cli.jsa" "$archive_file"
  rm -rf "$work"
}
trap cleanup EXIT
if ! $archive && [ -e "$archive_file" ]; then mv "$archive_file" "$work/kcscale-cli.jsa"; fi

cat > "$work/Hello.java" <<'EOF'
public class Hello { public static void main(String[] args) { System.out.println("hello"); } }
EOF
javac -d "$work" "$work/Hello.java"

port=$(( 20000 + RANDOM % 20000 ))
classpath="$(ls "$home"/scaler/cli/target/kcscale-scaler-cli-*.jar | grep -v -- -sources.jar | grep -v -- -tests.jar | head -n 1):$(cat "$home/scaler/cli/target/runtime.classpath")"
java -cp "$classpath" io.kcscale.scaler.cli.CliTraining --stand-in "$port" > "$work/stand-in.log" 2>&1 &
standin_pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do grep -q "stand-in scaler" "$work/stand-in.log" && break; sleep 0.1; done
grep -q "stand-in scaler" "$work/stand-in.log" || { cat "$work/stand-in.log" >&2; exit 1; }

names=(bare-jvm predict status check scale-dry-run)
commands=(
  "java -cp $work Hello"
  "$kcscale predict tasks --target-rate 1000 --per-task-rate 300"
  "$kcscale status stocks-es-sink --scaler-url $url"
  "$kcscale check stocks-es-sink --scaler-url $url"
  "$kcscale scale stocks-es-sink --tasks 3 --dry-run --scaler-url $url"
)
if [ -n "$before" ]; then
  "$before/kcscale" --version >/dev/null
  names+=(before:predict before:status before:check before:scale-dry-run)
  commands+=(
    "$before/kcscale predict tasks --target-rate 1000 --per-task-rate 300"
    "$before/kcscale status stocks-es-sink --scaler-url $url"
    "$before/kcscale check stocks-es-sink --scaler-url $url"
    "$before/kcscale scale stocks-es-sink --tasks 3 --dry-run --scaler-url $url"
  )
fi
for name in "${names[@]}"; do : > "$work/$name.ms"; done
# one untimed round, so no file is read for the first time while timed
for c in "${commands[@]}"; do $c >/dev/null 2>&1 || true; done
for _ in $(seq 1 "$runs"); do
  for i in "${!names[@]}"; do
    start=$(date +%s%N)
    ${commands[$i]} >/dev/null 2>&1 || true   # check exits 1: the stand-in's answer has a warning
    echo $(( ($(date +%s%N) - start) / 1000000 )) >> "$work/${names[$i]}.ms"
  done
done

median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
base=$(median "$work/bare-jvm.ms")
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
if $json; then
  printf '{"runs": %d, "archive": %s, "loadAverage": "%s", "medianMillis": {' "$runs" "$archive" "$load"
  sep=""
  for name in "${names[@]}"; do printf '%s"%s": %s' "$sep" "$name" "$(median "$work/$name.ms")"; sep=", "; done
  printf '}, "ratioToBareJvm": {'
  sep=""
  for name in "${names[@]:1}"; do
    printf '%s"%s": %s' "$sep" "$name" "$(awk -v m="$(median "$work/$name.ms")" -v b="$base" 'BEGIN {printf "%.2f", m / b}')"; sep=", "
  done
  printf '}}\n'
else
  echo "median of $runs interleaved runs, archive $archive, load average $load ($(nproc) cores)"
  printf '%-22s %8s %8s %8s %8s\n' what median min max ratio
  for name in "${names[@]}"; do
    m=$(median "$work/$name.ms")
    printf '%-22s %6s ms %5s ms %5s ms %7sx\n' "$name" "$m" "$(sort -n "$work/$name.ms" | head -n 1)" \
      "$(sort -n "$work/$name.ms" | tail -n 1)" "$(awk -v m="$m" -v b="$base" 'BEGIN {printf "%.1f", m / b}')"
  done
fi
