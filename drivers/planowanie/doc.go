// Package planowanie referees Planowanie, the trick-taking game with
// declarations played at the ITPW contest (rules and protocol in
// shared/games/planowanie.md).
//
// The package holds the game itself: the deck and its cards, the rules of a
// trick and of a deal's score, the seeded dealing of hands, the Referee that
// runs one match over any set of Players, and the house bots.
//
// It must not start or kill processes, read the clock or decode
// configuration: the process layer turns bot processes into Players and
// charges their clocks, and the driver wiring decodes the game block into
// Settings. Keeping the referee behind the small Player interface is what
// lets the tests play thousands of games in-process with the same referee
// that runs the contest.
package planowanie
