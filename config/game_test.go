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

// A file prefix that cannot serve (the referee's own file's name, a
// path) is refused in the same words whether files { prefixes } gives it
// or it is the bot's name, at the value or at the bot, saying why; a
// bot named so but given a prefix of its own is fine.
func TestAuctionPrefixes(t *testing.T) {
	var details []string
	for _, file := range []string{"testdata/invalid/auction_prefix_values.hcl", "testdata/invalid/auction_prefix_names.hcl"} {
		_, diags := load(file, config.Options{})
		for _, d := range diags {
			details = append(details, d.Subject.String()+": "+d.Detail)
		}
	}
	got := strings.Join(details, "\n")
	for _, want := range []string{
		`auction_prefix_values.hcl:15,16-21: The prefix "log" of bot "my-bot" is the name of the referee's own file log in the game folder, which the bot may not touch: choose another, like "tym42".`,
		`auction_prefix_values.hcl:16,16-21: The prefix "a/b" of bot "other" holds a slash, which would make its file names paths, not names in the game folder: choose another, like "tym42".`,
		`auction_prefix_names.hcl:4,1-10: Bot "log" has no prefix in files { prefixes }, so its file names start with its name, "log", which is the name of the referee's own file log in the game folder, which the bot may not touch: give it a prefix of its own, like files { prefixes = { log = "tym42" } }.`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics\n%s\nlack\n%s", got, want)
		}
	}
	if strings.Contains(got, "letters and digits") || strings.Contains(got, `Bot "state"`) {
		t.Errorf("diagnostics\n%s\nstate a rule that is not the rule, or refuse bot state, which has a prefix of its own", got)
	}
}
