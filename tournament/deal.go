package tournament

// DealMode says which matches share a deal: the matches whose seeds are
// derived from the same coordinates get the same hands.
type DealMode uint8

// The deal modes; PerMatch is the default.
const (
	PerMatch DealMode = iota
	PerGroup
	PerRound
)

// DealModes lists every deal mode, the default first.
var DealModes = []DealMode{PerMatch, PerGroup, PerRound}

type dealMode interface {
	name() string
	// coordinates keeps those of a match's group and seating that tell
	// its deal from the others of its round (0 for the others).
	coordinates(group, shift int) (int, int)
}

var dealModes = [...]dealMode{PerMatch: perMatch{}, PerGroup: perGroup{}, PerRound: perRound{}}

func (d DealMode) String() string { return dealModes[d].name() }

// MarshalText writes the mode's name.
func (d DealMode) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a mode's name.
func (d *DealMode) UnmarshalText(b []byte) (err error) {
	*d, err = parse(DealModes, "deal mode", string(b))
	return err
}

// Coordinates are the group and seating (shift) a match's deal seed is
// derived from, with the round: those the mode shares are 0.
func (d DealMode) Coordinates(group, shift int) (int, int) {
	return dealModes[d].coordinates(group, shift)
}

// Shared reports whether the seatings of a group play the same deal.
func (d DealMode) Shared() bool {
	_, shift := d.Coordinates(1, 1)
	return shift == 0
}

type perMatch struct{}

func (perMatch) name() string                            { return "per-match" }
func (perMatch) coordinates(group, shift int) (int, int) { return group, shift }

type perGroup struct{}

func (perGroup) name() string                        { return "per-group" }
func (perGroup) coordinates(group, _ int) (int, int) { return group, 0 }

type perRound struct{}

func (perRound) name() string                    { return "per-round" }
func (perRound) coordinates(int, int) (int, int) { return 0, 0 }
