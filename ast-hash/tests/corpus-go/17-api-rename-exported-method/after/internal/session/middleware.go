package session

import (
	"context"
	"net/http"
	"time"
)

type ctxKey struct{}

// Require rejects requests without a live session cookie and stores the
// session in the request context.
func Require(store *Store, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("sid")
		if err != nil {
			http.Error(w, "login required", http.StatusUnauthorized)
			return
		}
		sess, ok := store.Get(c.Value, time.Now())
		if !ok {
			http.Error(w, "session expired", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, sess)))
	})
}

// FromContext returns the session stored by Require.
func FromContext(ctx context.Context) (Session, bool) {
	sess, ok := ctx.Value(ctxKey{}).(Session)
	return sess, ok
}
