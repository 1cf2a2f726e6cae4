package httpapi

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"
)

// Health reports liveness and readiness of the service.
type Health struct {
	started time.Time
	ready   atomic.Bool
}

func NewHealth(now time.Time) *Health {
	return &Health{started: now}
}

// SetReady flips the readiness flag once dependencies are up.
func (h *Health) SetReady(v bool) { h.ready.Store(v) }

func (h *Health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	status := http.StatusOK
	if !h.ready.Load() {
		status = http.StatusServiceUnavailable
	}
	body := map[string]any{
		"ready":  h.ready.Load(),
		"uptime": time.Since(h.started).Round(time.Second).String(),
	}

	w.Header().Set("Content-Type",
		"application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(
		body)
}
