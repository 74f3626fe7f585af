package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/arbiter-contests/arbiter/drivers"
	"github.com/arbiter-contests/arbiter/internal/javacmd"
)

// jvmFlags are the JVM options that keep one JVM within a small process
// limit (Auction's 16 processes and threads): arbiter init's Java
// starter uses them.
var jvmFlags = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1"}

// smallProcesses is the process limit under which a default JVM, with its
// garbage collector's and compilers' threads, fails to start.
const smallProcesses = 32

// checkJava warns of a Java bot of tournament t whose game runs bots
// outside their dir (drivers.Elsewhere) and whose command names a main
// class without a class path: java looks for the class in the folder the
// game runs it in, where it is not, and every answer fails ("Could not
// find or load main class"). A CLASSPATH in the bot's env silences the
// warning only when it names an absolute path. The JVM options suggested
// for a small process limit follow the bot's limits (BotLimits). Each bot
// is warned of once per load.
func (l *loader) checkJava(t *Tournament, bots []*Bot) hcl.Diagnostics {
	if t.Game == nil {
		return nil
	}
	el, ok := t.Game.Game.(drivers.Elsewhere)
	if !ok {
		return nil
	}
	var diags hcl.Diagnostics
	for _, b := range bots {
		if b == nil || l.javaWarned[b] || javacmd.AbsoluteClassPath(b.Env["CLASSPATH"]) {
			continue
		}
		class := javacmd.MainClass(b.Command, b.Dir)
		if class == "" {
			continue
		}
		if l.javaWarned == nil {
			l.javaWarned = map[*Bot]bool{}
		}
		l.javaWarned[b] = true
		fix, flags := append([]string{b.Command[0]}, "-cp", ".", class), ""
		if n := BotLimits(t, b).Processes; n > 0 && n < smallProcesses {
			fix = append(append([]string{b.Command[0]}, jvmFlags...), "-cp", ".", class)
			flags = fmt.Sprintf(" (the -XX options keep the JVM's threads within the bot's limit of %d processes and threads)", n)
		}
		rng := b.DeclRange
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Java class without a class path",
			Detail: fmt.Sprintf("Bot %q runs %q with the class %s and no -cp, but %s runs a bot in %s, not in its dir, and java looks for the class there: every answer would fail with \"Could not find or load main class %s\" (a crash). Give the class path as the bot's dir, which \".\" names: command = %s%s.",
				b.Name, strings.Join(b.Command, " "), class, gameTitle(t.Game.Driver), el.RunsIn(), class, hclList(fix), flags),
			Subject: &rng})
	}
	return diags
}

// hclList writes words as an HCL list: ["java", "-cp", ".", "Bot"].
func hclList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
