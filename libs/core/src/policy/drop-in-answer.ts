import type { CatalogOperation } from '../errors/error-model';
import { isRecord } from '../shared/is-record';
import { OP } from '../errors/operation-names.generated';

/**
 * The error codes an agent written against the drop-in file tools knows (`read_file`, `list_files`,
 * `grep`, `edit_file`, `write_file`): a refusal of one of those tools names one of them in `answer`,
 * beside our finer `code`, so the agent can branch on the code it was written for.
 */
export const DROP_IN_TOOLS: readonly string[] = Object.freeze([OP.read_file, OP.list_files, OP.grep, OP.edit_file, OP.write_file, OP.run_command, OP.start_command, OP.get_command_output, OP.send_command_input, OP.kill_command] satisfies CatalogOperation[]);

export const DROP_IN_CODES = [
  'TOOL_TIMEOUT', 'CANCELLED', 'PATH_ESCAPE', 'PATH_NOT_FOUND', 'TOOL_FAILED', 'INVALID_ARGUMENTS',
  'FORBIDDEN', 'APPROVAL_DECLINED', 'APPROVAL_TIMEOUT', 'INTERNAL_ERROR',
  'LOCAL_EXECUTOR_OFFLINE', 'UNKNOWN_PROJECT', 'NO_ACTIVE_PROJECT', 'UNKNOWN_TOOL',
] as const;
export type DropInCode = (typeof DROP_IN_CODES)[number];

/** Our finer codes that are a fault in what the caller sent: fix the arguments and send again. */
const ARGUMENT_FAULTS = new Set([
  'missing_argument', 'unknown_argument', 'invalid_argument_value', 'invalid_argument', 'INVALID_ARGUMENTS',
  'PATH_INVALID', 'PATH_TOO_LONG', 'PATH_NOT_A_FILE', 'PATH_SYMLINK', 'invalid_text_encoding',
]);

const isDropInCode = (v: unknown): v is DropInCode => (DROP_IN_CODES as readonly string[]).includes(v as string);

/** The drop-in code of a non-ok answer, from its status and our code. */
export function dropInCode(status: string, code: unknown): DropInCode {
  if (isDropInCode(code)) return code;
  if (code === 'PATH_RESERVED' || code === 'operation_not_permitted' || code === 'permission_denied') return 'FORBIDDEN';
  if (status === 'not_found') return 'PATH_NOT_FOUND';
  if (status === 'invalid_argument' && typeof code === 'string' && ARGUMENT_FAULTS.has(code)) return 'INVALID_ARGUMENTS';
  if (status === 'error') return 'INTERNAL_ERROR';
  return 'TOOL_FAILED';
}

/** What withDropInAnswer reads of an answer: its status and code, the drop-in code it may name, the envelope a policy's refusal comes in. */
export interface DropInCandidate {
  status: string;
  code?: string;
  answer?: DropInCode;
  error?: { code: string; details?: unknown };
}

/**
 * A drop-in tool's answer with `answer` set when it is a refusal; an answer that already names one
 * (an approval declined, a policy's FORBIDDEN) keeps it, and a tool outside the drop-ins is unchanged.
 */
export function withDropInAnswer<A extends DropInCandidate>(tool: string, a: A): A & { answer?: DropInCode } {
  if (!DROP_IN_TOOLS.includes(tool) || a.status === 'ok' || isDropInCode(a.answer)) return a;
  const envelope = isRecord(a.error) ? a.error : null; // a policy's refusal comes in the candidates' envelope
  const named = envelope && isRecord(envelope.details) ? envelope.details.answer : undefined;
  return { ...a, answer: isDropInCode(named) ? named : dropInCode(a.status, a.code ?? envelope?.code) };
}

