import { DOCUMENTS, type DocumentName } from './scripted-agent.texts';

/**
 * A scripted agent making 50 realistic edits on real texts, and following only `next_actions`
 * when one is rejected. Its first attempts make the mistakes agents make: a match that occurs more
 * than once, a typo in the match text, a guard gone stale because another writer landed first.
 * The transport is supplied (dispatch in process, or HTTP), so one script serves the test, the
 * e2e test and the bench.
 */

export type Answer = Record<string, any>;

/** An edit the agent means to make; what it sends first may differ (see `kind`). */
export interface ScriptedEdit {
  doc: DocumentName;
  match: string;
  replace: string;
  /** first_time: lands as sent. ambiguous: sent without a selector; `line` is the occurrence meant. */
  kind: 'first_time' | 'ambiguous' | 'typo' | 'stale';
  line?: number;
  /** typo: the match text the agent actually sends first. */
  typo?: string;
  /** stale: another writer's edit that lands just before the agent's. */
  other?: { match: string; replace: string };
}

const e = (doc: DocumentName, match: string, replace: string, more: Partial<ScriptedEdit> = {}): ScriptedEdit => ({ doc, match, replace, kind: 'first_time', ...more });

export const SCRIPT: readonly ScriptedEdit[] = [
  e('prose', 'The harbour archive', 'The Harbour Archive'),
  e('code', 'retries: number;', 'retries: number;\n  timeoutMs: number;'),
  e('logs', 'migrations applied: 12', 'migrations applied: 13'),
  e('crlf', 'name = archive-primary', 'name = archive-main'),
  e('astral', 'Menu of the 𠮷野家 branch', 'Menu of the 𠮷野家 Shibuya branch'),
  e('prose', 'northern quay', 'north quay'),
  e('code', '  if (text === null) return null;', '  if (text === null) return null; // missing file'),
  e('logs', '08:10:42Z ERROR connection reset', '08:10:42Z WARN  connection reset'),
  e('crlf', 'port = 8080', 'port = 8443'),
  e('astral', 'regular: 480 yen', 'regular: 500 yen'),
  e('prose', 'lights the lantern', 'lights the lamp'),
  e('code', "  if (typeof raw.port !== 'number') return null;", "  if (typeof raw.port !== 'number') throw new Error('port must be a number');"),
  e('logs', 'slow query: 812 ms', 'slow query: 812 ms (threshold 500 ms)'),
  e('crlf', 'timeout = 30', 'timeout = 45'),
  e('astral', 'large: 650 yen', 'large: 680 yen'),
  e('prose', 'copy old letters', 'copy old charters'),
  e('code', 'host: string;', 'host: string;\n  tls: boolean;'),
  e('logs', 'checkpoint saved for 4 targets', 'checkpoint saved for 5 targets', { kind: 'typo', typo: 'checkpont saved for 4 targets' }),
  e('crlf', 'quota = 10GB\r\ncompress = false', 'quota = 20GB\r\ncompress = true'),
  e('astral', '🐮', '🐂', { kind: 'ambiguous', line: 4 }),
  e('prose', 'opens at nine', 'opens at ten'),
  e('code', 'JSON.parse(text)', 'JSON.parse(text) as Partial<Config>', { kind: 'typo', typo: 'JSON.prase(text)' }),
  e('logs', 'approval pending for 90 s', 'approval pending for 95 s'),
  e('crlf', 'path = D:\\archive\\data', 'path = E:\\archive\\data'),
  e('astral', 'Miso soup 🥣: 80 yen', 'Miso soup 🥣: 100 yen'),
  e('prose', 'archive', 'reading room', { kind: 'ambiguous', line: 10 }),
  e('code', 'raw.retries ?? 3', 'raw.retries ?? 5'),
  e('logs', 'reconnected (pool client 3)', 'reconnected (pool client 3, after 1 s)'),
  e('crlf', 'sender = keeper@archive.example', 'sender = archive@archive.example', { kind: 'stale', other: { match: 'timeout = 45', replace: 'timeout = 60' } }),
  e('astral', 'Green tea 🍵: free', 'Green tea 🍵: 50 yen'),
  e('prose', 'Use a pencil, never ink,', 'Use a pencil, never a pen,'),
  e('code', '"localhost"', "'localhost'"),
  e('logs', 'reconnected (pool client 5)', 'reconnected (pool client 5, after 1 s)'),
  e('crlf', 'notify = false', 'notify = true'),
  e('astral', '𩸽 (grill)', '𩸽 (grill, fish)'),
  e('prose', 'Wash your hands', 'Wash and dry your hands'),
  e('code', 'export function describe(config: Config): string {', 'export function describeConfig(config: Config): string {'),
  e('logs', 'peer (pool client 5)', 'peer (pool client 5, idle)'),
  e('crlf', '[mail]', '[mail]\r\nrelay = smtp.archive.example'),
  e('astral', '𠀋 (counter)', '𠀋 (counter, till)'),
  e('prose', 'closes at five', 'closes at six'),
  e('code', '(${config.retries} retries)', '(${config.retries} retries, ${config.timeoutMs} ms)'),
  e('logs', '2026-11-30T08:15:00Z', '2026-11-30T08:15:01Z'),
  e('crlf', '[storage]', '[storage]\r\nbackend = local'),
  e('astral', '😀 smiles at every guest', '😀 greets every guest'),
  e('prose', 'the spring fair', 'the autumn fair'),
  e('code', "import { readFile } from 'node:fs/promises';", "import { readFile } from 'node:fs/promises';\nimport { resolve } from 'node:path';"),
  e('logs', 'gateway started on 127.0.0.1:3000', 'gateway started on 0.0.0.0:3000'),
  e('crlf', '[server]', '[server]\r\nlisten = 0.0.0.0'),
  e('astral', 'from 10:00 to 22:00 🕙', 'from 10:00 to 23:00 🕚'),
];

/** One transport's way of sending a call and of following a next action of an answer. */
export interface AgentTransport {
  call(operation: string, args: Record<string, unknown>): Promise<Answer>;
  /** The answer's next actions as this transport shows them (HTTP: error.next_actions, with routes). */
  nextActions(answer: Answer): { operation: string; reason: string }[];
  /** Send next action `index` of `answer` exactly as given. */
  follow(answer: Answer, index: number): Promise<Answer>;
}

export type Strategy = 'follow_next_actions' | 'naive_reread';

export interface ScriptRun {
  edits: number;
  calls: number;
  callsPerEdit: number;
  /** Calls the agent needed for each edit, by kind. */
  byKind: Record<ScriptedEdit['kind'], { edits: number; calls: number }>;
  /** What went wrong (empty when every edit landed as intended and every text is as meant). */
  problems: string[];
}

const lf = (text: string) => text.replace(/\r\n?/g, '\n');

/** The intended text after an edit: the meant occurrence (unique, or the one on `line`) replaced. */
export function applyIntended(text: string, match: string, replace: string, line?: number): string {
  const m = lf(match);
  const starts: number[] = [];
  for (let at = text.indexOf(m); at !== -1; at = text.indexOf(m, at + 1)) starts.push(at);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const chosen = line === undefined ? starts : starts.filter((at) => lineOf(at) === line);
  if (chosen.length !== 1) throw new Error(`script error: ${JSON.stringify(match)} has ${chosen.length} intended occurrences`);
  if (line !== undefined && starts.length < 2) throw new Error(`script error: ${JSON.stringify(match)} is not ambiguous`);
  return text.slice(0, chosen[0]) + lf(replace) + text.slice(chosen[0]! + m.length);
}

/** The occurrence index the meant occurrence has (the naive agent computes it from a fresh read). */
function occurrenceIndexOn(text: string, match: string, line: number): number {
  const m = lf(match);
  let index = 0;
  for (let at = text.indexOf(m); at !== -1; at = text.indexOf(m, at + 1)) {
    index += 1;
    if (text.slice(0, at).split('\n').length === line) return index;
  }
  throw new Error(`no occurrence of ${match} on line ${line}`);
}

interface Doc {
  id: string;
  /** The version the agent last saw. */
  seen: number;
  intended: string;
}

function firstAttempt(doc: Doc, step: ScriptedEdit): Record<string, unknown> {
  return {
    target_file_id: doc.id,
    intent: `Edit ${step.doc}: ${lf(step.match).split('\n')[0]}`,
    expected_target_version: doc.seen,
    edits: [{ match: step.typo ?? step.match, replace: step.replace }],
  };
}

/** The action a mechanical agent takes: the one naming the meant line, else the first submission. */
function chosenAction(actions: { operation: string; reason: string }[], step: ScriptedEdit): number {
  const submissions = actions.map((a, i) => ({ a, i })).filter(({ a }) => a.operation.startsWith('palimpsest_submit_'));
  const named = step.line === undefined ? submissions : submissions.filter(({ a }) => a.reason.includes(`at line ${step.line},`));
  return named[0]?.i ?? -1;
}

async function anotherWriter(t: AgentTransport, doc: Doc, other: { match: string; replace: string }): Promise<void> {
  const now = await t.call('palimpsest_get_target', { target_file_id: doc.id });
  const r = await t.call('palimpsest_submit_edits', { target_file_id: doc.id, intent: 'Another writer', expected_target_version: now.version, edits: [other] });
  if (r.status !== 'accepted') throw new Error(`the other writer was refused: ${JSON.stringify(r)}`);
  doc.intended = applyIntended(doc.intended, other.match, other.replace);
}

/** One edit by the agent: its calls, or a problem. */
async function agentEdit(t: AgentTransport, doc: Doc, step: ScriptedEdit, strategy: Strategy): Promise<number | string> {
  let answer = await t.call('palimpsest_submit_edits', firstAttempt(doc, step));
  let calls = 1;
  while (answer.status !== 'accepted' && calls < 4) {
    if (strategy === 'naive_reread') {
      const read = await t.call('palimpsest_get_target', { target_file_id: doc.id });
      const text = read.current_content as string;
      const edit = { match: step.match, replace: step.replace, ...(step.line ? { occurrence_index: occurrenceIndexOn(text, step.match, step.line) } : {}) };
      answer = await t.call('palimpsest_submit_edits', { ...firstAttempt(doc, step), expected_target_version: read.version, edits: [edit] });
      calls += 2;
      continue;
    }
    const index = chosenAction(t.nextActions(answer), step);
    if (index === -1) return `${step.match}: no next action to follow in ${JSON.stringify(t.nextActions(answer))}`;
    answer = await t.follow(answer, index);
    calls += 1;
  }
  if (answer.status !== 'accepted') return `${step.match}: still ${answer.status} after ${calls} calls: ${JSON.stringify(answer).slice(0, 400)}`;
  doc.seen = answer.version as number;
  return calls;
}

export async function runScript(t: AgentTransport, strategy: Strategy, script: readonly ScriptedEdit[] = SCRIPT): Promise<ScriptRun> {
  const docs = new Map<DocumentName, Doc>();
  for (const [name, content] of Object.entries(DOCUMENTS) as [DocumentName, string][]) {
    const r = await t.call('palimpsest_initialize_target', { filename: `${name}.txt`, content });
    docs.set(name, { id: r.target_file_id, seen: 0, intended: lf(content) });
  }
  const run: ScriptRun = { edits: 0, calls: 0, callsPerEdit: 0, byKind: { first_time: { edits: 0, calls: 0 }, ambiguous: { edits: 0, calls: 0 }, typo: { edits: 0, calls: 0 }, stale: { edits: 0, calls: 0 } }, problems: [] };
  for (const step of script) {
    const doc = docs.get(step.doc)!;
    if (step.other) await anotherWriter(t, doc, step.other);
    const outcome = await agentEdit(t, doc, step, strategy);
    if (typeof outcome === 'string') {
      run.problems.push(outcome);
      continue;
    }
    doc.intended = applyIntended(doc.intended, step.match, step.replace, step.line);
    run.edits += 1;
    run.calls += outcome;
    run.byKind[step.kind].edits += 1;
    run.byKind[step.kind].calls += outcome;
  }
  for (const [name, doc] of docs) {
    const now = await t.call('palimpsest_get_target', { target_file_id: doc.id });
    if (now.current_content !== doc.intended) run.problems.push(`${name}: the text is not the intended one:\n${now.current_content}\n---\n${doc.intended}`);
  }
  run.callsPerEdit = run.calls / script.length;
  return run;
}

/** A transport over an in-process call (dispatch): next actions are sent as operation + params. */
export function inProcessTransport(call: (operation: string, args: Record<string, unknown>) => Promise<Answer>): AgentTransport {
  return {
    call,
    nextActions: (answer) => answer.next_actions ?? [],
    follow: (answer, index) => {
      const action = answer.next_actions[index];
      return call(action.operation, action.params);
    },
  };
}
