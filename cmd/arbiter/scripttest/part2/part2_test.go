// Package part2 runs part 2 of 2 of arbiter's command-line scripts
// (package scripttest).
package part2

import (
	"testing"

	"github.com/arbiter-contests/arbiter/cmd/arbiter/scripttest"
)

func TestMain(m *testing.M) { scripttest.Main(m) }

func TestScripts(t *testing.T) { scripttest.Run(t, 1, 2) }
