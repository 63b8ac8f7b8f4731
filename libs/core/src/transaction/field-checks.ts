import type { ProtocolVersion, TxFailure } from './transaction.types';

/** Largest span coordinate the seed admits (a signed 64-bit integer). */
export const MAX_SPAN_COORDINATE = 2n ** 63n - 1n;

export const CHANGE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function shapeFailure(
  format: ProtocolVersion | string,
  code: string,
  path: string,
  detail: string,
  failedChangeId: string | null = null,
): TxFailure {
  return {
    failure_reason: 'protocol_invalid',
    failure_detail: detail,
    failed_change_id: failedChangeId,
    validation_stage: 'PROTOCOL_VALIDATION',
    diagnostic: { code, path, format },
    prior_changes: 0,
    failing_buffer: '',
    location: null,
  };
}

/** Thrown only inside shape validation and caught at its entry point; never escapes the module pair. */
export class ShapeError extends Error {
  constructor(readonly failure: TxFailure) {
    super(failure.failure_detail);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key counts as supplied when it is an own property with a defined value (JSON has no undefined). */
export function supplied(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the non-integer number ${value}`;
  const kind = typeof value;
  return kind === 'object' || kind === 'undefined' ? `an ${kind}` : `a ${kind}`;
}

/** Reads the fields of one JSON object, throwing ShapeError with the field's full path on the first problem. */
export class FieldReader {
  constructor(
    readonly obj: Record<string, unknown>,
    readonly format: ProtocolVersion | string,
    readonly basePath: string,
    readonly changeId: string | null,
  ) {}

  path(key: string): string {
    return this.basePath ? `${this.basePath}.${key}` : key;
  }

  fail(code: string, key: string, detail: string): never {
    throw new ShapeError(shapeFailure(this.format, code, this.path(key), detail, this.changeId));
  }

  string(key: string, opts: { required: boolean; nonEmpty?: string; nullable?: boolean }): string | null {
    const path = this.path(key);
    if (!supplied(this.obj, key)) {
      if (opts.required) this.fail('missing_field', key, `${path} is required.`);
      return null;
    }
    const value = this.obj[key];
    if (value === null && opts.nullable) return null;
    if (typeof value !== 'string') {
      const expected = opts.nullable ? 'a string or null' : 'a string';
      this.fail('invalid_type', key, `${path} must be ${expected}; got ${describe(value)}.`);
    }
    if (opts.nonEmpty && value.length === 0) {
      this.fail(opts.nonEmpty, key, `${path} must not be an empty string${opts.nullable ? ' (omit it or pass null)' : ''}.`);
    }
    return value;
  }

  /** A non-boolean integer in [min, max]; values JavaScript cannot hold exactly are refused as well. */
  integer(key: string, opts: { required: boolean; min: number; max: bigint }): number | null {
    const path = this.path(key);
    if (!supplied(this.obj, key) || (!opts.required && this.obj[key] === null)) {
      if (opts.required) this.fail('missing_field', key, `${path} is required.`);
      return null;
    }
    const value = this.obj[key];
    const range = `an integer >= ${opts.min}${opts.required ? '' : ' or null'}`;
    if (typeof value !== 'number') this.fail('invalid_type', key, `${path} must be ${range}; got ${describe(value)}.`);
    if (!Number.isInteger(value)) this.fail('invalid_integer', key, `${path} must be ${range}; got ${describe(value)}.`);
    if (value < opts.min || BigInt(value) > opts.max) {
      this.fail('integer_out_of_range', key, `${path} must be between ${opts.min} and ${opts.max}; got ${value}.`);
    }
    if (!Number.isSafeInteger(value)) {
      this.fail(
        'unsafe_integer',
        key,
        `${path} is ${value}, above 2^53-1: such a value cannot be held exactly, and no target is that long.`,
      );
    }
    return value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | null {
    const value = this.string(key, { required: false, nullable: true });
    if (value !== null && !(allowed as readonly string[]).includes(value)) {
      this.fail('invalid_enum', key, `${this.path(key)} must be one of ${allowed.map((a) => `"${a}"`).join(', ')} or null.`);
    }
    return value as T | null;
  }

  changeIdField(): string | null {
    const value = this.string('change_id', { required: false, nullable: true });
    if (value !== null && !CHANGE_ID_PATTERN.test(value)) {
      this.fail(
        'invalid_change_id',
        'change_id',
        `${this.path('change_id')} must be 1 to 64 characters of letters, digits, "_" or "-".`,
      );
    }
    return value;
  }
}
