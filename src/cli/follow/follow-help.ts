/** The text `sluice follow --help` prints. */
export const followHelpText = `sluice follow — print a run's output from any machine that reaches its Redis, live

Usage:
  sluice follow --redis <url> <run-id> [--after <seq>] [--json]

Prints the run's events from the first one still retained (or after --after), then live until the
run ends, and exits with the run's exit code. stdout lines go to stdout, stderr lines to stderr.

Options:
  --redis <url>       the Redis the run is published to (redis:// or rediss://); needs the optional
                      peer ioredis
  --after <seq>       start after this sequence number (resume where a previous follow stopped)
  --json              one event per line as JSON ({sequence, kind, content, metadata?, isFinal})
  -h, --help          show this help

The exit code is the run's, mirrored as \`sluice exec\` does (its own code, 128 + n after signal n,
124 after a timeout or stall, 127 when the command was not found, 126 when it could not be
started), 130 for a cancelled run, and 1 for a run that failed otherwise or cannot be read.

Examples:
  sluice follow --redis redis://127.0.0.1:6379 build-7
  sluice follow --redis redis://127.0.0.1:6379 build-7 --after 41
  sluice follow --redis redis://127.0.0.1:6379 build-7 --json | jq -r .content
`;
