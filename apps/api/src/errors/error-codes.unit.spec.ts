import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_CODES, type ErrorCode } from '@palimpsest/core/errors/error-model';
import { envelopeStatus } from '../routes/http-outcome';
import { HTTP_STATUSES } from './error-envelope';

const SRC = resolve(__dirname, '..');
const README = resolve(SRC, '..', '..', '..', 'README.md');

const pair = (status: number | string, code: string) => `${status} ${code}`;
const declared = new Set(Object.entries(HTTP_STATUSES).flatMap(([code, http]) => http.map((status) => pair(status, code))));

/** The README's "Codes and statuses" table, one `status code` pair per code a row names. */
function readmePairs(): string[] {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('| HTTP | `error.code` | When |');
  expect(start).toBeGreaterThan(-1);
  const rows = text.slice(start).split('\n\n')[0]!.split('\n').slice(2);
  return rows.flatMap((row) => {
    const [, status, codes] = row.split('|').map((cell) => cell.trim());
    return [...codes!.matchAll(/`(\w+)`/g)].map((m) => pair(status!, m[1]!));
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every (status, code) the gateway's sources spell out literally: gatewayError(…) and `status: N, error: envelope(…)`. */
function literalPairs(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/gatewayError\(\s*(\d{3}),\s*'(\w+)'/g)) found.push(pair(m[1]!, m[2]!));
    for (const m of text.matchAll(/status: (\d{3}), error: envelope\('(\w+)'/g)) found.push(pair(m[1]!, m[2]!));
  }
  return found;
}

describe('error codes: the gateway, its sources and the README agree', () => {
  it('the README table lists exactly the (status, code) pairs of HTTP_STATUSES', () => {
    const documented = readmePairs();
    expect(new Set(documented).size).toBe(documented.length); // no pair listed twice
    expect([...documented].sort()).toEqual([...declared].sort());
  });

  it('every status a gateway source sends with a code is declared for that code', () => {
    const literal = literalPairs();
    expect(literal.length).toBeGreaterThan(20); // the scan still finds the call sites
    expect(literal.filter((p) => !declared.has(p))).toEqual([]);
  });

  it('every candidate code is declared, with the status the gateway maps it to', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      expect(HTTP_STATUSES).toHaveProperty(code);
      expect(HTTP_STATUSES[code]).toContain(envelopeStatus({ code }));
    }
    expect(HTTP_STATUSES.resource_limit).toContain(envelopeStatus({ code: 'resource_limit', retryable: 'same_request' }));
  });
});
