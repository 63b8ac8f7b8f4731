import { HISTORY_ANSWERS } from './history-answers';
import { AUDIT_ANSWERS } from './operations/audit.operations';
import { COMMAND_ANSWERS } from './operations/commands.operations';
import { FILE_READ_ANSWERS } from './operations/file-reads.operations';
import { UNDO_ANSWERS } from './operations/undo.operations';
import { PROOF_ANSWERS } from './proof-answers';
import { SNAPSHOT_ANSWERS } from './snapshot-answers';
import { CODE_GRAPH_ANSWERS } from './code-graph-answers';

/** The answers of the operation groups declared beside their operations, in one map for ANSWER_SCHEMAS. */
export const GROUP_ANSWERS = {
  ...FILE_READ_ANSWERS,
  ...COMMAND_ANSWERS,
  ...HISTORY_ANSWERS,
  ...UNDO_ANSWERS,
  ...AUDIT_ANSWERS,
  ...PROOF_ANSWERS,
  ...SNAPSHOT_ANSWERS,
  ...CODE_GRAPH_ANSWERS,
};
