package proc

import "fmt"

// Fault is a bot's misbehaviour: it ends the bot's match, not the arbiter.
type Fault struct {
	Kind   string // one of the drivers.Fault* kinds
	Detail string // a sentence for results and transcripts
}

func (f *Fault) Error() string { return f.Kind + ": " + f.Detail }

// FaultKind lets drivers classify an error without importing this package.
func (f *Fault) FaultKind() string { return f.Kind }

// FaultDetail is the sentence without the kind.
func (f *Fault) FaultDetail() string { return f.Detail }

func faultf(kind, format string, args ...any) *Fault {
	return &Fault{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}
