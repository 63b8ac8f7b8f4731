import { createHash } from 'node:crypto';
import type { ClientLanguage } from '../protocol-methods/protocol-methods';
import { PYTHON_CLIENT_PATH, pythonClientSource } from './python-client';
import { rustClientFiles } from './rust-client';
import { typescriptClientFiles } from './typescript-client';
import { TYPESCRIPT_PROTOCOL_PATH, typescriptProtocolSource } from './typescript-protocol-client';

/** The generated helpers of one language, by repository path: what `generate` writes and protocol/client answers. */
export function clientFiles(language: ClientLanguage): Map<string, string> {
  switch (language) {
    case 'typescript':
      return new Map([...typescriptClientFiles(), [TYPESCRIPT_PROTOCOL_PATH, typescriptProtocolSource()]]);
    case 'python':
      return new Map([[PYTHON_CLIENT_PATH, pythonClientSource()]]);
    case 'rust':
      return rustClientFiles();
  }
}

export interface ClientFile {
  path: string;
  sha256: string;
  content: string;
}

const cache = new Map<ClientLanguage, ClientFile[]>();

/** protocol/client's files: path, content and its SHA-256 (lowercase hex), computed once a process. */
export function clientSourceFiles(language: ClientLanguage): ClientFile[] {
  let files = cache.get(language);
  if (!files) {
    files = [...clientFiles(language)].map(([path, content]) => ({ path, sha256: createHash('sha256').update(content).digest('hex'), content }));
    cache.set(language, files);
  }
  return files;
}
