package proctest

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer that a process's output may be copied into
// (exec.Cmd's Stdout, Stderr) while a test reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
