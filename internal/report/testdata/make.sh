#!/bin/sh
# Remakes the results directories the tests of the results page read,
# by running arbiter on the configurations here (and on the placement
# tournament of examples/formats), then keeping only what the page reads:
#
#   go build -o /tmp/arbiter ./cmd/arbiter && internal/report/testdata/make.sh /tmp/arbiter
#
# Each tournament runs in a scratch directory, so that the bots' folders
# are not this one; the plans lose the fingerprints and the sandbox paths
# (machine-specific, and not part of the plan's hash).
set -eu
arbiter=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

play() { # name, then arbiter run's arguments
	name=$1
	shift
	rm -rf "$here/$name"
	"$arbiter" run "$@" -out "$here/$name" -j 1 >/dev/null 2>"$scratch/$name.log" || { cat "$scratch/$name.log"; exit 1; }
	rm -rf "$here/$name/arbiter.log" "$here/$name/standings.txt" "$here/$name/.lock"
	for m in "$here/$name"/matches/*/; do
		find "$m" -mindepth 1 -maxdepth 1 ! -name events.jsonl ! -name '*.stderr' -exec rm -rf {} +
	done
	python3 - "$here/$name/plan.json" <<'PY'
import json, sys
path = sys.argv[1]
p = json.load(open(path))
p.pop("arbiter", None)
for b in p["bots"]:
    b.pop("fingerprint", None)
    b.get("limits", {}).pop("sandbox", None)
json.dump(p, open(path, "w"), indent=2)
open(path, "a").write("\n")
PY
}

for name in staged pending auction euchre euchre4 planowanie unplayed crash-planowanie; do
	mkdir "$scratch/$name"
	cp "$here/$name.hcl" "$scratch/$name/"
	(cd "$scratch/$name" && play "$name" "$name.hcl")
done
# The slow bots are the examples' Python bots, slowed down: the bot's
# folder holds the example beside the configuration.
for name in slow-planowanie fault-planowanie slow-blokus startup-blokus; do
	mkdir "$scratch/$name"
	cp "$here/$name.hcl" "$scratch/$name/"
	case $name in
	*-planowanie) cp "$here/../../../examples/planowanie/bots/simple.py" "$scratch/$name/" ;;
	*-blokus) cp "$here/../../../examples/blokus/bots/corners.py" "$scratch/$name/" ;;
	esac
	(cd "$scratch/$name" && play "$name" "$name.hcl")
done
cp -r "$here/../../../examples/formats" "$scratch/formats"
play placement "$scratch/formats" -tournament placement
# The staged, pending, placement and unplayed tests read results alone.
rm -rf "$here/staged/matches" "$here/pending/matches" "$here/placement/matches" "$here/unplayed/matches"
# pending's playoffs lose their files and results, as a run killed before
# its first playoff's match finished: the page reads it to come.
rm -f "$here/pending/rounds"/playoff-*.json
grep -v '"match":"playoff-' "$here/pending/results.jsonl" >"$scratch/pending.results" || true
cp "$scratch/pending.results" "$here/pending/results.jsonl"
