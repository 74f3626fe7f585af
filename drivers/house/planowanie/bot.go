package planowanie

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers/house"
	"github.com/arbiter-contests/arbiter/drivers/shuffle"
)

// strategy is what tells house bots apart; everything else about a bot is
// the table it keeps.
type strategy interface {
	// declare is called with the new hand dealt and nothing played yet.
	declare(t *table) int
	// move returns a legal card; it is called only when it is the bot's
	// turn and the hand is not empty.
	move(t *table) Card
}

// table is what a bot knows of the game from the commands it was sent: the
// bot side of the protocol, shared by every house bot.
type table struct {
	deck  Deck
	n, me int
	deals []DealSpec

	deal     int // index of the current deal, -1 before the first set_cards
	cards    int // cards every player got this deal
	hand     []Card
	declared []int // -1 until revealed
	tricks   []int
	played   []int  // cards each player has laid this deal
	leader   int    // who leads the trick on the table
	trick    []Card // the trick on the table, in order of play
	gone     map[Card]bool
	void     [][]bool // void[player][suit index]: it failed to follow that suit
	timeLeft int64    // ms, -1 when never told
}

func newTable() *table {
	return &table{deck: TournamentDeck(), n: 4, deal: -1, timeLeft: -1}
}

// errNoDeal answers a command that only makes sense within a deal, sent
// before set_cards (or after the deck or players changed).
var errNoDeal = errors.New("no cards dealt yet")

// serve speaks the bot side of the protocol (house.Serve) until quit or the
// end of in.
func serve(in io.Reader, out io.Writer, s strategy) error {
	t := newTable()
	return house.Serve(in, out, func(f []string) (string, error) { return t.handle(f, s) })
}

// handle runs one command and returns the text of its answer.
func (t *table) handle(f []string, s strategy) (string, error) {
	cmd, args := f[0], f[1:]
	switch cmd {
	case "quit":
		return "", nil
	case "set_deck":
		return "", t.setDeck(args)
	case "set_players":
		return "", t.setPlayers(cmd, args)
	case "set_game":
		return "", t.setGame(cmd, args)
	case "set_cards":
		return "", t.setCards(args)
	case "time_left":
		return "", t.setTimeLeft(cmd, args)
	case "gen_declare":
		return t.genDeclare(s)
	case "declare":
		return "", t.declare(cmd, args)
	case "gen_move":
		return t.genMove(s)
	case "play":
		return "", t.play(args)
	default:
		return "", fmt.Errorf("unknown command %s", cmd)
	}
}

// numbers reads the arguments of command cmd as whole numbers; there must
// be want of them, or any number when want is negative.
func numbers(cmd string, args []string, want int) ([]int, error) {
	if want >= 0 && len(args) != want {
		return nil, fmt.Errorf("%s takes %d arguments", cmd, want)
	}
	v := make([]int, len(args))
	for i, a := range args {
		x, err := strconv.Atoi(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", cmd, a)
		}
		v[i] = x
	}
	return v, nil
}

// setDeck runs set_deck ranks suits.
func (t *table) setDeck(args []string) error {
	if len(args) != 2 {
		return errors.New("set_deck takes ranks and suits")
	}
	d := Deck{Ranks: args[0], Suits: args[1]}
	if err := d.Validate(); err != nil {
		return err
	}
	t.deck = d
	t.deal = -1
	return nil
}

// setPlayers runs set_players n me.
func (t *table) setPlayers(cmd string, args []string) error {
	v, err := numbers(cmd, args, 2)
	if err != nil {
		return err
	}
	if v[0] < 1 || v[1] < 0 || v[1] >= v[0] {
		return fmt.Errorf("no player %d among %d", v[1], v[0])
	}
	t.n, t.me = v[0], v[1]
	t.deal = -1
	return nil
}

// setGame runs set_game deals, then cards and leader for each deal.
func (t *table) setGame(cmd string, args []string) error {
	v, err := numbers(cmd, args, -1)
	if err != nil {
		return err
	}
	if len(v) == 0 || len(v) != 1+2*v[0] {
		return errors.New("set_game takes the number of deals, then cards and leader for each")
	}
	t.deals = t.deals[:0]
	for i := 1; i < len(v); i += 2 {
		t.deals = append(t.deals, DealSpec{Cards: v[i], Leader: v[i+1]})
	}
	t.deal = -1
	return nil
}

// setCards runs set_cards count cards..., which starts a deal.
func (t *table) setCards(args []string) error {
	if len(args) == 0 {
		return errors.New("set_cards takes a count and the cards")
	}
	c, err := strconv.Atoi(args[0])
	if err != nil || c != len(args)-1 {
		return fmt.Errorf("set_cards: %q does not count the %d cards given", args[0], len(args)-1)
	}
	hand := make([]Card, 0, c)
	for _, a := range args[1:] {
		card, ok := t.deck.Parse(a)
		if !ok {
			return fmt.Errorf("set_cards: %q is not a card", a)
		}
		hand = append(hand, card)
	}
	t.newDeal(hand)
	return nil
}

// setTimeLeft runs time_left ms.
func (t *table) setTimeLeft(cmd string, args []string) error {
	v, err := numbers(cmd, args, 1)
	if err != nil {
		return err
	}
	t.timeLeft = int64(v[0])
	return nil
}

// genDeclare answers gen_declare with s's declaration, kept between 0 and
// the cards dealt.
func (t *table) genDeclare(s strategy) (string, error) {
	if t.deal < 0 {
		return "", errNoDeal
	}
	return strconv.Itoa(min(max(s.declare(t), 0), t.cards)), nil
}

// declare runs declare player tricks, a player's declaration revealed.
func (t *table) declare(cmd string, args []string) error {
	v, err := numbers(cmd, args, 2)
	if err != nil {
		return err
	}
	if t.deal < 0 {
		return errNoDeal
	}
	if v[0] < 0 || v[0] >= t.n {
		return fmt.Errorf("no player %d", v[0])
	}
	t.declared[v[0]] = v[1]
	return nil
}

// genMove answers gen_move with s's card.
func (t *table) genMove(s strategy) (string, error) {
	if t.deal < 0 || len(t.hand) == 0 {
		return "", errors.New("no cards in hand")
	}
	return s.move(t).String(), nil
}

// play runs play player card, a card laid by a player (this bot too).
func (t *table) play(args []string) error {
	if len(args) != 2 {
		return errors.New("play takes a player and a card")
	}
	if t.deal < 0 {
		return errNoDeal
	}
	p, err := strconv.Atoi(args[0])
	if err != nil || p < 0 || p >= t.n {
		return fmt.Errorf("play: no player %q", args[0])
	}
	c, ok := t.deck.Parse(args[1])
	if !ok {
		return fmt.Errorf("play: %q is not a card", args[1])
	}
	t.lay(p, c)
	return nil
}

func (t *table) newDeal(hand []Card) {
	t.deal++
	t.cards = len(hand)
	t.hand = hand
	t.deck.Sort(t.hand)
	t.leader = 0
	if t.deal < len(t.deals) {
		t.leader = t.deals[t.deal].Leader
	}
	t.declared = slices.Repeat([]int{-1}, t.n)
	t.tricks = make([]int, t.n)
	t.played = make([]int, t.n)
	t.trick = t.trick[:0]
	t.gone = make(map[Card]bool, t.n*t.cards)
	t.void = make([][]bool, t.n)
	for i := range t.void {
		t.void[i] = make([]bool, len(t.deck.Suits))
	}
}

// lay records player p laying c, closing the trick when it is full.
func (t *table) lay(p int, c Card) {
	if p == t.me {
		t.hand = slices.DeleteFunc(t.hand, func(h Card) bool { return h == c })
	}
	if led := t.led(); led != 0 && c.Suit != led {
		t.void[p][strings.IndexByte(t.deck.Suits, led)] = true
	}
	t.gone[c] = true
	t.played[p]++
	t.trick = append(t.trick, c)
	if len(t.trick) == t.n {
		w := (t.leader + t.deck.Winner(t.trick)) % t.n
		t.tricks[w]++
		t.leader = w
		t.trick = t.trick[:0]
	}
}

// led is the led suit of the trick on the table, 0 when there is none.
func (t *table) led() byte {
	if len(t.trick) == 0 {
		return 0
	}
	return t.trick[0].Suit
}

// winning reports whether c would take the trick on the table as it stands.
func (t *table) winning(c Card) bool {
	if len(t.trick) == 0 {
		return true
	}
	return t.deck.beats(c, t.trick[t.deck.Winner(t.trick)])
}

// need is how many more tricks the bot must take to make its declaration;
// negative once it is over.
func (t *table) need() int {
	return t.declared[t.me] - t.tricks[t.me]
}

// held is how many cards player p still holds.
func (t *table) held(p int) int { return t.cards - t.played[p] }

// unseen reports whether c may be in someone else's hand (or undealt).
func (t *table) unseen(c Card) bool {
	return !t.gone[c] && !slices.Contains(t.hand, c)
}

// unseenCount is how many cards the bot cannot place: the other hands and
// the cards left undealt.
func (t *table) unseenCount() int {
	return t.deck.Size() - len(t.gone) - len(t.hand)
}

// unseenIn counts the unseen cards of a suit ranked above rank (-1 for all).
func (t *table) unseenIn(suit byte, rank int) int {
	k := 0
	for r := rank + 1; r < len(t.deck.Ranks); r++ {
		if t.unseen(Card{Rank: t.deck.Ranks[r], Suit: suit}) {
			k++
		}
	}
	return k
}

// after lists the players still to play to the trick on the table after
// the bot.
func (t *table) after() []int {
	var ps []int
	for i := len(t.trick) + 1; i < t.n; i++ {
		ps = append(ps, (t.leader+i)%t.n)
	}
	return ps
}

// seedFrom makes a bot's generator from its environment, so that a re-run
// of a match replays it exactly, while seats of one match still differ.
func seedFrom(env func(string) string) *rand.Rand {
	seed, seat := house.EnvUint(env, "ARBITER_SEED"), house.EnvUint(env, "ARBITER_SEAT")
	return rand.New(rand.NewPCG(seed, shuffle.Splitmix(0x686f757365626f74^seat)))
}

// Table is the bot side of the protocol for a player written outside this
// package (the referee's tests script one on it): what a bot knows of the
// game from the commands it was sent.
type Table struct{ t *table }

// NewTable is a table before any command: the tournament deck, 4 players.
func NewTable() Table { return Table{newTable()} }

// Handle runs one command, answering gen_declare with declare and gen_move
// with move, as the house bots answer with their strategies.
func (t Table) Handle(fields []string, declare func(Table) int, move func(Table) Card) (string, error) {
	return t.t.handle(fields, funcs{declare, move})
}

// Deck is the deck of the game.
func (t Table) Deck() Deck { return t.t.deck }

// Hand is the bot's hand, sorted, without the cards it played.
func (t Table) Hand() []Card { return t.t.hand }

// Led is the led suit of the trick on the table, 0 when there is none.
func (t Table) Led() byte { return t.t.led() }

// Gone reports whether c was played in this deal.
func (t Table) Gone(c Card) bool { return t.t.gone[c] }

// Deal is the index of the current deal, -1 before the first set_cards.
func (t Table) Deal() int { return t.t.deal }

// funcs is a strategy made of a Table's functions.
type funcs struct {
	declareF func(Table) int
	moveF    func(Table) Card
}

func (f funcs) declare(t *table) int { return f.declareF(Table{t}) }
func (f funcs) move(t *table) Card   { return f.moveF(Table{t}) }
