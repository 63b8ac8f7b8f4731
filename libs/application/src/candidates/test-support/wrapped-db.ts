import type { Db } from '@palimpsest/store/db';

/** The same Db with its transactions replaced: how the specs inject a failure or an edit at one point of a transaction. */
export function withTransactions(db: Db, transaction: Db['transaction']): Db {
  return {
    kind: db.kind,
    query: (text, params) => db.query(text, params),
    exec: (script) => db.exec(script),
    listen: (channel, fn, gap) => db.listen(channel, fn, gap),
    close: () => db.close(),
    session: () => db.session(),
    transaction,
  };
}
