import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { findTextDefect, TEXT_DEFECT_WORDS } from '@palimpsest/core/text/encoding';
import type { OperationSpec } from './catalog/operation-spec';

export const INVALID_TEXT_ENCODING = 'invalid_text_encoding';

/**
 * The one classification of argument text that PostgreSQL cannot hold (U+0000, unpaired surrogates;
 * noncharacters are valid text and pass). Every transport reaches it through dispatch → admit.
 *
 * - Fields admission owns (every field of a 'schema' operation, the edge fields of an 'audited' one):
 *   refused here as invalid_argument / invalid_text_encoding naming the field. That covers read and
 *   search text, filters, identifiers, filenames and candidate operations (seed: invalid read and
 *   search text is invalid_argument without an edit-attempt row).
 * - Every other field of an audited operation is the decider's, which answers a known target with a
 *   recorded rejection: target_encoding_invalid for edit text and metadata (ASCII-escaped evidence),
 *   invalid_client_request_id for the request key, the guard and lineage syntax codes otherwise.
 *   No such string reaches SQL: the decider stores only escaped evidence and well-formed values.
 */
export function ownedByAdmission(spec: OperationSpec, field: string): boolean {
  return spec.admission === 'schema' || (spec.edgeFields ?? []).includes(field);
}

export function admitText(spec: OperationSpec, args: Record<string, unknown>): InvalidArgument | null {
  const owned = Object.fromEntries(Object.entries(args).filter(([field]) => ownedByAdmission(spec, field)));
  const found = findTextDefect(owned);
  if (!found) return null;
  // Dotted like the schema refusals' paths (edits.0.match), so transports read both the same way.
  const path = found.path.replace(/^\$\.?/, '').replace(/\[(\d+)\]/g, '.$1');
  const message = `is not valid UTF-8 text: it ${TEXT_DEFECT_WORDS[found.defect]}`;
  return {
    status: 'invalid_argument',
    code: INVALID_TEXT_ENCODING,
    tool: spec.name,
    argument: path.split('.')[0],
    failure_detail: `${path} ${message}.`,
    errors: [{ path, message }],
  };
}
