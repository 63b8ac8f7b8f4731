/** A JSON Schema (draft 2020-12) object, kept as plain data so it can be published as-is. */
export type JsonSchema = Record<string, unknown>;

/**
 * What an example's fresh target needs first (observed-examples.ts): EXAMPLE_DOCUMENT, a Markdown text with
 * structure, and nothing more, or with one scope of it observed, or a bundle.
 */
export type ObservedSetup = 'document' | 'observed_document' | 'observed_bundle';

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
  /**
   * A write operation whose other calls only read: the read-only profile lists and serves it, and its
   * handler refuses the calls that would record (operation_not_permitted). Names the part it serves.
   */
  readOnlyPart?: string;
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
  /**
   * How many of the examples tools/list advertises (default 1): one per form of a tool with two, none
   * for a read whose few parameters teach themselves (the reference and the OpenAPI document keep them).
   */
  advertisedExamples?: number;
}

/** Whether a read-only session lists and serves the operation (wholly, or the part its handler allows). */
export function servedReadOnly(op: Pick<OperationSpec, 'readOnly' | 'readOnlyPart'>): boolean {
  return op.readOnly || op.readOnlyPart !== undefined;
}

/** Declares one operation, keeping its name as a literal type: the catalog's names become a union. */
export function defineOperation<const N extends string>(spec: OperationSpec<N>): OperationSpec<N> {
  return spec;
}
