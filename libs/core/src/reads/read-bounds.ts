import { Checked, invalidArgument, ok, refuse } from '../errors/invalid-argument';

/** Seed bounds table: authoritative reads and exact search (code points / counts). */
export const READ_BOUNDS = {
  defaultChars: 4000,
  maxChars: 8000,
  defaultContextChars: 40,
  maxContextChars: 400,
  maxResults: 200,
} as const;

export interface IntegerArgSpec {
  argument: string;
  code: string;
  min: number;
  fallback: number;
  /** Whether an explicit null means "use the default" (true) or is refused (false). */
  nullIsDefault?: boolean;
}

/**
 * An optional integer argument: omitted (and, unless disallowed, null) takes the default;
 * anything that is not an integer >= min refuses with the spec's code. Upper caps are the caller's.
 */
export function integerArg(value: number | null | undefined, spec: IntegerArgSpec): Checked<number> {
  if (value === undefined || (value === null && spec.nullIsDefault !== false)) return ok(spec.fallback);
  if (value === null || !Number.isInteger(value) || value < spec.min) {
    const detail = `${spec.argument} must be an integer >= ${spec.min}; got ${String(value)}.`;
    return refuse(invalidArgument(spec.code, detail, { argument: spec.argument }));
  }
  return ok(value);
}
