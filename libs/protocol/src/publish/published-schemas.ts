import { CATALOG } from '../catalog/catalog';
import { PUBLISHED_EVENT_SCHEMAS, SCHEMA_BASE, eventSchemaFileName } from './event-schemas';
import { operationSchemaPath, publishOperationSchema } from './operation-schemas';
import { RELAY_ENVELOPE_SCHEMA_PATH, relayEnvelopeSchema } from './relay-envelope-schema';
import { EXECUTOR_MESSAGE_SCHEMA } from '../executor/executor-message.schema';
import { EXECUTOR_MESSAGE_SCHEMA_PATH, RELAY_MESSAGE_SCHEMA_PATH } from '../executor/executor-protocol';
import { RELAY_MESSAGE_SCHEMA } from '../executor/relay-message.schema';

/** Every file under schemas/, keyed by its path relative to schemas/. Generated; never hand-edited. */
export function publishedSchemaFiles(): Map<string, unknown> {
  const files = new Map<string, unknown>();
  const index: { $id: string; path: string; kind: string; title: string }[] = [];
  for (const { type, version, schema } of PUBLISHED_EVENT_SCHEMAS) {
    const path = `events/${eventSchemaFileName(type, version)}`;
    files.set(path, schema);
    index.push({ $id: String(schema.$id), path, kind: 'event', title: type });
  }
  for (const op of CATALOG) {
    for (const part of ['params', 'result'] as const) {
      const schema = publishOperationSchema(op, part);
      const path = operationSchemaPath(op, part);
      files.set(path, schema);
      index.push({ $id: String(schema.$id), path, kind: `operation-${part}`, title: op.name });
    }
  }
  const envelope = relayEnvelopeSchema();
  files.set(RELAY_ENVELOPE_SCHEMA_PATH, envelope);
  index.push({ $id: String(envelope.$id), path: RELAY_ENVELOPE_SCHEMA_PATH, kind: 'relay-envelope', title: String(envelope.title) });
  for (const [path, schema, kind] of [[EXECUTOR_MESSAGE_SCHEMA_PATH, EXECUTOR_MESSAGE_SCHEMA, 'executor-message'], [RELAY_MESSAGE_SCHEMA_PATH, RELAY_MESSAGE_SCHEMA, 'relay-message']] as const) {
    files.set(path, schema);
    index.push({ $id: String(schema.$id), path, kind, title: String(schema.title) });
  }
  files.set('index.json', { $id: `${SCHEMA_BASE}/index.json`, schemas: index });
  return files;
}

export function renderSchemaFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
