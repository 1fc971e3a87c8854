import { CliInterruption, interruptionOf } from './cli-interruption.js';
import { runCli } from './run-cli.js';

// The `sluice` command line, loaded by main.ts. A fatal signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
// cancels the run: the command's whole process group is killed, what it wrote meanwhile still
// goes out, and sluice exits with 128 + the signal's number once the group is gone. A second one exits at once (the
// groups are then SIGKILLed on exit). A reader that closes stdout (`| head -1`) stops the run
// quietly, with 141 as a process killed by SIGPIPE would.
const controller = new AbortController();
const interrupt = (signal: NodeJS.Signals) => {
  if (controller.signal.aborted) process.exit(new CliInterruption(signal).exitCode);
  controller.abort(new CliInterruption(signal));
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) process.on(signal, interrupt);
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' && !controller.signal.aborted) controller.abort(new CliInterruption('SIGPIPE'));
});
process.stderr.on('error', () => {}); // nowhere left to report to

runCli(process.argv.slice(2), process, process.env, controller.signal).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const interruption = interruptionOf(controller.signal);
    if (interruption !== undefined) {
      process.exitCode = interruption.exitCode;
      return;
    }
    process.stderr.write(`sluice: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
