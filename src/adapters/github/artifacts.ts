import { ArtifactNotFoundError, DefaultArtifactClient } from '@actions/artifact';
import type { RepoRef } from './reporter.js';

/**
 * Workflow-run artifacts: how a fork PR's results travel from its read-only
 * run to a `workflow_run` workflow that may post (mode: report).
 */
export interface RunArtifacts {
  /** Uploads `files` (paths under `root`) as artifact `name` of this run; its id. */
  upload(name: string, root: string, files: string[], retentionDays?: number): Promise<number>;
  /** Downloads artifact `name` of workflow run `runId` into `into`; false when the run has none. */
  download(name: string, runId: number, into: string): Promise<boolean>;
  /** The names of workflow run `runId`'s artifacts that start with `prefix`, sorted. */
  list(runId: number, prefix: string): Promise<string[]>;
}

/** The toolkit's artifact client: the runner's results service to upload, the REST API to download. */
export class ActionsArtifacts implements RunArtifacts {
  private readonly client = new DefaultArtifactClient();

  constructor(
    private readonly repo: RepoRef,
    private readonly token: string,
  ) {}

  async upload(
    name: string,
    root: string,
    files: string[],
    retentionDays?: number,
  ): Promise<number> {
    const { id } = await this.client.uploadArtifact(name, files, root, {
      ...(retentionDays ? { retentionDays } : {}),
    });
    if (id === undefined) throw new Error(`the artifact service gave artifact ${name} no id`);
    return id;
  }

  private findBy(runId: number) {
    return {
      token: this.token,
      workflowRunId: runId,
      repositoryOwner: this.repo.owner,
      repositoryName: this.repo.repo,
    };
  }

  async list(runId: number, prefix: string): Promise<string[]> {
    const { artifacts } = await this.client.listArtifacts({
      findBy: this.findBy(runId),
      latest: true,
    });
    return artifacts
      .map((a) => a.name)
      .filter((n) => n.startsWith(prefix))
      .sort();
  }

  async download(name: string, runId: number, into: string): Promise<boolean> {
    const findBy = this.findBy(runId);
    let id: number;
    try {
      id = (await this.client.getArtifact(name, { findBy })).artifact.id;
    } catch (error) {
      if (error instanceof ArtifactNotFoundError) return false;
      throw error;
    }
    await this.client.downloadArtifact(id, { path: into, findBy });
    return true;
  }
}
