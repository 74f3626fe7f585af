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
	tokVariationOpen  // '(': termination markers inside variations do not end the game
	tokVariationClose // ')'
	tokOther
)

// pgnToken is a token; text (of strings, symbols and termination markers)
// is only valid until the next token is read.
type pgnToken struct {
	kind pgnKind
	text []byte
	line int // where the token begins, 1-based
}

// pgnLexer splits PGN like bayeselo's lexer: ';' comments and '%' escape
// lines are skipped, brace comments and strings are single tokens.
type pgnLexer struct {
	r    *bufio.Reader
	c    int // current byte, -1 at end of input
	line int // line of c, 1-based
	err  error
	buf  []byte // the text of the last token, reused
	val  []byte // the value of the tag being read, reused
	// unclosed is the line of a brace comment or a string that the end
	// of the input closed, 0 if none; what is says which.
	unclosed int
	what     string
}

func newPGNLexer(r io.Reader) *pgnLexer {
	// Start as if after a newline so that a '%' on the first line is an
	// escape line too.
	return &pgnLexer{r: bufio.NewReader(r), c: '\n'}
}

func (l *pgnLexer) next() int {
	if l.c == '\n' {
		l.line++
	}
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

// isMarker says whether text is one of PGN's four termination markers.
func isMarker(text []byte) bool {
	switch string(text) {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

func (l *pgnLexer) token() pgnToken {
	for {
		line := l.line
		switch c := l.c; {
		case c < 0:
			return pgnToken{kind: tokEOF, line: line}
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
					l.unclosed, l.what = line, "comment"
					return pgnToken{kind: tokEOF, line: line}
				}
			}
			l.next()
			return pgnToken{kind: tokOther, line: line}
		case c == '"':
			return l.quoted(line)
		case c == '[':
			l.next()
			return pgnToken{kind: tokTagOpen, line: line}
		case c == '(':
			l.next()
			return pgnToken{kind: tokVariationOpen, line: line}
		case c == ')':
			l.next()
			return pgnToken{kind: tokVariationClose, line: line}
		case c == ']':
			l.next()
			return pgnToken{kind: tokTagClose, line: line}
		case c == '*':
			l.next()
			return pgnToken{tokTermination, append(l.buf[:0], '*'), line}
		case isDigit(c):
			return l.number(line)
		case isLetter(c):
			l.buf = l.buf[:0]
			for isSymbolChar(l.c) {
				l.buf = append(l.buf, byte(l.c))
				l.next()
			}
			return pgnToken{tokSymbol, l.buf, line}
		default:
			l.next()
			return pgnToken{kind: tokOther, line: line}
		}
	}
}

// quoted reads a string token from its opening quote.
func (l *pgnLexer) quoted(line int) pgnToken {
	l.buf = l.buf[:0]
	for l.next() != '"' {
		if l.c == '\\' {
			l.next()
		}
		if l.c < 0 {
			l.unclosed, l.what = line, "string"
			return pgnToken{kind: tokEOF, line: line}
		}
		l.buf = append(l.buf, byte(l.c))
	}
	l.next()
	return pgnToken{tokString, l.buf, line}
}

// number reads a run of digits, '-' and '/': "1-0", "0-1" and "1/2-1/2"
// end a game; other runs are move numbers or moves (castling written
// 0-0), which are only skipped.
func (l *pgnLexer) number(line int) pgnToken {
	l.buf = l.buf[:0]
	for isDigit(l.c) || l.c == '-' || l.c == '/' {
		l.buf = append(l.buf, byte(l.c))
		l.next()
	}
	if isMarker(l.buf) {
		return pgnToken{tokTermination, l.buf, line}
	}
	return pgnToken{kind: tokOther, line: line}
}

// PGNReport says what ReadPGN and FitPGN made of a PGN file's games,
// which are numbered from 1 in the order of the file. Games counts every
// game (a section of tag pairs and its movetext); each is rated, ignored
// for its unknown result "*" (as bayeselo does), or skipped as malformed
// with a warning that says why.
type PGNReport struct {
	Games    int
	Rated    int
	Unknown  int
	Skipped  int
	Warnings []string // "game N (line L): why", one per skipped game
}

// String is the report's summary, as bayeselo's "N game(s) loaded, M
// game(s) with unknown result ignored" with the malformed ones too.
func (p PGNReport) String() string {
	return fmt.Sprintf("%s read: %d rated, %d with unknown result (*) ignored, %d malformed skipped",
		plural(p.Games, "game"), p.Rated, p.Unknown, p.Skipped)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// ReadPGN reads games the way bayeselo's `readpgn` does: the players and
// the result come from the White, Black and Result tags. Unlike bayeselo,
// a game whose Result tag is missing takes its movetext's termination
// marker; one whose tag and marker disagree, whose Result is not a PGN
// result, or whose movetext a comment left open to the end of the input
// is skipped with a warning in the report; an empty or missing name is an
// error naming the game and its line. Players are numbered in order of
// first appearance in a rated game, White before Black, which is
// bayeselo's numbering.
//
// Unlike bayeselo, names are not truncated to 63 bytes. Reading allocates
// per player, not per game.
func ReadPGN(r io.Reader) (names []string, games []Game, rep PGNReport, err error) {
	names, rep, err = readPGN(r, func(_ []string, w, b int, res Result, _ pgnGame) error {
		games = append(games, Game{White: w, Black: b, Result: res})
		return nil
	})
	if err != nil {
		return nil, nil, rep, err
	}
	return names, games, rep, nil
}

// FitPGN is Fit of the games ReadPGN reads, counted by pair of players
// and colours as they are read: its memory grows with the players and the
// pairs of them that met, not with the games.
func FitPGN(r io.Reader, opt Options) (*Ratings, PGNReport, error) {
	if err := opt.validate(); err != nil {
		return nil, PGNReport{}, err
	}
	t := newTally(0)
	names, rep, err := readPGN(r, func(names []string, w, b int, res Result, g pgnGame) error {
		if w == b {
			return fmt.Errorf("rating: %s, White and Black both %q: %w", g, names[w], ErrSelfPlay)
		}
		t.add(w, b, res)
		return nil
	})
	if err != nil {
		return nil, rep, err
	}
	t.players = len(names)
	r2, err := fitTallyChecked(names, t, opt)
	return r2, rep, err
}

// pgnGame is where a game of a PGN file is: its number (from 1) and the
// line of its first tag.
type pgnGame struct{ n, line int }

func (g pgnGame) String() string { return fmt.Sprintf("game %d (line %d)", g.n, g.line) }

// pgnTags are the tags of a game that rating reads, and the movetext's
// termination marker; a line of 0 is a missing one.
type pgnTags struct {
	white, black, result, marker             []byte
	whiteLine, blackLine, resultLine, marked int
	// variation is the line of a variation that the movetext leaves
	// open, 0 if none.
	variation int
}

// readPGN reads games like ReadPGN and hands each rated one to game, with
// the names read so far; it stops at game's first error.
func readPGN(r io.Reader, game func(names []string, white, black int, res Result, g pgnGame) error) (names []string, rep PGNReport, err error) {
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
	var tags pgnTags
	tok := lex.token()
	for {
		for tok.kind != tokTagOpen && tok.kind != tokEOF {
			tok = lex.token()
		}
		if tok.kind == tokEOF {
			break
		}
		rep.Games++
		g := pgnGame{rep.Games, tok.line}
		tok = readTags(lex, tok, &tags)
		tok = readMovetext(lex, tok, &tags)

		res, why := tags.outcome(lex)
		switch {
		case why == "*":
			rep.Unknown++
			continue
		case why != "":
			rep.Skipped++
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: %s", g, why))
			continue
		}
		if err := tags.checkNames(g); err != nil {
			return nil, rep, err
		}
		rep.Rated++
		if err := game(names, player(tags.white), player(tags.black), res, g); err != nil {
			return nil, rep, err
		}
	}
	if lex.err != nil {
		return nil, rep, fmt.Errorf("rating: reading PGN: %w", lex.err)
	}
	return names, rep, nil
}

// readMovetext skips a game's movetext from tok: it ends at its
// termination marker outside variations, kept in tags, or where the tags
// of the next game begin if it has none. It returns the token after it.
func readMovetext(lex *pgnLexer, tok pgnToken, tags *pgnTags) pgnToken {
	tags.marker, tags.marked, tags.variation = tags.marker[:0], 0, 0
	var open []int // lines of the variations open
	for ; tok.kind != tokEOF && tok.kind != tokTagOpen; tok = lex.token() {
		switch {
		case tok.kind == tokVariationOpen:
			open = append(open, tok.line)
		case tok.kind == tokVariationClose && len(open) > 0:
			open = open[:len(open)-1]
		case tok.kind == tokTermination && len(open) == 0:
			tags.marker, tags.marked = append(tags.marker, tok.text...), tok.line
			return lex.token()
		}
	}
	if len(open) > 0 {
		tags.variation = open[0]
	}
	return tok
}

// outcome is the game's result, or why it has none: "*" for an unknown
// result, otherwise the warning that skips it.
func (t *pgnTags) outcome(lex *pgnLexer) (Result, string) {
	if lex.unclosed > 0 {
		why := fmt.Sprintf("the %s opened at line %d is never closed: it runs to the end of the file, so no game after it is read", lex.what, lex.unclosed)
		lex.unclosed = 0
		return 0, why
	}
	tag := t.result
	switch {
	case t.variation > 0:
		return 0, fmt.Sprintf("the variation opened at line %d is never closed", t.variation)
	case t.resultLine == 0 && t.marked == 0:
		return 0, "no Result tag and no termination marker (1-0, 0-1, 1/2-1/2 or *) ending its movetext"
	case t.resultLine == 0:
		tag = t.marker
	case !isMarker(tag):
		return 0, fmt.Sprintf("Result %q at line %d is not 1-0, 0-1, 1/2-1/2 or *", tag, t.resultLine)
	case t.marked > 0 && string(t.marker) != string(tag):
		return 0, fmt.Sprintf("Result %q at line %d disagrees with the termination marker %s at line %d (PGN wants them equal)", tag, t.resultLine, t.marker, t.marked)
	}
	if res, ok := pgnResult(tag); ok {
		return res, ""
	}
	return 0, "*"
}

// checkNames refuses a rated game without a White or Black name.
func (t *pgnTags) checkNames(g pgnGame) error {
	for _, n := range []struct {
		tag   string
		value []byte
		line  int
	}{{"White", t.white, t.whiteLine}, {"Black", t.black, t.blackLine}} {
		switch {
		case n.line == 0:
			return fmt.Errorf("rating: %s: no %s tag: every rated game names both players", g, n.tag)
		case len(n.value) == 0:
			return fmt.Errorf("rating: %s: the %s tag at line %d has an empty name: every rated game names both players", g, n.tag, n.line)
		}
	}
	return nil
}

// readTags reads a game's tag pairs, which follow each other directly
// (anything else starts the movetext), from tok, the first '['. It keeps
// the values of White, Black and Result in tags with their lines (0 when
// missing; the last one when repeated) and returns the token after the
// tags.
func readTags(lex *pgnLexer, tok pgnToken, tags *pgnTags) pgnToken {
	tags.white, tags.black, tags.result = tags.white[:0], tags.black[:0], tags.result[:0]
	tags.whiteLine, tags.blackLine, tags.resultLine = 0, 0, 0
	value := lex.val[:0]
	defer func() { lex.val = value }()
	for tok.kind == tokTagOpen {
		for tok = lex.token(); tok.kind != tokSymbol && tok.kind != tokEOF; tok = lex.token() {
		}
		var dst *[]byte
		var line *int
		switch string(tok.text) {
		case "White":
			dst, line = &tags.white, &tags.whiteLine
		case "Black":
			dst, line = &tags.black, &tags.blackLine
		case "Result":
			dst, line = &tags.result, &tags.resultLine
		}
		at := tok.line
		value = value[:0]
		for ; tok.kind != tokTagClose && tok.kind != tokEOF; tok = lex.token() {
			if tok.kind == tokString || tok.kind == tokSymbol {
				value = append(value[:0], tok.text...)
			}
		}
		if tok.kind == tokEOF {
			break
		}
		if dst != nil {
			*dst, *line = append((*dst)[:0], value...), at
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
		res, err := gameResult(i, names, g)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "[White %s][Black %s][Result %q] %s\n",
			pgnString(names[g.White]), pgnString(names[g.Black]), res, res)
	}
	return bw.Flush()
}

// TaggedGame is a game with the tags that say where it was played:
// those of PGN's Seven Tag Roster besides White, Black and Result, and
// any others.
type TaggedGame struct {
	Game
	Event, Site, Date, Round string // "" is unknown: "?", "????.??.??" for Date
	Tags                     []Tag  // in the order written, after Result
}

// Tag is a PGN tag pair.
type Tag struct{ Name, Value string }

// WriteExportPGN writes games in PGN's export format, as chess tools
// write it: each game's Seven Tag Roster (Event, Site, Date, Round,
// White, Black, Result) and its other tags one a line, an empty line,
// the movetext, which is only the termination marker (the games have no
// moves), and an empty line. ReadPGN and bayeselo read back the same
// games as from WritePGN.
func WriteExportPGN(w io.Writer, names []string, games []TaggedGame) error {
	bw := bufio.NewWriter(w)
	for i, g := range games {
		res, err := gameResult(i, names, g.Game)
		if err != nil {
			return err
		}
		for _, t := range append([]Tag{
			{"Event", orUnknown(g.Event, "?")}, {"Site", orUnknown(g.Site, "?")},
			{"Date", orUnknown(g.Date, "????.??.??")}, {"Round", orUnknown(g.Round, "?")},
			{"White", names[g.White]}, {"Black", names[g.Black]}, {"Result", res},
		}, g.Tags...) {
			fmt.Fprintf(bw, "[%s %s]\n", t.Name, pgnString(t.Value))
		}
		fmt.Fprintf(bw, "\n%s\n\n", res)
	}
	return bw.Flush()
}

func orUnknown(v, unknown string) string {
	if v == "" {
		return unknown
	}
	return v
}

// gameResult is game i's termination marker, or why it cannot be
// written.
func gameResult(i int, names []string, g Game) (string, error) {
	if g.White < 0 || g.White >= len(names) || g.Black < 0 || g.Black >= len(names) {
		return "", fmt.Errorf("rating: game %d: player index out of range [0, %d)", i, len(names))
	}
	switch g.Result {
	case WhiteWins:
		return "1-0", nil
	case Draw:
		return "1/2-1/2", nil
	case BlackWins:
		return "0-1", nil
	}
	return "", fmt.Errorf("rating: game %d: result %v is not 0, 0.5 or 1", i, float64(g.Result))
}
