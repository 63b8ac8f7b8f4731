import { targetStreamId, upcastTargetEvent } from '@palimpsest/core/target/target.events';
import { applyEffects } from '@palimpsest/core/transaction/text-effect';
import type { StoredEvent } from '@palimpsest/store/stored-event';

/** Code points of accepted intents kept per target, the most recent ones. */
export const SEARCH_INTENT_CHARS = 16_384;

/** One target's search document as the log makes it, up to `stream_version` of its stream. */
export interface SearchDocument {
  target_id: string;
  filename: string;
  path: string | null;
  intents: string;
  /** The whole current text (what the effects apply to); the index reads its first SEARCH_BODY_CHARS. */
  body: string;
  version: number;
  stream_version: number;
  /** The newest event that changed the document (text, name, path or intents), and when it was recorded. */
  last_position: number;
  updated_at: string;
}

const TARGET_PREFIX = targetStreamId('');

export const isTargetEvent = (e: StoredEvent) => e.streamId.startsWith(TARGET_PREFIX);

const SURROGATE = /[\uD800-\uDFFF]/;

/** The last `max` code points of `text` (without splitting the text into code points unless it has pairs). */
export function keepLast(text: string, max: number): string {
  if (text.length <= max) return text; // never more code points than UTF-16 units
  if (!SURROGATE.test(text)) return text.slice(text.length - max);
  const cps = Array.from(text);
  return cps.length <= max ? text : cps.slice(cps.length - max).join('');
}

/**
 * Fold one event of the target's stream, the next one after `doc.stream_version` (null before its
 * TargetInitialized). Texts change by the acceptance's effects, never by reading another model.
 */
export function foldSearchDocument(doc: SearchDocument | null, e: StoredEvent): SearchDocument | null {
  const event = upcastTargetEvent(e.type, e.schemaVersion, e.data, () => doc?.body ?? '');
  const touched = { stream_version: e.streamVersion, last_position: e.globalPosition, updated_at: e.recordedAt };
  if (event.type === 'TargetInitialized') {
    const d = event.data;
    return { target_id: d.target_id, filename: d.filename, path: null, intents: '', body: d.content, version: 0, ...touched };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'ProposalAccepted': {
      const intent = event.data.intent;
      const intents = typeof intent === 'string' && intent.trim() !== '' ? (doc.intents === '' ? intent : `${doc.intents}\n${intent}`) : doc.intents;
      return { ...doc, ...touched, body: applyEffects(doc.body, event.data.effects), version: event.data.after_version, intents: keepLast(intents, SEARCH_INTENT_CHARS) };
    }
    case 'WorkspaceFileBound':
    case 'WorkspaceFileRefreshed':
      return { ...doc, ...touched, path: event.data.path };
    default:
      return { ...doc, stream_version: e.streamVersion };
  }
}
