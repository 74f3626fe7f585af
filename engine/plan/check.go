package plan

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Check is Read for a plan that is checked, not run: the same checks and
// the same errors, but the matches are read, hashed and checked one at a
// time and never held, so checking a plan of a million matches takes the
// memory of one. It returns the plan without its matches (Matches nil)
// and their number. A plan whose matches are not its last field (arbiter
// always writes them last) is read whole, with Read.
func Check(path string) (*Plan, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	p, n, seats, hash, err := checkStream(f)
	if errors.Is(err, errNotStreamed) {
		full, err := Read(path)
		if err != nil {
			return nil, 0, err
		}
		n := len(full.Matches)
		full.Matches = nil
		return full, n, nil
	}
	if err == nil {
		err = p.verify(hash, n, seats)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return p, n, nil
}

// errNotStreamed: the plan is not one checkStream reads (matches not last,
// or not a list, or input Parse would refuse); Read reads it, and says
// what is wrong with it if anything is.
var errNotStreamed = errors.New("plan: not read as a stream")

// checkStream reads a plan's fields up to its matches, then hashes the
// matches as it decodes them one at a time: it returns the plan without
// them, their number, what they seat and the hash of the whole content.
func checkStream(r io.Reader) (p *Plan, n int, seats []seat, hash string, err error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.DisallowUnknownFields()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, 0, nil, "", errNotStreamed
	}
	head := map[string]json.RawMessage{}
	keys := map[string]bool{} // lower case: Parse matches keys without case
	for {
		t, err := dec.Token()
		if err != nil {
			return nil, 0, nil, "", errNotStreamed
		}
		key, ok := t.(string)
		if !ok {
			return nil, 0, nil, "", errNotStreamed // the object ended before its matches
		}
		if strings.EqualFold(key, "matches") {
			break
		}
		if keys[strings.ToLower(key)] {
			// Parse decodes a repeated field over the first; leave
			// that to it.
			return nil, 0, nil, "", errNotStreamed
		}
		keys[strings.ToLower(key)] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, 0, nil, "", errNotStreamed
		}
		head[key] = v
	}
	p, err = decodeHead(head)
	if err != nil {
		return nil, 0, nil, "", err
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, 0, nil, "", errNotStreamed
	}
	n, seats, hash, err = hashMatches(p, dec)
	if err != nil {
		return nil, 0, nil, "", err
	}
	// The list and the object end here, and nothing follows them.
	if t, err := dec.Token(); err != nil || t != json.Delim(']') {
		return nil, 0, nil, "", errNotStreamed
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || dec.More() {
		return nil, 0, nil, "", errNotStreamed
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, 0, nil, "", errNotStreamed
	}
	return p, n, seats, hash, nil
}

// decodeHead decodes the fields of a plan before its matches as Parse
// would, strictly.
func decodeHead(head map[string]json.RawMessage) (*Plan, error) {
	b, err := json.Marshal(head)
	if err != nil {
		return nil, errNotStreamed
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var p Plan
	if err := dec.Decode(&p); err != nil {
		return nil, errNotStreamed
	}
	return &p, nil
}

// hashMatches decodes the elements of the list of matches that dec is in,
// feeding them to the plan's hash as they come.
func hashMatches(p *Plan, dec *json.Decoder) (n int, seats []seat, hash string, err error) {
	seen := map[string]bool{}
	ms := func(yield func(*Match) bool) {
		for dec.More() {
			var m Match
			if err = dec.Decode(&m); err != nil {
				err = errNotStreamed
				return
			}
			n++
			for _, name := range m.Seats {
				if !seen[name] {
					seen[name] = true
					seats = append(seats, seat{name, m.ID})
				}
			}
			if !yield(&m) {
				return
			}
		}
	}
	hash = p.HashSeq(ms)
	return n, seats, hash, err
}
