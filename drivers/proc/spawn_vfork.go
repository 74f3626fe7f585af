//go:build amd64 || arm64

package proc

import "golang.org/x/sys/unix"

// spawnArch says this architecture can spawn (see spawnable).
const spawnArch = true

// sysFstatat is fstatat's number, whose struct is unix.Stat_t here.
const sysFstatat = unix.SYS_NEWFSTATAT

// vforkSyscall is a system call that returns twice on one stack (in
// spawn_$GOARCH.s).
//
//go:noescape
func vforkSyscall(trap, a1, a2, a3 uintptr) (r1, err uintptr)
