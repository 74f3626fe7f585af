package tournament

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// SPRTModels are the Elo models an SPRT's bounds measure, as in
// fastchess; the first is the default.
var SPRTModels = []string{"normalized", "logistic", "bayesian"}

// MaxSPRTError bounds an SPRT's alpha and beta (exclusive): an error rate
// of one half decides nothing.
const MaxSPRTError = 0.5

// MaxSPRTElo bounds an SPRT's elo0 and elo1 (inclusive, either sign):
// the logistic model's expected score rounds to 1 a few thousand Elo out
// and its LLR is then NaN, and a difference of more than 1000 Elo (a
// 99.7% score) needs no sequential test. Every model's LLR is a number
// within it (rating.MaxSPRTElo, the same bound).
const MaxSPRTElo = 1000

// CheckSPRT lists what keeps an SPRT's hypotheses and error rates from
// being a test: elo0 and elo1 must be numbers from -MaxSPRTElo to
// MaxSPRTElo, elo0 below elo1, alpha and beta between 0 and
// MaxSPRTError (exclusive), the model one of SPRTModels ("" is the
// default). The configuration reports each problem at its attribute of
// the sprt block; a saved plan's check names stop.sprt.<attr>.
func CheckSPRT(elo0, elo1, alpha, beta float64, model string) []Problem {
	var out []Problem
	for _, e := range []struct {
		attr string
		v    float64
	}{{"elo0", elo0}, {"elo1", elo1}} {
		if math.IsNaN(e.v) || math.IsInf(e.v, 0) || math.Abs(e.v) > MaxSPRTElo {
			out = append(out, Problem{Attr: e.attr, Summary: "Invalid " + e.attr,
				Detail: fmt.Sprintf("%s must be a number from %d to %d, not %s: far beyond that range the logistic model's expected score rounds to 1 and its log-likelihood ratio is not a number, and a larger difference (a 99.7%% score) needs no sequential test.", e.attr, -MaxSPRTElo, MaxSPRTElo, number(e.v))})
		}
	}
	return append(out, checkSPRTRest(out, elo0, elo1, alpha, beta, model)...)
}

// CheckSavedSPRT lists what keeps a saved plan's SPRT from running: as
// CheckSPRT, but its bounds only need be numbers, elo0 below elo1, at
// which the model's LLR is a number (the logistic and bayesian models'
// expected score short of 0 and 1). A plan saved before bounds beyond
// ±MaxSPRTElo were refused still runs and resumes.
func CheckSavedSPRT(elo0, elo1, alpha, beta float64, model string) []Problem {
	var out []Problem
	for _, e := range []struct {
		attr string
		v    float64
	}{{"elo0", elo0}, {"elo1", elo1}} {
		score := 1 / (1 + math.Pow(10, -e.v/400))
		switch {
		case math.IsNaN(e.v) || math.IsInf(e.v, 0):
			out = append(out, Problem{Attr: e.attr, Summary: "Invalid " + e.attr,
				Detail: fmt.Sprintf("%s must be a number, not %s.", e.attr, number(e.v))})
		case (model == "logistic" || model == "bayesian") && !(score > 0 && score < 1):
			out = append(out, Problem{Attr: e.attr, Summary: "Invalid " + e.attr,
				Detail: fmt.Sprintf("%s is %s, at which the %s model's expected score rounds to %s and its log-likelihood ratio is not a number: give a bound from %d to %d.", e.attr, number(e.v), model, number(score), -MaxSPRTElo, MaxSPRTElo)})
		}
	}
	return append(out, checkSPRTRest(out, elo0, elo1, alpha, beta, model)...)
}

// checkSPRTRest lists CheckSPRT's problems but the bounds' range: elo0
// below elo1 (when the bounds had no problem, found), the error rates
// and the model.
func checkSPRTRest(found []Problem, elo0, elo1, alpha, beta float64, model string) []Problem {
	var out []Problem
	if len(found) == 0 && elo0 >= elo1 {
		out = append(out, Problem{Attr: "elo1", Summary: "Invalid SPRT bounds",
			Detail: fmt.Sprintf("elo0 (%s) must be less than elo1 (%s): H0 is the smaller Elo difference, H1 the larger.", number(elo0), number(elo1))})
	}
	for _, e := range []struct {
		attr string
		v    float64
	}{{"alpha", alpha}, {"beta", beta}} {
		if !(e.v > 0 && e.v < MaxSPRTError) {
			out = append(out, Problem{Attr: e.attr, Summary: "Invalid " + e.attr,
				Detail: fmt.Sprintf("%s must be a number between 0 and %g (exclusive), not %s.", e.attr, MaxSPRTError, number(e.v))})
		}
	}
	if model != "" && !slices.Contains(SPRTModels, model) {
		out = append(out, Problem{Attr: "model", Summary: "Invalid model",
			Detail: fmt.Sprintf("model must be one of %q.", SPRTModels)})
	}
	return out
}

// CheckStop lists what is wrong with a stop block's other rules:
// max_matches is a count from 0 (0: none), interval_width a width in Elo
// from 0 (0: none). Reported as CheckSPRT's problems are.
func CheckStop(maxMatches int, intervalWidth float64) []Problem {
	var out []Problem
	if maxMatches < 0 || maxMatches > math.MaxInt32 {
		out = append(out, Problem{Attr: "max_matches", Summary: "Invalid max_matches",
			Detail: fmt.Sprintf("max_matches must be a whole number from 1 to %d (0: no such rule), not %d.", math.MaxInt32, maxMatches)})
	}
	if !(intervalWidth >= 0) || math.IsInf(intervalWidth, 1) {
		out = append(out, Problem{Attr: "interval_width", Summary: "Invalid interval_width",
			Detail: fmt.Sprintf("interval_width must be a number above 0 (0: no such rule), not %s.", number(intervalWidth))})
	}
	return out
}

// number writes f as a configuration would.
func number(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ValidStageName reports whether name can name a stage: its matches and
// files are named after it, so lower-case letters, digits and _, starting
// with a letter, at most 40 of them, and not "playoff" (the playoffs'
// own).
func ValidStageName(name string) bool {
	if name == "" || len(name) > 40 || name == "playoff" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_'
	})
}

// MaxNameBytes is the longest a name of a bot, a game or a tournament
// can be, in bytes (UTF-8). Files are named after them, and a file name
// holds at most 255 bytes (NAME_MAX): the longest made from a bot's name
// is its stderr file, seat<N>-<bot>.stderr, 15 bytes more at seat 999
// (seats count from 0 to MaxPlayers-1); a tournament's default results
// directory is results/<tournament>. The rest is margin for files to come.
const MaxNameBytes = 200

// ValidName reports whether name can name a bot, a game or a tournament:
// letters, digits, underscores and dashes, starting with a letter. Names
// are parts of match transcripts, standings and file names (a bot's
// stderr file is seat<N>-<bot>.stderr), so a plan's names are held to
// the configuration's rule.
func ValidName(name string) bool {
	if name == "" || !unicode.IsLetter([]rune(name)[0]) {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	})
}
