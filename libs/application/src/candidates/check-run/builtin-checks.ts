import { parseAllDocuments } from 'yaml';
import type { CheckOutcome } from '@palimpsest/core/candidate/candidate.commands';
import { hasLoneSurrogate } from '@palimpsest/core/text/code-points';
import type { CandidateText } from '../shared/target-texts';

/**
 * Checks built into the engine, each chosen by content type: utf8 (every target), json (JSON
 * targets parse), yaml (YAML targets parse, with the `yaml` package). A check whose content type
 * no target has passes with an empty target list.
 */

export type BuiltinCheck = 'utf8' | 'json' | 'yaml';

type TargetResult = CheckOutcome['targets'][number];

const isJson = (t: CandidateText) => /json/i.test(t.content_type) || /\.json$/i.test(t.filename);
const isYaml = (t: CandidateText) => /yaml/i.test(t.content_type) || /\.ya?ml$/i.test(t.filename);

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: Array.from(before.slice(before.lastIndexOf('\n') + 1)).length + 1 };
}

function utf8(t: CandidateText): TargetResult {
  const bad = t.text.includes('\u0000') ? 'contains NUL' : hasLoneSurrogate(t.text) ? 'contains an unpaired surrogate' : null;
  return { target_id: t.target_id, ok: bad === null, message: bad, line: null, column: null };
}

function json(t: CandidateText): TargetResult {
  try {
    JSON.parse(t.text);
    return { target_id: t.target_id, ok: true, message: null, line: null, column: null };
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    const where = at ? lineColumn(t.text, Number(at[1])) : { line: null, column: null };
    return { target_id: t.target_id, ok: false, message, ...where };
  }
}

function yaml(t: CandidateText): TargetResult {
  for (const doc of parseAllDocuments(t.text)) {
    const first = 'errors' in doc ? doc.errors[0] : undefined;
    if (first) {
      const pos = first.linePos?.[0];
      return { target_id: t.target_id, ok: false, message: first.message.split('\n')[0], line: pos?.line ?? null, column: pos?.col ?? null };
    }
  }
  return { target_id: t.target_id, ok: true, message: null, line: null, column: null };
}

const RUNNERS: Record<BuiltinCheck, { applies: (t: CandidateText) => boolean; run: (t: CandidateText) => TargetResult }> = {
  utf8: { applies: () => true, run: utf8 },
  json: { applies: isJson, run: json },
  yaml: { applies: isYaml, run: yaml },
};

export const isBuiltinCheck = (name: string): name is BuiltinCheck => name in RUNNERS;

/** Built-in checks that apply to these targets (what edit_plan suggests). */
export function applicableBuiltins(texts: { filename: string; content_type: string }[]): BuiltinCheck[] {
  const probe = texts.map((t) => ({ ...t, target_id: '', base: '', text: '' }));
  return (Object.keys(RUNNERS) as BuiltinCheck[]).filter((name) => probe.some(RUNNERS[name].applies));
}

export function runBuiltinCheck(name: BuiltinCheck, texts: CandidateText[]): CheckOutcome {
  const started = Date.now();
  const runner = RUNNERS[name];
  const applicable = texts.filter(runner.applies);
  const targets = applicable.map(runner.run);
  const ok = targets.every((t) => t.ok);
  return {
    check: name,
    kind: 'builtin',
    status: ok ? 'passed' : 'failed',
    ok,
    reason: applicable.length === 0 ? 'no_matching_targets' : null,
    targets,
    output: null,
    duration_ms: Date.now() - started,
  };
}
