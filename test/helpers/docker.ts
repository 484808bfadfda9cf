import Docker from 'dockerode';

/**
 * The Docker engine the integration tests run against. They require one:
 * an absent engine fails them loudly instead of skipping (.ci/run starts it).
 */
export async function requireDocker(): Promise<Docker> {
  const docker = new Docker();
  try {
    await docker.ping();
  } catch (error) {
    throw new Error(
      `These tests need a running Docker engine (${(error as Error).message}). ` +
        'Run scripts/ensure-docker.sh (or .ci/run) first.',
      { cause: error },
    );
  }
  return docker;
}

/** Containers started by tracegate harvest jobs between two instants (engine events). */
export async function harvestContainerStarts(
  docker: Docker,
  sinceSec: number,
  untilSec: number,
): Promise<number> {
  const stream = (await docker.getEvents({
    since: sinceSec,
    until: untilSec,
    filters: { type: ['container'], event: ['start'], label: ['tracegate.job'] },
  })) as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim()).length;
}
