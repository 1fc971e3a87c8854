import { docsUrl } from './subcommand.js';

/** The text `sluice exec --help` prints. */
export const execHelpText = `sluice exec — run a command and stream its output live, line by line

Usage:
  sluice exec [options] -- <command> [args…]

Everything after \`--\` is the command and its arguments, passed on unchanged (\`sluice exec -- ls -la\`).

Options:
  --json                    print NDJSON {callId, outcome} frames (the hostcall wire format; serde:
                            {call_id, outcome}) instead of text
  --wire bridge|serde       the outcome encoding for --json (default: bridge)
  --call-id <id>            the callId written in --json frames (default: sluice-1)
  --timeout-ms <n>          kill the command's process group after n ms (default: 0, no timeout)
  --max-output-bytes <n>    cap on the accumulated stdout/stderr in the result (default: 262144)
  --buffer-size <n>         chunks buffered before the command is paused (default: 16)
  --stall-timeout-ms <n>    kill the command if the output reader stalls this long while the buffer
                            is full (default: 0, disabled)
  --containment auto|cgroup|group
                            contain the run in its own cgroup, which also holds daemons that leave
                            the process group (cgroup: or fail saying why; group: never; default
                            auto: a cgroup where this machine allows it; see
                            ${docsUrl('containment.md')})
  --cwd <dir>               run the command in <dir>
  --tty                     run the command on a pseudo-terminal of this terminal's size (less the
                            status line's row, resized with it), so it writes each line at once,
                            with colours; its output is shown read by read, and with --web (or
                            sluice web, with --redis) its page draws it in a terminal view
                            (needs util-linux script; see ${docsUrl('terminal.md')})
  --color / --no-color      force colours on or off (default: on for a terminal, off with NO_COLOR);
                            with colours on, the command gets FORCE_COLOR (unless already set)
  --stdin inherit|ignore    hand sluice's stdin to the command, so a prompt can read the terminal
                            (default: ignore)
  --redis <url>             also publish the run to Redis (follow it with sluice follow; with --web,
                            its page is served from Redis: sluice web shows it too); needs the
                            optional peer ioredis
  --run-id <id>             the run id to publish as (default: a random one, printed on stderr)
  --redis-cluster <h:p,…>   publish to a Redis Cluster (its startup nodes) instead of --redis
  --max-bytes <n> / --max-events <n> / --retain-ms <n>
                            what Redis keeps of the run: its newest 64 MiB / 1000000 events, for an
                            hour after its end (default); a follower is told what was trimmed
  --redis-timeout-ms <n>    publishing stops after Redis failed this long; the command goes on and
                            its exit code stands (default: 5000)
  --redis-strict            exit 75 when the run could not be published, whatever the command did
  --web                     also serve a live page of the run; its URL (with an access token) is
                            printed on stderr. --host <address> (default 127.0.0.1), --port <n>
                            (default: a free one), --allow-host <name[:port]> (another name it is
                            reached by); SLUICE_WEB_TOKEN sets the token (the same on every server
                            behind one load balancer)
  -h, --help                show this help

The exit code mirrors the command's: its own code, 128 + n after signal n, 124 on timeout or
stall, 127 when it is not found, 126 when it cannot be started, 2 for a bad sluice command line,
and 1 when sluice itself fails (an optional peer not installed, Redis unreachable). A signal to
sluice (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) kills the command's process group and exits 128 + n
once it is gone (a second one exits at once); with --json the frames still end with exactly one
terminal frame (a CANCELLED Error). A closed output (| head) exits 141, quietly.

Examples:
  sluice exec -- npm test
  sluice exec --timeout-ms 60000 -- make -j2
  sluice exec --web -- npm test
  sluice exec --tty --web -- npm install
  sluice exec --json --wire serde -- python3 -u train.py > frames.ndjson
  sluice exec --stall-timeout-ms 30000 -- tail -f /var/log/syslog | slow-consumer
  sluice exec --redis redis://127.0.0.1:6379 --run-id build-7 -- make test
  sluice exec --web --redis redis://127.0.0.1:6379 --run-id build-7 -- make test
`;
