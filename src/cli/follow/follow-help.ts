import { docsUrl } from '../subcommand.js';

/** The text `sluice follow --help` prints. */
export const followHelpText = `sluice follow — print a run's output from any machine that reaches its Redis, live

Usage:
  sluice follow --redis <url> <run-id> [--after <seq>] [--json [--wire bridge|serde] [--call-id <id>]]
                [--cast <file>]

Prints the run's events from the first one still retained (or after --after), then live until the
run ends, and exits with the run's exit code. stdout lines go to stdout, stderr lines to stderr.
Events the store's retention trimmed are said on stderr, and the retained ones follow.

Options:
  --redis <url>             the Redis the run is published to (redis:// or rediss://); needs the
                            optional peer ioredis
  --redis-cluster <h:p,…>   the startup nodes of the Redis Cluster it is published to, instead
  --redis-timeout-ms <n>    give up when Redis has not answered for this long (default: 5000)
  --after <seq>             start after this sequence number (resume where a previous follow stopped)
  --json                    print the frames \`sluice exec --json\` prints for the same run, one per
                            line: {"callId":…,"outcome":{…}} (a stdout line's outcome has the line as
                            its chunk, a stderr line {"stderr":…}; the last frame ends the run):
                            ${docsUrl('protocol.md')}, "Runs from a store"
  --wire bridge|serde       the outcome encoding for --json (default: bridge; serde: {call_id, outcome})
  --call-id <id>            the callId written in --json frames (default: sluice-1)
  --cast <file>             also write the run to <file> as an asciicast v2 recording, for
                            \`asciinema play <file>\`: ${docsUrl('terminal.md')}, "Recording"
  -h, --help                show this help

The exit code is the run's, mirrored as \`sluice exec\` does (its own code, 128 + n after signal n,
124 after a timeout or stall, 127 when the command was not found, 126 when it could not be
started), 130 for a cancelled run, and 1 for a run that failed otherwise or cannot be read.

Examples:
  sluice follow --redis redis://127.0.0.1:6379 build-7
  sluice follow --redis redis://127.0.0.1:6379 build-7 --after 41
  sluice follow --redis redis://127.0.0.1:6379 build-7 --json | jq -j '.outcome.chunk | strings'
`;
