//go:build !linux

package linuxonly

// The build stops here: arbiter builds only for Linux (README.md, Install).
const _ = arbiter_builds_only_for_Linux_it_confines_bots_with_namespaces_cgroups_seccomp_and_proc
