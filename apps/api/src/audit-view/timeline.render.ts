import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { Answer } from './audit-view.reads';
import { html, type Html } from './html';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** What one event of a target's stream says to an auditor: its outcome, why, and who asked. */
function outcomeOf(event: StoredEvent): { outcome: string; css: string; reason: string | null } {
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'ProposalAccepted':
      return { outcome: `accepted → v${str(data.after_version) ?? '?'}`, css: 'accepted', reason: null };
    case 'ProposalRejected':
      return { outcome: 'refused', css: 'refused', reason: [str(data.failure_reason), str(data.failure_detail)].filter(Boolean).join(': ') };
    case 'TargetInitialized':
      return { outcome: 'initialized → v0', css: 'other', reason: str(data.filename) };
    case 'WorkspaceFileBound':
      return { outcome: 'bound', css: 'other', reason: str(data.path) };
    default:
      return { outcome: event.type, css: 'other', reason: null };
  }
}

export function timelineRow(event: StoredEvent): Html {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const { outcome, css, reason } = outcomeOf(event);
  const session = str(event.metadata.correlation_id);
  return html`<tr class="event ${css}" data-position="${event.globalPosition}" data-type="${event.type}">
<td class="num">${event.globalPosition}</td><td class="num">${event.streamVersion}</td><td><time>${event.recordedAt}</time></td>
<td>${event.type}</td><td class="outcome">${outcome}</td><td class="intent">${str(data.intent)}</td><td class="reason">${reason}</td>
<td class="caller"><span class="session">${session ?? '—'}</span> <span class="tool">${str(event.metadata.tool) ?? str(event.metadata.command)}</span></td>
<td class="mono">${str(data.attempt_id)}</td></tr>`;
}

export function timelineRows(events: readonly StoredEvent[]): Html {
  return html`${events.map(timelineRow)}`;
}

export function commandRuns(runs: readonly Answer[]): Html {
  if (runs.length === 0) return html`<p class="quiet">No command runs by the sessions that edited this file.</p>`;
  const row = (run: Answer) => html`<tr class="run ${str(run.status)}" data-position="${str(run.position)}">
<td class="num">${str(run.position)}</td><td><time>${str(run.recorded_at)}</time></td><td class="command">${str(run.what)}</td>
<td>${str(run.status)}</td><td class="num">${str(run.exit_code) ?? str(run.signal)}</td><td class="reason">${str(run.reason)}</td>
<td class="caller"><span class="session">${str(run.correlation_id)}</span> <span class="tool">${str(run.tool)}</span></td></tr>`;
  return html`<table class="runs"><thead><tr><th>position</th><th>recorded</th><th>command</th><th>status</th><th>exit</th><th>reason</th><th>caller</th></tr></thead>
<tbody>${runs.map(row)}</tbody></table>`;
}

function refusal(answer: Answer): Html {
  return html`<p class="error">${answer.status}: ${str(answer.failure_detail) ?? str(answer.code) ?? str(answer.failure_reason)}</p>`;
}

const lineClass = (line: string) => (line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx');

export function diffFragment(answer: Answer, from: number, to: number | null): Html {
  if (answer.status !== 'ok') return refusal(answer);
  const hunks = (answer.hunks as { header: string; lines: string[] }[]) ?? [];
  const attempts = (answer.attempts as Answer[]) ?? [];
  const hunk = (h: { header: string; lines: string[] }) =>
    html`<div class="hunk"><div class="hunk-header">${h.header}</div>${h.lines.map((l) => html`<div class="line ${lineClass(l)}">${l}</div>`)}</div>`;
  const versions = (a: Answer) => (a.after_version === null || a.after_version === undefined ? `at v${str(a.before_version)}` : `v${str(a.before_version)}→v${str(a.after_version)}`);
  const attempt = (a: Answer) => html`<li><span class="${str(a.status)}">${str(a.status)}</span> ${versions(a)} ${str(a.intent)} <span class="mono">${str(a.attempt_id)}</span></li>`;
  return html`<h3 class="diff-title">Diff v${from} → ${to === null ? 'now' : `v${to}`}</h3>
${hunks.length ? hunks.map(hunk) : html`<p class="quiet">No difference.</p>`}
${answer.next_hunk !== null && answer.next_hunk !== undefined ? html`<p class="quiet">More hunks follow (from hunk ${str(answer.next_hunk)}).</p>` : null}
<h4>Attempts between</h4><ul class="attempts">${attempts.map(attempt)}</ul>`;
}

export function asOfFragment(answer: Answer, version: number): Html {
  if (answer.status !== 'ok') return refusal(answer);
  const asOf = (answer.as_of ?? {}) as Answer;
  return html`<h3 class="as-of-title">Text at v${version}</h3>
<p class="quiet">written ${str(asOf.written_at)} by attempt <span class="mono">${str(asOf.attempt_id) ?? '—'}</span>, hash <span class="mono">${str(answer.current_hash)}</span></p>
<pre class="as-of-text">${str(answer.text)}</pre>
${answer.truncated ? html`<p class="quiet">The first ${str(answer.end)} of ${str(answer.total_chars)} code points.</p>` : null}`;
}
