import { connectExtension, createHost } from './src/kernel/index.js';
import { exec, toAsyncIterable } from './src/index.js';
const which = process.argv[2] ?? 'kernel';
const t0 = performance.now(); const c0 = process.cpuUsage();
let lines = 0;
if (which === 'kernel') {
  const host = createHost({ logger: { warn() {} } });
  const { api } = connectExtension(host, 'bench');
  for await (const chunk of api.exec('cat', ['/tmp/lines2m.txt'], { stream: true, buffer_size: 16 })) if (typeof chunk === 'string') lines++;
} else {
  for await (const e of toAsyncIterable(exec('cat', ['/tmp/lines2m.txt']))) if (e.kind === 'stdout') lines++;
}
const ms = performance.now() - t0;
const c = process.cpuUsage(c0); const cpu = (c.user + c.system) / 1000; console.log(which, lines, Math.round(lines / ms * 1000), 'lines/s wall', Math.round(lines / cpu * 1000), 'lines/cpu-s');
