/** int8 (OID 20) and int8[] (OID 1016) arrive as text; both adapters turn them into safe JS numbers. */

export const INT8_OID = 20;
export const INT8_ARRAY_OID = 1016;

export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`int8 value ${text} is not a safe JavaScript integer`);
  }
  return value;
}

/** Maps parseInt8 over a (possibly nested) array already split by the driver's array parser. */
export function mapInt8Array(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mapInt8Array);
  if (value === null) return null;
  return parseInt8(String(value));
}
