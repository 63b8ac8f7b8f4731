/** Why an event or a bundle fails verification: the same words whichever verifier (a document, or lines by slices) finds it. */

export const ALTERED_LINK = 'its content or place does not match its chain link: the event, or its order in the stream, was altered';

export const WRITTEN_BESIDE_LOG = 'not in the Merkle log though later events are: written beside the log (in SQL), not through it';

export const LOWERCASE_HASH = /^[0-9a-f]{64}$/;

export function versionGap(version: number, expected: number): string {
  return version === expected - 1 ? `a second event at version ${version}: one was inserted` : `version ${expected} of the stream is missing before it: an event was deleted`;
}

export function outOfPlace(expected: number, leafIndex: number): string {
  return `signed at leaf ${leafIndex}, in the place of leaf ${expected}: the lines were reordered, or the event of leaf ${expected} deleted`;
}

export const notSignedAtLeaf = (leafIndex: number) => `not the event signed at leaf ${leafIndex}: altered, moved or inserted after it was signed`;

export const noInclusionProof = (size: number) => `no inclusion proof in the checkpoint of size ${size}`;

export const notInSignedLog = (leafIndex: number, size: number) => `not in the signed log at leaf ${leafIndex} (checkpoint of size ${size}): altered, moved or inserted after it was signed`;

export const leafWithoutEvent = (leaf: number, size: number) => `leaf ${leaf} of the ${size} the latest checkpoint signed has no event: deleted, or the log truncated`;
