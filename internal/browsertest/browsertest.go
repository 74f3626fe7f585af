// Package browsertest drives a headless Chromium for the tests of the
// results page (cmd/arbiter's, which play tournaments, and
// internal/report's, which open pages of prepared results), with
// chromedp.
package browsertest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path finds a Chromium to drive: $ARBITER_CHROMIUM, else the usual
// names on PATH.
func Path() (string, error) {
	if p := os.Getenv("ARBITER_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium found")
}

// New starts a headless Chromium for the test, or skips the test when
// there is none (CI installs one and sets ARBITER_REQUIRE_BROWSER, which
// makes its absence a failure). The browser is gone when the test ends.
func New(tb testing.TB) context.Context {
	tb.Helper()
	path, err := Path()
	if err != nil {
		if os.Getenv("ARBITER_REQUIRE_BROWSER") != "" {
			tb.Fatalf("%v, and ARBITER_REQUIRE_BROWSER is set", err)
		}
		tb.Skip("no chromium found (looked for $ARBITER_CHROMIUM, chromium, chromium-browser, google-chrome): " +
			"the browser tests of the results page need one; install it (apt-get install chromium) to run them")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(tb.TempDir()), chromedp.WindowSize(1300, 1400),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	tb.Cleanup(func() { cancel(); cancelAlloc() })
	// Start the browser now (chromedp wants no timeout on the call that
	// starts it), so that a browser that cannot start fails here.
	if err := chromedp.Do(ctx); err != nil {
		tb.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// Tab opens a new tab of the browser, closed at the end of the test, with
// every action bounded by limit.
func Tab(tb testing.TB, browser context.Context, limit time.Duration) context.Context {
	ctx, cancel := chromedp.NewContext(browser)
	ctx, cancelT := context.WithTimeout(ctx, limit)
	tb.Cleanup(func() { cancelT(); cancel() })
	return ctx
}

// Screenshot saves the tab's page as PNG into the test's temp dir (or
// $ARBITER_SCREENSHOTS) and logs the path.
func Screenshot(tb testing.TB, ctx context.Context, name string) {
	tb.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.Errorf("screenshot %s: %v", name, err)
		return
	}
	dir := os.Getenv("ARBITER_SCREENSHOTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Error(err)
		return
	}
	tb.Logf("screenshot: %s", path)
}
