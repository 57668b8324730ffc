import bcrypt from 'bcryptjs';
import { systemClock, type Clock } from './clock.ts';
import { config, type Config } from './config.ts';
import { createDocumentClient } from './store/client.ts';
import { createDatabase, type Database } from './store/database.ts';

/** Password and key hashing, behind an interface so that the bench can count verifications. */
export interface Hasher {
  hash(plain: string): Promise<string>;
  compare(plain: string, hash: string): Promise<boolean>;
}

/** The spec's cost factor for key hashes. */
export const bcryptCost = 10;

export const bcryptHasher: Hasher = {
  hash: (plain) => bcrypt.hash(plain, bcryptCost),
  compare: (plain, hash) => bcrypt.compare(plain, hash),
};

/** What domain code needs from the outside world; handed in, never imported. */
export interface Deps {
  db: Database;
  clock: Clock;
  hasher: Hasher;
}

export function createDeps(cfg: Config = config()): Deps {
  return {
    db: createDatabase(createDocumentClient(cfg), cfg.TABLE_NAME),
    clock: systemClock,
    hasher: bcryptHasher,
  };
}
