"""Command line entry point of the backup tool."""

import sys

from .runner import run_backup, run_restore

VERSION = "2.4.1"


def usage():
  return """usage: backup COMMAND [OPTIONS]

commands:
  run       copy changed files to the target
  restore   copy files back from the target
  version   print the version and exit

options:
  --dry-run   show what would be copied
"""


def main(argv=None):
  args = sys.argv[1:] if argv is None else argv
  if not args or args[0] in ("-h", "--help"):
    sys.stdout.write(usage())
    return 0
  command, options = args[0], args[1:]
  dry_run = "--dry-run" in options
  if command == "run":
    copied = run_backup(dry_run=dry_run)
    print("%d files copied" % copied)
    return 0
  if command == "restore":
    restored = run_restore(dry_run=dry_run)
    print("%d files restored" % restored)
    return 0
  if command == "version":
    print(VERSION)
    return 0
  sys.stderr.write(usage())
  return 2
