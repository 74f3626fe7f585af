package report

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiter-contests/arbiter/engine"
	"github.com/arbiter-contests/arbiter/internal/atomicfile"
)

//go:embed assets
var assets embed.FS

// InlineLimit is the most transcript data Write puts into the page
// itself. Larger tournaments get their transcripts in a folder beside the
// page, one script per match, which the page loads when a replay opens: a
// file opened from disk may load scripts from its folder, but not fetch
// files.
const InlineLimit = 8 << 20

// inlineLimit is InlineLimit, which tests lower to write the transcripts
// of small results into a folder.
var inlineLimit int64 = InlineLimit

// transcriptsSource is where a page finds its matches' transcripts.
type transcriptsSource struct {
	Inline map[string]string // match id → events.jsonl, in the page
	Folder string            // or: a folder of <id>.js scripts, relative to the page (or a URL path)
}

var page = template.Must(template.New("page").Parse(mustAsset("page.html")))

func mustAsset(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// render writes the page of site to w.
func render(w io.Writer, site *Site, src transcriptsSource, live bool) error {
	data, err := jsonForScript(site)
	if err != nil {
		return err
	}
	type transcript struct {
		ID     string
		Events template.JS
	}
	var inline []transcript
	for _, id := range transcriptIDs(site) {
		if t, ok := src.Inline[id]; ok {
			b, err := jsonForScript(t)
			if err != nil {
				return err
			}
			inline = append(inline, transcript{id, b})
		}
	}
	return page.Execute(w, map[string]any{
		"Title":       site.Tournament,
		"UPlotCSS":    template.CSS(mustAsset("uPlot.min.css")),
		"CSS":         template.CSS(mustAsset("report.css")),
		"UPlotJS":     template.JS(mustAsset("uPlot.iife.min.js")),
		"JS":          template.JS(mustAsset("report.js")),
		"Data":        data,
		"Transcripts": inline,
		"Folder":      src.Folder,
		"Live":        live,
	})
}

// jsonForScript encodes v for a <script> element: encoding/json escapes
// <, > and & in strings, so no bot name or transcript line can close the
// element or open another.
func jsonForScript(v any) (template.JS, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return template.JS(b), nil
}

// Written says what Write wrote.
type Written struct {
	Page        string // the HTML file
	Folder      string // the transcripts' folder, "" when they are in the page
	Bytes       int64  // of the page
	FolderBytes int64
	Site        *Site
}

// Write writes the page of results directory dir to out, with the
// transcripts inside it, or in a folder beside it (out without its
// extension, plus "-matches") when they are larger than InlineLimit.
func Write(dir, out string) (*Written, error) {
	site, err := Load(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	w := &Written{Page: out, Site: site}
	var src transcriptsSource
	if src.Inline = inlineTranscripts(dir, site); src.Inline == nil {
		w.Folder = strings.TrimSuffix(out, filepath.Ext(out)) + "-matches"
		src.Folder = filepath.Base(w.Folder)
		if w.FolderBytes, err = writeTranscripts(dir, w.Folder, site); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if err := render(&buf, site, src, false); err != nil {
		return nil, err
	}
	w.Bytes = int64(buf.Len())
	return w, writeFileAtomic(out, buf.Bytes())
}

// transcriptIDs are the matches whose transcripts the page holds: the
// finished ones, then those without a result yet (being played, or cut
// off), whose replays show what their transcripts hold.
func transcriptIDs(site *Site) []string {
	ids := make([]string, 0, len(site.Matches)+len(site.Running))
	for _, m := range site.Matches {
		ids = append(ids, m.Match)
	}
	return append(ids, site.Running...)
}

// readTranscriptSoFar reads a transcript, or what a compressed one being
// written holds so far (engine.CutShortError): the page skips its torn
// last line as it skips a plain transcript's.
func readTranscriptSoFar(path string) ([]byte, error) {
	b, err := engine.ReadTranscriptFile(path)
	var cut *engine.CutShortError
	if errors.As(err, &cut) {
		err = nil
	}
	return b, err
}

// transcriptPath is a match's transcript, events.jsonl or, written by
// run -gzip, events.jsonl.gz (read with engine.ReadTranscriptFile).
func transcriptPath(dir, id string) string {
	return engine.TranscriptPath(filepath.Join(dir, engine.MatchesDir, id))
}

// inlineTranscripts reads the transcripts of the matches for the page
// (transcriptIDs), or returns nil when their text comes to more than
// InlineLimit. The text is what counts, not the files: run -gzip's
// transcripts are inlined decompressed. Reading stops at the limit.
func inlineTranscripts(dir string, site *Site) map[string]string {
	inline := map[string]string{}
	var total int64
	for _, id := range transcriptIDs(site) {
		if !safeID(id) {
			continue
		}
		f, err := engine.OpenTranscriptFile(transcriptPath(dir, id))
		if err != nil {
			continue // the page says the transcript is missing
		}
		b, err := io.ReadAll(io.LimitReader(f, inlineLimit-total+1))
		f.Close()
		var cut *engine.CutShortError
		if err != nil && !errors.As(err, &cut) {
			continue
		}
		if total += int64(len(b)); total > inlineLimit {
			return nil
		}
		inline[id] = string(b)
	}
	return inline
}

// writeTranscripts writes one script per match (transcriptIDs) into folder; a
// script calls arbiterTranscript(id, events) when the page loads it.
func writeTranscripts(dir, folder string, site *Site) (int64, error) {
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return 0, err
	}
	var total int64
	for _, id := range transcriptIDs(site) {
		if !safeID(id) {
			continue
		}
		b, err := readTranscriptSoFar(transcriptPath(dir, id))
		if err != nil {
			continue // the page says the transcript is missing when it cannot load it
		}
		js, err := gzipScript(id, b)
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(folder, id+".js"), js, 0o644); err != nil {
			return 0, err
		}
		total += int64(len(js))
	}
	return total, nil
}

// transcriptScript wraps a transcript in the script that hands it to the
// page.
func transcriptScript(id string, events []byte) ([]byte, error) {
	a, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(string(events))
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "arbiterTranscript(%s, %s);\n", a, b), nil
}

// gzipScript is transcriptScript for a folder of transcripts: the
// transcript gzipped, in base64, which the page inflates with the
// browser's DecompressionStream. Transcripts are repetitive JSON lines, so
// this makes the folder about a tenth of their size.
func gzipScript(id string, events []byte) ([]byte, error) {
	a, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(events); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, "arbiterTranscript(%s, %q, \"gzip\");\n", a, base64.StdEncoding.EncodeToString(z.Bytes())), nil
}

func writeFileAtomic(path string, b []byte) error { return atomicfile.Write(path, b, 0o644) }
