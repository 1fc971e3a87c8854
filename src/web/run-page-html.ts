/**
 * What the run page shows before its script runs: the run's id, its command, how long it has
 * been running, and whether the server can start another run ("Run again").
 */
export interface RunPageInfo {
  readonly id: string;
  readonly command: string;
  readonly elapsedMs: number;
  readonly canStart: boolean;
  /** The nonce the page's Content-Security-Policy requires of `<style>` elements (the terminal view makes some). */
  readonly styleNonce: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The HTML of the run page (its script and styles are `/assets/page.js` and
 * `/assets/page.css`). The command is escaped; nothing else on the page comes from outside.
 */
export function renderRunPage(info: RunPageInfo): string {
  const command = escapeHtml(info.command);
  const id = escapeHtml(info.id);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$ ${command} · sluice</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/page.css" nonce="${escapeHtml(info.styleNonce)}">
<script type="module" src="/assets/page.js"></script>
</head>
<body data-state="loading" data-run="${id}" data-elapsed="${Math.max(0, Math.round(info.elapsedMs))}" data-can-start="${info.canStart ? 1 : 0}">
<header>
  <div class="command" title="${command}"><span class="prompt">$</span> <code>${command}</code></div>
  <div class="meta">
    <span id="state" class="state">loading…</span>
    <span id="elapsed" class="num" title="elapsed">0ms</span>
    <span id="lines" class="num">0 lines</span>
    <span id="bytes" class="num">0 B</span>
  </div>
  <nav>
    <a id="download" href="/runs/${id}/log" download="sluice-${id}.log">Download log</a>
    <button id="again" type="button" hidden>Run again</button>
    <button id="cancel" type="button" disabled>Cancel</button>
  </nav>
</header>
<p id="trimmed" class="note" hidden><span></span><a href="/runs/${id}/log" download="sluice-${id}.log">download the full log</a></p>
<main id="log" role="log"></main>
<footer id="end" hidden></footer>
</body>
</html>
`;
}
