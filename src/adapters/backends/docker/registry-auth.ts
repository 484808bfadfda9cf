// Credentials for the environment-image registry, found where the Docker CLI keeps them.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { RegistryAuth } from './container-client.js';

/**
 * The credentials for `repository`'s registry: the `auths` entry of Docker's config
 * (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`, as `docker login` and
 * docker/login-action write it), else the credentials the caller passes (the Action: github-token
 * for ghcr.io), else TRACEGATE_REGISTRY_USERNAME / TRACEGATE_REGISTRY_PASSWORD (a CLI user's).
 * None: the registry is asked anonymously.
 * Credential helpers (`credsStore`) are not run.
 */
export function registryAuth(
  repository: string,
  env: NodeJS.ProcessEnv = process.env,
  given?: { username: string; password: string },
): RegistryAuth | undefined {
  const host = repository.split('/')[0]!;
  const file = join(env.DOCKER_CONFIG ?? join(homedir(), '.docker'), 'config.json');
  let auths: Record<string, { auth?: string; username?: string; password?: string }> = {};
  try {
    const config = JSON.parse(readFileSync(file, 'utf8')) as { auths?: typeof auths };
    auths = config.auths ?? {};
  } catch {
    // no config, or not JSON: no stored credentials
  }
  const entry = auths[host] ?? auths[`https://${host}`] ?? auths[`https://${host}/v1/`];
  if (entry?.auth) {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0)
      return {
        username: decoded.slice(0, colon),
        password: decoded.slice(colon + 1),
        serveraddress: host,
      };
  }
  if (entry?.username && entry.password)
    return { username: entry.username, password: entry.password, serveraddress: host };
  if (given) return { ...given, serveraddress: host };
  const { TRACEGATE_REGISTRY_USERNAME: username, TRACEGATE_REGISTRY_PASSWORD: password } = env;
  return username && password ? { username, password, serveraddress: host } : undefined;
}
