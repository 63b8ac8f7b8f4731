import { ownedByAdmission } from '@palimpsest/protocol/text-admission';
import { isEnvelopeOperation } from '../candidates/shared/envelope';
import type { HostileCase, HostileKind } from './hostile-text-calls';

/**
 * What a hostile call must answer, transport aside. Text PostgreSQL cannot hold (NUL, lone surrogates)
 * is classified by field; noncharacters are valid text, so only the fields with a syntax of their own
 * refuse them. Nothing is ever an internal error.
 */

type Answer = Record<string, any>;

/** The decider's syntax rules for the audited fields that are not text (seed codes). */
const DECIDER_SYNTAX: Record<string, string> = {
  client_request_id: 'invalid_client_request_id',
  parent_attempt_id: 'invalid_parent_attempt_id',
  expected_current_hash: 'invalid_expected_current_hash',
};

const UNSTORABLE_CODES = new Set(['target_encoding_invalid', 'invalid_text_encoding']);

/** Does this answer (as a transport delivered it) say the server failed? */
export function internalProblem(answer: Answer): string | null {
  if (answer.status === 'internal' || (answer.status === 'error' && answer.error?.code === 'internal')) return 'internal error';
  if (/invalid byte sequence|unsupported Unicode escape/i.test(JSON.stringify(answer))) return 'a PostgreSQL error leaked';
  return null;
}

export interface Verdict {
  ok: boolean;
  why: string;
}

const pass: Verdict = { ok: true, why: '' };
const fail = (why: string): Verdict => ({ ok: false, why });

function documentedStatus(c: HostileCase, answer: Answer): Verdict {
  const status = (c.op.result.properties as Record<string, { enum?: string[] }> | undefined)?.status;
  const statuses = status?.enum ?? [];
  return statuses.includes(answer.status) ? pass : fail(`status ${answer.status} is not one of ${statuses.join(', ')}`);
}

const codeOf = (a: Answer): string | undefined => a.code ?? a.error?.reason ?? a.diagnostic?.code;

function expectRejection(answer: Answer, reason: string, code: string): Verdict {
  if (answer.status !== 'rejected' || answer.failure_reason !== reason || answer.diagnostic?.code !== code) {
    return fail(`expected rejected ${reason}/${code}, got ${answer.status} ${answer.failure_reason ?? answer.code} ${answer.diagnostic?.code ?? ''}`);
  }
  return pass;
}

function expectRefusal(c: HostileCase, answer: Answer): Verdict {
  if (isEnvelopeOperation(c.op.name)) {
    return answer.status === 'error' && answer.error?.code === 'invalid_arguments'
      ? pass
      : fail(`expected error invalid_arguments, got ${answer.status} ${answer.error?.code}`);
  }
  return answer.status === 'invalid_argument' ? pass : fail(`expected invalid_argument, got ${answer.status} ${codeOf(answer) ?? ''}`);
}

/** Would this field's syntax (schema pattern, enum, const) refuse any non-ASCII character? */
function syntaxRefusesNonAscii(c: HostileCase): boolean {
  const field = String(c.slot.path[c.slot.path.length - 1]);
  return ['target_file_id', 'candidate', 'project_id', 'request_id', 'handle', 'op', 'kind', 'risk', 'format', 'status', 'include'].includes(field);
}

/** Only what holds whatever text arrived: no internal error, a status the operation documents. */
export function judgeDelivery(c: HostileCase, answer: Answer): Verdict {
  const internal = internalProblem(answer);
  return internal ? fail(internal) : documentedStatus(c, answer);
}

export function judge(c: HostileCase, kind: HostileKind, answer: Answer): Verdict {
  const delivered = judgeDelivery(c, answer);
  if (!delivered.ok) return delivered;
  const top = String(c.slot.path[0]);
  const admissionField = ownedByAdmission(c.op, top);
  if (kind === 'noncharacter') {
    if (admissionField && syntaxRefusesNonAscii(c)) return expectRefusal(c, answer);
    if (!admissionField && DECIDER_SYNTAX[top]) return expectRejection(answer, 'context_invalid', DECIDER_SYNTAX[top]);
    const code = codeOf(answer);
    const unstorable = UNSTORABLE_CODES.has(String(code)) || UNSTORABLE_CODES.has(String(answer.failure_reason));
    return unstorable ? fail(`a noncharacter is valid text, got ${code}`) : pass;
  }
  if (admissionField) return expectRefusal(c, answer);
  if (DECIDER_SYNTAX[top]) return expectRejection(answer, 'context_invalid', DECIDER_SYNTAX[top]);
  return expectRejection(answer, 'target_encoding_invalid', 'target_encoding_invalid');
}

/** Submissions record their rejections; preview and save record nothing. */
export const recordsAttempt = (c: HostileCase, kind: HostileKind, answer: Answer): boolean =>
  kind !== 'noncharacter' && answer.status === 'rejected' && c.op.name.startsWith('palimpsest_submit_');
