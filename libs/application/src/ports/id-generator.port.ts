import { randomUUID } from 'node:crypto';

export interface IdGenerator {
  /** A fresh UUIDv4. */
  next(): string;
}

export const randomIds: IdGenerator = { next: () => randomUUID() };
