package planowanie

import (
	"io"
	"math"
	"math/rand/v2"

	"github.com/arbiter-contests/arbiter/drivers/house"
)

// HouseBots lists the bots built into arbiter for Planowanie, sorted by name.
func HouseBots() []house.Bot {
	return []house.Bot{
		{
			Name: "greedy",
			Doc:  "Declares the tricks its high cards and trumps should take, then wins them as cheaply as it can and ducks the rest.",
			Run: func(in io.Reader, out io.Writer, env func(string) string) error {
				return serve(in, out, greedy{})
			},
		},
		{
			Name: "random",
			Doc:  "Declares at random and plays a random legal card; seeded by ARBITER_SEED and ARBITER_SEAT.",
			Run: func(in io.Reader, out io.Writer, env func(string) string) error {
				return serve(in, out, random{rng: seedFrom(env)})
			},
		},
	}
}

// random is the floor every bot should beat.
type random struct{ rng *rand.Rand }

func (r random) declare(t *table) int { return r.rng.IntN(len(t.hand) + 1) }

func (r random) move(t *table) Card {
	legal := Legal(t.hand, t.led())
	return legal[r.rng.IntN(len(legal))]
}

// ruffWeight is how much of a low trump's remaining chance greedy counts on
// with full hands.
const ruffWeight = 0.65

// greedy plays one trick at a time from rough probabilities, without
// search: strong enough to be a fair opponent, fast enough for thousands of
// games. It needs no randomness, so it ignores its seed.
type greedy struct{}

// declare rounds the expected number of tricks: the sum of each card's
// chance to take one.
func (greedy) declare(t *table) int {
	sum := 0.0
	for _, c := range t.hand {
		p := t.chance(c)
		if c.Suit == t.deck.Trump() {
			// A trump too low to win on rank still takes a trick by
			// ruffing once the side suits run out, which happens more the
			// longer the hands. The weight was tuned on self-play and
			// against random over a few hundred games.
			p += (1 - p) * ruffWeight * float64(t.cards) / float64(len(t.deck.Ranks))
		}
		sum += p
	}
	return int(math.Round(sum))
}

func (greedy) move(t *table) Card {
	legal := Legal(t.hand, t.led())
	// Once the declaration is missed by going over, every trick is a point
	// again; only an exactly made declaration is worth protecting.
	wantWin := t.need() != 0
	if len(t.trick) == 0 {
		return pick(legal, t.chance, t.deck, wantWin)
	}
	var winners, losers []Card
	for _, c := range legal {
		if t.winning(c) {
			winners = append(winners, c)
		} else {
			losers = append(losers, c)
		}
	}
	last := len(t.trick) == t.n-1
	switch {
	case wantWin && len(winners) == 0:
		// Nothing takes this trick: give up the card least likely to take
		// a later one.
		return pick(losers, t.chance, t.deck, false)
	case wantWin && last:
		// Nobody can overtake: win as cheaply as possible.
		return cheapest(winners, t.deck)
	case wantWin:
		best := 0.0
		for _, c := range winners {
			best = max(best, t.hold(c))
		}
		if best < 0.15 && len(losers) > 0 {
			// Whatever wins now will almost surely be overtaken: keep it
			// for a trick it can take.
			return pick(losers, t.chance, t.deck, false)
		}
		var safe []Card
		for _, c := range winners {
			if t.hold(c) >= best-0.05 {
				safe = append(safe, c)
			}
		}
		return cheapest(safe, t.deck)
	case len(losers) > 0:
		// Shed the card most likely to take an unwanted trick later.
		return pick(losers, t.chance, t.deck, true)
	case last:
		// The trick is ours whatever we play: shed the most dangerous card.
		return pick(winners, t.chance, t.deck, true)
	default:
		// Play the card the others are likeliest to beat.
		return pick(winners, t.hold, t.deck, false)
	}
}

// pick returns the card with the highest (most) or lowest (!most) score;
// ties go to the lowest rank outside trumps, so that trumps and high cards
// are kept for later.
func pick(cards []Card, score func(Card) float64, d Deck, most bool) Card {
	best, bestScore := cards[0], score(cards[0])
	for _, c := range cards[1:] {
		s := score(c)
		better := s > bestScore+1e-9
		if !most {
			better = s < bestScore-1e-9
		}
		if better || (math.Abs(s-bestScore) <= 1e-9 && cheaper(c, best, d)) {
			best, bestScore = c, s
		}
	}
	return best
}

// cheapest is the card whose loss hurts least: the lowest non-trump, or the
// lowest trump when there is nothing else.
func cheapest(cards []Card, d Deck) Card {
	best := cards[0]
	for _, c := range cards[1:] {
		if cheaper(c, best, d) {
			best = c
		}
	}
	return best
}

func cheaper(a, b Card, d Deck) bool {
	ta, tb := a.Suit == d.Trump(), b.Suit == d.Trump()
	if ta != tb {
		return tb
	}
	return d.rank(a) < d.rank(b)
}

// inPlay is the chance that a given unseen card is in the hand of one of
// players ps rather than elsewhere or undealt.
func (t *table) inPlay(ps []int) float64 {
	u := t.unseenCount()
	if u == 0 {
		return 0
	}
	h := 0
	for _, p := range ps {
		h += t.held(p)
	}
	return float64(h) / float64(u)
}

// chance estimates how likely c is to take a trick if the bot leads it now,
// or, for the declaration, when its suit comes round. It ignores how the
// others play and treats unseen cards as independent; good enough to rank
// cards against each other.
func (t *table) chance(c Card) float64 {
	var others []int
	for p := range t.n {
		if p != t.me {
			others = append(others, p)
		}
	}
	q := t.inPlay(others)
	p := math.Pow(1-q, float64(t.unseenIn(c.Suit, t.deck.rank(c))))
	if c.Suit == t.deck.Trump() {
		return p
	}
	// My own higher cards of the suit go first, so c is played in a later
	// round of the suit, when more of the others are void in it.
	round := 1
	for _, h := range t.hand {
		if h.Suit == c.Suit && t.deck.rank(h) > t.deck.rank(c) {
			round++
		}
	}
	return p * t.unruffed(c.Suit, others, round)
}

// hold estimates how likely c, winning the trick on the table now, still
// wins it once the players after the bot have played.
func (t *table) hold(c Card) float64 {
	after := t.after()
	if len(after) == 0 {
		return 1
	}
	p := math.Pow(1-t.inPlay(after), float64(t.unseenIn(c.Suit, t.deck.rank(c))))
	if c.Suit == t.deck.Trump() {
		return p
	}
	return p * t.unruffed(t.led(), after, 1)
}

// unruffed is the chance that none of players ps trumps the round-th trick
// led in suit: to trump it a player must be out of the suit by then and
// still hold a trump.
func (t *table) unruffed(suit byte, ps []int, round int) float64 {
	u := float64(t.unseenCount())
	if u == 0 {
		return 1
	}
	inSuit := float64(t.unseenIn(suit, -1)) / u
	trumps := float64(t.unseenIn(t.deck.Trump(), -1)) / u
	si := t.deck.suit(Card{Suit: suit})
	ok := 1.0
	for _, p := range ps {
		n := t.held(p)
		pTrump := 1 - math.Pow(1-trumps, float64(n))
		if t.void[p][0] {
			pTrump = 0
		}
		pShort := 1.0
		if !t.void[p][si] {
			pShort = binomialBelow(n, inSuit, round)
		}
		ok *= 1 - pShort*pTrump
	}
	return ok
}

// binomialBelow is P(X < k) for X ~ Binomial(n, p).
func binomialBelow(n int, p float64, k int) float64 {
	sum, term := 0.0, math.Pow(1-p, float64(n))
	for i := 0; i < k && i <= n; i++ {
		sum += term
		if p >= 1 {
			break
		}
		term *= float64(n-i) / float64(i+1) * p / (1 - p)
	}
	return min(sum, 1)
}
