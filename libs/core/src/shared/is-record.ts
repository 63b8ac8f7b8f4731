/** A plain JSON object (not null, not an array): the transaction parser's check, under the name the answers use. */
export { isPlainObject as isRecord } from '../transaction/field-checks';
