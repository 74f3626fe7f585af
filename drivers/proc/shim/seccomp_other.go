//go:build !amd64 && !arm64

package shim

// SeccompArch is 0 where no filter is written for the architecture: the
// probe then reports seccomp as unavailable.
const SeccompArch = 0

var forkSyscalls, sandboxDenied, sandboxAbsent []uint32
