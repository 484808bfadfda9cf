import { FORMAT_ERRORS, type InstanceRecord, type QuerySummary } from '../../contracts/results.js';
import { round } from '../score/aggregate.js';
import type { ClientIdentity } from '../../contracts/model.js';

/** Totals of the query stage over the records that reached the model. */
export function summarizeQuery(
  records: readonly InstanceRecord[],
  identity: ClientIdentity,
  samples: number,
): QuerySummary {
  const answered = records.filter((r) => r.scored);
  const sum = (f: (r: InstanceRecord) => number) => answered.reduce((n, r) => n + f(r), 0);
  const parseFailures: Record<string, number> = {};
  for (const r of answered)
    if (r.error && FORMAT_ERRORS.has(r.error))
      parseFailures[r.error] = (parseFailures[r.error] ?? 0) + 1;
  const latencyMs = sum((r) => r.latencyMs);
  return {
    api: identity.api,
    samples,
    settings: { ...identity.settings },
    answered: answered.length,
    cacheHits: answered.filter((r) => r.cached).length,
    tokensIn: sum((r) => r.tokensIn),
    tokensOut: sum((r) => r.tokensOut),
    retries: sum((r) => r.retries),
    latencyMs,
    meanLatencyMs: answered.length ? Math.round(latencyMs / answered.length) : 0,
    parseFailures,
    ...(samples > 1 && answered.length
      ? { passAtK: round(answered.filter((r) => r.passAtK).length / answered.length) }
      : {}),
    ...toolCost(answered),
  };
}

/** `context: repo`: what reading cost, in all and per kind, over the records with a transcript. */
function toolCost(records: readonly InstanceRecord[]): Pick<QuerySummary, 'tools'> {
  const read = records.filter((r) => r.transcript);
  if (!read.length) return {};
  const tools: NonNullable<QuerySummary['tools']> = { turns: 0, calls: 0, refused: 0, byKind: {} };
  for (const r of read) {
    const t = r.transcript!;
    tools.turns += t.turns.length;
    tools.calls += t.toolCalls;
    tools.refused += t.refused;
    const kind = (tools.byKind[r.kind] ??= {
      items: 0,
      turns: 0,
      calls: 0,
      tokensIn: 0,
      tokensOut: 0,
    });
    kind.items++;
    kind.turns += t.turns.length;
    kind.calls += t.toolCalls;
    kind.tokensIn += r.tokensIn;
    kind.tokensOut += r.tokensOut;
  }
  return { tools };
}
