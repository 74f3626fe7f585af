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
	p, mc, hash, err := checkStream(f)
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
		err = p.verify(hash, mc)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return p, mc.n, nil
}

// errNotStreamed: the plan is not one checkStream reads (matches not last,
// or not a list, or input Parse would refuse); Read reads it, and says
// what is wrong with it if anything is.
var errNotStreamed = errors.New("plan: not read as a stream")

// checkStream reads a plan's fields up to its matches, then hashes and
// checks the matches as it decodes them one at a time: it returns the
// plan without them, their check and the hash of the whole content.
func checkStream(r io.Reader) (p *Plan, mc *matchCheck, hash string, err error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.DisallowUnknownFields()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, "", errNotStreamed
	}
	head := map[string]json.RawMessage{}
	keys := map[string]bool{} // lower case: Parse matches keys without case
	for {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, "", errNotStreamed
		}
		key, ok := t.(string)
		if !ok {
			return nil, nil, "", errNotStreamed // the object ended before its matches
		}
		if strings.EqualFold(key, "matches") {
			break
		}
		if keys[strings.ToLower(key)] {
			// Parse decodes a repeated field over the first; leave
			// that to it.
			return nil, nil, "", errNotStreamed
		}
		keys[strings.ToLower(key)] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, "", errNotStreamed
		}
		head[key] = v
	}
	p, err = decodeHead(head)
	if err != nil {
		return nil, nil, "", err
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, nil, "", errNotStreamed
	}
	mc = newMatchCheck(p)
	hash, err = hashMatches(p, dec, mc)
	if err != nil {
		return nil, nil, "", err
	}
	// The list and the object end here, and nothing follows them.
	if t, err := dec.Token(); err != nil || t != json.Delim(']') {
		return nil, nil, "", errNotStreamed
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') || dec.More() {
		return nil, nil, "", errNotStreamed
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, "", errNotStreamed
	}
	return p, mc, hash, nil
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
// feeding them to the plan's hash and to mc as they come.
func hashMatches(p *Plan, dec *json.Decoder, mc *matchCheck) (hash string, err error) {
	ms := func(yield func(*Match) bool) {
		for dec.More() {
			var m Match
			if err = dec.Decode(&m); err != nil {
				err = errNotStreamed
				return
			}
			mc.add(&m)
			if !yield(&m) {
				return
			}
		}
	}
	hash = p.HashSeq(ms)
	return hash, err
}
