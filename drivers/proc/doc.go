// Package proc runs bot processes for drivers: a persistent session over
// stdin/stdout with a game clock (Start), or one run per move that returns
// the bot's first line (RunOnce); stderr drained to a file, and a shutdown
// that leaves no process behind.
//
// Every bot is started in a session of its own (so in its own process
// group, and without a controlling terminal: it cannot open /dev/tty)
// with a unique ARBITER_TOKEN in its environment. On shutdown the group is killed, then every process
// that still carries the token (descendants that escaped the group with
// setsid or a double fork) is killed too. The arbiter makes itself a child
// subreaper, so those escaped descendants become its children when their
// parents die, and it reaps them: no zombies are left either.
//
// A misbehaving bot is never an error of this package's callers: read and
// write failures come back as *Fault values with a kind from drivers.
package proc
