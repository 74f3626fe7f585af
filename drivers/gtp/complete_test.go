package gtp

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// bytesLines reads lines from b as a session does (without "\r\n"), and
// errMore when b holds no further whole line: a reader that meets it
// would have waited for the bot.
type bytesLines struct{ b []byte }

var errMore = errors.New("needs more")

func (r *bytesLines) ReadLine(time.Time) (string, error) {
	end := bytes.IndexByte(r.b, '\n')
	if end < 0 {
		return "", errMore
	}
	line := strings.TrimRight(string(r.b[:end]), "\r\n")
	r.b = r.b[end+1:]
	return line, nil
}

// checkComplete fails unless answerComplete(b) says what readAnswer does
// on b: whole when it returns without needing more than b.
func checkComplete(t *testing.T, b []byte) {
	t.Helper()
	_, _, err := readAnswer(&bytesLines{b}, "cmd", time.Time{})
	if want := !errors.Is(err, errMore); answerComplete(b) != want {
		t.Errorf("answerComplete(%q) = %v; readAnswer returns %v", b, !want, err)
	}
}

// TestAnswerComplete: TellAll reads a bot's answer once answerComplete
// says it is whole, so it must agree with readAnswer: one that says whole
// too soon would wait on the bot inside a broadcast, one that says it too
// late would keep a whole answer waiting to its deadline.
func TestAnswerComplete(t *testing.T) {
	for _, b := range []string{
		"", "=", "= ok", "= ok\n", "= ok\n\n", "= ok\r\n\r\n", "= ok\n\r\n", "= ok\n \n",
		"\n", "\n\n", " \n\t\n", "\n= a\nb\n", "\n= a\nb\n\n", "? no\n\n", "?\n\n",
		"hello\n", "hello", " = ok\n", "\r\n=\n\n", "=\n\r\r\n", "= a\nb\nc\n\nd",
		"\xff\n", "= \xff\n\n",
	} {
		checkComplete(t, []byte(b))
	}
}

func FuzzAnswerComplete(f *testing.F) {
	for _, b := range []string{"= ok\n\n", "\n \n? x\ny\n\n", "bad\n", "=\r\n\r\n"} {
		f.Add([]byte(b))
	}
	f.Fuzz(checkComplete)
}
