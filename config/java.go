package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// checkJava warns of the Java bots of tournament t: of a command naming
// its main class without a class path where the game runs bots outside
// their dir (checkClassPath), and of one without the JVM options a small
// process limit needs (checkThreads). Each bot is warned of once per
// load for each.
func (l *loader) checkJava(t *Tournament, bots []*Bot) hcl.Diagnostics {
	if t.Game == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, b := range bots {
		if b == nil {
			continue
		}
		if d := l.checkClassPath(t, b); d != nil {
			diags = append(diags, d)
		} else if d := l.checkThreads(t, b); d != nil {
			diags = append(diags, d)
		}
	}
	return diags
}

// checkClassPath warns of a Java bot of tournament t whose game runs
// bots outside their dir (drivers.Elsewhere) and whose command names a
// main class without a class path: java looks for the class in the
// folder the game runs it in, where it is not, and every answer fails
// ("Could not find or load main class"). A CLASSPATH in the bot's env
// silences the warning only when it names an absolute path. The command
// suggested is the bot's own with "-cp ." before the class, and with the
// JVM options a small process limit needs (following the bot's limits:
// BotLimits) that neither it nor the bot's env gives.
func (l *loader) checkClassPath(t *Tournament, b *Bot) *hcl.Diagnostic {
	el, ok := t.Game.Game.(drivers.Elsewhere)
	if !ok || l.javaWarned[b] || javacmd.AbsoluteClassPath(b.Env["CLASSPATH"]) {
		return nil
	}
	class := javacmd.MainClass(b.Command, b.Dir)
	if class == "" {
		return nil
	}
	if l.javaWarned == nil {
		l.javaWarned = map[*Bot]bool{}
	}
	l.javaWarned[b] = true
	var missing []string
	n := BotLimits(t, b).Processes
	if n > 0 && n < javacmd.SmallProcesses {
		missing = javacmd.MissingThreadFlags(b.Command, jvmEnv(b))
		l.threadsWarned(b)
	}
	fix, flags := classPathFix(b, missing...), ""
	if len(missing) > 0 {
		flags = fmt.Sprintf(" (the -XX options keep the JVM's threads within the bot's limit of %d processes and threads)", n)
	}
	rng := b.DeclRange
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Java class without a class path",
		Detail: fmt.Sprintf("Bot %q runs %q with the class %s and no -cp, but %s runs a bot in %s, not in its dir, and java looks for the class there: every answer would fail with \"Could not find or load main class %s\" (a crash). Give the class path as the bot's dir, which \".\" names: command = %s%s.",
			b.Name, strings.Join(b.Command, " "), class, gameTitle(t.Game.Driver), el.RunsIn(), class, hclList(fix), flags),
		Subject: &rng}
}

// checkThreads warns of a Java bot of tournament t whose process limit
// (BotLimits) is one a default JVM's own threads go over
// (javacmd.SmallProcesses: Auction's 16) and whose command (or the java
// command of its shell's -c script or wrapper script: javacmd.Launched),
// or the JVM's
// option variables of its env, do not give the options that keep them
// within it (javacmd.ThreadFlags): it would fail every move with a
// processes fault.
func (l *loader) checkThreads(t *Tournament, b *Bot) *hcl.Diagnostic {
	n := BotLimits(t, b).Processes
	if n <= 0 || n >= javacmd.SmallProcesses || l.jvmWarned[b] {
		return nil
	}
	command, script := javacmd.Launched(b.Command, b.Dir) // java ..., sh -c "java ...", ./run.sh
	missing := javacmd.MissingThreadFlags(command, jvmEnv(b))
	if len(missing) == 0 {
		return nil
	}
	l.threadsWarned(b)
	rng := b.DeclRange
	where := "its command"
	if script != "" {
		where = "the java command of " + script
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "JVM without the options of a small process limit",
		Detail: fmt.Sprintf("Bot %q runs %q, whose JVM starts threads of its own (its garbage collector's, its compilers'), by default more than its limit of %d processes and threads: give %s before the class in %s, or every move may fail with \"tried to have more than %d processes and threads at once\" (a processes fault).",
			b.Name, strings.Join(b.Command, " "), n, strings.TrimSuffix(strings.TrimPrefix(hclList(missing), "["), "]"), where, n),
		Subject: &rng}
}

// classPathFix is b's command, which names its main class without a
// class path, with "-cp ." and the JVM options flags added before the
// class: the options and arguments it gives stay.
func classPathFix(b *Bot, flags ...string) []string {
	opts, _ := javacmd.Options(b.Command, nil)
	class := 1 + len(opts) // the index of the class: Options ends there
	fix := append(append([]string{}, b.Command[:class]...), flags...)
	fix = append(fix, "-cp", ".")
	return append(fix, b.Command[class:]...)
}

// jvmEnv is the JVM's option variables of b's env, as NAME=value
// entries.
func jvmEnv(b *Bot) []string {
	var env []string
	for _, k := range []string{"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"} {
		if v, ok := b.Env[k]; ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// threadsWarned records that b was warned of the JVM options it lacks.
func (l *loader) threadsWarned(b *Bot) {
	if l.jvmWarned == nil {
		l.jvmWarned = map[*Bot]bool{}
	}
	l.jvmWarned[b] = true
}

// hclList writes words as an HCL list: ["java", "-cp", ".", "Bot"].
func hclList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
