import type { ChunkedText, ChunkSplice } from '../text/chunked-text';
import { codePointLength, isBmpOnly } from '../text/code-points';

/**
 * What an accepted change did to the text: code points [start, end) of the *preimage* (the text before
 * the acceptance), end exclusive, replaced by `inserted`. An acceptance's effects are sorted ascending
 * and never overlap nor touch (`a.end < b.start`), so applying them needs nothing but the preimage.
 */
export interface TextEffect {
  start: number;
  end: number;
  inserted: string;
}

/** An effect being composed, with the code-point length of its inserted text. */
interface Composed extends TextEffect {
  length: number;
}

/**
 * Composes the splices a runtime makes one after another (each in the coordinates of the buffer the
 * ones before it left) into effects on the preimage: a splice touching earlier effects (overlapping or
 * adjacent) merges with them, so the result is ascending and non-overlapping by construction.
 */
export class EffectComposer {
  private readonly composed: Composed[] = [];

  /**
   * Record that code points [start, end) of the current buffer became `inserted`. `current(from, to)`
   * reads code points of the current buffer before this splice (only inside the effects it merges with).
   */
  record(start: number, end: number, inserted: string, current: (from: number, to: number) => string): void {
    const list = this.composed;
    let i = 0;
    let delta = 0;
    while (i < list.length && list[i]!.start + delta + list[i]!.length < start) {
      delta += list[i]!.length - (list[i]!.end - list[i]!.start);
      i++;
    }
    const deltaBefore = delta;
    let from = start;
    let to = end;
    let j = i;
    while (j < list.length && list[j]!.start + delta <= end) {
      const e = list[j]!;
      const curStart = e.start + delta;
      from = Math.min(from, curStart);
      to = Math.max(to, curStart + e.length);
      delta += e.length - (e.end - e.start);
      j++;
    }
    const text = (from < start ? current(from, start) : '') + inserted + (end < to ? current(end, to) : '');
    const merged: Composed = { start: from - deltaBefore, end: to - delta, inserted: text, length: codePointLength(text) };
    list.splice(i, j - i, merged);
  }

  get effects(): TextEffect[] {
    return this.composed.map(({ start, end, inserted }) => ({ start, end, inserted }));
  }
}

/** Effects of disjoint parts put side by side, sorted, with touching neighbours merged into one. */
export function normalizeEffects(effects: readonly TextEffect[]): TextEffect[] {
  const sorted = [...effects].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TextEffect[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.start <= last.end) {
      if (e.start < last.end) throw new Error('overlapping effects cannot be merged');
      out[out.length - 1] = { start: last.start, end: e.end, inserted: last.inserted + e.inserted };
    } else out.push({ ...e });
  }
  return out;
}

/** UTF-16 indexes of ascending code-point offsets of `text`, in one walk. */
function unitsOf(text: string, cps: readonly number[]): number[] {
  if (isBmpOnly(text)) return cps.map((cp) => Math.min(cp, text.length));
  const out: number[] = [];
  let unit = 0;
  let cp = 0;
  for (const target of cps) {
    while (cp < target && unit < text.length) {
      const code = text.charCodeAt(unit);
      const next = unit + 1 < text.length ? text.charCodeAt(unit + 1) : 0;
      unit += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
      cp++;
    }
    out.push(unit);
  }
  return out;
}

/** True when the effects are well-formed for a preimage of `length` code points: ascending, disjoint, in bounds. */
export function effectsFit(effects: readonly TextEffect[], length: number): boolean {
  let floor = -1;
  for (const e of effects) {
    const ok = Number.isSafeInteger(e.start) && Number.isSafeInteger(e.end) && typeof e.inserted === 'string';
    if (!ok || e.start <= floor || e.end < e.start || e.end > length) return false;
    floor = e.end;
  }
  return true;
}

/** The text after the effects, applied to their preimage. */
export function applyEffects(preimage: string, effects: readonly TextEffect[]): string {
  if (effects.length === 0) return preimage;
  const units = unitsOf(preimage, effects.flatMap((e) => [e.start, e.end]));
  const parts: string[] = [];
  let at = 0;
  effects.forEach((e, k) => {
    parts.push(preimage.slice(at, units[2 * k]!), e.inserted);
    at = units[2 * k + 1]!;
  });
  parts.push(preimage.slice(at));
  return parts.join('');
}

/**
 * Which ends of the text the effects leave untouched, in UTF-16 units (the prefix of the preimage, the
 * suffix of both): what a chunked store needs to rewrite only the rest. Nothing changed: the whole
 * text is an unchanged prefix.
 */
export function unchangedEnds(preimage: string, effects: readonly TextEffect[]): { unchangedPrefix: number; unchangedSuffix: number } {
  if (effects.length === 0) return { unchangedPrefix: preimage.length, unchangedSuffix: 0 };
  const first = effects[0]!.start;
  const last = effects[effects.length - 1]!.end;
  const [prefix, end] = unitsOf(preimage, [first, last]) as [number, number];
  return { unchangedPrefix: prefix, unchangedSuffix: preimage.length - end };
}

/** Effects equal field by field (what replay compares between the record and the engine). */
export function sameEffects(a: readonly TextEffect[], b: readonly TextEffect[]): boolean {
  return a.length === b.length && a.every((e, i) => e.start === b[i]!.start && e.end === b[i]!.end && e.inserted === b[i]!.inserted);
}

/**
 * Apply effects to a chunked text as splices (last first, so earlier offsets hold): the merged splice of
 * the chunks they touched, or null when there were none. `verify` runs on the result; when it returns
 * false the text is put back as it was (its chunks perhaps cut differently) and RESTORED is returned.
 */
export function spliceEffects(text: ChunkedText, effects: readonly TextEffect[], verify: () => boolean): ChunkSplice | null | typeof RESTORED {
  const edit = text.beginEdit();
  for (let k = effects.length - 1; k >= 0; k--) {
    const e = effects[k]!;
    edit.splice(e.start, e.end, e.inserted, text.slice(e.start, e.end));
  }
  if (verify()) return edit.done();
  edit.undo();
  return RESTORED;
}

export const RESTORED = Symbol('restored');
