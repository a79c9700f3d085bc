/**
 * The contract's routing answers the operation with its path parameters, decoded as Express
 * decodes `req.params` (the server calls the operation's route with them, not Express's router).
 */
import { describe, expect, it } from 'vitest';
import { matchRoute } from './contract-routes.ts';

describe('matchRoute', () => {
  it('answers a literal path with no parameters, a literal path winning over a template', () => {
    expect(matchRoute('GET', '/web/jobs')).toMatchObject({ kind: 'operation', operation: { operationId: 'listJobs' }, params: {} });
  });

  it('answers a templated path with its parameters percent-decoded', () => {
    expect(matchRoute('GET', '/web/jobs/job%20one%2Fx')).toMatchObject({ kind: 'operation', operation: { operationId: 'getJob' }, params: { job_id: 'job one/x' } });
    expect(matchRoute('delete', '/web/monitors/mon_1')).toMatchObject({ kind: 'operation', operation: { operationId: 'deleteMonitor' }, params: { monitor_id: 'mon_1' } });
  });

  it('answers null parameters for malformed percent-encoding, which the validator refuses', () => {
    for (const path of ['/web/jobs/%FF', '/web/monitors/%']) expect(matchRoute('GET', path)).toMatchObject({ kind: 'operation', params: null });
  });

  it('answers the allowed methods for a wrong one and nothing for an unknown path', () => {
    expect(matchRoute('PUT', '/web/monitors/mon_1')).toEqual({ kind: 'wrong-method', allow: ['GET', 'DELETE', 'PATCH'] });
    expect(matchRoute('GET', '/web/jobs/a/b')).toEqual({ kind: 'unknown-path' });
  });
});
