package engine

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"
	"time"
)

// transcript writes a match's events.jsonl: every line sent to and
// received from a bot, and the driver's game events, each with its time
// offset from the start of the match in milliseconds.
type transcript struct {
	mu    sync.Mutex
	f     *os.File
	w     *bufio.Writer
	start time.Time
	err   error
}

type transcriptLine struct {
	T     float64 `json:"t"`
	Seat  *int    `json:"seat,omitempty"`
	Send  *string `json:"send,omitempty"`
	Recv  *string `json:"recv,omitempty"`
	Event string  `json:"event,omitempty"`
	Data  any     `json:"data,omitempty"`
}

func newTranscript(path string) (*transcript, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &transcript{f: f, w: bufio.NewWriterSize(f, 64<<10), start: time.Now()}, nil
}

func (t *transcript) write(l transcriptLine) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l.T = float64(time.Since(t.start).Microseconds()) / 1000
	b, err := json.Marshal(l)
	if err == nil {
		_, err = t.w.Write(append(b, '\n'))
	}
	if err != nil && t.err == nil {
		t.err = err
	}
}

func (t *transcript) Sent(seat int, line string) { t.write(transcriptLine{Seat: &seat, Send: &line}) }
func (t *transcript) Received(seat int, line string) {
	t.write(transcriptLine{Seat: &seat, Recv: &line})
}
func (t *transcript) Event(kind string, data any) { t.write(transcriptLine{Event: kind, Data: data}) }

func (t *transcript) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.w.Flush(); err != nil && t.err == nil {
		t.err = err
	}
	if err := t.f.Close(); err != nil && t.err == nil {
		t.err = err
	}
	return t.err
}
