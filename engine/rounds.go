package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arbiter-contests/arbiter/engine/pairing"
	"github.com/arbiter-contests/arbiter/engine/plan"
	"github.com/arbiter-contests/arbiter/engine/stages"
	"github.com/arbiter-contests/arbiter/engine/stop"
	"github.com/arbiter-contests/arbiter/tournament"
)

// The files of a results directory that record the stages a run paired
// (package pairing) and the stopping rule that ended it (package stop).

// RoundsDir holds, in a results directory, the rounds and playoffs that
// the run paired: r<round>.json and playoff-<stage>.json, and the stages
// it made: stage-<name>.json.
const RoundsDir = "rounds"

func roundName(r int) string   { return fmt.Sprintf("r%03d.json", r) }
func playoffName(k int) string { return fmt.Sprintf("playoff-%d.json", k) }

// loadPairings reads the paired stages of a results directory in the
// order the run made them, up to the first one missing.
func loadPairings(dir string, p *plan.Plan) ([]*pairing.Pairing, error) {
	var names []string
	for k := p.ListedStages(); k < len(p.Stages); k++ {
		names = append(names, stages.FileName(p.Stages[k].Name))
	}
	if p.Later == nil {
		return readPairings(dir, names)
	}
	if p.Later.Pairing != tournament.NoPairing {
		for r := p.Later.From; r <= p.Rounds; r++ {
			names = append(names, roundName(r))
		}
	}
	if p.Later.Playoffs {
		for k := 1; k <= plan.MaxPlayoffs; k++ {
			names = append(names, playoffName(k))
		}
	}
	return readPairings(dir, names)
}

// readPairings reads the named stages of rounds/, up to the first one
// missing.
func readPairings(dir string, names []string) ([]*pairing.Pairing, error) {
	var out []*pairing.Pairing
	for _, name := range names {
		path := filepath.Join(dir, RoundsDir, name)
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			return nil, err
		}
		var pr pairing.Pairing
		if err := json.Unmarshal(b, &pr); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, &pr)
	}
	return out, nil
}

// pairingEqual compares two pairings as they are written.
func pairingEqual(a, b *pairing.Pairing) bool {
	return bytes.Equal(mustIndent(a), mustIndent(b))
}

// StopFile is written to the results directory when a stopping rule ends
// the run.
const StopFile = "stopped.json"

// ReadStopped reads a results directory's stop, or nil when its run was
// not stopped.
func ReadStopped(dir string) (*stop.Stopped, error) {
	b, err := os.ReadFile(filepath.Join(dir, StopFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s stop.Stopped
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, StopFile), err)
	}
	return &s, nil
}
