import { describeFailure } from '@palimpsest/core/audit/verify-bundle';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { ReplayAllPage } from '../operations/replay-all';
import type { Answer, Verification } from './audit-view.reads';
import { html, type Html } from './html';
import { commandRuns, timelineRows } from './timeline.render';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** The page itself: no data, only the slots the script fills with the fragments below. */
export function shellPage(): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Palimpsest audit</title><link rel="stylesheet" href="/audit/assets/audit-view.css"></head>
<body>
<header><h1>Palimpsest audit</h1>
<form id="token-form" autocomplete="off"><label>Auditor token <input id="token" type="password" name="token" placeholder="pal_…"></label>
<button type="submit">Open</button></form></header>
<p id="error" class="error" role="alert" hidden></p>
<main>
<section id="verification-panel"><h2>Verification</h2><div id="verification" class="quiet">Enter an auditor token.</div>
<button id="verify" type="button">Verify again</button> <button id="download" type="button">Download the verification bundle</button></section>
<section><h2>Workspace</h2><div id="workspace"></div></section>
<section id="target-panel" hidden><div id="target"></div>
<div id="diff"></div><div id="as-of"></div></section>
</main>
<script src="/audit/assets/audit-view.js"></script>
</body></html>
`;
}

export function workspaceFragment(answer: Answer): Html {
  if (answer.status !== 'ok') return html`<p class="quiet">${str(answer.failure_detail) ?? str(answer.code) ?? answer.status}</p>`;
  const files = (answer.files as Answer[]) ?? [];
  const root = (answer.root ?? {}) as Answer;
  const row = (f: Answer) => html`<tr data-path="${str(f.path)}"><td><a href="#target=${str(f.target_file_id)}" class="open-target">${str(f.path)}</a></td>
<td class="num version">${str(f.version)}</td><td>${str(f.state)}</td><td class="mono">${str(f.target_file_id)}</td></tr>`;
  return html`<p class="quiet">Root <span class="mono">${str(root.path)}</span>: ${files.length} of ${str(answer.total)} bound files${answer.truncated ? ' (more not shown)' : ''}.</p>
<table class="files"><thead><tr><th>path</th><th>version</th><th>state</th><th>target</th></tr></thead><tbody>${files.map(row)}</tbody></table>`;
}

function replayAllStatus(page: ReplayAllPage | null): Html | null {
  if (!page) return null;
  const partial = page.next_after !== null;
  if (page.status === 'success') {
    return partial
      ? html`<p class="replay-all replay ok">Replay: the first ${page.checked} targets reproduce their current version (POST /v1/replay pages through the rest).</p>`
      : html`<p class="replay-all replay ok">Replay: every target reproduces its current version (${page.checked} replayed).</p>`;
  }
  const diverged = (r: Record<string, unknown>) => html`<li><span class="mono">${str(r.target_file_id)}</span> ${str(r.status)}: ${str(r.failure_detail) ?? JSON.stringify(r.materialized_state_checks ?? null)}</li>`;
  return html`<p class="replay-all replay failed">Replay: ${page.diverged.length} of ${page.checked} ${partial ? 'first ' : ''}targets diverge.</p><ul>${page.diverged.map(diverged)}</ul>`;
}

export function verificationFragment(result: Verification | null, replay: ReplayAllPage | null = null): Html {
  if (!result) return html`<p class="quiet verification off">The audit log is off (PALIMPSEST_AUDIT): there are no signed checkpoints to verify against.</p>${replayAllStatus(replay)}`;
  const { report, checkpoint } = result;
  const status = report.ok
    ? html`<p class="verification ok">Verified: ${report.events} events in ${report.streams} streams, ${report.proven} proven by the latest of ${report.checkpoints} signed checkpoints.</p>`
    : html`<p class="verification failed">Verification failed: ${describeFailure(report.failure!)}</p>`;
  const latest = checkpoint
    ? html`<h3>Latest signed checkpoint</h3><pre class="checkpoint">${checkpoint}</pre>`
    : html`<p class="quiet">No checkpoint has been signed yet.</p>`;
  return html`${status}${replayAllStatus(replay)}${latest}`;
}

export interface TargetView {
  targetId: string;
  name: string | null;
  replay: Answer;
  events: readonly StoredEvent[];
  runs: readonly Answer[];
}

/** `palimpsest_replay` of the target: the accepted records re-run reproduce its current version. */
export function replayFragment(replay: Answer): Html {
  if (replay.status === 'success') {
    return html`<p class="replay ok">Replay: ${str(replay.accepted_transactions_replayed)} accepted transactions reproduce version ${str(replay.reconstructed_version)} (hash <span class="mono">${str(replay.reconstructed_hash)}</span>).</p>`;
  }
  return html`<p class="replay failed">Replay ${replay.status}: ${str(replay.failure_detail) ?? str(replay.failure_reason) ?? JSON.stringify(replay.materialized_state_checks ?? null)}</p>`;
}

export function targetFragment(view: TargetView): Html {
  const version = str(view.replay.current_version) ?? '0';
  const last = view.events.at(-1)?.globalPosition ?? 0;
  return html`<h2>${view.name ?? view.targetId} <span class="quiet">version <span id="current-version">${version}</span></span></h2>
<p class="mono quiet">${view.targetId}</p>
<div id="replay">${replayFragment(view.replay)}</div>
<form id="diff-form" class="inline" data-target="${view.targetId}"><label>Diff from <input name="from" type="number" min="0" value="0"></label>
<label>to <input name="to" type="number" min="0" value="${version}"></label><button type="submit">Show diff</button></form>
<form id="as-of-form" class="inline" data-target="${view.targetId}"><label>Text as of version <input name="version" type="number" min="0" value="${version}"></label><button type="submit">Show text</button></form>
<h3>Timeline</h3>
<table class="timeline"><thead><tr><th>position</th><th>stream v</th><th>recorded</th><th>event</th><th>outcome</th><th>intent</th><th>reason</th><th>caller (session, tool)</th><th>attempt</th></tr></thead>
<tbody id="timeline-rows" data-target="${view.targetId}" data-last-position="${last}">${timelineRows(view.events)}</tbody></table>
<h3>Command runs</h3>${commandRuns(view.runs)}`;
}
