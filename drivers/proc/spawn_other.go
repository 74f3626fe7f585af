//go:build !amd64 && !arm64

package proc

// spawnArch says this architecture can spawn: not without the assembly
// of a system call that returns twice on one stack.
const spawnArch = false

func vforkSyscall(trap, a1, a2, a3 uintptr) (r1, err uintptr) {
	panic("spawn: not on this architecture")
}
