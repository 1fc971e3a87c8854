/**
 * The child the built-in demo runs (`sluice` or `npm start` with no arguments): a pretend build
 * that writes to stdout and stderr at varying rates for about four seconds — a slow start, a
 * burst, a few warnings, a quiet spell — so the live view has something to show.
 */
export const demoScript = `
const steps = [
  ['resolving dependencies', 6, 120],
  ['compiling', 40, 25],
  ['bundling (burst)', 400, 0],
  ['running tests', 30, 40],
  ['waiting on a slow step', 1, 900],
  ['writing report', 10, 30],
];
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const write = (stream, text) =>
  new Promise((resolve) => (stream.write(text) ? resolve() : stream.once('drain', resolve)));
(async () => {
  let n = 0;
  for (const [name, count, pause] of steps) {
    await write(process.stdout, '== ' + name + '\\n');
    for (let i = 1; i <= count; i++) {
      n++;
      if (n % 37 === 0) await write(process.stderr, 'warning: step ' + n + ' took a detour\\n');
      else await write(process.stdout, name + ' ' + i + '/' + count + '\\n');
      if (pause) await wait(pause);
    }
  }
  await write(process.stdout, 'done: ' + n + ' steps\\n');
})();
`;
