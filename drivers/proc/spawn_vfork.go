//go:build amd64 || arm64

package proc

// spawnArch says this architecture can spawn (see spawnable).
const spawnArch = true

// vforkSyscall is a system call that returns twice on one stack (in
// spawn_$GOARCH.s).
//
//go:noescape
func vforkSyscall(trap, a1, a2, a3 uintptr) (r1, err uintptr)
