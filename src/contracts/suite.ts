import type { Environment } from './environment.js';
import type { Instance } from './instance.js';

/** The data a loaded suite is made of (src/adapters/suite/ loads it; every stage reads it). */

/** One candidate of a variant search: edits of one test file (spans as Python's `ast` gives them). */
export interface VariantEdit {
  file: string;
  /** [line, col (UTF-8 bytes), end line, end col, replacement text], sorted, none overlapping. */
  edits: [number, number, number, number, string][];
}

/** An instance as loaded from a suite: validated, with its environment and content hash. */
export interface LoadedInstance {
  instance: Instance;
  /**
   * Real path of the directory holding instance.json and its test files: the directory the
   * harvest shows the run (for a SWE-Flux instance, its harness view: the QA directory
   * without the published oracles).
   */
  dir: string;
  /** The instance file, relative to the suite root (check-run annotations point at it). */
  file: string;
  /** sha256 over every file of the instance directory (paths + bytes). */
  contentHash: string;
  environment: Environment;
  /** The environments/ folder of the recipe, relative to the suite root (wheel paths start there). */
  environmentDir: string;
  /**
   * Set on a fresh variant (stages/variants): its epoch, the instance it changes, and either the
   * search over the epoch's pool of edits or the one candidate of the pool it is (its index in the
   * pool and its edit, as the search answered them).
   */
  variant?: {
    epoch: number;
    of: string;
    search?: true;
    candidate?: number;
    edit?: VariantEdit;
    /**
     * The answer the search's run gave this candidate: the candidate is harvested once, alone, in
     * a fresh process, and that harvest must agree with this one (stages/harvest/settle.ts).
     */
    searched?: { answer: unknown };
  };
  /** Set on an instance of a SWE-Flux run (suite/swe-flux.ts): it runs by its own harness. */
  sweFlux?: SweFluxHarness;
}

/** A suite file that could not be used, and why (the message names the file and the field). */
export interface RejectedFile {
  file: string;
  /** The instance id, when the file got far enough to say it. */
  id?: string;
  reason: string;
}

/**
 * A loaded suite: its reader (the one way to its files), its instances
 * sorted by id, and the files rejected. One bad instance never costs the
 * others: it is rejected, said, and listed in the results.
 */
export interface Suite {
  reader: SuiteReader;
  instances: LoadedInstance[];
  rejected: RejectedFile[];
}

/** What the harvest needs to run one SWE-Flux instance, and the oracle it must reproduce. */
export interface SweFluxHarness {
  /** The QA directory's name inside the image (`click_qa`): TEST_ID's first component. */
  qa: string;
  instance: string;
  /** The published `oracle_answer`. */
  published: unknown;
  /** The SWE-Flux image this run names (mapped to a local image by `swe-flux-images`). */
  image: string;
}

export interface SuiteEntry {
  name: string;
  kind: 'file' | 'dir';
}

/**
 * The one way the host reads an instance suite. A suite is code from outside:
 * every path is resolved to its real path and must stay inside the suite's
 * root (no symlink or `..` leaves it), only regular files are read (no
 * device, fifo or socket; a directory is not a file), and each read is bounded.
 */
export interface SuiteReader {
  /** Real path of the suite's root directory. */
  readonly root: string;
  /** Real path of `rel`, checked to be inside the root. */
  resolve(rel: string): string;
  /** Names in a directory, sorted (not yet checked: see `kind`). */
  names(rel: string): string[];
  /** A file or a directory, checked by the rules (else SuiteFileError naming it). */
  kind(rel: string): 'file' | 'dir';
  /** Entries of a directory; symlinks are followed only when they stay inside. */
  list(rel: string): SuiteEntry[];
  read(rel: string, maxBytes?: number): Buffer;
}
