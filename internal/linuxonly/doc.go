// Package linuxonly stops a build of arbiter for another system than
// Linux with one message, rather than a screen of undefined symbols:
// arbiter confines bots with Linux's namespaces, cgroups, seccomp and
// /proc, which its lowest packages call. They import it for that.
package linuxonly
