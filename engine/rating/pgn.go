package rating

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// pgnToken kinds that matter for finding games and their tags; the rest of
// the movetext is only skipped.
type pgnKind int

const (
	tokEOF pgnKind = iota
	tokTagOpen
	tokTagClose
	tokString // quoted string, or symbol: both can be a tag value
	tokSymbol
	tokTermination
	tokOther
)

// pgnToken is a token; text (of strings and symbols) is only valid until
// the next token is read.
type pgnToken struct {
	kind pgnKind
	text []byte
}

// pgnLexer splits PGN like bayeselo's lexer: ';' comments and '%' escape
// lines are skipped, brace comments and strings are single tokens.
type pgnLexer struct {
	r   *bufio.Reader
	c   int // current byte, -1 at end of input
	err error
	buf []byte // the text of the last token, reused
	val []byte // the value of the tag being read, reused
}

func newPGNLexer(r io.Reader) *pgnLexer {
	// Start as if after a newline so that a '%' on the first line is an
	// escape line too.
	return &pgnLexer{r: bufio.NewReader(r), c: '\n'}
}

func (l *pgnLexer) next() int {
	b, err := l.r.ReadByte()
	if err != nil {
		if err != io.EOF {
			l.err = err
		}
		l.c = -1
	} else {
		l.c = int(b)
	}
	return l.c
}

func (l *pgnLexer) skipLine() {
	for l.next() != '\n' && l.c >= 0 {
	}
}

func isLetter(c int) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c int) bool  { return '0' <= c && c <= '9' }

func isSymbolChar(c int) bool {
	return isLetter(c) || isDigit(c) || c >= 0 && strings.IndexByte("_=:-+#", byte(c)) >= 0
}

func (l *pgnLexer) token() pgnToken {
	for {
		switch c := l.c; {
		case c < 0:
			return pgnToken{kind: tokEOF}
		case c == '\n':
			if l.next() == '%' {
				l.skipLine()
			}
		case c == ' ' || c == '\t' || c == '\r':
			l.next()
		case c == ';':
			l.skipLine()
		case c == '{':
			for l.next() != '}' {
				if l.c < 0 {
					return pgnToken{kind: tokEOF}
				}
			}
			l.next()
			return pgnToken{kind: tokOther}
		case c == '"':
			l.buf = l.buf[:0]
			for l.next() != '"' {
				if l.c == '\\' {
					l.next()
				}
				if l.c < 0 {
					return pgnToken{kind: tokEOF}
				}
				l.buf = append(l.buf, byte(l.c))
			}
			l.next()
			return pgnToken{tokString, l.buf}
		case c == '[':
			l.next()
			return pgnToken{kind: tokTagOpen}
		case c == ']':
			l.next()
			return pgnToken{kind: tokTagClose}
		case c == '*':
			l.next()
			return pgnToken{kind: tokTermination}
		case isDigit(c):
			// "1-0", "0-1" and "1/2-1/2" end a game; other digit runs are
			// move numbers.
			l.next()
			if (c == '1' || c == '0') && l.c == '-' || c == '1' && l.c == '/' {
				for isDigit(l.c) || l.c == '-' || l.c == '/' {
					l.next()
				}
				return pgnToken{kind: tokTermination}
			}
			for isDigit(l.c) {
				l.next()
			}
			return pgnToken{kind: tokOther}
		case isLetter(c):
			l.buf = l.buf[:0]
			for isSymbolChar(l.c) {
				l.buf = append(l.buf, byte(l.c))
				l.next()
			}
			return pgnToken{tokSymbol, l.buf}
		default:
			l.next()
			return pgnToken{kind: tokOther}
		}
	}
}

// ReadPGN reads games the way bayeselo's `readpgn` does: the players and
// the result come from the White, Black and Result tags (a missing name is
// empty); games whose Result is not 1-0, 1/2-1/2 or 0-1 (such as "*") are
// skipped. Players are numbered in order of first appearance in a kept
// game, White before Black, which is bayeselo's numbering.
//
// Unlike bayeselo, names are not truncated to 63 bytes. Reading allocates
// per player, not per game.
func ReadPGN(r io.Reader) (names []string, games []Game, err error) {
	names, err = readPGN(r, func(_ []string, w, b int, res Result) error {
		games = append(games, Game{White: w, Black: b, Result: res})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return names, games, nil
}

// FitPGN is Fit of the games ReadPGN reads, counted by pair of players
// and colours as they are read: its memory grows with the players and the
// pairs of them that met, not with the games.
func FitPGN(r io.Reader, opt Options) (*Ratings, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	t := newTally(0)
	names, err := readPGN(r, func(names []string, w, b int, res Result) error {
		if w == b {
			return fmt.Errorf("rating: game %d (%q): %w", t.games, names[w], ErrSelfPlay)
		}
		t.add(w, b, res)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t.players = len(names)
	return fitTally(names, t, opt), nil
}

// readPGN reads games like ReadPGN and hands each kept one to game, with
// the names read so far; it stops at game's first error.
func readPGN(r io.Reader, game func(names []string, white, black int, res Result) error) (names []string, err error) {
	lex := newPGNLexer(r)
	index := map[string]int{}
	player := func(name []byte) int {
		i, ok := index[string(name)]
		if !ok {
			i = len(names)
			names = append(names, string(name))
			index[names[i]] = i
		}
		return i
	}
	var tags [3][]byte // White, Black, Result of the game being read

	tok := lex.token()
	for {
		for tok.kind != tokTagOpen && tok.kind != tokEOF {
			tok = lex.token()
		}
		if tok.kind == tokEOF {
			break
		}
		tok = readTags(lex, tok, &tags)

		// The game ends at its termination marker, or where the tags of
		// the next game begin if it has none.
		for tok.kind != tokEOF && tok.kind != tokTagOpen {
			k := tok.kind
			tok = lex.token()
			if k == tokTermination {
				break
			}
		}

		if res, ok := pgnResult(tags[2]); ok {
			w := player(tags[0])
			b := player(tags[1])
			if err := game(names, w, b, res); err != nil {
				return nil, err
			}
		}
	}
	if lex.err != nil {
		return nil, fmt.Errorf("rating: reading PGN: %w", lex.err)
	}
	return names, nil
}

// readTags reads a game's tag pairs, which follow each other directly
// (anything else starts the movetext), from tok, the first '['. It keeps
// the values of White, Black and Result in tags (empty when missing; the
// last one when repeated) and returns the token after the tags.
func readTags(lex *pgnLexer, tok pgnToken, tags *[3][]byte) pgnToken {
	for i := range tags {
		tags[i] = tags[i][:0]
	}
	value := lex.val[:0]
	defer func() { lex.val = value }()
	for tok.kind == tokTagOpen {
		for tok = lex.token(); tok.kind != tokSymbol && tok.kind != tokEOF; tok = lex.token() {
		}
		which := -1
		switch string(tok.text) {
		case "White":
			which = 0
		case "Black":
			which = 1
		case "Result":
			which = 2
		}
		value = value[:0]
		for ; tok.kind != tokTagClose && tok.kind != tokEOF; tok = lex.token() {
			if tok.kind == tokString || tok.kind == tokSymbol {
				value = append(value[:0], tok.text...)
			}
		}
		if tok.kind == tokEOF {
			break
		}
		if which >= 0 {
			tags[which] = append(tags[which][:0], value...)
		}
		tok = lex.token()
	}
	return tok
}

// pgnResult is the result a Result tag's value stands for, if any.
func pgnResult(v []byte) (Result, bool) {
	switch string(v) {
	case "1-0":
		return WhiteWins, true
	case "1/2-1/2":
		return Draw, true
	case "0-1":
		return BlackWins, true
	}
	return 0, false
}

func pgnString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i := range len(s) {
		if s[i] == '"' || s[i] == '\\' {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	sb.WriteByte('"')
	return sb.String()
}

// WritePGN writes one line per game, tags and termination marker, which
// ReadPGN and bayeselo read back as the same games.
func WritePGN(w io.Writer, names []string, games []Game) error {
	bw := bufio.NewWriter(w)
	for i, g := range games {
		if g.White < 0 || g.White >= len(names) || g.Black < 0 || g.Black >= len(names) {
			return fmt.Errorf("rating: game %d: player index out of range [0, %d)", i, len(names))
		}
		var res string
		switch g.Result {
		case WhiteWins:
			res = "1-0"
		case Draw:
			res = "1/2-1/2"
		case BlackWins:
			res = "0-1"
		default:
			return fmt.Errorf("rating: game %d: result %v is not 0, 0.5 or 1", i, float64(g.Result))
		}
		fmt.Fprintf(bw, "[White %s][Black %s][Result %q] %s\n",
			pgnString(names[g.White]), pgnString(names[g.Black]), res, res)
	}
	return bw.Flush()
}
