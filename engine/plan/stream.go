package plan

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/arbiter-contests/arbiter/drivers"
)

// Seq is a list of matches made one at a time, which can be walked more
// than once: a plan's Matches (Plan.All), or the matches a compiler makes
// on demand without holding them (see config/compile's Stream). The Match
// a walk is handed is only valid until the next one: a walk that keeps
// matches copies them (and their Seats). A nil Seq is no list at all, as
// a nil Matches is ("matches": null).
type Seq func(yield func(*Match) bool)

// All is p's Matches as a Seq (nil when Matches is).
func (p *Plan) All() Seq {
	if p.Matches == nil {
		return nil
	}
	return func(yield func(*Match) bool) {
		for i := range p.Matches {
			if !yield(&p.Matches[i]) {
				return
			}
		}
	}
}

// Encode writes p as json.Marshal would (json.MarshalIndent with two
// spaces when indent is set, followed by a newline then), byte for byte,
// but one match at a time: the memory it takes does not grow with the
// number of matches.
func (p *Plan) Encode(w io.Writer, indent bool) error {
	return p.EncodeSeq(w, indent, p.All())
}

// EncodeSeq is Encode of p with the matches of ms in place of p.Matches.
// Matches is the last field of a Plan, so the rest is marshalled with an
// empty list and the list is written in its place.
func (p *Plan) EncodeSeq(w io.Writer, indent bool, ms Seq) error {
	head := *p
	head.Matches = nil
	if ms != nil {
		head.Matches = []Match{}
	}
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(&head, "", "  ")
	} else {
		b, err = json.Marshal(&head)
	}
	if err != nil {
		return err
	}
	tail := "[]}"
	if indent {
		tail = "[]\n}"
	}
	if ms == nil {
		if indent {
			b = append(b, '\n')
		}
		_, err := w.Write(b)
		return err
	}
	if !bytes.HasSuffix(b, []byte(tail)) {
		return fmt.Errorf("plan: the marshalled plan does not end with its matches (%q)", b[max(len(b)-20, 0):])
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(b[:len(b)-len(tail)])
	if err := encodeMatches(bw, ms, indent); err != nil {
		return err
	}
	if indent {
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// HashSeq is ComputeHash of p with the matches of ms in place of
// p.Matches.
func (p *Plan) HashSeq(ms Seq) string {
	c := p.hashed()
	h := sha256.New()
	if err := c.EncodeSeq(h, false, ms); err != nil {
		panic(fmt.Sprintf("plan does not marshal: %v", err))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// encodeMatches writes the list of matches and the plan's closing brace.
func encodeMatches(w *bufio.Writer, ms Seq, indent bool) error {
	w.WriteByte('[')
	var enc matchEncoder
	n := 0
	var err error
	ms(func(m *Match) bool {
		if n > 0 {
			w.WriteByte(',')
		}
		if indent {
			w.WriteString("\n    ")
		}
		n++
		var b []byte
		if b, err = enc.append(enc.buf[:0], m, indent); err != nil {
			return false
		}
		enc.buf = b
		w.Write(b)
		return true
	})
	if err != nil {
		return err
	}
	switch {
	case n == 0 && indent:
		w.WriteString("]\n}")
	case indent:
		w.WriteString("\n  ]\n}")
	default:
		w.WriteString("]}")
	}
	return nil
}

// matchEncoder writes a Match as json.Marshal (or json.MarshalIndent with
// the prefix "    " and the indent "  ", as a match of a plan is) would,
// byte for byte, without reflection: a plan's hash and plan.json are
// written a match at a time, a million times for a large tournament. It
// keeps the last clock's JSON, which seldom changes from match to match.
type matchEncoder struct {
	buf         []byte
	clock       drivers.Clock
	clockJSON   [2][]byte // compact, indented
	clockCached [2]bool
}

func (e *matchEncoder) append(b []byte, m *Match, indent bool) ([]byte, error) {
	// Each field is preceded by a comma from the second on, and by a
	// newline and the indentation when indented.
	nl, colon := "", ":"
	if indent {
		nl, colon = "\n      ", ": "
	}
	b = append(b, '{')
	field := func(b []byte, first bool, name string) []byte {
		if !first {
			b = append(b, ',')
		}
		b = append(b, nl...)
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"')
		return append(b, colon...)
	}
	b = field(b, true, "id")
	b = appendString(b, m.ID)
	b = field(b, false, "round")
	b = strconv.AppendInt(b, int64(m.Round), 10)
	b = field(b, false, "group")
	b = strconv.AppendInt(b, int64(m.Group), 10)
	b = field(b, false, "shift")
	b = strconv.AppendInt(b, int64(m.Shift), 10)
	b = field(b, false, "seed")
	b = strconv.AppendUint(b, m.Seed, 10)
	b = field(b, false, "seats")
	switch {
	case m.Seats == nil:
		b = append(b, "null"...)
	case len(m.Seats) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i, s := range m.Seats {
			if i > 0 {
				b = append(b, ',')
			}
			if indent {
				b = append(b, "\n        "...)
			}
			b = appendString(b, s)
		}
		b = append(b, nl...)
		b = append(b, ']')
	}
	if m.Variant != "" {
		b = field(b, false, "variant")
		b = appendString(b, m.Variant)
	}
	b = field(b, false, "clock")
	c, err := e.clockBytes(m.Clock, indent)
	if err != nil {
		return nil, err
	}
	b = append(b, c...)
	if m.Stage != "" {
		b = field(b, false, "stage")
		b = appendString(b, m.Stage)
	}
	if m.Pool != 0 {
		b = field(b, false, "pool")
		b = strconv.AppendInt(b, int64(m.Pool), 10)
	}
	if indent {
		b = append(b, "\n    "...)
	}
	return append(b, '}'), nil
}

// clockBytes is c's JSON, indented as the clock of an indented match.
func (e *matchEncoder) clockBytes(c drivers.Clock, indent bool) ([]byte, error) {
	k := 0
	if indent {
		k = 1
	}
	if c != e.clock {
		e.clock, e.clockCached = c, [2]bool{}
	}
	if !e.clockCached[k] {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		if indent {
			var ib bytes.Buffer
			if err := json.Indent(&ib, b, "      ", "  "); err != nil {
				return nil, err
			}
			b = ib.Bytes()
		}
		e.clockJSON[k], e.clockCached[k] = b, true
	}
	return e.clockJSON[k], nil
}

// appendString appends s as a JSON string the way encoding/json writes it:
// printable ASCII as it is, anything else (quotes, backslashes, control
// characters, the HTML characters <, > and &, non-ASCII) by json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
