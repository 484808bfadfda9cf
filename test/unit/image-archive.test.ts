import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkImageArchive,
  withoutBaseLayers,
} from '../../src/adapters/backends/docker/image-archive.js';
import { tempDir } from '../helpers/cli.js';

/** A ustar header block for `name` (type '0' file, '2' symlink, 'x' pax, 'L' GNU long name). */
function header(name: string, size: number, type = '0'): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.write(type, 156);
  h.write('ustar\0' + '00', 257);
  h.fill(' ', 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

type Entry = { name: string; body?: string | Buffer; type?: string };

function tar(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  for (const { name, body = '', type = '0' } of entries) {
    const bytes = Buffer.from(body);
    parts.push(header(name, bytes.length, type), bytes);
    const pad = (512 - (bytes.length % 512)) % 512;
    parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

const pax = (path: string): Entry => {
  const record = (n: number) => `${n} path=${path}\n`;
  let n = record(0).length;
  while (record(n).length !== n) n = record(n).length;
  return { name: 'PaxHeaders/x', type: 'x', body: record(n) };
};

const TAG = 'tracegate-env:0123456789abcdef';
const manifest = (tags: string[], layers = ['a/layer.tar', 'b/layer.tar', 'c/layer.tar']) =>
  JSON.stringify([{ Config: 'config.json', RepoTags: tags, Layers: layers }]);
const config = JSON.stringify({ rootfs: { diff_ids: ['sha256:a', 'sha256:b', 'sha256:c'] } });

describe('image archives: what loading one would tag, checked before it is loaded', () => {
  const dir = tempDir('tg-image-archive-');
  const file = (entries: Entry[], name = 'image.tar') => {
    const path = join(dir, name);
    writeFileSync(path, tar(entries));
    return path;
  };
  const layers: Entry[] = [
    { name: 'a/layer.tar', body: 'A'.repeat(700) },
    { name: 'b/layer.tar', body: 'B'.repeat(10) },
    { name: 'c/layer.tar', body: 'C'.repeat(1500) },
    { name: 'config.json', body: config },
  ];

  it('accepts an archive that tags exactly the expected image', () => {
    const repositories = JSON.stringify({ 'tracegate-env': { '0123456789abcdef': 'x' } });
    const path = file([
      ...layers,
      { name: 'manifest.json', body: manifest([TAG]) },
      { name: 'repositories', body: repositories },
    ]);
    expect(() => checkImageArchive(path, TAG)).not.toThrow();
  });

  it.each<[string, Entry[], RegExp]>([
    [
      'another tag',
      [{ name: 'manifest.json', body: manifest(['python:3.11-slim']) }],
      /tags \["python:3.11-slim"\]/,
    ],
    [
      'a second tag',
      [{ name: 'manifest.json', body: manifest([TAG, 'tracegate/base:bookworm']) }],
      /tags/,
    ],
    [
      'two images',
      [
        {
          name: 'manifest.json',
          body: JSON.stringify([...JSON.parse(manifest([TAG])), ...JSON.parse(manifest([TAG]))]),
        },
      ],
      /exactly one image/,
    ],
    ['no manifest', [], /no manifest\.json/],
    [
      'a manifest twice (the later one wins on extraction)',
      [
        { name: 'manifest.json', body: manifest([TAG]) },
        { name: './manifest.json', body: manifest(['python:3.11-slim']) },
      ],
      /appears twice/,
    ],
    [
      'a manifest named through a pax header',
      [
        { name: 'manifest.json', body: manifest([TAG]) },
        pax('manifest.json'),
        { name: 'innocent.json', body: manifest(['python:3.11-slim']) },
      ],
      /appears twice/,
    ],
    ['a manifest that is a link', [{ name: 'manifest.json', type: '2' }], /not a regular file/],
    [
      'a repositories file with another tag',
      [
        { name: 'manifest.json', body: manifest([TAG]) },
        { name: 'repositories', body: JSON.stringify({ python: { '3.11-slim': 'x' } }) },
      ],
      /repositories file tags python:3.11-slim/,
    ],
    [
      'an OCI index naming another image',
      [
        { name: 'manifest.json', body: manifest([TAG]) },
        {
          name: 'index.json',
          body: JSON.stringify({
            manifests: [
              { annotations: { 'io.containerd.image.name': 'docker.io/library/python:3.11-slim' } },
            ],
          }),
        },
      ],
      /index\.json names/,
    ],
    ['not JSON', [{ name: 'manifest.json', body: '[{' }], /not JSON/],
  ])('refuses %s', (_, entries, says) => {
    const path = file([...layers, ...entries]);
    expect(() => checkImageArchive(path, TAG)).toThrow(says);
  });

  it('refuses a truncated archive', () => {
    const whole = tar([...layers, { name: 'manifest.json', body: manifest([TAG]) }]);
    const path = join(dir, 'short.tar');
    writeFileSync(path, whole.subarray(0, 1024 + 512));
    expect(() => checkImageArchive(path, TAG)).toThrow(/truncated|manifest/);
  });

  it("leaves out the base's layer files, keeps the image's own, and the result is a valid tar", () => {
    const from = file([...layers, { name: 'manifest.json', body: manifest([TAG]) }], 'whole.tar');
    const to = join(dir, 'own.tar');
    expect(withoutBaseLayers(from, to, ['sha256:a', 'sha256:b'])).toBe(2);
    const listed = execFileSync('tar', ['-tf', to], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual(['c/layer.tar', 'config.json', 'manifest.json']);
    expect(execFileSync('tar', ['-xOf', to, 'c/layer.tar'], { encoding: 'utf8' })).toBe(
      'C'.repeat(1500),
    );
    expect(() => checkImageArchive(to, TAG)).not.toThrow();
    expect(readFileSync(to).length).toBeLessThan(readFileSync(from).length);
  });

  it('keeps every layer when the image is not on that base', () => {
    const from = file([...layers, { name: 'manifest.json', body: manifest([TAG]) }], 'whole.tar');
    const to = join(dir, 'own.tar');
    expect(withoutBaseLayers(from, to, ['sha256:a', 'sha256:other'])).toBe(0);
    expect(readFileSync(to)).toEqual(readFileSync(from));
  });
});
