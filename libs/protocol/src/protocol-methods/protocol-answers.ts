import { admit } from '../admission';
import { CATALOG } from '../catalog/catalog';
import type { JsonSchema } from '../catalog/operation-spec';
import { DEFAULT_MAX_DEPTH } from '../codec/strict-json';
import { MAX_FRAME_BYTES, MAX_RESPONSE_BYTES } from '../codec/json-rpc.constants';
import { MAX_ID_UTF8_BYTES } from '../codec/request-id';
import { MAX_RESULT_BYTES } from '../result-bytes';
import { clientSourceFiles } from '../publish/client-sources';
import { protocolInstructions, type Capability } from './protocol-instructions';
import { PROTOCOL_METHODS, PROTOCOL_RESULT_SCHEMA, PROTOCOL_VERSION, findProtocolMethod, type ClientLanguage, type ProtocolMethodName } from './protocol-methods';
import { protocolSchemas } from './protocol-schemas';
import { queryCatalog } from './query-catalog';
import { byName } from './wire-methods';
import { WORKSPACE_METHODS } from './workspace-methods';

/** What a protocol method reads of its session: the profile, its capability, and which operations it serves. */
export interface ProtocolSession {
  profile: string;
  capability: Capability;
  serves(operation: string): boolean;
}

/** The framing and answer limits a client must keep to (protocol/capabilities). */
export const PROTOCOL_LIMITS = {
  max_frame_bytes: MAX_FRAME_BYTES,
  max_response_bytes: MAX_RESPONSE_BYTES,
  max_result_bytes: MAX_RESULT_BYTES,
  max_id_utf8_bytes: MAX_ID_UTF8_BYTES,
  max_nesting_depth: DEFAULT_MAX_DEPTH,
} as const;

/** Every method the session serves, sorted: the protocol's own, the catalog operations its profile allows, and the workspace methods of those. */
export function servedMethods(session: ProtocolSession): string[] {
  const workspace = Object.entries(WORKSPACE_METHODS).filter(([, op]) => session.serves(op)).map(([alias]) => alias);
  return [...PROTOCOL_METHODS.map((m) => m.name), ...CATALOG.filter((op) => session.serves(op.name)).map((op) => op.name), ...workspace].sort(byName);
}

const envelope = (payload: Record<string, unknown>) => ({ status: 'ok' as const, schema: PROTOCOL_RESULT_SCHEMA, protocol: PROTOCOL_VERSION, payload });

function payloadOf(name: ProtocolMethodName, args: Record<string, unknown>, session: ProtocolSession): Record<string, unknown> {
  switch (name) {
    case 'protocol/capabilities':
      return { capability: session.capability, profile: session.profile, methods: servedMethods(session), limits: PROTOCOL_LIMITS };
    case 'protocol/schemas':
      return protocolSchemas();
    case 'protocol/instructions':
      return { profile: session.profile, capability: session.capability, instructions: protocolInstructions(servedMethods(session), session.capability) };
    case 'protocol/client':
      return { language: args.language, files: clientSourceFiles(args.language as ClientLanguage) };
    case 'query/catalog':
      return { queries: queryCatalog((op) => session.serves(op)) };
  }
}

/** A value outside an enum (protocol/client's language) is answered with the values there are: the next step. */
function withAllowedValues(params: JsonSchema, refused: Record<string, unknown>): Record<string, unknown> {
  const schema = typeof refused.argument === 'string' ? ((params.properties ?? {}) as Record<string, JsonSchema>)[refused.argument] : undefined;
  if (refused.code !== 'invalid_argument_value' || !Array.isArray(schema?.enum)) return refused;
  return { ...refused, failure_detail: `${String(refused.argument)} must be one of ${schema.enum.join(', ')}.` };
}

/**
 * The answer of a protocol method: its params admitted against its schema first (an unknown language
 * is invalid_argument_value, answered -32602), then the envelope (schema, protocol, payload).
 */
export function answerProtocolMethod(name: string, args: unknown, session: ProtocolSession): Record<string, unknown> | null {
  const spec = findProtocolMethod(name);
  if (!spec) return null;
  const refused = admit(spec, args ?? {});
  if (refused) return withAllowedValues(spec.params, { ...refused });
  return envelope(payloadOf(spec.name, args as Record<string, unknown>, session));
}
