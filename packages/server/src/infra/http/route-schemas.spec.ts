import { describe, expect, it } from 'vitest';
import { routeSchemaProblems } from './route-schemas.js';

describe('routeSchemaProblems', () => {
  it('asks for a params schema per :param and a body schema for methods with a body', () => {
    expect(routeSchemaProblems({ method: 'POST', url: '/thing/:id' })).toEqual(['no params schema for :id', 'no body schema']);
    expect(routeSchemaProblems({ method: 'GET', url: '/thing' })).toEqual([]);
  });

  it('asks for every string and array of a request schema to be bounded', () => {
    const schema = {
      params: { type: 'object', properties: { id: { type: 'string', maxLength: 10 } } },
      body: { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string', maxLength: 5 } }, kind: { type: 'string', enum: ['a'] } } },
    };
    expect(routeSchemaProblems({ method: 'PATCH', url: '/thing/:id', schema })).toEqual([
      'body.name: string without maxLength',
      'body.tags: array without maxItems',
    ]);
  });

  it('lets a route that parses its own input say so', () => {
    expect(routeSchemaProblems({ method: 'PUT', url: '/raw/*', config: { ownInput: 'binary upload' } })).toEqual([]);
    expect(routeSchemaProblems({ method: 'PUT', url: '/raw/*' })).toHaveLength(2);
  });
});
