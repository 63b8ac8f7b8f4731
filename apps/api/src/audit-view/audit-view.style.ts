/** The view's stylesheet, served from the gateway itself (no external fetch). */
export const AUDIT_VIEW_CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
header { display: flex; gap: 2em; align-items: center; padding: .6em 1.2em; background: #243447; color: #fff; }
header h1 { font-size: 1.2em; margin: 0; }
main { padding: 0 1.2em 2em; }
section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .6em 1em; margin-top: 1em; }
h2 { font-size: 1.1em; margin: .3em 0; } h3 { font-size: 1em; margin: .8em 0 .3em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25em .5em; border-bottom: 1px solid #eee; vertical-align: top; }
th { font-weight: 600; background: #f3f3f3; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.mono, pre, .line, .hunk-header { font-family: ui-monospace, monospace; font-size: 12px; }
.quiet { color: #666; }
.error { color: #b00020; font-weight: 600; }
.accepted { background: #eefaf0; } .refused { background: #fdeeee; }
span.accepted { color: #17702c; } span.rejected { color: #b00020; }
.verification.ok, .replay.ok { color: #17702c; font-weight: 600; }
.verification.failed, .replay.failed { color: #b00020; font-weight: 600; }
.verification.off { color: #8a6d00; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: .5em; border-radius: 4px; }
.hunk { border: 1px solid #ddd; margin: .4em 0; } .hunk-header { background: #eef; padding: 0 .5em; }
.line { white-space: pre-wrap; padding: 0 .5em; } .line.add { background: #e6ffed; } .line.del { background: #ffeef0; }
form.inline { display: inline-block; margin-right: 1.5em; }
input[type=number] { width: 5em; }
tr.fresh { animation: fresh 2s ease-out; } @keyframes fresh { from { background: #fff6c2; } }
`;
