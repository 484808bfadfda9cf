import type { Results } from '../../contracts/results.js';

const each = (total: number, items: number) => (items ? (total / items).toFixed(1) : '0');

/**
 * `context: repo`: what reading cost, per kind — requests, tool calls and tokens per item — and
 * the calls refused (a path outside the tree). Collapsed: it explains the cost, the gate does
 * not use it.
 */
export function toolsSection(results: Results): string[] {
  const tools = results.query?.tools;
  if (!tools) return [];
  const rows = Object.entries(tools.byKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([kind, k]) =>
        `| ${kind} | ${k.items} | ${each(k.turns, k.items)} | ${each(k.calls, k.items)} | ` +
        `${Math.round(k.tokensIn / k.items)} | ${Math.round(k.tokensOut / k.items)} |`,
    );
  const items = Object.values(tools.byKind).reduce((n, k) => n + k.items, 0);
  return [
    '',
    `<details><summary>Repository tools: ${tools.calls} call(s) over ${tools.turns} request(s) ` +
      `for ${items} item(s)${tools.refused ? `, ${tools.refused} refused` : ''}</summary>`,
    '',
    '| kind | items | requests / item | tool calls / item | tokens in / item | tokens out / item |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    '</details>',
  ];
}
