package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Encode writes p as json.Marshal would (json.MarshalIndent with two
// spaces when indent is set, followed by a newline then), byte for byte,
// but one match at a time: the memory it takes does not grow with the
// number of matches. Matches is the last field of a Plan, so the rest is
// marshalled with an empty list and the list is written in its place.
func (p *Plan) Encode(w io.Writer, indent bool) error {
	head := *p
	if head.Matches != nil {
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
	if p.Matches == nil {
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
	if len(p.Matches) == 0 {
		bw.WriteString(tail)
	} else if err := encodeMatches(bw, p.Matches, indent); err != nil {
		return err
	}
	if indent {
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// encodeMatches writes the list of matches and the plan's closing brace.
func encodeMatches(w *bufio.Writer, matches []Match, indent bool) error {
	w.WriteByte('[')
	for i := range matches {
		if i > 0 {
			w.WriteByte(',')
		}
		var b []byte
		var err error
		if indent {
			w.WriteString("\n    ")
			b, err = json.MarshalIndent(&matches[i], "    ", "  ")
		} else {
			b, err = json.Marshal(&matches[i])
		}
		if err != nil {
			return err
		}
		w.Write(b)
	}
	if indent {
		w.WriteString("\n  ]\n}")
	} else {
		w.WriteString("]}")
	}
	return nil
}
