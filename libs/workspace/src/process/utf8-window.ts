/**
 * Output is bytes; answers are strings. A window cut out of a byte stream may start inside a UTF-8
 * sequence (the ring overtook the cursor, or the tail was cut from the front) and may end inside one
 * (the rest has not been written yet): the start's stray continuation bytes are dropped, and an
 * unfinished end is held back for the next read unless nothing more will come.
 */
export interface Utf8Window {
  text: string;
  /** Leading bytes dropped (continuation bytes of a character whose start was lost). */
  dropped: number;
  /** Trailing bytes of an unfinished character, left for the next read. */
  heldBack: number;
}

const isContinuation = (b: number) => (b & 0xc0) === 0x80;

/** Length of the sequence a lead byte starts (1 for ASCII or a stray byte). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

function unfinishedTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if (isContinuation(b)) continue;
    return sequenceLength(b) > back ? back : 0;
  }
  return 0;
}

export function utf8Window(bytes: Buffer, cutFront: boolean, complete: boolean): Utf8Window {
  let dropped = 0;
  if (cutFront) while (dropped < Math.min(3, bytes.length) && isContinuation(bytes[dropped])) dropped++;
  const heldBack = complete ? 0 : unfinishedTail(bytes.subarray(dropped));
  return { text: bytes.subarray(dropped, bytes.length - heldBack).toString('utf8'), dropped, heldBack };
}

/** A finished stream's text (its front possibly cut). */
export const utf8Text = (bytes: Buffer, cutFront: boolean): string => utf8Window(bytes, cutFront, true).text;
