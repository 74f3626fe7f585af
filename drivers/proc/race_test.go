//go:build race

package proc

func init() { raceBuild = true }
