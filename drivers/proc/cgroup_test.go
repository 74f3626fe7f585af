package proc

import "testing"

// TestKeyedValue reads the counters of the files the watch reads, as the
// kernels write them: a key is a whole word, never the prefix of another.
func TestKeyedValue(t *testing.T) {
	tests := []struct {
		file, key string
		want      int64
	}{
		{"oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", "oom_kill", 3},                // v1 memory.oom_control
		{"low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n", "oom_kill", 1}, // v2 memory.events
		{"max.imposed 4\nmax 7\n", "max", 7},                                            // v2 pids.events, newer kernels
		{"max 9", "max", 9},                                                             // no final newline
		{"oom_kill_disable 1\n", "oom_kill", 0},
		{"", "max", 0},
	}
	for _, tt := range tests {
		if got := keyedValue([]byte(tt.file), tt.key); got != tt.want {
			t.Errorf("keyedValue(%q, %q) = %d, want %d", tt.file, tt.key, got, tt.want)
		}
	}
}

// TestV2Own: a run's worker processes start in the "arbiter.self" cgroup
// the run moved itself into, and make their bots' cgroups beside it.
func TestV2Own(t *testing.T) {
	for dir, want := range map[string]string{
		"/sys/fs/cgroup/system.slice/contest.service":              "/sys/fs/cgroup/system.slice/contest.service",
		"/sys/fs/cgroup/system.slice/contest.service/arbiter.self": "/sys/fs/cgroup/system.slice/contest.service",
		"/sys/fs/cgroup": "/sys/fs/cgroup",
	} {
		if got := v2Own(dir); got != want {
			t.Errorf("v2Own(%q) = %q, want %q", dir, got, want)
		}
	}
}
