import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './cli.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist', 'index.js');

/**
 * The defaults action.yml declares, as the runner passes them (INPUT_NAME for
 * every input with a default); expressions like `${{ github.token }}` are left out.
 */
export function actionDefaults(): Record<string, string> {
  const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const inputs = text.slice(text.indexOf('\ninputs:'), text.indexOf('\noutputs:'));
  const defaults: Record<string, string> = {};
  for (const block of inputs.split(/\n(?= {2}[a-z][\w-]*:\n)/)) {
    const name = /^ {2}([a-z][\w-]*):/m.exec(block)?.[1];
    const value = /^ {4}default: (.*)$/m
      .exec(block)?.[1]
      ?.trim()
      .replace(/^'(.*)'$/, '$1');
    if (name && value !== undefined && !value.includes('${{')) defaults[name] = value;
  }
  return defaults;
}

export interface ActionRun {
  code: number;
  /** stdout and stderr: the workflow commands (::error::, ::notice::) and logs. */
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Starts the bundled Action (dist/index.js) the way the runner does: INPUT_*
 * variables, an event file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files.
 */
export function runAction(
  inputs: Record<string, string>,
  env: Record<string, string>,
  event?: unknown,
): Promise<ActionRun> {
  const dir = tempDir('tg-action-');
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const eventEnv: Record<string, string> = {};
  if (event !== undefined) {
    eventEnv.GITHUB_EVENT_PATH = join(dir, 'event.json');
    writeFileSync(eventEnv.GITHUB_EVENT_PATH, JSON.stringify(event));
  }
  const inputEnv = Object.fromEntries(
    Object.entries({ ...actionDefaults(), ...inputs }).map(([k, v]) => [
      `INPUT_${k.toUpperCase()}`,
      v,
    ]),
  );
  const child = spawn(process.execPath, [DIST], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: dir,
      ...inputEnv,
      ...eventEnv,
      ...env,
    },
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const outputs: Record<string, string> = {};
      // GITHUB_OUTPUT uses the heredoc form: name<<delimiter \n value \n delimiter
      const text = readFileSync(outputFile, 'utf8');
      for (const m of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]!] = m[3]!;
      resolve({ code: code ?? -1, stdout, outputs, summary: readFileSync(summaryFile, 'utf8') });
    });
  });
}
