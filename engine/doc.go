// Package engine executes match plans: it schedules matches on workers,
// starts nothing itself but asks each game's driver to referee, journals
// every finished match to results.jsonl as it ends, resumes an interrupted
// run from that journal, and computes standings from it.
//
// The engine knows nothing of any game: what a match is made of comes from
// the plan, how it is played from the driver.
package engine
