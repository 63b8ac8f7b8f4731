import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourcesRequestSchema, ReadResourceRequestSchema, McpError, ErrorCode, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { ALLOW_ALL, READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { answerProtocolMethod } from '@palimpsest/protocol/protocol-methods/protocol-answers';
import { CLIENT_LANGUAGES, PROTOCOL_METHODS } from '@palimpsest/protocol/protocol-methods/protocol-methods';
import { clientSourceFiles } from '@palimpsest/protocol/publish/client-sources';
import { protocolSession } from '../json-lines/protocol-methods';

const SCHEME = 'palimpsest://';
const MIME: Record<string, string> = { ts: 'text/x-typescript', py: 'text/x-python', rs: 'text/x-rust' };

interface Entry {
  resource: Resource;
  read(): string;
}

/**
 * The JSON-lines protocol's discovery methods as MCP resources, where documents fit better than tools:
 * palimpsest://protocol/capabilities, …/schemas, …/instructions and palimpsest://query/catalog (the
 * answer the JSON-lines method gives under this profile), and every generated client file at
 * palimpsest://clients/<language>/<file>. Reading them records nothing, so every profile lists them.
 */
export function protocolResources(policy: OwnerPolicy): Map<string, Entry> {
  const session = protocolSession(policy);
  const entries = new Map<string, Entry>();
  for (const m of PROTOCOL_METHODS.filter((p) => p.name !== 'protocol/client')) {
    const uri = `${SCHEME}${m.name}`;
    const read = () => JSON.stringify(answerProtocolMethod(m.name, {}, session));
    entries.set(uri, { resource: { uri, name: m.name, title: m.title, description: m.description, mimeType: 'application/json' }, read });
  }
  for (const language of CLIENT_LANGUAGES) {
    for (const file of clientSourceFiles(language)) {
      const uri = `${SCHEME}${file.path}`;
      const mimeType = MIME[file.path.split('.').pop() ?? ''] ?? 'text/plain';
      const description = `Generated ${language} request/result helpers (protocol/client), sha256 ${file.sha256}.`;
      entries.set(uri, { resource: { uri, name: file.path, description, mimeType }, read: () => file.content });
    }
  }
  return entries;
}

/** Registers resources/list and resources/read on an MCP server for the session's policy (or its profile's). */
export function registerProtocolResources(server: Server, profile: 'full' | 'read-only', policy?: OwnerPolicy): void {
  // Built on first use: a session that never asks pays nothing for generating the clients.
  let entries: Map<string, Entry> | null = null;
  const all = () => (entries ??= protocolResources(policy ?? (profile === 'read-only' ? READ_ONLY : ALLOW_ALL)));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [...all().values()].map((e) => e.resource) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const entry = all().get(request.params.uri);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `No resource ${request.params.uri}; resources/list names them.`);
    return { contents: [{ uri: request.params.uri, mimeType: entry.resource.mimeType, text: entry.read() }] };
  });
}
