import { spawn } from 'node:child_process';
import { REPO_ROOT } from './cli-process';

// The validator ships as ES modules only, which Jest's CommonJS runtime cannot load: run it in a child.
const SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const result = await new Validator().validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors ?? null, version: new Validator().version }));
`;

/** Validates an OpenAPI document against the official schema of its version (3.1 here). */
export function validateOpenApi(document: unknown): Promise<{ valid: boolean; errors: unknown; version: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`openapi validator exited ${code}: ${err}`))));
    child.stdin.end(JSON.stringify(document));
  });
}
