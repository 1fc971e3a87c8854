import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromWireNames, toWireNames, WIRE_NAMES } from '../../../src/kernel/protocol/wire-names.js';

describe('names on the wire', () => {
  it('docs/protocol.md lists exactly the table the code maps with', () => {
    const doc = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### Names on the wire'), doc.indexOf('## Streaming hostcalls'));
    const rows = [...section.matchAll(/^\| `(\w+)`\s*\| `(\w+)`\s*\|$/gm)].map((row) => [row[1], row[2]]);
    expect(Object.fromEntries(rows)).toEqual(WIRE_NAMES);
  });

  it('renames a record, its rlimits and usage, both ways; user data and other values are kept', () => {
    const ts = {
      cmd: 'ls',
      timeoutMs: 500,
      env: { timeoutMs: 'kept', exit_code: 'kept' },
      rlimits: { cpuSeconds: 1, addressSpaceBytes: 2, fileSizeBytes: 3, openFiles: 4 },
      usage: { cpuUserMs: 1, cpuSystemMs: 2 },
      skipped: undefined,
    };
    const wire = {
      cmd: 'ls',
      timeout_ms: 500,
      env: { timeoutMs: 'kept', exit_code: 'kept' },
      rlimits: { cpu_s: 1, as_bytes: 2, fsize_bytes: 3, nofile: 4 },
      usage: { cpu_user_ms: 1, cpu_system_ms: 2 },
    };
    expect(toWireNames(ts)).toEqual(wire);
    const { skipped, ...defined } = ts;
    expect(fromWireNames(wire)).toEqual(defined);
    expect(toWireNames(wire)).toEqual(wire);
    expect(fromWireNames('exit_code\n')).toBe('exit_code\n');
    expect(fromWireNames(null)).toBeNull();
    expect(fromWireNames([{ exit_code: 1 }])).toEqual([{ exit_code: 1 }]);
  });
});
