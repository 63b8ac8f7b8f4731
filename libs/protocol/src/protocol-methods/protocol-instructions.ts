import { PROTOCOL_VERSION } from './protocol-methods';

export type Capability = 'read_only' | 'read_write';

/**
 * protocol/instructions: how to work with a session of this protocol version under its profile. Each
 * line names only methods the session serves, so a read-only session is never told to write.
 */
export function protocolInstructions(methods: readonly string[], capability: Capability): string[] {
  const has = (name: string) => methods.includes(name);
  const lines = [
    `This is ${PROTOCOL_VERSION}: JSON-RPC 2.0, one request per line on stdin, one response per line on stdout, answered in order. A generated client refuses an answer of another protocol version.`,
    'Call protocol/capabilities first: it names every method this session serves (sorted), its capability and the framing limits. query/catalog describes the read operations; protocol/schemas gives each request\'s JSON Schema.',
    'A result is an answer: its status says which (a recorded rejection is a result too). -32602 carries a refusal of the arguments and -32000 a refusal on the facts (not_found), each with the operation\'s whole result as error.data; data.code names the cause and failure_detail the next step. -32601 is a method this session does not serve.',
  ];
  if (has('palimpsest_read_target') || has('read_file')) {
    lines.push('Read before you act: reads answer with the version and hash they saw; a later guarded call names them.');
  }
  if (capability === 'read_only') {
    lines.push('This session is read-only: no method it serves writes a file, a target or the record, and nothing a request sends widens that. A write method answers -32601 operation_not_permitted; that is an answer, not an obstacle.');
  } else if (has('palimpsest_submit_edits') || has('edit_file')) {
    lines.push('Writes are guarded transactions: send the version you read (expected_target_version), and read a rejection\'s diagnostic and next_actions before trying again.');
  }
  return lines;
}
