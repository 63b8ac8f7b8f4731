/** Something Palimpsest keeps on disk, by absolute path (or relative to the working directory). */
export interface KeptPath {
  path: string;
  /** For the refusal: "the embedded store's data directory". */
  what: string;
  /** Its `<name>.…` siblings too (a data directory's lock, gateway address, staging copies). */
  siblings?: boolean;
}
