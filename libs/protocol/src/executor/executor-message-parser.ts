import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { parseStrictJson, StrictJsonError } from '../codec/strict-json';
import type { JsonSchema } from '../catalog/operation-spec';
import { EXECUTOR_MESSAGE_SCHEMA } from './executor-message.schema';
import type { ExecutorMessage, RelayMessage } from './executor-messages';
import { EXECUTOR_MAX_MESSAGE_BYTES } from './executor-protocol';
import { RELAY_MESSAGE_SCHEMA } from './relay-message.schema';

/** Why a message was refused: not a JSON text, more than EXECUTOR_MAX_MESSAGE_BYTES, or not what the schema allows. */
export type LinkRefusalReason = 'not_json' | 'too_large' | 'schema_violation';

export interface LinkRefusal {
  ok: false;
  reason: LinkRefusalReason;
  /** JSON Pointer to the failing value (schema_violation; "" is the whole message), else null. */
  path: string | null;
  message: string;
}

export type LinkParse<T> = { ok: true; message: T } | LinkRefusal;

// allErrors: a nested oneOf (a tool result's ok/error) is explained by the branch its discriminator picks.
const ajv = new Ajv2020({ strict: true, allErrors: true });

/** One schema compiled once, and each of its oneOf branches addressable by the `type` it carries. */
class MessageSchema<T> {
  private readonly whole: ValidateFunction;
  private readonly byType = new Map<string, ValidateFunction>();

  constructor(schema: JsonSchema) {
    ajv.addSchema(schema);
    const id = String(schema.$id);
    this.whole = ajv.getSchema(id)!;
    (schema.oneOf as JsonSchema[]).forEach((branch, i) => {
      const type = ((branch.properties as Record<string, JsonSchema>).type as { const: string }).const;
      this.byType.set(type, ajv.getSchema(`${id}#/oneOf/${i}`)!);
    });
  }

  get types(): string[] {
    return [...this.byType.keys()];
  }

  parse(text: string): LinkParse<T> {
    // A UTF-16 code unit is at least one UTF-8 byte, so the cheap length check settles most cases.
    if (text.length > EXECUTOR_MAX_MESSAGE_BYTES || Buffer.byteLength(text, 'utf8') > EXECUTOR_MAX_MESSAGE_BYTES) {
      return refuse('too_large', null, `the message is larger than ${EXECUTOR_MAX_MESSAGE_BYTES} bytes`);
    }
    let value: unknown;
    try {
      value = parseStrictJson(text);
    } catch (error) {
      if (!(error instanceof StrictJsonError)) throw error;
      return refuse('not_json', null, `not a JSON text: ${error.message}`);
    }
    if (this.whole(value)) return { ok: true, message: value as T };
    return this.explain(value);
  }

  /** The branch the message's `type` names says what is wrong; without one, `type` itself is. */
  private explain(value: unknown): LinkRefusal {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('schema_violation', '', 'must be an object');
    const type = (value as { type?: unknown }).type;
    const branch = typeof type === 'string' ? this.byType.get(type) : undefined;
    if (!branch || branch(value)) return refuse('schema_violation', '/type', `must be one of ${this.types.join(', ')}`);
    const first = relevant(branch.errors!);
    return refuse('schema_violation', pathOf(first), first.message ?? 'is invalid');
  }
}

/**
 * The error to report: not one from a oneOf branch whose `const` discriminator the value does not
 * carry (that branch was never meant), and not the oneOf summary when a branch says more.
 */
function relevant(errors: ErrorObject[]): ErrorObject {
  const offBranches = errors.filter((e) => e.keyword === 'const').map((e) => e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/properties/') + 1));
  const meant = errors.filter((e) => e.keyword !== 'oneOf' && !offBranches.some((p) => p && e.schemaPath.startsWith(p) && /\/oneOf\/\d+\/$/.test(p)));
  return meant[0] ?? errors[0]!;
}

function pathOf(e: ErrorObject): string {
  const p = e.params as { missingProperty?: string; additionalProperty?: string };
  const child = p.missingProperty ?? p.additionalProperty;
  return child === undefined ? e.instancePath : `${e.instancePath}/${child.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function refuse(reason: LinkRefusalReason, path: string | null, message: string): LinkRefusal {
  return { ok: false, reason, path, message };
}

const executorMessages = new MessageSchema<ExecutorMessage>(EXECUTOR_MESSAGE_SCHEMA);
const relayMessages = new MessageSchema<RelayMessage>(RELAY_MESSAGE_SCHEMA);

/** A message an executor sent the gateway, or why it is refused. */
export function parseExecutorMessage(text: string): LinkParse<ExecutorMessage> {
  return executorMessages.parse(text);
}

/** A message the gateway sent an executor, or why it is refused. */
export function parseRelayMessage(text: string): LinkParse<RelayMessage> {
  return relayMessages.parse(text);
}

/** One line for logs and close reasons: `schema_violation at /projects/0: must have required property 'slug'`. */
export function describeRefusal(refusal: LinkRefusal): string {
  return `${refusal.reason}${refusal.path === null ? '' : ` at ${refusal.path || '(message)'}`}: ${refusal.message}`;
}
