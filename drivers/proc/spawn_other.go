//go:build !amd64 && !arm64

package proc

// spawnArch says this architecture can spawn: not without the assembly
// of a system call that returns twice on one stack.
const spawnArch = false

// sysFstatat is never called where spawnArch is false (32-bit Linux has
// fstatat64 rather than newfstatat): -1 would fail with ENOSYS.
const sysFstatat = ^uintptr(0)

func vforkSyscall(trap, a1, a2, a3 uintptr) (r1, err uintptr) {
	panic("spawn: not on this architecture")
}
