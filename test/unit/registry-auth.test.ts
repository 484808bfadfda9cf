import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryAuth } from '../../src/adapters/backends/docker/registry-auth.js';
import { splitName } from '../../src/adapters/backends/docker/container-client.js';
import { tempDir } from '../helpers/cli.js';

describe('registry credentials, where the Docker CLI keeps them', () => {
  const config = (auths: unknown) => {
    const dir = tempDir('tg-docker-config-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths }));
    return dir;
  };

  it("reads the registry's auths entry (docker login's base64 user:password)", () => {
    const dir = config({
      'ghcr.io': { auth: Buffer.from('octocat:pa:ss').toString('base64') },
      'other.io': { auth: Buffer.from('x:y').toString('base64') },
    });
    expect(registryAuth('ghcr.io/acme/tracegate-env', { DOCKER_CONFIG: dir })).toEqual({
      username: 'octocat',
      password: 'pa:ss',
      serveraddress: 'ghcr.io',
    });
    // A host with a port, under its https:// key.
    const ported = config({
      'https://127.0.0.1:5000': { username: 'u', password: 'p' },
    });
    expect(registryAuth('127.0.0.1:5000/env', { DOCKER_CONFIG: ported })).toEqual({
      username: 'u',
      password: 'p',
      serveraddress: '127.0.0.1:5000',
    });
  });

  it('falls back to TRACEGATE_REGISTRY_USERNAME/PASSWORD, else asks anonymously', () => {
    const empty = config({});
    expect(
      registryAuth('ghcr.io/acme/env', {
        DOCKER_CONFIG: empty,
        TRACEGATE_REGISTRY_USERNAME: 'bot',
        TRACEGATE_REGISTRY_PASSWORD: 'token',
      }),
    ).toEqual({ username: 'bot', password: 'token', serveraddress: 'ghcr.io' });
    expect(registryAuth('ghcr.io/acme/env', { DOCKER_CONFIG: empty })).toBeUndefined();
    const broken = tempDir('tg-docker-config-');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'config.json'), '{not json');
    expect(registryAuth('ghcr.io/acme/env', { DOCKER_CONFIG: broken })).toBeUndefined();
  });

  it("takes credentials passed as a value (the Action's token) after Docker's own, before the environment's", () => {
    const given = { username: 'actor', password: 'gh-token' };
    expect(registryAuth('ghcr.io/acme/env', { DOCKER_CONFIG: config({}) }, given)).toEqual({
      ...given,
      serveraddress: 'ghcr.io',
    });
    const stored = config({ 'ghcr.io': { username: 'u', password: 'p' } });
    expect(registryAuth('ghcr.io/acme/env', { DOCKER_CONFIG: stored }, given)).toEqual({
      username: 'u',
      password: 'p',
      serveraddress: 'ghcr.io',
    });
    expect(
      registryAuth(
        'ghcr.io/acme/env',
        {
          DOCKER_CONFIG: config({}),
          TRACEGATE_REGISTRY_USERNAME: 'bot',
          TRACEGATE_REGISTRY_PASSWORD: 't',
        },
        given,
      ),
    ).toEqual({ ...given, serveraddress: 'ghcr.io' });
  });

  it("splits a name at the tag's colon, not a registry port's", () => {
    expect(splitName('127.0.0.1:5000/tracegate-env:abc-123')).toEqual({
      repo: '127.0.0.1:5000/tracegate-env',
      tag: 'abc-123',
    });
    expect(splitName('127.0.0.1:5000/tracegate-env')).toEqual({
      repo: '127.0.0.1:5000/tracegate-env',
      tag: 'latest',
    });
    expect(splitName('tracegate-env:0123')).toEqual({ repo: 'tracegate-env', tag: '0123' });
  });
});
