package auction

import (
	"bytes"
	"strconv"
)

// AppendState appends the state file of p: players, columns, rows; the
// board, a letter or '.' per cell; every player's letter and capital; the
// queue, 1-based [column,row] cells each followed by ';', separated by one
// space. Every line ends with a newline.
func (p *Position) AppendState(b []byte) []byte {
	b = strconv.AppendInt(b, int64(p.Players), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Cols), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Rows), 10)
	b = append(b, '\n')
	for r := range p.Rows {
		for _, o := range p.Owner[r*p.Cols : (r+1)*p.Cols] {
			if o < 0 {
				b = append(b, '.')
			} else {
				b = append(b, Letter(o))
			}
		}
		b = append(b, '\n')
	}
	for i, c := range p.Capital {
		b = append(b, Letter(i), ' ')
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, '\n')
	}
	for i, c := range p.Queue {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, c.String()...)
		b = append(b, ';')
	}
	return append(b, '\n')
}

// State is the state file of p.
func (p *Position) State() []byte { return p.AppendState(nil) }

// AppendLogRound appends one finished round to the log: its number, the
// state the bots read, every player's bid (as counted, after defaults)
// and the outcome, then an empty line.
func AppendLogRound(b []byte, round int, state []byte, bids []int, sale Sale) []byte {
	b = append(b, "round "...)
	b = strconv.AppendInt(b, int64(round), 10)
	b = append(b, '\n')
	b = append(b, state...)
	b = append(b, "bids"...)
	for i, bid := range bids {
		b = append(b, ' ', Letter(i), ' ')
		b = strconv.AppendInt(b, int64(bid), 10)
	}
	b = append(b, '\n')
	if sale.Winner < 0 {
		b = append(b, "unsold "...)
		b = append(b, sale.Cell.String()...)
	} else {
		b = append(b, "sold "...)
		b = append(b, sale.Cell.String()...)
		b = append(b, ' ', Letter(sale.Winner), ' ')
		b = strconv.AppendInt(b, int64(sale.Price), 10)
	}
	return append(b, "\n\n"...)
}

// Results is the results file: one line per player in placement order,
// "<place> <letter> <largest region> <total cells> <capital left>"; a
// shared place is written like 5.5.
func Results(st []Standing) []byte {
	var b bytes.Buffer
	for _, s := range st {
		b.WriteString(strconv.FormatFloat(s.Place, 'f', -1, 64))
		b.WriteByte(' ')
		b.WriteByte(Letter(s.Seat))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(s.Region))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(s.Cells))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(s.Capital))
		b.WriteByte('\n')
	}
	return b.Bytes()
}
