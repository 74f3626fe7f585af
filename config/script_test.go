package config

import "testing"

// scriptArg names the file an interpreter command runs, and nothing for
// commands that run code, a module, or whose words are options' values.
func TestScriptArg(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    string
	}{
		{[]string{"python3", "bot.py"}, "bot.py"},
		{[]string{"/usr/bin/python3.12", "-u", "bot.py"}, "bot.py"},
		{[]string{"python3", "-W", "ignore", "-u", "sub/bot.py"}, "sub/bot.py"},
		{[]string{"python3", "-X", "pycache_prefix=/tmp/pyc", "bot.py"}, "bot.py"},
		{[]string{"python3", "-uX", "dev", "bot.py"}, "bot.py"},
		{[]string{"python3", "-Wignore", "bot.py"}, "bot.py"},
		{[]string{"python3", "--check-hash-based-pycs", "never", "bot.py"}, "bot.py"},
		{[]string{"python3", "-c", "print(1)"}, ""},
		{[]string{"python3", "-Bc", "import runpy; runpy.run_path('sub/bot.py')"}, ""},
		{[]string{"python3", "-m", "mybot"}, ""},
		{[]string{"python3", "-Bm", "mybot"}, ""},
		{[]string{"python3", "mybot", "data/x.py"}, ""},
		{[]string{"python3", "-"}, ""},
		{[]string{"python3", "--", "bot.py"}, "bot.py"},
		{[]string{"python3", "my bot.py"}, ""},
		{[]string{"bash", "-lc", "./run.sh --fast"}, ""},
		{[]string{"sh", "-ec", "exec ./run.sh"}, ""},
		{[]string{"sh", "-c", "./run.sh"}, ""},
		{[]string{"sh", "-e", "run.sh"}, "run.sh"},
		{[]string{"bash", "-o", "pipefail", "./run.sh"}, "./run.sh"},
		{[]string{"bash", "-eo", "pipefail", "run.sh"}, "run.sh"},
		{[]string{"node", "--max-old-space-size=100", "bot.js"}, "bot.js"},
		{[]string{"node", "-r", "./hook.js", "bot.js"}, "bot.js"},
		{[]string{"node", "--import=./hook.mjs", "bot.mjs"}, "bot.mjs"},
		{[]string{"node", "-pe", "1+1"}, ""},
		{[]string{"node", "--eval=console.log(1)"}, ""},
		{[]string{"perl", "-I", "lib/", "bot.pl"}, "bot.pl"},
		{[]string{"perl", "-lne", "print"}, ""},
		{[]string{"ruby", "-r", "./lib/x.rb", "bot.rb"}, "bot.rb"},
		{[]string{"ruby", "-I", "lib", "-e", "puts 1"}, ""},
		{[]string{"java", "-jar", "bot.jar"}, "bot.jar"},
		{[]string{"java", "-Xmx256m", "-jar", "bin/bot.jar"}, "bin/bot.jar"},
		{[]string{"java", "-cp", ".", "Main"}, ""},
		{[]string{"java", "-cp", "lib/a.jar", "Main"}, ""},
		{[]string{"java", "--module=m/Main"}, ""},
		{[]string{"./bot", "x.py"}, ""},
	} {
		if got := scriptArg(tc.command); got != tc.want {
			t.Errorf("scriptArg(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}
