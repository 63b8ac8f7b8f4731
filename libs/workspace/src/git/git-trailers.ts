/**
 * The trailers the engine writes on a commit that publishes an accepted attempt, and their parse. The
 * model's words never reach them: the subject is one line with every line break removed, so nothing it
 * says can start the trailer paragraph.
 */

export const ATTEMPT_TRAILER = 'Palimpsest-Attempt';
export const EVENTS_TRAILER = 'Palimpsest-Events';
export const CHECKPOINT_TRAILER = 'Palimpsest-Checkpoint';
export const ASSISTED_BY_TRAILER = 'Assisted-by';

/** One target's acceptances by the attempt: versions `from` (exclusive) to `to`. */
export interface EventsRange {
  targetId: string;
  from: number;
  to: number;
}

export interface AttemptTrailers {
  attemptId: string;
  events: EventsRange[];
  /** The latest signed checkpoint when the commit was made: its size and base64 root. */
  checkpoint: { size: number; root: string } | null;
  /** The MCP client's name (clientInfo.name), when known. */
  client: string | null;
}

const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export const formatRange = (r: EventsRange) => `${r.targetId}@${r.from}..${r.to}`;

/** A commit message: the subject, a blank line, the trailers (and never a Signed-off-by). */
export function attemptMessage(subject: string, t: AttemptTrailers): string {
  const lines = [`${ATTEMPT_TRAILER}: ${oneLine(t.attemptId)}`, ...t.events.map((r) => `${EVENTS_TRAILER}: ${formatRange(r)}`)];
  if (t.checkpoint) lines.push(`${CHECKPOINT_TRAILER}: ${t.checkpoint.size} ${t.checkpoint.root}`);
  const client = t.client ? oneLine(t.client) : '';
  if (client) lines.push(`${ASSISTED_BY_TRAILER}: ${client}`);
  return `${oneLine(subject) || 'Palimpsest: accepted edit'}\n\n${lines.join('\n')}\n`;
}

/** The trailer lines of a commit (git's `%(trailers:only,unfold)`), as key → values in order. */
export function trailerValues(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    out.set(key, [...(out.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return out;
}

const RANGE = /^([0-9a-f-]{36})@(\d+)\.\.(\d+)$/i;
const CHECKPOINT = /^(\d+) ([A-Za-z0-9+/]+={0,2})$/;

/** The attempt trailers of a commit, or why they are malformed; null when it carries none of them. */
export function parseAttemptTrailers(values: Map<string, string[]>): { ok: true; trailers: AttemptTrailers } | { ok: false; reason: string } | null {
  const attempts = values.get(ATTEMPT_TRAILER) ?? [];
  const ranges = values.get(EVENTS_TRAILER) ?? [];
  const checkpoints = values.get(CHECKPOINT_TRAILER) ?? [];
  if (attempts.length === 0 && ranges.length === 0 && checkpoints.length === 0) return null;
  if (attempts.length !== 1) return { ok: false, reason: `${attempts.length} ${ATTEMPT_TRAILER} trailers (one expected)` };
  if (ranges.length === 0) return { ok: false, reason: `no ${EVENTS_TRAILER} trailer` };
  if (checkpoints.length > 1) return { ok: false, reason: `${checkpoints.length} ${CHECKPOINT_TRAILER} trailers (at most one expected)` };
  const events: EventsRange[] = [];
  for (const raw of ranges) {
    const m = RANGE.exec(raw);
    if (!m) return { ok: false, reason: `malformed ${EVENTS_TRAILER}: ${JSON.stringify(raw)}` };
    events.push({ targetId: m[1]!.toLowerCase(), from: Number(m[2]), to: Number(m[3]) });
  }
  let checkpoint: AttemptTrailers['checkpoint'] = null;
  if (checkpoints[0] !== undefined) {
    const m = CHECKPOINT.exec(checkpoints[0]);
    if (!m) return { ok: false, reason: `malformed ${CHECKPOINT_TRAILER}: ${JSON.stringify(checkpoints[0])}` };
    checkpoint = { size: Number(m[1]), root: m[2]! };
  }
  const client = values.get(ASSISTED_BY_TRAILER)?.[0] ?? null;
  return { ok: true, trailers: { attemptId: attempts[0]!, events, checkpoint, client } };
}
