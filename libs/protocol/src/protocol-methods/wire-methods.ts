import { ANSWER_SCHEMAS } from '../catalog/answer-schemas';
import { CATALOG, isOperationName } from '../catalog/catalog';
import { servedReadOnly, type JsonSchema, type OperationSpec } from '../catalog/operation-spec';
import { statusesOf } from '../catalog/refusal-schema';
import { PROTOCOL_METHODS } from './protocol-methods';
import { workspaceMethodOperations } from './workspace-methods';

/**
 * Every method of `palimpsest serve` as a generated client needs it: the protocol's own methods and
 * every catalog operation, in sorted name order. Derived from the two tables each time; nothing here is
 * kept by hand, so an operation added to the catalog is a method of every client once generated.
 */
export interface WireMethod {
  name: string;
  kind: 'protocol' | 'operation';
  /** Served by the read-only profile (wholly, or the part its handler allows). */
  readOnly: boolean;
  params: JsonSchema;
  /** Argument names: the ones a call must send, and every one it may send. */
  required: string[];
  allowed: string[];
  /** Every status the method answers with, and those that mean it did what was asked. */
  statuses: string[];
  success: string[];
}

/** The statuses a success schema answers with: `status` const or enum, in any branch of oneOf/anyOf/allOf. */
export function successStatuses(schema: JsonSchema): string[] {
  const found = new Set<string>(statusesOf(schema));
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches as JsonSchema[]) successStatuses(b).forEach((s) => found.add(s));
  }
  return [...found];
}

function describe(op: OperationSpec, kind: WireMethod['kind']): WireMethod {
  const statuses = statusesOf(op.result);
  const answer = kind === 'operation' && isOperationName(op.name) ? ANSWER_SCHEMAS[op.name] : null;
  const success = answer ? successStatuses(answer).filter((s) => statuses.includes(s)) : ['ok'];
  return {
    name: op.name,
    kind,
    readOnly: servedReadOnly(op),
    params: op.params,
    required: [...((op.params.required as string[] | undefined) ?? [])],
    allowed: Object.keys((op.params.properties as object | undefined) ?? {}),
    statuses,
    success,
  };
}

/** Code-unit order, the same in every language a client is generated in. */
export const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function wireMethods(): WireMethod[] {
  return [
    ...PROTOCOL_METHODS.map((m) => describe(m, 'protocol')),
    ...CATALOG.map((op) => describe(op, 'operation')),
    // workspace/open and workspace/status: the operations that answer them, under the image protocol's names.
    ...workspaceMethodOperations().map(([alias, op]) => ({ ...describe(op, 'operation'), name: alias })),
  ].sort((a, b) => byName(a.name, b.name));
}
