package server

import (
	"log"
	"net/http"
	"strings"
	"time"
)

// Handler wires the API routes and wraps them in middleware. The last
// wrapper applied runs first on every request.
func Handler(mux *http.ServeMux, token string, origin string, logger *log.Logger) http.Handler {
	var h http.Handler = mux
	h = requireToken(h, token)
	h = allowCORS(h, origin)
	h = logRequests(h, logger)
	return h
}

func requireToken(next http.Handler, token string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") != token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowCORS answers preflight requests itself; browsers send them without
// credentials, so this must run before requireToken.
func allowCORS(next http.Handler, origin string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func logRequests(next http.Handler, logger *log.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next.ServeHTTP(w, r)
		logger.Printf("%s %s %s", r.Method, r.URL.Path, time.Since(start))
	})
}
