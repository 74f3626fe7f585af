package planowanie

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/conform"
	"github.com/arbiter-contests/arbiter/drivers/gtp"
)

// CheckCases is the conformance suite of Planowanie bots (../shared/games/
// planowanie.md): every command of the protocol, the cases of the rules a
// bot most often gets wrong, and whole games against the house bots.
func (Driver) CheckCases() []drivers.CheckCase {
	return []drivers.CheckCase{
		{Name: "setup", Doc: "answers set_deck, set_players and set_game, ignores an empty line, refuses an unknown command with '?', answers each command once (not its arguments too), and exits after quit", Run: checkSetup},
		{Name: "declare", Doc: "declares a whole number between 0 and the cards in hand", Run: checkDeclare},
		{Name: "lead", Doc: "leads a card from its hand", Run: checkLead},
		{Name: "follow-suit", Doc: "with one card of the led suit, plays it (a hand with one legal move); the lead's play comes with time_left and gen_move in one go, as the referee writes them", Run: checkFollow},
		{Name: "void", Doc: "without the led suit, plays any card of its hand", Run: checkVoid},
		{Name: "last-trick", Doc: "tracks its hand and the trick winner: its last card is played in the last trick", Run: checkLastTrick, Players: 2},
		{Name: "clock", Doc: "after time_left 1000 (written with gen_move in one go, as the referee does), answers gen_move within a second", Run: checkClock},
		{Name: "two-players", Doc: "plays a whole 2-player game of three deals against the house bot greedy", Run: checkTwoPlayers, Players: 2},
		{Name: "tournament", Doc: "plays a whole tournament game (4 players, 13 deals) against the house bot greedy, from seat 2", Run: checkTournament, Players: 4},
	}
}

func hand(d Deck, s string) []Card {
	var out []Card
	for _, f := range strings.Fields(s) {
		c, _ := d.Parse(f)
		out = append(out, c)
	}
	return out
}

// begin starts the bot as player seat of n and deals it hand in the one
// deal of the game, led by leader; declarations are all 0.
func begin(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder, n, seat, leader int, hand string, declare bool) (*conform.Session, error) {
	s, err := conform.Start(ctx, bot, opt, rec)
	if err != nil {
		return nil, err
	}
	d := TournamentDeck()
	k := len(strings.Fields(hand))
	// In one write each, as the referee writes them: the set-up; the hand
	// (with time_left and gen_declare for seat 0, which declares first);
	// all the declarations.
	err = s.Script("set_deck "+d.Ranks+" "+d.Suits, fmt.Sprintf("set_players %d %d", n, seat),
		fmt.Sprintf("set_game 1 %d %d", k, leader))
	cards := fmt.Sprintf("set_cards %d %s", k, hand)
	if err == nil && !declare {
		err = s.Tell(cards)
	}
	if err == nil && declare {
		var text string
		if seat == 0 {
			text, err = s.TellGen(cards, "time_left 60000", "gen_declare")
		} else if err = s.Tell(cards); err == nil {
			text, err = s.TellGen("time_left 60000", "gen_declare")
		}
		if err == nil {
			if _, problem := parseDeclaration(text, k); problem != "" {
				err = conform.Failf("%s", problem)
			}
		}
		var declared []string
		for i := range n {
			declared = append(declared, fmt.Sprintf("declare %d 0", i))
		}
		if err == nil {
			err = s.Script(declared...)
		}
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func checkSetup(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, err := conform.Start(ctx, bot, opt, rec)
	if err != nil {
		return err
	}
	defer s.Close()
	d := TournamentDeck()
	if err := s.Tell("set_deck " + d.Ranks + " " + d.Suits); err != nil {
		return err
	}
	if err := s.Send(""); err != nil {
		return err
	}
	n := players(opt)
	game := "set_game 13"
	for k := range 13 {
		game += fmt.Sprintf(" %d %d", k+1, k%n)
	}
	if err := s.Script(fmt.Sprintf("set_players %d %d", n, n-1), game); err != nil {
		return err
	}
	ok, text, err := s.Ask("frobnicate 1 2")
	if err != nil {
		return err
	}
	if ok {
		return conform.Failf("answered %q to the unknown command \"frobnicate 1 2\": answer '?' to a command you do not know", strings.TrimSpace("= "+text))
	}
	return s.QuitOnce()
}

func checkDeclare(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, err := begin(ctx, bot, opt, rec, players(opt), 1, 0, "2C 9H KS AD TC", true)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.QuitOnce()
}

// move asks for a card and checks it against hand and the led suit.
// The lines of before (the play of the card before) are written with
// time_left and gen_move, in one go, as the referee writes them.
func move(s *conform.Session, held string, led byte, before ...string) (Card, error) {
	text, err := s.TellGen(append(before, "time_left 60000", "gen_move")...)
	if err != nil {
		return Card{}, err
	}
	d := TournamentDeck()
	c, problem := checkCard(d, text, hand(d, held), led)
	if problem != "" {
		return c, conform.Failf("%s", problem)
	}
	return c, nil
}

// lastMove is move as a case's last question: then quit (QuitOnce),
// which fails a bot that wrote anything after its card, as a match's next
// command would take it for its answer.
func lastMove(s *conform.Session, held string, led byte, before ...string) error {
	if _, err := move(s, held, led, before...); err != nil {
		return err
	}
	return s.QuitOnce()
}

func checkLead(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	seat := min(2, players(opt)-1)
	s, err := begin(ctx, bot, opt, rec, players(opt), seat, seat, "3D QH 7S", true)
	if err != nil {
		return err
	}
	defer s.Close()
	return lastMove(s, "3D QH 7S", 0)
}

func checkFollow(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, err := begin(ctx, bot, opt, rec, players(opt), 1, 0, "7H 2D AS 3C", true)
	if err != nil {
		return err
	}
	defer s.Close()
	return lastMove(s, "7H 2D AS 3C", 'S', "play 0 KS")
}

func checkVoid(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	// The bot plays last: with 4 players seat 3, after 1 leads KS and 2
	// plays 2S.
	n := players(opt)
	seat, leader := n-1, max(n-3, 0)
	s, err := begin(ctx, bot, opt, rec, n, seat, leader, "7H 2D 3C", true)
	if err != nil {
		return err
	}
	defer s.Close()
	plays := []string{fmt.Sprintf("play %d KS", leader), fmt.Sprintf("play %d 2S", leader+1)}[:seat-leader]
	for _, p := range plays[:len(plays)-1] {
		if err := s.Tell(p); err != nil {
			return err
		}
	}
	return lastMove(s, "7H 2D 3C", 'S', plays[len(plays)-1])
}

// checkLastTrick plays a 2-card deal for two: the bot (seat 0, leading)
// holds AC (trump) and 2H, the referee's seat 1 holds 3H and 4D. Whatever
// the bot leads, the winner of the first trick leads the second, and the
// bot's last card is forced.
func checkLastTrick(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	const mine = "AC 2H"
	s, err := begin(ctx, bot, opt, rec, 2, 0, 0, mine, true)
	if err != nil {
		return err
	}
	defer s.Close()
	d := TournamentDeck()
	first, err := move(s, mine, 0)
	if err != nil {
		return err
	}
	reply := hand(d, "3H")[0]
	if first.Suit != 'H' {
		reply = hand(d, "4D")[0]
	}
	if err := s.Tell(fmt.Sprintf("play 0 %s", first)); err != nil {
		return err
	}
	left := strings.Replace(strings.Replace(mine, first.String(), "", 1), " ", "", -1)
	replied := fmt.Sprintf("play 1 %s", reply)
	if d.Winner([]Card{first, reply}) == 1 {
		// Only 2H loses the first trick, to 3H; seat 1 leads 4D.
		other := hand(d, "4D")[0]
		if err := s.Tell(replied); err != nil {
			return err
		}
		_, err = move(s, left, other.Suit, fmt.Sprintf("play 1 %s", other))
	} else {
		// The winner's lead is asked with the trick's last play.
		_, err = move(s, left, 0, replied)
	}
	if err != nil {
		return err
	}
	return s.QuitOnce()
}

func checkClock(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s, err := begin(ctx, bot, opt, rec, players(opt), 0, 0, "5C 5D 5H 5S 6C", true)
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	text, err := s.TellGen("time_left 1000", "gen_move") // written together, as the referee does
	if err != nil {
		return err
	}
	if took := time.Since(start); took > time.Second {
		return conform.Failf("answered gen_move in %s after time_left 1000: with 1000 ms left it would have lost on time", took.Round(time.Millisecond))
	}
	if _, problem := checkCard(TournamentDeck(), text, hand(TournamentDeck(), "5C 5D 5H 5S 6C"), 0); problem != "" {
		return conform.Failf("%s", problem)
	}
	return s.QuitOnce()
}

// players is the number of players the cases of one deal seat: the
// contest's 4, or for a tournament whose matches never have 4
// (drivers.CheckOptions.Players), the fewest they have, so that the bot
// is told what its tournament tells it.
func players(opt drivers.CheckOptions) int {
	if len(opt.Players) == 0 || slices.Contains(opt.Players, 4) {
		return 4
	}
	return max(slices.Min(opt.Players), 2)
}

func greedyBot() drivers.HouseBot { return HouseBots()[0] }

// CheckClock says which case judges time, for check's output.
func (Driver) CheckClock(opt drivers.CheckOptions) string {
	return fmt.Sprintf("the clock case wants gen_move within the 1000 ms its time_left says (Planowanie has no default clock: a tournament sets its own); the other cases wait up to %v (-move) for each answer",
		time.Duration(opt.Move))
}

func checkTwoPlayers(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	s := Settings{Deck: TournamentDeck(), Deals: []DealSpec{{Cards: 1, Leader: 1}, {Cards: 5, Leader: 0}, {Cards: 13, Leader: 1}}, DeclarationsTogether: true}
	return conform.FullGame(ctx, bot, opt, drivers.Clock{}, rec, 2, 0, 7, greedyBot(), func(p []gtp.Player, rec drivers.Recorder) *drivers.Outcome {
		return Referee(ctx, s, 7, p, rec)
	})
}

func checkTournament(ctx context.Context, bot drivers.Seat, opt drivers.CheckOptions, rec drivers.Recorder) error {
	return conform.FullGame(ctx, bot, opt, drivers.Clock{}, rec, 4, 2, 11, greedyBot(), func(p []gtp.Player, rec drivers.Recorder) *drivers.Outcome {
		return Referee(ctx, Tournament(), 11, p, rec)
	})
}
