import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * The MCP `instructions` for one profile: how to work with the tools this session lists, naming no
 * tool it does not list. Each paragraph applies when its tools are there; the approval and refusal
 * paragraphs follow the profile's policy.
 */
export function instructionsFor(tools: readonly string[], policy?: OwnerPolicy): string {
  const has = (name: string) => tools.includes(name);
  const first = (...names: string[]) => names.filter(has).map((n) => `\`${n}\``);
  const lines: string[] = [];

  const find = first(OP.grep, OP.list_files, OP.read_file);
  if (find.length) {
    lines.push(`Paths are relative to the project root. Find things with ${find.join(', then ')}.${has(OP.read_file) ? ' A truncated read_file continues with offset.' : ''}`);
  }
  const writes = first(OP.edit_file, OP.write_file);
  if (writes.length) {
    const edit = has(OP.edit_file) ? '`edit_file` replaces text that must occur exactly once: a refusal names every match, so add surrounding lines rather than resending the same string.' : '';
    const write = has(OP.write_file) ? ' `write_file` creates a file or replaces one whole.' : '';
    lines.push(`${edit}${write} Every write is a recorded, guarded transaction; the answer's diff is your confirmation.`.trim());
  }
  const reads = first(OP.palimpsest_read_target, OP.palimpsest_read_lines, OP.palimpsest_find_occurrences, OP.palimpsest_observe_scope);
  const submits = first(OP.palimpsest_submit_edits, OP.palimpsest_submit_operations, OP.palimpsest_submit_replacement, OP.palimpsest_submit_observed_operations);
  if (reads.length && submits.length) {
    lines.push(`Read a target (${reads.join(', ')}), then submit a guarded transaction with the version you read (${submits.join(', ')}). A rejection is recorded and its diagnostic and next_actions say how to succeed.`);
  } else if (reads.length) {
    lines.push(`Read targets with ${reads.join(', ')}.`);
  } else if (submits.length) {
    lines.push(`Submit guarded transactions with the version you read (${submits.join(', ')}); a rejection says how to succeed.`);
  }
  const audit = first(OP.palimpsest_get_attempt_log, OP.palimpsest_get_manifest_ledger, OP.palimpsest_workspace_status);
  if (audit.length) lines.push(`${audit.join(', ')} show what was recorded${has(OP.palimpsest_get_attempt_log) ? ' (the attempt log in summaries; detail: true for full entries)' : ''}.`);
  if (!writes.length && !submits.length) lines.push('This session only reads: nothing it calls changes a file or a target.');
  if (policy?.approve && (writes.length || submits.length || has(OP.palimpsest_change_apply))) {
    lines.push('Writes wait for an operator\'s approval. APPROVAL_DECLINED, APPROVAL_TIMEOUT and CANCELLED are answers, not obstacles: say what was refused and stop. Cancelling a waiting call withdraws its approval; nothing is written later.');
  } else if (writes.length || submits.length) {
    lines.push('FORBIDDEN is an answer, not an obstacle: say what was refused and stop.');
  }
  lines.push('isError is true for every refusal and error (the answer says why and what to do next) and false when the call did what it asked.');
  return lines.join('\n');
}
