// Package scripttest runs arbiter's command-line scripts
// (cmd/arbiter/testdata/script/*.txtar, testscript files) against a build
// of arbiter. They are a test binary of their own, apart from
// cmd/arbiter's Go tests, so that `go test ./...` gives each half its own
// time limit and runs the two side by side: together they came close to
// go test's ten minutes a package on a loaded two-core machine.
package scripttest
