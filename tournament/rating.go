package tournament

// Rating is the ranking a tournament reports first.
type Rating uint8

// The rating methods; BayesElo is the default.
const (
	BayesElo Rating = iota
	Placement
	Wins
	Points
)

// Ratings lists every rating method, the default first.
var Ratings = []Rating{BayesElo, Placement, Wins, Points}

type rating interface {
	name() string
	describe() string
	playoffs() bool
}

var ratings = [...]rating{BayesElo: bayesElo{}, Placement: placement{}, Wins: wins{}, Points: points{}}

func (r Rating) String() string { return ratings[r].name() }

// MarshalText writes the method's name.
func (r Rating) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a method's name.
func (r *Rating) UnmarshalText(b []byte) (err error) {
	*r, err = parse(Ratings, "rating", string(b))
	return err
}

// Describe says in a few words how the method orders the bots, as in
// "ranked by BayesElo".
func (r Rating) Describe() string { return ratings[r].describe() }

// Playoffs reports whether bots the method leaves tied after the rounds
// play playoff matches, and their ties are reported.
func (r Rating) Playoffs() bool { return ratings[r].playoffs() }

type bayesElo struct{}

func (bayesElo) name() string     { return "bayeselo" }
func (bayesElo) describe() string { return "by BayesElo" }
func (bayesElo) playoffs() bool   { return false }

type placement struct{}

func (placement) name() string     { return "placement" }
func (placement) describe() string { return "by mean place, ties broken by playoffs" }
func (placement) playoffs() bool   { return true }

type wins struct{}

func (wins) name() string     { return "wins" }
func (wins) describe() string { return "by wins, then normal wins, then fewer fault losses" }
func (wins) playoffs() bool   { return false }

type points struct{}

func (points) name() string     { return "points" }
func (points) describe() string { return "by mean points per match" }
func (points) playoffs() bool   { return false }
