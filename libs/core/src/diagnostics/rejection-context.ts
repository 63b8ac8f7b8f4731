import { CodePointIndex } from '../text/code-points';
import { asciiJson } from '../transaction/record-codec';

/**
 * Bounded rejection context (seed: "Bounded rejection context"). failure_context is immutable and
 * stored with the rejection; current_context is response-only and always a prefix of the canonical
 * target. Sizes are compact ASCII-escaped JSON bytes.
 */
export const CONTEXT_MAX_CHARS = 256;
export const CONTEXT_MIN_VISIBLE = 64;
export const CONTEXT_MAX_BYTES = 4_096;
export const CONTEXTS_MAX_BYTES = 8_192;

export type BufferStage = 'canonical_target' | 'intermediate_buffer';
export type UnavailableReason = 'invalid_target_id' | 'target_not_found' | 'unlocked_local_state' | 'same_as_failure_context';

export interface AvailableContext {
  available: true;
  unavailable_reason: null;
  selection: 'prefix' | 'failure_window';
  buffer_stage: BufferStage;
  prior_changes: number;
  start: number;
  end: number;
  total_chars: number;
  text: string;
  truncated: boolean;
  observed_target_version: number;
  observed_target_hash: string;
}

export interface UnavailableContext {
  available: false;
  unavailable_reason: UnavailableReason;
  selection: null;
  buffer_stage: null;
  prior_changes: null;
  start: null;
  end: null;
  total_chars: null;
  text: null;
  truncated: null;
  observed_target_version: null;
  observed_target_hash: null;
}

export type RejectionContext = AvailableContext | UnavailableContext;

export interface ContextInput {
  buffer: string;
  priorChanges: number;
  /** Known failure location in the buffer (code points), or null. */
  location: number | null;
  observedVersion: number;
  observedHash: string;
}

export function unavailableContext(reason: UnavailableReason): UnavailableContext {
  return {
    available: false,
    unavailable_reason: reason,
    selection: null,
    buffer_stage: null,
    prior_changes: null,
    start: null,
    end: null,
    total_chars: null,
    text: null,
    truncated: null,
    observed_target_version: null,
    observed_target_hash: null,
  };
}

function build(index: CodePointIndex, input: ContextInput, selection: AvailableContext['selection'], start: number, end: number): AvailableContext {
  return {
    available: true,
    unavailable_reason: null,
    selection,
    buffer_stage: input.priorChanges > 0 ? 'intermediate_buffer' : 'canonical_target',
    prior_changes: input.priorChanges,
    start,
    end,
    total_chars: index.length,
    text: index.slice(start, end),
    truncated: end - start < index.length,
    observed_target_version: input.observedVersion,
    observed_target_hash: input.observedHash,
  };
}

/** Shrink the text (never the identity) until the object fits; a window keeps the location inside. */
function fit(index: CodePointIndex, input: ContextInput, ctx: AvailableContext, maxBytes: number): AvailableContext {
  let { start, end } = ctx;
  let current = ctx;
  while (asciiJson(current).length > maxBytes && end > start) {
    const loc = ctx.selection === 'failure_window' && input.location !== null ? input.location : start;
    if (end - loc >= loc - start) end--;
    else start++;
    current = build(index, input, ctx.selection, start, end);
  }
  return current;
}

/** The prefix, or a window around the location when fewer than 64 code points of it would show. */
export function failureContext(input: ContextInput, maxBytes = CONTEXT_MAX_BYTES): AvailableContext {
  const index = new CodePointIndex(input.buffer);
  const prefixEnd = Math.min(index.length, CONTEXT_MAX_CHARS);
  const loc = input.location;
  const hidden = loc !== null && prefixEnd < index.length && prefixEnd - loc < CONTEXT_MIN_VISIBLE;
  if (!hidden || loc === null) return fit(index, input, build(index, input, 'prefix', 0, prefixEnd), maxBytes);
  const start = Math.max(0, Math.min(loc - CONTEXT_MAX_CHARS / 2, index.length - CONTEXT_MAX_CHARS));
  const end = Math.min(index.length, start + CONTEXT_MAX_CHARS);
  return fit(index, input, build(index, input, 'failure_window', start, end), maxBytes);
}

/** current_context: the refreshed canonical target as a prefix. */
export function currentContext(content: string, version: number, hash: string, maxBytes = CONTEXT_MAX_BYTES): AvailableContext {
  return failureContext({ buffer: content, priorChanges: 0, location: null, observedVersion: version, observedHash: hash }, maxBytes);
}

/** Key-for-key equality with the stored failure context makes the response point there instead. */
export function presentCurrentContext(current: AvailableContext, failure: unknown): RejectionContext {
  return JSON.stringify(current) === JSON.stringify(failure) ? unavailableContext('same_as_failure_context') : current;
}

/** The combined enrichment stays within 8,192 bytes: shrink current_context first, it is response-only. */
export function boundContexts(failure: RejectionContext | undefined, current: RejectionContext): RejectionContext {
  if (!current.available) return current;
  const size = () => asciiJson({ failure_context: failure ?? null, current_context: current }).length;
  if (size() <= CONTEXTS_MAX_BYTES) return current;
  const room = CONTEXTS_MAX_BYTES - asciiJson({ failure_context: failure ?? null, current_context: null }).length;
  const index = new CodePointIndex(current.text);
  let end = index.length;
  let shrunk: AvailableContext = current;
  while (end > 0 && asciiJson(shrunk).length > room) {
    end--;
    shrunk = { ...current, end: current.start + end, text: index.slice(0, end), truncated: true };
  }
  return shrunk;
}
