// Package report turns a results directory into a web page: standings
// with their rating intervals, the crosstable, the LOS matrix, head-to-head
// comparisons, charts (drawn with uPlot, embedded), a list of matches and a
// replay viewer for every game, drawn from each match's events.jsonl.
//
// Write makes one HTML file that needs no network and no server when it is
// opened from disk; Server serves the same page and pushes new results to
// it while a run writes the directory.
//
// The package only reads a results directory: it never writes into one
// (unless asked to put the page there) and never takes its lock, so it can
// read a directory that a run is writing. What it cannot read (a torn last
// line, an unknown event kind, a transcript that is missing) is skipped and
// said on the page, never fatal. Ratings and statistics come from the
// engine, so the page shows the numbers `arbiter rank` prints.
package report
