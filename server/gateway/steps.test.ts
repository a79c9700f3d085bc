/**
 * The gateway's steps run as plain calls in one middleware: in order, sync or async, a step that
 * answers ends the call, a thrown error reaches Express's error handlers, and the route runs last.
 */
import express, { type ErrorRequestHandler } from 'express';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { gateway, type GatewayStep } from './steps.ts';

async function answerOf(steps: GatewayStep[]): Promise<{ status: number; text: string }> {
  const app = express();
  app.use(gateway(steps, (_req, res) => void res.send(`route after ${String(res.locals.seen)}`)));
  app.use(((error: Error, _req, res, _next) => void res.status(500).send(`error ${error.message}`)) as ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: answer.status, text: await answer.text() };
  } finally {
    server.close();
  }
}

const note = (name: string): GatewayStep => (_req, res) => {
  res.locals.seen = `${res.locals.seen ?? ''}${name}`;
};

describe('gateway', () => {
  it('runs sync and async steps in order, then the route', async () => {
    const later: GatewayStep = async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      note('b')(req, res);
    };
    expect(await answerOf([note('a'), later, note('c')])).toEqual({ status: 200, text: 'route after abc' });
  });

  it('ends the call at a step that answered it', async () => {
    const answers: GatewayStep = (_req, res) => {
      res.send('answered by the step');
      return 'answered';
    };
    expect(await answerOf([note('a'), answers, note('never')])).toEqual({ status: 200, text: 'answered by the step' });
  });

  it('hands an error thrown by a step, sync or async, to the error handlers', async () => {
    const throws: GatewayStep = () => {
      throw new Error('sync');
    };
    const rejects: GatewayStep = async () => {
      throw new Error('async');
    };
    expect(await answerOf([note('a'), throws, note('never')])).toEqual({ status: 500, text: 'error sync' });
    expect(await answerOf([rejects])).toEqual({ status: 500, text: 'error async' });
  });
});
