package web

import (
	"embed"
	"io/fs"
	"net/http"
	"time"
)

// Static files (CSS, JS, images) are compiled into the binary so a deploy is
// a single file.
//
// go:embed static
var staticFiles embed.FS

// startedAt is used as Last-Modified for every embedded file.
var startedAt = time.Now()

// Assets serves the embedded files under /static/.
func Assets() http.Handler {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the directory name is fixed at compile time
	}
	files := http.FileServer(http.FS(sub))
	return http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("Last-Modified", startedAt.UTC().Format(http.TimeFormat))
		files.ServeHTTP(w, r)
	}))
}
