import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The examples of docs/*.md that a reader is told run as they are: each ```ts block that follows a
 * `<!-- snippet: run by test/testing/docs-examples.test.ts -->` line is imported here, with its
 * `sluice` and `sluice/<entry>` imports pointed at the sources, and must finish without throwing
 * (such a snippet asserts what it shows with `node:assert`).
 */
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MARKER = '<!-- snippet: run by test/testing/docs-examples.test.ts -->';
/** Inside the repository, so that the snippet's own imports (`rxjs`) resolve as in an app. */
const scratch = join(root, 'test-artifacts', 'docs-examples');

interface Snippet {
  readonly page: string;
  readonly index: number;
  readonly code: string;
}

function snippets(): Snippet[] {
  const docs = join(root, 'docs');
  return readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) => {
      const parts = readFileSync(join(docs, name), 'utf8').split(MARKER).slice(1);
      return parts.map((part, index) => {
        const block = /^\s*```ts\n([\s\S]*?)```/.exec(part);
        if (block === null)
          throw new Error(`docs/${name}: no \`\`\`ts block right after snippet marker ${index + 1}`);
        return { page: `docs/${name}`, index, code: block[1] as string };
      });
    });
}

/** `from 'sluice'` and `from 'sluice/testing'` as an app writes them, pointed at src/. */
function toSources(code: string): string {
  return code.replace(/from '(sluice(?:\/[a-z]+)?)'/g, (_, entry: string) => {
    const sub = entry === 'sluice' ? '' : `${entry.slice('sluice/'.length)}/`;
    return `from '${pathToFileURL(join(root, 'src', sub, 'index.ts')).href}'`;
  });
}

describe('the runnable examples of docs/', () => {
  const all = snippets();
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds the testing kit example', () => {
    expect(all.map((snippet) => snippet.page)).toContain('docs/testing.md');
  });

  it.each(all.map((snippet) => [`${snippet.page} #${snippet.index + 1}`, snippet] as const))(
    '%s runs as written',
    async (_, snippet) => {
      mkdirSync(scratch, { recursive: true });
      const file = join(scratch, `${snippet.page.replace(/\W/g, '-')}-${snippet.index}.ts`);
      writeFileSync(file, toSources(snippet.code));
      await expect(import(pathToFileURL(file).href)).resolves.toBeDefined();
    },
  );
});
