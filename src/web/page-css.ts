/**
 * The run page's stylesheet, served as `/assets/page.css`; its colours and contrast are
 * docs/web.md's, "The page". The pane (`#log`) holds runs of lines: `.out` (stdout), `.err`
 * (stderr), `.gap`; a terminal run is drawn in `#terminal` instead (xterm.js brings its styles).
 */
export const pageCss = `
:root { color-scheme: dark; --bg: #0d1117; --panel: #161b22; --fg: #d6dde8; --dim: #8b949e;
  --ok: #3fb950; --bad: #f85149; --warn: #d29922; --accent: #58a6ff; --err-tint: rgba(248, 81, 73, .08); }
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .5em 1.2em; padding: .55em 1em;
  background: var(--panel); border-bottom: 1px solid #30363d; }
.command { flex: 1 1 20em; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
  font: 600 14px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.prompt { color: var(--dim); }
.meta { display: flex; gap: .9em; align-items: baseline; color: var(--dim); }
.num { font-variant-numeric: tabular-nums; }
.state { color: var(--fg); font-weight: 600; }
body[data-state=running] .state::before { content: ""; display: inline-block; width: .55em; height: .55em;
  margin-right: .4em; border-radius: 50%; background: var(--accent); animation: pulse 1.2s ease-in-out infinite; }
@keyframes pulse { 50% { opacity: .25; } }
body[data-ok=true] .state { color: var(--ok); }
body[data-ok=false] .state { color: var(--bad); }
body[data-state=cancelled] .state, body[data-state=stalled] .state, body[data-state=gone] .state { color: var(--warn); }
nav { display: flex; gap: .6em; align-items: center; }
nav a { color: var(--accent); text-decoration: none; }
nav a:hover { text-decoration: underline; }
button { font: inherit; color: var(--fg); background: #21262d; border: 1px solid #3d444d; border-radius: 6px;
  padding: .2em .9em; cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--dim); }
button:disabled { opacity: .5; cursor: default; }
#cancel:not(:disabled) { color: #ffb1ac; border-color: #6e3630; }
.note { margin: 0; padding: .35em 1em; color: var(--dim); background: #11161d; border-bottom: 1px solid #21262d;
  font-size: 13px; }
.note a { color: var(--accent); }
#log { flex: 1; overflow: auto; padding: .5em 0 1em; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  overflow-anchor: none; }
#log > div { padding: 0 1em 0 calc(1em - 3px); border-left: 3px solid transparent; white-space: pre-wrap;
  overflow-wrap: anywhere; min-height: 1.45em; }
#log > .err { border-left-color: var(--bad); background: var(--err-tint); }
#log > .gap { color: var(--warn); font-style: italic; margin: .3em 0; }
.cut { color: var(--dim); font-style: italic; }
#terminal { flex: 1; min-height: 0; overflow: auto; padding: .5em 1em 1em; }
footer { padding: .5em 1em; background: var(--panel); border-top: 1px solid #30363d; font-weight: 600; }
body[data-ok=true] footer { color: var(--ok); }
body[data-ok=false] footer { color: var(--bad); }
body[data-state=cancelled] footer, body[data-state=gone] footer { color: var(--warn); }
.ansi-black-fg { color: #6e7681; } .ansi-red-fg { color: #ff7b72; } .ansi-green-fg { color: #3fb950; }
.ansi-yellow-fg { color: #d29922; } .ansi-blue-fg { color: #58a6ff; } .ansi-magenta-fg { color: #bc8cff; }
.ansi-cyan-fg { color: #39c5cf; } .ansi-white-fg { color: #b1bac4; }
.ansi-bright-black-fg { color: #8b949e; } .ansi-bright-red-fg { color: #ffa198; } .ansi-bright-green-fg { color: #56d364; }
.ansi-bright-yellow-fg { color: #e3b341; } .ansi-bright-blue-fg { color: #79c0ff; } .ansi-bright-magenta-fg { color: #d2a8ff; }
.ansi-bright-cyan-fg { color: #56d4dd; } .ansi-bright-white-fg { color: #f0f6fc; }
.ansi-black-bg { background: #30363d; } .ansi-bright-black-bg { background: #6e7681; }
.ansi-red-bg { background: #da3633; } .ansi-green-bg { background: #258637; } .ansi-yellow-bg { background: #9e6c06; }
.ansi-blue-bg { background: #2e74d6; } .ansi-magenta-bg { background: #895ed0; } .ansi-cyan-bg { background: #238189; }
.ansi-bright-red-bg { background: #c4504f; } .ansi-bright-green-bg { background: #34853d; }
.ansi-bright-yellow-bg { background: #917126; } .ansi-bright-blue-bg { background: #4b7aa3; }
.ansi-bright-magenta-bg { background: #856aa3; } .ansi-bright-cyan-bg { background: #318186; }
.ansi-white-bg { background: #d0d7de; } .ansi-bright-white-bg { background: #f0f6fc; }
#log [class*="-bg"]:not([class*="-fg"]), #log [class*="-bg"].ansi-white-fg, #log [class*="-bg"].ansi-bright-white-fg { color: #ffffff; }
#log [class*="-bg"].ansi-black-fg, #log [class*="-bg"].ansi-bright-black-fg,
#log .ansi-white-bg:not([class*="-fg"]), #log .ansi-bright-white-bg:not([class*="-fg"]) { color: #000000; }
@media (max-width: 640px) { .meta { order: 3; width: 100%; } }
`;
