import type { TargetObservation } from '@palimpsest/core/candidate/candidate.commands';
import type { ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import { replayOperations } from '@palimpsest/core/candidate/target-record';
import { evolve } from '@palimpsest/core/target/target.decider';
import { targetStreamId, upcastTargetEvent } from '@palimpsest/core/target/target.events';
import { initialTargetState, textOf, type TargetState } from '@palimpsest/core/target/target.state';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import type { ContentCache } from '@palimpsest/projections/content/content-cache';
import { readTargetRow } from '@palimpsest/projections/content/target-row.queries';

/** Target texts a candidate needs: current ones from the row (and its cache), older ones from the stream. */

export async function observeTarget(sql: Sql, targetId: string, cache: ContentCache): Promise<TargetObservation | null> {
  const row = await readTargetRow(sql, targetId, cache);
  if (!row) return null;
  return { target_id: row.target_id, version: row.version, hash: row.current_hash, filename: row.filename, content_type: row.content_type, content: row.content };
}

/** The text of a target at `version`: the row when it is still there, else the stream folded up to it. */
export async function textAtVersion(sql: Sql, targetId: string, version: number, cache: ContentCache): Promise<string | null> {
  const row = await readTargetRow(sql, targetId, cache);
  if (!row) return null;
  if (row.version === version) return row.content;
  let state: TargetState = initialTargetState;
  for (const s of await readStream(sql, targetStreamId(targetId))) {
    if (state.exists && state.version === version) break;
    state = evolve(state, upcastTargetEvent(s.type, s.schemaVersion, s.data, () => textOf(state)));
  }
  return state.exists && state.version === version ? state.content : null;
}

export interface CandidateText {
  target_id: string;
  filename: string;
  content_type: string;
  base: string;
  text: string;
}

/** Base and candidate text of every target of the candidate, in the candidate's order. */
export async function candidateTexts(sql: Sql, state: ExistingCandidate, cache: ContentCache): Promise<CandidateText[]> {
  const out: CandidateText[] = [];
  for (const t of state.targets) {
    const base = await textAtVersion(sql, t.target_id, t.version, cache);
    const text = base === null ? null : replayOperations(base, t.operations);
    if (base === null || text === null || sha256Hex(text) !== t.result_hash) {
      throw new Error(`candidate ${state.candidate_id}: target ${t.target_id} does not reproduce its recorded text`);
    }
    out.push({ target_id: t.target_id, filename: t.filename, content_type: t.content_type, base, text });
  }
  return out;
}

/** The base text of each listed member of the candidate (what an extension builds on). */
export async function baseContents(sql: Sql, state: ExistingCandidate, ids: string[], cache: ContentCache): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of state.targets) {
    if (!ids.includes(t.target_id)) continue;
    const base = await textAtVersion(sql, t.target_id, t.version, cache);
    if (base !== null) out[t.target_id] = base;
  }
  return out;
}
