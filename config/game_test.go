package config_test

import (
	"strings"
	"testing"

	"github.com/arbiter-contests/arbiter/config"
)

// A game setting for a bot that is not declared (Auction's files {
// prefixes }) is an error at the name, suggesting the bot it is closest
// to, not a setting that silently applies to no one.
func TestUnknownBotInGameSettings(t *testing.T) {
	_, diags := load("testdata/invalid/auction_prefixes.hcl", config.Options{})
	var details []string
	for _, d := range diags {
		details = append(details, d.Subject.String()+": "+d.Detail)
	}
	got := strings.Join(details, "\n")
	for _, want := range []string{
		`auction_prefixes.hcl:11,7-12: files { prefixes } names the bot "alpah", but no bot of that name is declared (did you mean "alpha"?). Declared: alpha, beta.`,
		`auction_prefixes.hcl:13,7-13: files { prefixes } names the bot "nobody", but no bot of that name is declared. Declared: alpha, beta.`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics\n%s\nlack\n%s", got, want)
		}
	}
}
