import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { array, int, object, sha256, str } from './answer-schema-parts';

/** The answers of the audit log's proof operations (operations/proofs.operations.ts), beside answer-schemas.ts. */

const hash = (description: string) => sha256(description);
const checkpoint = object({
  origin: str('The log\'s origin line.'),
  size: int('Leaves the checkpoint covers.'),
  root_hash: hash('The Merkle root at that size (hex).'),
  signed_note: str('The C2SP signed note: origin, size, base64 root, a blank line, the signature line.'),
  global_position: int('Where the checkpoint itself was recorded in the log.'),
});

type ProofOperation = 'palimpsest_prove_event' | 'palimpsest_prove_consistency';

export const PROOF_ANSWERS: { [N in ProofOperation & OperationName]: JsonSchema } = {
  palimpsest_prove_event: object({
    status: { const: 'ok' },
    global_position: int(),
    leaf_index: int('The event\'s index among the leaves (0-based).'),
    tree_size: int(),
    leaf_hash: hash('SHA-256(0x00 ‖ leaf data), hex.'),
    audit_path: array(hash('A sibling, leaf side first.'), 'At most ⌈log2 tree_size⌉ hashes.'),
    checkpoint,
  }),
  palimpsest_prove_consistency: object({
    status: { const: 'ok' },
    first: checkpoint,
    second: checkpoint,
    proof_hashes: array(hash('A subtree root.')),
  }),
};
