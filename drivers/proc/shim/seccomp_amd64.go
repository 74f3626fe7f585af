package shim

import "golang.org/x/sys/unix"

// SeccompArch is the audit architecture of this build's system calls.
const SeccompArch = unix.AUDIT_ARCH_X86_64

// forkSyscalls make a new process without clone.
var forkSyscalls = []uint32{unix.SYS_FORK, unix.SYS_VFORK}

// sandboxDenied are the system calls a sandboxed bot may not make: its
// ways out of the sandbox's namespaces and mounts and out of the CPUs its
// match was pinned to (sched_setaffinity: a filter cannot read the mask
// to tell narrowing from widening), the kernel log (syslog: readable by
// any uid where kernel.dmesg_restrict is 0, it names other processes and
// holds what one bot writes by crashing at a chosen address for a later
// bot to read), and the kernel's larger attack
// surfaces it has no use for.
var sandboxDenied = []uint32{
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_BPF,
	unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD, unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_REBOOT,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT, unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_SCHED_SETAFFINITY, unix.SYS_SYSLOG,
}

// sandboxAbsent fail with ENOSYS in the sandbox, as on a kernel built
// without them: watching files (inotify, fanotify), whose events
// tell a bot which files another bot opens in a folder they share, and
// the page cache's questions (Linux AIO's reads with RWF_NOWAIT, which a
// filter cannot see in the iocb; cachestat), which tell what a bot
// before it read.
var sandboxAbsent = []uint32{
	unix.SYS_INOTIFY_INIT, unix.SYS_INOTIFY_INIT1, unix.SYS_INOTIFY_ADD_WATCH, unix.SYS_FANOTIFY_INIT, unix.SYS_FANOTIFY_MARK,
	unix.SYS_IO_SETUP, unix.SYS_CACHESTAT,
}
