import { z } from 'zod';
import { environmentSchema } from '../../contracts/environment.js';
import { instanceSchema } from '../../contracts/instance.js';

/**
 * JSON Schemas of the instance and environment files, generated from the zod
 * schemas so editors validate exactly what tracegate accepts.
 * Committed as instances/*.schema.json; a test keeps them fresh.
 */
export function instanceJsonSchema(): unknown {
  return { ...z.toJSONSchema(instanceSchema, { io: 'input' }), title: 'tracegate instance' };
}

export function environmentJsonSchema(): unknown {
  return {
    ...z.toJSONSchema(environmentSchema, { io: 'input' }),
    title: 'tracegate environment recipe',
  };
}
