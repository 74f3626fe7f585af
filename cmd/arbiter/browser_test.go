package main

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-contests/arbiter/internal/browsertest"
)

// The browser of the results page's tests (internal/browsertest).

func newBrowser(tb testing.TB) context.Context { tb.Helper(); return browsertest.New(tb) }

func tab(tb testing.TB, browser context.Context, limit time.Duration) context.Context {
	return browsertest.Tab(tb, browser, limit)
}

func screenshot(tb testing.TB, ctx context.Context, name string) {
	tb.Helper()
	browsertest.Screenshot(tb, ctx, name)
}
