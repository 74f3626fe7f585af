package auction

import (
	"fmt"
	"html/template"
	"os"
	"strings"

	"github.com/arbiter-contests/arbiter/drivers"
)

// writeReport writes a self-contained HTML page of one game, in the spirit
// of the original's visualize_log: the final board coloured by owner, the
// results, every player's capital over the rounds and every round's bids.
func writeReport(path string, m *drivers.Match, b Board, pos *Position, st []Standing, rounds []RoundEvent, reason string) error {
	n := len(m.Seats)
	colour := func(seat int) string { return fmt.Sprintf("hsl(%d, 70%%, 60%%)", seat*360/n) }
	css := func(seat int) template.CSS { return template.CSS(colour(seat)) }
	type player struct {
		Letter, Bot         string
		Colour              template.CSS
		Place               float64
		Region, Cells, Left int
	}
	type row struct {
		Cells []gridCell
	}
	type round struct {
		N          int
		Cell       string
		Bids       []int
		Winner     int
		Price      int
		WinnerName string
	}
	data := struct {
		ID, Board, Reason string
		Cols, Rows, Cap   int
		Players           []player
		Grid              []row
		Rounds            []round
		Chart             template.HTML
		Letters           []string
	}{ID: m.ID, Board: b.Name, Reason: reason, Cols: b.Cols, Rows: b.Rows, Cap: b.Capital}
	for i := range n {
		data.Letters = append(data.Letters, string(Letter(i)))
	}
	for _, s := range st {
		data.Players = append(data.Players, player{Letter: string(Letter(s.Seat)), Bot: m.Seats[s.Seat].Nick,
			Colour: css(s.Seat), Place: s.Place, Region: s.Region, Cells: s.Cells, Left: s.Capital})
	}
	for r := range pos.Rows {
		var rw row
		for c := range pos.Cols {
			o := pos.At(Cell{c, r})
			cell := gridCell{".", "#eee"}
			if o >= 0 {
				cell.Letter, cell.Colour = string(Letter(o)), css(o)
			}
			rw.Cells = append(rw.Cells, cell)
		}
		data.Grid = append(data.Grid, rw)
	}
	for _, ev := range rounds {
		rd := round{N: ev.Round, Cell: ev.Cell, Bids: ev.Bids, Winner: ev.Winner, Price: ev.Price}
		if ev.Winner >= 0 {
			rd.WinnerName = string(Letter(ev.Winner))
		}
		data.Rounds = append(data.Rounds, rd)
	}
	data.Chart = capitalChart(b.Capital, n, rounds, colour)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := reportPage.Execute(f, data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type gridCell struct {
	Letter string
	Colour template.CSS
}

// capitalChart is an inline SVG line chart of every seat's capital after
// each round.
func capitalChart(start, n int, rounds []RoundEvent, colour func(int) string) template.HTML {
	const w, h, pad = 640.0, 240.0, 30.0
	top := float64(max(start, 1))
	x := func(r int) float64 { return pad + (w-2*pad)*float64(r)/float64(max(len(rounds), 1)) }
	y := func(v int) float64 { return h - pad - (h-2*pad)*float64(v)/top }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" role="img" aria-label="capital over the rounds">`, w, h)
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#999"/>`, pad, h-pad, w-pad, h-pad)
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#999"/>`, pad, pad, pad, h-pad)
	fmt.Fprintf(&b, `<text x="2" y="%g" font-size="10">%d</text><text x="2" y="%g" font-size="10">0</text>`, pad+4, start, h-pad)
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10" text-anchor="end">round %d</text>`, w-pad, h-8, len(rounds))
	for s := range n {
		fmt.Fprintf(&b, `<polyline fill="none" stroke-width="2" stroke="%s" points="%g,%g`, colour(s), x(0), y(start))
		for i, ev := range rounds {
			fmt.Fprintf(&b, " %g,%g", x(i+1), y(ev.Capital[s]))
		}
		fmt.Fprintf(&b, `"><title>%c</title></polyline>`, Letter(s))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"eq": func(a, b int) bool { return a == b },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Auction {{.ID}}</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
.grid td { width: 1.6em; height: 1.6em; text-align: center; font-weight: bold; padding: 0; }
.win { font-weight: bold; background: #dfd; }
</style></head><body>
<h1>Auction {{.ID}}</h1>
<p>Board {{.Board}}: {{.Cols}} × {{.Rows}}, capital {{.Cap}}. {{len .Rounds}} rounds, ended: {{.Reason}}.</p>
<h2>Results</h2>
<table><tr><th>place</th><th>player</th><th>bot</th><th>largest region</th><th>cells</th><th>capital left</th></tr>
{{range .Players}}<tr><td>{{.Place}}</td><td style="background: {{.Colour}}">{{.Letter}}</td><td>{{.Bot}}</td><td>{{.Region}}</td><td>{{.Cells}}</td><td>{{.Left}}</td></tr>
{{end}}</table>
<h2>Final board</h2>
<table class="grid">{{range .Grid}}<tr>{{range .Cells}}<td style="background: {{.Colour}}">{{.Letter}}</td>{{end}}</tr>
{{end}}</table>
<h2>Capital</h2>
{{.Chart}}
<h2>Rounds</h2>
<table><tr><th>round</th><th>cell</th>{{range .Letters}}<th>{{.}}</th>{{end}}<th>outcome</th></tr>
{{range $r := .Rounds}}<tr><td>{{$r.N}}</td><td>{{$r.Cell}}</td>{{range $i, $b := $r.Bids}}<td{{if eq $i $r.Winner}} class="win"{{end}}>{{$b}}</td>{{end}}<td>{{if $r.WinnerName}}sold to {{$r.WinnerName}} for {{$r.Price}}{{else}}unsold{{end}}</td></tr>
{{end}}</table>
</body></html>
`))
