/** A plain JSON object (not null, not an array): the shape every answer and argument record has. */
export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
