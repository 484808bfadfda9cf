import { join } from 'node:path';
import { environmentJsonSchema, instanceJsonSchema } from '../../src/adapters/suite/json-schema.js';
import {
  tracerPlanJsonSchema,
  tracerResultJsonSchema,
} from '../../src/stages/harvest/protocol-schema.js';
import { bundledInstancesDir, tracerDir } from '../../src/paths.js';
import { expectFixture } from '../helpers/fixtures.js';

describe('the committed JSON Schemas of instance files', () => {
  it.each([
    ['instance.schema.json', instanceJsonSchema],
    ['environment.schema.json', environmentJsonSchema],
  ])('%s is generated from the zod schema', (name, generate) => {
    const file = join(bundledInstancesDir(), name);
    const text = JSON.stringify(generate(), null, 2) + '\n';
    expectFixture(file, text);
  });

  it('describes the fields editors need', () => {
    const schema = instanceJsonSchema() as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(schema.required).toEqual(
      expect.arrayContaining(['id', 'kind', 'environment', 'tests', 'target', 'query']),
    );
    // Written by the tracer unless the instance brings its own parser.
    expect(schema.required).not.toContain('question');
    expect(schema.properties).toHaveProperty('parser');
    expect(schema.properties.kind).toMatchObject({
      enum: expect.arrayContaining(['S1_IntraProceduralCFG', 'M7_Invariants']),
    });
  });
});

describe('the committed JSON Schemas of the tracer protocol', () => {
  it.each([
    ['plan.schema.json', tracerPlanJsonSchema],
    ['result.schema.json', tracerResultJsonSchema],
  ])('tracer/protocol/%s is generated from the zod schema', (name, generate) => {
    const file = join(tracerDir(), 'protocol', name);
    const text = JSON.stringify(generate(), null, 2) + '\n';
    expectFixture(file, text);
  });

  it('is strict: every object says which keys it has', () => {
    const schema = tracerResultJsonSchema() as {
      additionalProperties: unknown;
      properties: Record<string, { additionalProperties?: unknown }>;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.context?.additionalProperties).toBe(false);
    expect(schema.properties.stats?.additionalProperties).toBe(false);
    const plan = tracerPlanJsonSchema() as { additionalProperties: unknown };
    expect(plan.additionalProperties).toBe(false);
  });
});
