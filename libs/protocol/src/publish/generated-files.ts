import { operationTypeFiles } from './operation-types';
import { publishedSchemaFiles, renderSchemaFile } from './published-schemas';
import { renderReference } from './reference-doc';
import { clientFiles } from './client-sources';
import { CLIENT_LANGUAGES } from '../protocol-methods/protocol-methods';

/** Every file generated from the catalog, keyed by repository-relative path. */
export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, value] of publishedSchemaFiles()) files.set(`schemas/${path}`, renderSchemaFile(value));
  files.set('docs/operations.md', renderReference());
  for (const [path, text] of operationTypeFiles()) files.set(path, text);
  // The generated clients (clients/typescript, clients/python, clients/rust), as protocol/client answers them.
  for (const language of CLIENT_LANGUAGES) for (const [path, text] of clientFiles(language)) files.set(path, text);
  return files;
}
