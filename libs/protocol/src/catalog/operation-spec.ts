/** A JSON Schema (draft 2020-12) object, kept as plain data so it can be published as-is. */
export type JsonSchema = Record<string, unknown>;

/** What an observed example's fresh target needs first (observed-examples.ts): one scope observed, or a bundle. */
export type ObservedSetup = 'observed_document' | 'observed_bundle';

export interface OperationExample {
  title: string;
  params: Record<string, unknown>;
  /** What the fresh target needs first (observed-examples.ts); absent: it holds EXAMPLE_TEXT at version 0. */
  setup?: ObservedSetup;
}

/**
 * One operation's whole contract. The catalog of these drives argument admission, dispatch,
 * the CLI, published schemas and generated docs: nothing restates it elsewhere.
 */
export interface OperationSpec<N extends string = string> {
  name: N;
  title: string;
  description: string;
  readOnly: boolean;
  params: JsonSchema;
  /**
   * 'schema': the whole params schema is enforced before the handler runs.
   * 'audited': only argument names and `edgeFields` are enforced at the edge; everything else reaches
   * the decider, which records a rejected attempt for a known target (seed: audited rejections).
   */
  admission: 'schema' | 'audited';
  edgeFields?: string[];
  result: JsonSchema;
  errors: string[];
  /** What a host reads of the runtime behind the operation (tools/list's x-palimpsest-capabilities), from its constants. */
  capabilities?: Record<string, unknown>;
  examples: OperationExample[];
  /** How many of the examples tools/list advertises (default 1): one per form of a tool with two. */
  advertisedExamples?: number;
}

/** Declares one operation, keeping its name as a literal type: the catalog's names become a union. */
export function defineOperation<const N extends string>(spec: OperationSpec<N>): OperationSpec<N> {
  return spec;
}
