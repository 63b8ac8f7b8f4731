import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Write `path` under `dir`, its parents created; the content defaults to the path and a newline. */
export function putFile(dir: string, path: string, content: string | Buffer = `${path}\n`): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}
