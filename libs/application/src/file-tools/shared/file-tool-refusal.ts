import type { Refusal } from '@palimpsest/protocol/refusal';

/** A file tool's answer other than its success: a recorded or unrecorded rejection, a partial write, a refused argument or path. */
export type FileToolRefusal = Refusal<'rejected' | 'partial' | 'not_found' | 'invalid_argument'>;
