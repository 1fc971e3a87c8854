/**
 * The single page of the live-exec example: an output pane (stderr in red), a status line and a
 * Cancel button. Its script is the bundled `page.ts`, served as `/page.js`.
 *
 * @example
 * ```ts
 * res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml('sleep 1'));
 * ```
 */
export function pageHtml(command: string): string {
  const escaped = command.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sluice · live exec</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; }
  header { display: flex; gap: 1em; align-items: center; padding: .6em 1em; background: #1d2330; color: #e8ecf4; }
  header code { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  #status { font-variant-numeric: tabular-nums; }
  #out { flex: 1; margin: 0; padding: .6em 1em; overflow: auto; background: #0f131a; color: #d6dde8;
         font: 13px/1.35 ui-monospace, monospace; white-space: pre-wrap; }
  #out .stderr { color: #ff7b72; }
  body[data-state=exited] #status { color: #7ee787; }
  body[data-state=cancelled] #status, body[data-state=error] #status { color: #ffa657; }
</style>
</head>
<body data-state="loading">
<header><code>$ ${escaped}</code><span id="status">loading…</span><button id="cancel" disabled>Cancel</button></header>
<pre id="out"></pre>
<script type="module" src="/page.js"></script>
</body>
</html>
`;
}
