import type { RelayLogger } from './relay/relay-config';

const fieldsText = (fields: object) => JSON.stringify(fields, (_key, value) => (value instanceof Error ? value.message : value));

/** A logger for processes whose stdout is not theirs to write (`palimpsest projector`, `palimpsest mcp`). */
export function stderrLogger(prefix: string): RelayLogger {
  const say = (line: string) => process.stderr.write(`${prefix}: ${line}\n`);
  return {
    info: (fields, message) => say(`${message} ${fieldsText(fields)}`),
    warn: (fields, message) => say(`warning: ${message} ${fieldsText(fields)}`),
    error: (fields, message) => say(`error: ${message} ${fieldsText(fields)}`),
  };
}
