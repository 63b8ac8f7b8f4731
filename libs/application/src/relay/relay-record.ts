import { createHash } from 'node:crypto';
import type { Outcome } from '@palimpsest/protocol/outcome';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readStream } from '@palimpsest/store/read-stream';
import type { AppContext } from '../app-context';

/**
 * A relayed call on the gateway's record: one stream per idempotency key, `relay-call-<sha256(key)>`.
 * RelayCallSent is appended before the tool.call leaves (which executor, which project, what was asked);
 * RelayCallAnswered when its tool.result came back (the answer as the caller got it). A sent call without
 * an answer is in doubt: the same request id is sent again, and the executor answers from its own record.
 */
export const RELAY_CALL_SENT = 'RelayCallSent';
export const RELAY_CALL_ANSWERED = 'RelayCallAnswered';

export interface RelayCallSent {
  key: string;
  request_id: string;
  project_id: string;
  device_id: string;
  tool: string;
  /** SHA-256 of the tool and its arguments as canonical JSON: a resent key must ask the same thing. */
  request_sha256: string;
  arguments: Record<string, unknown>;
  correlation_id: string | null;
  client: string | null;
  issued_at: string;
  expires_at: string;
}

export interface RelayCallAnswered {
  request_id: string;
  /** The executor's verdict: ok (the tool answered, whatever its status) or the relay error code it sent. */
  result: 'ok' | string;
  status: string;
  duration_ms: number;
  answer: Outcome;
  answered_at: string;
}

export interface RelayCallState {
  sent: RelayCallSent | null;
  answered: RelayCallAnswered | null;
  version: number;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export const relayStreamId = (key: string) => `relay-call-${sha256(key).slice(0, 40)}`;
/** The request id of a key's tool.call: the same on every send, so an executor recognises a call it has seen. */
export const relayRequestId = (key: string) => `rq_${sha256(`request\0${key}`).slice(0, 40)}`;

/** Canonical JSON (keys sorted) of what a call asks. */
export function requestDigest(tool: string, projectId: string, args: Record<string, unknown>): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return sha256(JSON.stringify([tool, projectId, canonical(args)]));
}

export async function loadRelayCall(ctx: AppContext, key: string): Promise<RelayCallState> {
  const events = await readStream(ctx.db, relayStreamId(key));
  const state: RelayCallState = { sent: null, answered: null, version: events.length };
  for (const e of events) {
    if (e.type === RELAY_CALL_SENT) state.sent = e.data as RelayCallSent;
    if (e.type === RELAY_CALL_ANSWERED) state.answered = e.data as RelayCallAnswered;
  }
  return state;
}

const metadata = (sent: RelayCallSent) => ({ correlation_id: sent.correlation_id, client: sent.client });

/** Appends RelayCallSent as the stream's first event; false when another caller with the key got there first. */
export async function recordSent(ctx: AppContext, sent: RelayCallSent): Promise<boolean> {
  try {
    await ctx.store.append(relayStreamId(sent.key), 0, [{ type: RELAY_CALL_SENT, schemaVersion: 1, data: sent, metadata: metadata(sent), recordedAt: sent.issued_at }]);
    return true;
  } catch (error) {
    if (error instanceof StreamVersionConflictError) return false;
    throw error;
  }
}

/**
 * Appends RelayCallSent and RelayCallAnswered together, for a call whose sent event was not written before
 * it ran (an executor's call whose tool leaves a record of its own); false when the key is on the record already.
 */
export async function recordSentAndAnswered(ctx: AppContext, sent: RelayCallSent, answered: RelayCallAnswered): Promise<boolean> {
  try {
    await ctx.store.append(relayStreamId(sent.key), 0, [
      { type: RELAY_CALL_SENT, schemaVersion: 1, data: sent, metadata: metadata(sent), recordedAt: sent.issued_at },
      { type: RELAY_CALL_ANSWERED, schemaVersion: 1, data: answered, metadata: metadata(sent), recordedAt: answered.answered_at },
    ]);
    return true;
  } catch (error) {
    if (error instanceof StreamVersionConflictError) return false;
    throw error;
  }
}

/** Appends RelayCallAnswered after the sent event; false when the answer was recorded already. */
export async function recordAnswered(ctx: AppContext, sent: RelayCallSent, answered: RelayCallAnswered): Promise<boolean> {
  try {
    await ctx.store.append(relayStreamId(sent.key), 1, [{ type: RELAY_CALL_ANSWERED, schemaVersion: 1, data: answered, metadata: metadata(sent), recordedAt: answered.answered_at }]);
    return true;
  } catch (error) {
    if (error instanceof StreamVersionConflictError) return false;
    throw error;
  }
}
