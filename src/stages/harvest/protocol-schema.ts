import { z } from 'zod';
import { tracerPlanSchema, tracerResultSchema } from '../../contracts/tracer-protocol.js';

/**
 * JSON Schemas of the host–tracer protocol, generated from its zod schemas
 * (contracts/tracer-protocol.ts) and committed as tracer/protocol/*.schema.json:
 * the tracer's tests validate the plans they send and the result lines the
 * driver writes against them. A test keeps them fresh.
 */
export function tracerPlanJsonSchema(): unknown {
  return { ...z.toJSONSchema(tracerPlanSchema, { io: 'input' }), title: 'tracegate tracer plan' };
}

export function tracerResultJsonSchema(): unknown {
  return {
    ...z.toJSONSchema(tracerResultSchema, { io: 'input' }),
    title: 'tracegate tracer result line',
  };
}
