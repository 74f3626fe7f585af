package rating

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// refDir holds bayeselo's reference outputs (copied from
// shared/reference/bayeselo; see its README.md).
const refDir = "testdata/bayeselo/"

// readGolden returns a reference output without its first line, which
// names the bayeselo commands and is not part of the output.
func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(refDir, name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	_, rest, ok := strings.Cut(s, "\n")
	if !ok || !strings.HasPrefix(s, "#") {
		t.Fatalf("%s: no comment line", name)
	}
	return rest
}

func readRef(t *testing.T) ([]string, []Game) {
	t.Helper()
	f, err := os.Open(filepath.Join(refDir, "ref.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, games, _, err := ReadPGN(f)
	if err != nil {
		t.Fatal(err)
	}
	return names, games
}

func TestGolden(t *testing.T) {
	names, games := readRef(t)
	adv0 := DefaultOptions()
	adv0.Advantage = 0

	tests := []struct {
		file string
		opt  Options
		out  func(r *Ratings, w *bytes.Buffer) error
	}{
		{"defaults-exactdist.txt", DefaultOptions(), func(r *Ratings, w *bytes.Buffer) error {
			plus, minus := r.ExactDist()
			return r.WriteTable(w, plus, minus)
		}},
		{"advantage0-exactdist.txt", adv0, func(r *Ratings, w *bytes.Buffer) error {
			plus, minus := r.ExactDist()
			return r.WriteTable(w, plus, minus)
		}},
		{"advantage0-covariance.txt", adv0, func(r *Ratings, w *bytes.Buffer) error {
			plus, minus := r.CovarianceIntervals()
			return r.WriteTable(w, plus, minus)
		}},
		{"advantage0-los.txt", adv0, func(r *Ratings, w *bytes.Buffer) error {
			return r.WriteLOS(w)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Fit(names, games, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := tt.out(r, &got); err != nil {
				t.Fatal(err)
			}
			if want := readGolden(t, tt.file); got.String() != want {
				t.Errorf("output differs from bayeselo\ngot:\n%s\nwant:\n%s", got.String(), want)
			}
		})
	}
}

func TestPGNRoundTrip(t *testing.T) {
	want, err := os.ReadFile(filepath.Join(refDir, "ref.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	names, games := readRef(t)
	if len(games) != 33 {
		t.Errorf("read %d games, want 33", len(games))
	}
	// bayeselo numbers players by first appearance, White first.
	if got := strings.Join(names, ","); got != "Alpha,Bravo,Charlie,Delta" {
		t.Errorf("names = %s", got)
	}
	var got bytes.Buffer
	if err := WritePGN(&got, names, games); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("WritePGN(ReadPGN(ref.pgn)) differs\ngot:\n%s\nwant:\n%s", got.String(), want)
	}
}

// WriteExportPGN writes the games in PGN's export format, each tag on its
// line, and ReadPGN reads the same players and games back as from the
// reference, whatever the names hold.
func TestExportPGNRoundTrip(t *testing.T) {
	names, games := readRef(t)
	names[1] = `Br"av\o`
	tagged := make([]TaggedGame, len(games))
	for i, g := range games {
		tagged[i] = TaggedGame{Game: g, Event: "ref", Round: fmt.Sprint(i/6 + 1), Tags: []Tag{{"Match", fmt.Sprintf("m%d", i/6)}}}
	}
	var got bytes.Buffer
	if err := WriteExportPGN(&got, names, tagged); err != nil {
		t.Fatal(err)
	}
	want := "[Event \"ref\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n[White \"Alpha\"]\n[Black \"Br\\\"av\\\\o\"]\n[Result \"1-0\"]\n[Match \"m0\"]\n\n1-0\n\n"
	if first, _, _ := strings.Cut(got.String(), "\n\n[Event"); first+"\n\n" != want {
		t.Errorf("first game:\n%s\nwant:\n%s", first, want)
	}
	names2, games2, rep, err := ReadPGN(&got)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names2, names) || !slices.Equal(games2, games) || rep.Rated != len(games) || len(rep.Warnings) > 0 {
		t.Errorf("read back %v, %d games (%s), want %v, %d games", names2, len(games2), rep, names, len(games))
	}
}
