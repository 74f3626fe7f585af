// Package all wires the built-in game drivers into one registry. It is the
// only place that lists them.
package all

import (
	"fmt"
	"sort"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/drivers/auction"
	"github.com/arbiter-contests/arbiter/drivers/blokus"
	"github.com/arbiter-contests/arbiter/drivers/bricks"
	"github.com/arbiter-contests/arbiter/drivers/euchre"
	"github.com/arbiter-contests/arbiter/drivers/planowanie"
)

var registry = map[string]drivers.Driver{}

func register(d drivers.Driver) {
	if _, dup := registry[d.Name()]; dup {
		panic(fmt.Sprintf("driver %q registered twice", d.Name()))
	}
	registry[d.Name()] = d
}

func init() {
	register(bricks.Driver{})
	register(blokus.Driver{})
	register(auction.Driver{})
	register(euchre.Driver{})
	register(planowanie.Driver{})
}

// Driver returns the driver called name.
func Driver(name string) (drivers.Driver, bool) {
	d, ok := registry[name]
	return d, ok
}

// Names lists the drivers, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
