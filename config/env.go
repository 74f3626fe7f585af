package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ReservedEnvPrefix starts the environment variables arbiter gives a bot
// (ARBITER_MATCH, ARBITER_SEAT, ARBITER_SEED, ...): a bot's env cannot
// set them.
const ReservedEnvPrefix = "ARBITER_"

// checkEnv refuses env entries that would not be what they say: a name
// arbiter reserves, an empty name, a name holding '=' (the environment
// would split it elsewhere) or NUL, a value holding NUL (no process can
// be started with it). Each diagnostic points at the entry when the
// expression is an object written out, else at the whole expression.
func (l *loader) checkEnv(a *hcl.Attribute, env map[string]string, s scope) hcl.Diagnostics {
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	for _, k := range names {
		var problem string
		switch {
		case k == "":
			problem = "An environment variable needs a name; this one is empty."
		case strings.ContainsAny(k, "=\x00"):
			problem = fmt.Sprintf("The name %q holds '=' or NUL, which an environment variable's name cannot: the bot would see another name.", k)
		case strings.HasPrefix(k, ReservedEnvPrefix):
			problem = fmt.Sprintf("%s is reserved: names starting with %s are set by arbiter (ARBITER_MATCH, ARBITER_SEAT, ARBITER_SEED, ARBITER_FILES, ...). Choose another name.", k, ReservedEnvPrefix)
		case strings.ContainsRune(env[k], 0):
			problem = fmt.Sprintf("The value of %s holds NUL, which no process's environment can hold.", k)
		default:
			continue
		}
		diags = append(diags, errDiag("Invalid environment variable", problem, l.envEntryRange(a, k, s).Ptr()))
	}
	return diags
}

// envEntryRange is the range of the entry named k of env's object, or of
// the whole expression.
func (l *loader) envEntryRange(a *hcl.Attribute, k string, s scope) hcl.Range {
	obj, ok := a.Expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return a.Expr.Range()
	}
	for _, item := range obj.Items {
		v, d := item.KeyExpr.Value(l.evalContext(s))
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.String && v.AsString() == k {
			return hcl.RangeBetween(item.KeyExpr.Range(), item.ValueExpr.Range())
		}
	}
	return a.Expr.Range()
}
