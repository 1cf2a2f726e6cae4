package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	interval := flag.Duration("interval", 30*time.Second, "poll interval")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	ticker := time.NewTicker(*interval)
	defer ticker.Stop()

	log.Printf("worker: polling every %s", *interval)
	for {
		select {
		case <-ctx.Done():
			log.Print("worker: shutting down")
			return
		case t := <-ticker.C:
			if err := poll(ctx, t); err != nil {
				log.Printf("worker: poll failed: %v", err)
			}
		}
	}
}

func poll(ctx context.Context, at time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	log.Printf("worker: poll at %s", at.Format(time.RFC3339))
	return ctx.Err()
}
