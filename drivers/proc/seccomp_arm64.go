package proc

import "golang.org/x/sys/unix"

// seccompArch is the audit architecture of this build's system calls.
const seccompArch = unix.AUDIT_ARCH_AARCH64
