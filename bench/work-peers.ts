import * as NodeChildProcessSpawner from '@effect/platform-node-shared/NodeChildProcessSpawner';
import * as NodeFileSystem from '@effect/platform-node-shared/NodeFileSystem';
import * as NodePath from '@effect/platform-node-shared/NodePath';
import { Effect, Layer, Stream } from 'effect';
import { ChildProcess, ChildProcessSpawner } from 'effect/process';
import { $ } from 'zx';
import type { SlowRun } from './slow-consumer.js';
import { work1ms } from './work-per-line.js';

/**
 * The work-per-line idiom of sluice's peers, measured like bench/work-per-line.ts (loaded only by
 * their own runs, so the other variants do not pay for Effect and zx): Effect's `Stream.mapEffect`
 * over a child's lines (pull: the next line is read when the work is done), and zx's `for await`
 * over a `$` process, awaiting the work in the loop.
 *
 * @example
 * ```ts
 * await measureSlow(workPeerVariants['work-effect'], side, flood, 3000);
 * ```
 */
// The child-process spawner with the file system and paths it needs: the part of Effect's Node
// services these runs use (its `@effect/platform-node` needs a newer Node than sluice's floor).
const spawnerLayer = NodeChildProcessSpawner.layer.pipe(
  Layer.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)),
);

export const workPeerVariants: Record<string, (run: SlowRun) => Promise<void>> = {
  'work-effect': async (run) => {
    const program = Effect.gen(function* () {
      const spawner = yield* ChildProcessSpawner.ChildProcessSpawner;
      yield* spawner.streamLines(ChildProcess.make(run.command, [...run.args])).pipe(
        Stream.mapEffect((line) => Effect.promise(() => work1ms(line))),
        Stream.tap(() => Effect.sync(() => run.take())),
        Stream.interruptWhen(Effect.promise(() => run.over)),
        Stream.runDrain,
      );
    }).pipe(Effect.provide(spawnerLayer));
    await Effect.runPromise(program);
  },
  'work-zx': async (run) => {
    const child = $({ quiet: true, nothrow: true })`${run.command} ${run.args}`;
    for await (const line of child) {
      await work1ms(line);
      run.take();
      if (run.done) {
        // Killed before the loop ends: zx's iterator would otherwise read on to the end of the
        // child's output (a flood of 1 GiB) before letting the loop go.
        await child.kill('SIGKILL').catch(() => {});
        break;
      }
    }
  },
};
