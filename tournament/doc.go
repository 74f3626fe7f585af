// Package tournament is the vocabulary of a tournament's shape: its
// format (how bots are put together into matches), seat design (the
// seatings of a group), deal mode (which matches share a deal), rating
// method (the ranking reported first) and the rule that pairs rounds
// during the run.
//
// Each is a small enumerated type whose values each have one
// implementation, which knows what that value does: its name in HCL and in
// plan.json (MarshalText and UnmarshalText), what it requires of the rest
// of the tournament, what it lists, and how it is described. Configuration,
// compiler, plan, engine and cmd ask the value; none of them switches on
// names. The zero value of each type is its default.
package tournament
