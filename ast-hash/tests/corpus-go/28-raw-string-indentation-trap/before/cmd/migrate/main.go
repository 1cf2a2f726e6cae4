package main

import (
	"flag"
	"fmt"
	"os"
)

const usage = `Usage: migrate [flags] <up|down|status>

Applies SQL migrations from a directory to the database given by -dsn.

Commands:
  up       apply all pending migrations
  down     roll back the most recent migration
  status   list applied and pending migrations
`

func main() {
	dsn := flag.String("dsn", os.Getenv("DATABASE_URL"), "database connection string")
	dir := flag.String("dir", "migrations", "directory holding NNN_name.up.sql files")
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *dsn == "" {
		flag.Usage()
		os.Exit(2)
	}
	switch cmd := flag.Arg(0); cmd {
	case "up", "down", "status":
		fmt.Printf("migrate: %s using %s\n", cmd, *dir)
	default:
		fmt.Fprintf(os.Stderr, "migrate: unknown command %q\n", cmd)
		os.Exit(2)
	}
}
