// Package scripttest runs arbiter's command-line scripts
// (cmd/arbiter/testdata/script/*.txtar, testscript files) against a build
// of arbiter. They run as test binaries of their own, apart from
// cmd/arbiter's Go tests, and in two halves (the packages part1 and
// part2, each every other script of the sorted list), so that `go test
// ./...` gives each its own time limit and runs them side by side: as
// one binary they went past go test's ten minutes a package on a
// two-core machine loaded by other jobs (549 s at a load of 25, 222 s
// on an idle one).
package scripttest
