import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import type { ContainerClient } from '../../src/adapters/backends/docker/container-client.js';
import { pingWithin } from '../../src/adapters/backends/docker/engine.js';

/**
 * The engine watch's ping is judged by time the process could listen: a reply that arrived while
 * the event loop was busy (a long synchronous step on a loaded machine) is read before the ping is
 * called unanswered. The "engine" is another process on a loopback socket, so its reply waits in
 * the poll phase as the real engine's would, behind the timer that came due during the stall.
 */
const SERVER = `
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    silent = c.recv(1) == b"S"
    while True:
        data = c.recv(64)
        if not data:
            break
        if not silent:
            c.sendall(b"OK")
`;

describe('the engine ping under a busy event loop', () => {
  let engine: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    engine = spawn('python3', ['-c', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve) =>
      engine.stdout!.once('data', (b: Buffer) => resolve(Number(b.toString().trim()))),
    );
  });
  afterAll(() => engine.kill());

  /** A client whose ping is one round trip to the engine process (`S`: an engine that never answers). */
  const clientOf = async (
    mode: 'A' | 'S',
  ): Promise<{ client: ContainerClient; socket: Socket }> => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(mode);
    const client = {
      ping: () =>
        new Promise<void>((resolve) => {
          socket.once('data', () => resolve());
          socket.write('PING');
        }),
    } as unknown as ContainerClient;
    return { client, socket };
  };
  const stall = (ms: number) => {
    for (const end = Date.now() + ms; Date.now() < end;);
  };

  it('counts a reply that waited behind a stall as an answer', async () => {
    const { client, socket } = await clientOf('A');
    try {
      const ping = pingWithin(client, 100);
      stall(400); // the reply arrives meanwhile; the 100 ms timer comes due too
      await expect(ping).resolves.toBeUndefined();
    } finally {
      socket.destroy();
    }
  });

  it('still calls a silent engine unanswered', async () => {
    const { client, socket } = await clientOf('S');
    try {
      await expect(pingWithin(client, 100)).rejects.toThrow('no answer');
    } finally {
      socket.destroy();
    }
  });
});
