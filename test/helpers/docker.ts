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
  // The CLI runs in this process: only its containers (tracegate.pid), never another run's on the
  // engine; the window in milliseconds (the engine takes `seconds.fraction`).
  const stream = (await docker.getEvents({
    since: sinceSec.toFixed(3),
    until: untilSec.toFixed(3),
    filters: {
      type: ['container'],
      event: ['start'],
      label: ['tracegate.job', `tracegate.pid=${process.pid}`],
    },
  } as unknown as Parameters<Docker['getEvents']>[0])) as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim()).length;
}
