import { operationTypeFiles } from './operation-types';
import { publishedSchemaFiles, renderSchemaFile } from './published-schemas';
import { renderReference } from './reference-doc';
import { typescriptClientFiles } from './typescript-client';

/** Every file generated from the catalog, keyed by repository-relative path. */
export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, value] of publishedSchemaFiles()) files.set(`schemas/${path}`, renderSchemaFile(value));
  files.set('docs/operations.md', renderReference());
  for (const [path, text] of typescriptClientFiles()) files.set(path, text);
  for (const [path, text] of operationTypeFiles()) files.set(path, text);
  return files;
}
