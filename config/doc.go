// Package config turns HCL source into typed, validated configuration:
// variables, locals, decks, bots, games and tournaments. Every value keeps
// the source range it came from, and every problem is reported as an HCL
// diagnostic that names the file, the line and how to fix it.
//
// Nothing here starts a process or decides anything random: compiling a
// tournament into a match plan is the plan package's job.
package config
