package euchre

// For the tests of package euchre_test, which play the house strategies
// against others with drivers/euchre's referee.
type (
	Strategy = strategy
	Memory   = memory
)

var (
	Rules       Strategy = rules
	DecideHouse          = decideHouse
	Highest              = highest
	Lowest               = lowest
	LowestOf             = lowestOf
)

func (m *memory) Observe(s *Situation) { m.observe(s) }
