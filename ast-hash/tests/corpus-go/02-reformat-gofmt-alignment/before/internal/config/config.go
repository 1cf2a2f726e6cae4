package config

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

const (
	defaultPort = 8080 // HTTP listener
	defaultReadTimeout = 5 * time.Second // per request
	defaultMaxBodyBytes = 1 << 20 // 1 MiB
)

// Config is read from a JSON file at startup.
type Config struct {
	Port int `json:"port"`
	ReadTimeout time.Duration `json:"read_timeout"`
	MaxBodyBytes int64 `json:"max_body_bytes"`
	DatabaseURL string `json:"database_url"`
	AllowedOrigins []string `json:"allowed_origins"`
}

var defaults = Config{
	Port: defaultPort,
	ReadTimeout: defaultReadTimeout,
	MaxBodyBytes: defaultMaxBodyBytes,
}

// Load reads path and fills in defaults for missing values.
func Load(path string) (Config, error) {
	cfg := defaults
	data, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return cfg, fmt.Errorf("config: parse %s: %w", path, err)
	}
	if cfg.DatabaseURL == "" {
		return cfg, fmt.Errorf("config: database_url is required")
	}
	return cfg, nil
}
