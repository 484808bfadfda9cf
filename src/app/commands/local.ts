import type { CommitGraph } from '../../adapters/history/baseline.js';
import { gitCommitGraph } from '../../adapters/history/commit-graph.js';

/** The commit graph of the CLI: git in the working directory (the Action's is the GitHub API). */
export const localCommitGraph = (): CommitGraph => gitCommitGraph(process.cwd());
